import { describe, expect, it } from 'vitest';
import { SCHEMA_USER_PROMPT, XML_SYSTEM_PROMPT } from '../compaction';
import { applyPolicy, defaultForm, defaultSweep, policyNote, parseNumberList, paramsOf, promptFields, roundNice, suggestedThresholds, sweepPlan, triggerFromForm, type RerunForm } from './form';

describe('roundNice', () => {
  it('keeps two significant digits', () => {
    expect(roundNice(1734)).toBe(1700);
    expect(roundNice(96)).toBe(96);
    expect(roundNice(123_456)).toBe(120_000);
    expect(roundNice(0.4)).toBe(1);
  });
});

const generic = { format: 'openai-chat', window: 128_000 };

describe('defaultForm', () => {
  it('takes the harness preset of the session format', () => {
    const cc = defaultForm({ format: 'claude-code', window: null });
    expect(cc.policy).toBe('claude-code');
    expect(cc.strategy).toBe('claude-code-compact');
    expect(triggerFromForm(cc.trigger)).toEqual({ kind: 'tokens', threshold: 167_000 });
    const oh = defaultForm({ format: 'openhands-sdk', window: 128_000 });
    expect([oh.strategy, triggerFromForm(oh.trigger)]).toEqual(['openhands-condenser', { kind: 'items', max: 80 }]);
    expect(triggerFromForm(defaultForm({ format: 'codex', window: 258_400 }).trigger)).toEqual({ kind: 'tokens', threshold: 232_560 });
    // A request log that recorded Anthropic's server-side compaction replays that policy.
    const server = defaultForm({ format: 'request-log', window: 200_000, serverCompaction: true });
    expect([server.policy, server.strategy, triggerFromForm(server.trigger)]).toEqual(['anthropic-server', 'server-compact', { kind: 'tokens', threshold: 150_000 }]);
  });

  it('starts the Claude Code preset from the numbers of the version that wrote the session', () => {
    const old = defaultForm({ format: 'claude-code', window: 200_000, harness: { version: '2.0.74', model: 'claude-opus-4-5-20251101', window: 200_000 } });
    expect(triggerFromForm(old.trigger)).toEqual({ kind: 'tokens', threshold: 155_000 });
    // The fields show them, so the user sees what the trigger is made of.
    expect(old.policyValues['claude-code']).toEqual({ outputReserve: 32_000, buffer: 13_000 });
    const recent = defaultForm({ format: 'claude-code', window: 200_000, harness: { version: '2.1.21', model: 'claude-opus-4-5-20251101', window: 200_000 } });
    expect(triggerFromForm(recent.trigger)).toEqual({ kind: 'tokens', threshold: 167_000 });
    // What the user typed wins over the version's numbers.
    const typed = applyPolicy(old, 'claude-code', 200_000, { outputReserve: 0, buffer: 0 });
    expect(triggerFromForm(typed.trigger)).toEqual({ kind: 'tokens', threshold: 200_000 });
  });

  it('falls back to 80 % of the context window, never a share of the peak', () => {
    const f = defaultForm(generic);
    expect([f.policy, f.strategy, triggerFromForm(f.trigger)]).toEqual([null, 'summarize-middle', { kind: 'fraction', fraction: 0.8 }]);
    expect(triggerFromForm(defaultForm({ format: 'sharegpt', window: null }).trigger)).toEqual({ kind: 'tokens', threshold: 160_000 });
  });
});

describe('applyPolicy', () => {
  it('recomputes the trigger from the preset values the user changed', () => {
    const f = applyPolicy(defaultForm(generic), 'claude-code', 1_000_000, { buffer: 50_000 });
    expect(triggerFromForm(f.trigger)).toEqual({ kind: 'tokens', threshold: 930_000 });
    expect(policyNote(f, 1_000_000)).toContain('1,000,000 window − 20,000 output reserve − 50,000 buffer');
    const edit = applyPolicy(f, 'inspect', 100_000, { compaction: 'edit' });
    expect([edit.strategy, edit.params['observation-masking'], triggerFromForm(edit.trigger)]).toEqual(['observation-masking', { keepLast: 3, placeholder: '(Tool result removed)' }, { kind: 'tokens', threshold: 90_000 }]);
  });
});

describe('triggerFromForm', () => {
  it('reads the value of the chosen kind and clamps it', () => {
    const t = { threshold: 1500, percent: 80, every: 5, max: 9 };
    expect(triggerFromForm({ kind: 'fraction', ...t })).toEqual({ kind: 'fraction', fraction: 0.8 });
    expect(triggerFromForm({ kind: 'turns', ...t })).toEqual({ kind: 'turns', every: 5 });
    expect(triggerFromForm({ kind: 'fraction', ...t, percent: 250 })).toEqual({ kind: 'fraction', fraction: 1 });
    expect(triggerFromForm({ kind: 'tokens', ...t, threshold: 0 })).toEqual({ kind: 'tokens', threshold: 1 });
    expect(triggerFromForm({ kind: 'items', ...t })).toEqual({ kind: 'items', max: 9 });
  });
});

