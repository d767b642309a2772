import { describe, expect, it } from 'vitest';
import { countWords } from '../../cache/test-builders';
import { MASK_PLACEHOLDER } from '../prompts';
import { acmeContext, fixedSummarizer } from '../test-support';
import { observationMasking } from './observation-masking';

const deps = { summarizer: fixedSummarizer('unused'), count: countWords };

describe('observationMasking', () => {
  it('replaces all but the last N tool outputs in place, keeping ids, calls and pairs', async () => {
    const context = acmeContext();
    const out = await observationMasking(context, { keepLast: 1, placeholder: MASK_PLACEHOLDER }, deps);
    expect(out.replacedIds).toEqual(['i5.out', 'i8.out']);
    expect(out.context.map((it) => it.id)).toEqual(context.map((it) => it.id));
    const masked = out.context.find((it) => it.id === 'i5.out')!;
    expect(masked).toMatchObject({ kind: 'tool_result', text: MASK_PLACEHOLDER, callId: 'k1', pairId: 'i5.call', omission: { target: 'tool_result', refs: ['i5.out'], marker: MASK_PLACEHOLDER } });
    expect(out.context.find((it) => it.id === 'i11.out')).toBe(context[13]);
    expect(out.slice.map((it) => it.text)).toEqual([context[5]!.text, context[9]!.text]);
    expect(out.label).toBe('masked');
    expect(out.recap).toBeNull();
  });

  it('does not mask the same output twice', async () => {
    const once = await observationMasking(acmeContext(), { keepLast: 1, placeholder: MASK_PLACEHOLDER }, deps);
    const twice = await observationMasking(once.context, { keepLast: 1, placeholder: MASK_PLACEHOLDER }, deps);
    expect(twice.changed).toBe(false);
    expect(twice.note).toBe('nothing to mask: 3 tool outputs, the last 1 kept');
  });
});
