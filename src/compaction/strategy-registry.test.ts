import { describe, expect, it } from 'vitest';
import { ITERATED_BACKTRACKING_PROMPT, SCHEMA_SYSTEM_PROMPT, SCHEMA_USER_PROMPT, XML_SYSTEM_PROMPT } from './prompts';
import { effectivePrompts, resolveParams, STRATEGIES, STRATEGY_DEFAULTS, STRATEGY_IDS } from './strategy-registry';

describe('STRATEGIES', () => {
  it('describes every strategy with one spec per parameter, defaults equal to the strategy defaults', () => {
    expect(STRATEGIES.map((s) => s.id)).toEqual([...STRATEGY_IDS]);
    for (const s of STRATEGIES) {
      const defaults: Record<string, unknown> = { ...STRATEGY_DEFAULTS[s.id] };
      expect(Object.fromEntries(s.params.map((p) => [p.name, p.default])), s.id).toEqual(defaults);
    }
  });

  it('survives structured cloning (it crosses to workers)', () => {
    expect(structuredClone(STRATEGIES)).toEqual(STRATEGIES);
  });
});

describe('resolveParams', () => {
  it('fills defaults, clamps numbers, drops unknown keys and bad values', () => {
    expect(resolveParams('drop-oldest', { tail: 3.7, head: -2, unit: 'weird', extra: 1, targetTokens: null })).toEqual({ ...STRATEGY_DEFAULTS['drop-oldest'], tail: 3, head: 0 });
    expect(resolveParams('summarize-middle', { systemPrompt: '', render: 'xml' })).toEqual({ ...STRATEGY_DEFAULTS['summarize-middle'], render: 'xml', systemPrompt: null });
    expect(resolveParams('iterated', 'nonsense')).toEqual(STRATEGY_DEFAULTS.iterated);
    expect(resolveParams('omission', { thoughts: 'yes', keepLast: 5 })).toEqual({ ...STRATEGY_DEFAULTS.omission, keepLast: 5 });
  });
});

describe('effectivePrompts', () => {
  it('shows the prompts a run sends, defaults filled in, with their placeholders', () => {
    expect(effectivePrompts('summarize-middle')).toEqual([
      { param: 'systemPrompt', label: 'System prompt', template: SCHEMA_SYSTEM_PROMPT, placeholders: [] },
      { param: 'userPrompt', label: 'User prompt', template: SCHEMA_USER_PROMPT, placeholders: ['prior_summary', 'slice'] },
    ]);
    expect(effectivePrompts('summarize-middle', { render: 'xml' })[0]!.template).toBe(XML_SYSTEM_PROMPT);
    expect(effectivePrompts('iterated').map((p) => p.param)).toEqual(['systemPrompt', 'prompt', 'blockTemplate']);
    expect(effectivePrompts('iterated')[1]!.template).toBe(ITERATED_BACKTRACKING_PROMPT);
    expect(effectivePrompts('iterated', { method: 'answer-only' }).map((p) => p.param)).toEqual(['answerTemplate', 'blockTemplate']);
    expect(effectivePrompts('drop-oldest')).toEqual([]);
  });
});