describe('parseNumberList', () => {
  it('reads ranges and lists, drops duplicates and keeps the order', () => {
    expect(parseNumberList('1-5')).toEqual({ ok: true, values: [1, 2, 3, 4, 5] });
    expect(parseNumberList('1..3, 8 3')).toEqual({ ok: true, values: [1, 2, 3, 8] });
    expect(parseNumberList('1200, 1500;1800')).toEqual({ ok: true, values: [1200, 1500, 1800] });
  });

  it('names what is wrong', () => {
    expect(parseNumberList('')).toEqual({ ok: false, error: 'enter at least one value' });
    expect(parseNumberList('1, x')).toEqual({ ok: false, error: 'not a number: "x"' });
    expect(parseNumberList('5-1')).toEqual({ ok: false, error: 'a range must go up: "5-1"' });
    expect(parseNumberList('0, 2', { min: 1 })).toEqual({ ok: false, error: '0 is out of range (1…∞)' });
    expect(parseNumberList('1.5', { integer: true })).toEqual({ ok: false, error: 'whole numbers only: 1.5' });
    expect(parseNumberList('1-100', { maxValues: 10 })).toEqual({ ok: false, error: 'at most 10 values' });
  });
});

describe('sweepPlan', () => {
  it('crosses tail 1..5 with three token thresholds: 15 runs', () => {
    const form: RerunForm = { ...defaultForm(generic), trigger: { kind: 'tokens', threshold: 1700, percent: 80, every: 5, max: 80 } };
    const sweep = defaultSweep(form);
    expect(sweep).toEqual({ param: 'tail', values: '1-5', thresholds: '1300, 1700, 2100' });
    const plan = sweepPlan(form, sweep);
    expect(plan).toEqual({
      ok: true,
      plan: {
        grid: { tail: [1, 2, 3, 4, 5] },
        triggers: [1300, 1700, 2100].map((threshold) => ({ kind: 'tokens', threshold })),
        runs: 15,
      },
    });
  });

  it('reads thresholds in the trigger kind’s unit', () => {
    const form: RerunForm = { ...defaultForm(generic), trigger: { kind: 'fraction', threshold: 1, percent: 80, every: 1, max: 1 } };
    const plan = sweepPlan(form, { param: 'tail', values: '2', thresholds: suggestedThresholds(form.trigger).join(',') });
    expect(plan.ok && plan.plan.triggers).toEqual([0.6, 0.8, 0.9].map((fraction) => ({ kind: 'fraction', fraction })));
    expect(sweepPlan(form, { param: 'tail', values: '2', thresholds: '120' })).toEqual({ ok: false, error: 'Thresholds: 120 is out of range (1…100)' });
  });

  it('refuses a negative tail and a grid too large to run', () => {
    const form: RerunForm = { ...defaultForm(generic), trigger: { kind: 'tokens', threshold: 500, percent: 80, every: 5, max: 80 } };
    expect(sweepPlan(form, { param: 'tail', values: '-1, 2', thresholds: '500' })).toEqual({ ok: false, error: 'Tail turns: -1 is out of range (0…∞)' });
    expect(sweepPlan(form, { param: 'tail', values: '0-49', thresholds: '1-5' })).toEqual({ ok: false, error: '250 runs is too many (at most 200)' });
  });
});

describe('paramsOf', () => {
  it('fills defaults and drops values the strategy does not take', () => {
    const form: RerunForm = { ...defaultForm(generic), strategy: 'observation-masking', params: { 'observation-masking': { keepLast: 1, tail: 4 } } };
    expect(paramsOf(form)).toEqual({ keepLast: 1, placeholder: '[Old tool result content cleared]' });
  });
});

describe('promptFields', () => {
  it('shows the default prompts of the chosen rendering with their placeholders', () => {
    const form: RerunForm = { ...defaultForm(generic), params: { 'summarize-middle': { render: 'xml' } } };
    const [system, user] = promptFields(form);
    expect(system).toMatchObject({ param: 'systemPrompt', template: XML_SYSTEM_PROMPT, placeholders: [], missing: [], edited: false });
    expect(user).toMatchObject({ param: 'userPrompt', placeholders: ['prior_summary', 'slice'], missing: [], edited: false });
  });

  it('names a placeholder an edit dropped and one the strategy does not fill', () => {
    const form: RerunForm = { ...defaultForm(generic), params: { 'summarize-middle': { userPrompt: 'Summarize {slice} for {audience}' } } };
    const user = promptFields(form).find((p) => p.param === 'userPrompt')!;
    expect(user).toMatchObject({ placeholders: ['slice', 'audience'], missing: ['prior_summary'], unknown: ['audience'], edited: true });
    expect(SCHEMA_USER_PROMPT).toContain('{prior_summary}');
  });

  it('has none for strategies that never call a summarizer', () => {
    expect(promptFields({ ...defaultForm(generic), strategy: 'drop-oldest' })).toEqual([]);
  });
});
