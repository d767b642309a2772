import { describe, expect, it } from 'vitest';
import { asst, countWords, marker, summary, sys, user } from '../../cache/test-builders';
import { TRUNCATION_MARKER } from '../prompts';
import { acmeContext, fixedSummarizer } from '../test-support';
import { contextTokens } from '../measure';
import { DROP_OLDEST_DEFAULTS, dropOldest } from './drop-oldest';

const deps = { summarizer: fixedSummarizer('unused'), count: countWords, idPrefix: 'x' };

describe('dropOldest', () => {
  it('drops the whole middle and leaves one static marker after the head', async () => {
    const out = await dropOldest(acmeContext(), { ...DROP_OLDEST_DEFAULTS, head: 1, tail: 1, unit: 'user' }, deps);
    expect(out.context.map((it) => it.id)).toEqual(['i1', 'i2', 'x.marker', 'i10', 'i11.call', 'i11.out', 'i12']);
    expect(out.recap).toMatchObject({ kind: 'omission', role: 'assistant', text: TRUNCATION_MARKER, omission: { target: 'turns', refs: out.replacedIds } });
    expect(out.label).toBe('dropped');
    expect(out.summarizerCalls).toEqual([]);
    expect(deps.summarizer.requests).toHaveLength(0);
  });

  it('drops only the oldest steps needed to fit the target', async () => {
    const context = [sys('s', 'sys'), user('u1', 'first'), asst('a1', 'one two three four five'), user('u2', 'six seven eight nine ten'), asst('a2', 'x'), user('u3', 'last')];
    const params = { ...DROP_OLDEST_DEFAULTS, head: 1, tail: 1, unit: 'step' as const };
    const all = contextTokens(context, countWords);
    const markerTokens = countWords(`assistant:omission\n${TRUNCATION_MARKER}`);
    // Room for everything but a1: only a1 goes.
    const target = all - countWords('assistant:message\none two three four five') + markerTokens;
    const out = await dropOldest(context, { ...params, targetTokens: target }, deps);
    expect(out.replacedIds).toEqual(['a1']);
    expect(out.context.map((it) => it.id)).toEqual(['s', 'u1', 'x.marker', 'u2', 'a2', 'u3']);
    expect(contextTokens(out.context, countWords)).toBeLessThanOrEqual(target);
    // A target nothing fits drops the whole middle.
    expect((await dropOldest(context, { ...params, targetTokens: 1 }, deps)).replacedIds).toEqual(['a1', 'u2', 'a2']);
  });

  it('folds an earlier marker or summary into the one new marker', async () => {
    const context = [sys('s', 'sys'), user('u1', 'first'), marker('m0'), user('u2', 'two'), asst('a2', 'x'), summary('s0', '## Conversation Summary\n- **Entities:** FRE-1'), user('u3', 'three'), asst('a3', 'y')];
    const out = await dropOldest(context, { ...DROP_OLDEST_DEFAULTS, head: 1, tail: 1, unit: 'user' }, deps);
    expect(out.context.map((it) => it.id)).toEqual(['s', 'u1', 'x.marker', 'u3', 'a3']);
    expect(out.foldedIds).toEqual(['m0', 's0']);
    expect(out.replacedIds).toEqual(['u2', 'a2']);
    // The dropped summary's text is reported: a drop loses what it held.
    expect(out.priorSummary).toBe('## Conversation Summary\n- **Entities:** FRE-1');
  });

  it('uses an edited marker text', async () => {
    const out = await dropOldest(acmeContext(), { ...DROP_OLDEST_DEFAULTS, marker: '[dropped]' }, deps);
    expect(out.recap!.text).toBe('[dropped]');
  });
});
