import { describe, expect, it } from 'vitest';
import type { RerunEvent } from '../compaction';
import { asst, marker, summary, toolResult, user } from '../cache/test-builders';
import { alignContexts, fallbackNotes, listCalls, sideItem } from './compare';

describe('alignContexts', () => {
  it('lines up the head and tail and puts the recap across from what it replaced', () => {
    const rows = alignContexts(['s', 'u1', 'a1', 'u2', 'a2', 'u3'], ['s', 'u1', 'rerun.c3.summary', 'u3']);
    expect(rows).toEqual([
      { left: 0, right: 0 },
      { left: 1, right: 1 },
      { left: 2, right: null },
      { left: 3, right: null },
      { left: 4, right: null },
      { left: null, right: 2 },
      { left: 5, right: 3 },
    ]);
  });

  it('keeps every item of both sides exactly once, even out of step', () => {
    const left = ['a', 'b', 'c', 'd'];
    const right = ['c', 'a', 'x', 'd'];
    const rows = alignContexts(left, right);
    expect(rows.map((r) => r.left).filter((i) => i !== null)).toEqual([0, 1, 2, 3]);
    expect(rows.map((r) => r.right).filter((i) => i !== null)).toEqual([0, 1, 2, 3]);
    for (const r of rows) if (r.left !== null && r.right !== null) expect(left[r.left]).toBe(right[r.right]);
  });
});

describe('sideItem', () => {
  it('marks recaps, items the rerun made and items it rewrote in place', () => {
    expect(sideItem(summary('rerun.c3.summary', '## Conversation Summary\n- x'), 40, undefined)).toMatchObject({ recap: 'summary', created: true, rewritten: false, preview: '## Conversation Summary' });
    expect(sideItem(marker('rerun.c3.marker'), 6, undefined)).toMatchObject({ recap: 'marker', created: true });
    const original = toolResult('r1', 'read_file', 'host: db-prod-1', 'k1');
    expect(sideItem({ ...original, text: '[Old tool result content cleared]' }, 7, original)).toMatchObject({ recap: null, created: false, rewritten: true, name: 'read_file' });
    expect(sideItem(user('u1', 'hi'), 1, user('u1', 'hi'))).toMatchObject({ recap: null, created: false, rewritten: false });
    expect(sideItem(asst('a', `${'x'.repeat(200)}\nmore`), 1, undefined).preview).toHaveLength(120);
  });
});

describe('fallbackNotes', () => {
  const event = (callIndex: number, fallback: RerunEvent['fallback']) => ({ callIndex, fallback }) as RerunEvent;
  it('groups fallbacks by failure and reason and states each', () => {
    const t = { failure: 'timeout' as const, reason: 'no response from http://127.0.0.1:9/v1/chat/completions within 1 s (the response headers never arrived)' };
    const notes = fallbackNotes([event(3, t), event(4, null), event(6, t), event(9, { failure: 'http', reason: 'HTTP 500 from x' })]);
    expect(notes).toEqual([
      { ...t, calls: [4, 7], text: `Fell back to the marker: timeout — ${t.reason}` },
      { failure: 'http', reason: 'HTTP 500 from x', calls: [10], text: 'Fell back to the marker: http — HTTP 500 from x' },
    ]);
  });
});

describe('listCalls', () => {
  it('reads as a list and shortens long ones', () => {
    expect(listCalls([7])).toBe('7');
    expect(listCalls([7, 9])).toBe('7 and 9');
    expect(listCalls([7, 9, 12])).toBe('7, 9 and 12');
    expect(listCalls([1, 2, 3, 4, 5, 6])).toBe('1, 2, 3 and 3 more');
  });
});
