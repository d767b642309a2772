import { labelsOf } from './eviction-runs';
import { describe, expect, it } from 'vitest';
import { assistant, boundary, compaction, marker, response, session, summary, system, toolCall, toolResult, user } from '../test/builders';
import { sessionContexts } from './session-analysis';

const ids = (call: { entries: { item: { id: string } }[] }) => call.entries.map((e) => e.item.id);
const regions = (call: { entries: { region: string }[] }) => call.entries.map((e) => e.region);

describe('sessionContexts (replay)', () => {
  it('gives each call everything before it when nothing was compacted', () => {
    const s = session([system('s', 'sys'), user('u1', 'hi'), assistant('a1', 'hello'), user('u2', 'more'), assistant('a2', 'ok')]);
    const { calls } = sessionContexts(s);
    expect(calls.map(ids)).toEqual([
      ['s', 'u1'],
      ['s', 'u1', 'a1', 'u2'],
    ]);
    expect(regions(calls[1]!)).toEqual(['head', 'head', 'tail', 'tail']);
  });

  it('replaces the summarized slice with the summary where the slice was, keeping head and tail', () => {
    const items = [
      system('s', 'sys'),
      user('u1', 'fix the job'),
      toolCall('c1', 'k1', 'read'),
      toolResult('r1', 'k1', 'db-prod-1:5432'),
      assistant('a1', 'found it'),
      user('u2', 'and the ticket?'),
      boundary('b'),
      summary('sum', '## Conversation Summary\n- **Facts:** db-prod-1:5432'),
      assistant('a2', 'FRE-512'),
    ];
    const s = session(items, { compactions: [compaction('cmp', { atItemId: 'b', summaryId: 'sum', replacedIds: ['c1', 'r1', 'a1'], keptIds: ['u2'] })] });
    const { calls, eviction } = sessionContexts(s);
    expect(calls.map(ids)).toEqual([
      ['s', 'u1'],
      ['s', 'u1', 'c1', 'r1'],
      ['s', 'u1', 'sum', 'u2'],
    ]);
    expect(calls[2]!.compactionId).toBe('cmp');
    expect(regions(calls[2]!)).toEqual(['head', 'head', 'summary', 'tail']);
    const row = (id: string) => labelsOf(eviction.find((r) => r.item.id === id)!.runs, calls.length);
    expect(row('r1')).toEqual([null, 'verbatim', 'summarized']);
    expect(row('u2')).toEqual([null, null, 'verbatim']);
    expect(row('a2')).toEqual([null, null, null]);
  });

  it('labels a slice replaced by the static marker as dropped', () => {
    const s = session([user('u1', 'a'), assistant('a1', 'b'), user('u2', 'c'), marker('m'), assistant('a2', 'd')], {
      compactions: [compaction('cmp', { atItemId: 'm', summaryId: 'm', replacedIds: ['a1'] })],
    });
    const { calls, eviction } = sessionContexts(s);
    expect(ids(calls[1]!)).toEqual(['u1', 'm', 'u2']);
    expect(labelsOf(eviction.find((r) => r.item.id === 'a1')!.runs, calls.length)).toEqual([null, 'dropped']);
  });

  it('masks cleared tool results in place instead of removing them', () => {
    const s = session([user('u1', 'a'), toolCall('c1', 'k1', 'grep'), toolResult('r1', 'k1', 'long output'), boundary('mc'), assistant('a2', 'done')], {
      compactions: [compaction('mcmp', { kind: 'microcompact', atItemId: 'mc', replacedIds: ['r1'] })],
      responses: [response('resp1', ['c1']), response('resp2', ['a2'])],
    });
    const { calls, eviction } = sessionContexts(s);
    expect(ids(calls[1]!)).toEqual(['u1', 'c1', 'r1']);
    expect(calls[1]!.entries[2]!.item.text).toBe('[Old tool result content cleared]');
    expect(labelsOf(eviction.find((r) => r.item.id === 'r1')!.runs, calls.length)).toEqual([null, 'masked']);
  });
});

describe('sessionContexts (summary written by the agent itself)', () => {
  it("does not show a Self-Sum summary in the context of the call that wrote it, only in later ones", () => {
    const s = session(
      [user('q', 'task'), assistant('a1', 'go to shelf'), user('o1', 'you see a mug'), summary('s1', '<summary>mug on shelf</summary>'), user('q2', 'task + summary'), assistant('a2', 'take mug')],
      { compactions: [compaction('c', { kind: 'summary', atItemId: 's1', summaryId: 's1', replacedIds: ['a1', 'o1'], keptIds: ['q'] })] },
      'self-sum',
    );
    const { calls } = sessionContexts(s);
    expect(calls.map(ids)).toEqual([['q'], ['q', 'a1', 'o1'], ['q', 's1', 'q2']]);
    expect(calls.map((c) => c.compactionId)).toEqual([null, null, 'c']);
  });
});

describe('sessionContexts (request log)', () => {
  it('takes contexts as logged and infers a compaction when items vanish behind a new summary', () => {
    const req = (index: number, items: ReturnType<typeof user>[]) => ({ id: `q${index}`, index, model: null, api: 'openai-chat' as const, items, tools: null, output: [], usage: null, source: { file: 't', line: index + 1 } });
    const s = session([], {
      requests: [
        req(0, [system('s', 'sys'), user('u1', 'a')]),
        req(1, [system('s', 'sys'), user('u1', 'a'), assistant('a1', 'b'), user('u2', 'c')]),
        req(2, [system('s', 'sys'), user('u1', 'a'), summary('sum', '## Conversation Summary\n- x'), user('u2', 'c'), assistant('a2', 'd'), user('u3', 'e')]),
      ],
    }, 'request-log');
    const { calls, compactions, eviction } = sessionContexts(s);
    expect(calls.map((c) => c.recorded)).toEqual([true, true, true]);
    expect(compactions).toEqual([expect.objectContaining({ id: 'inferred-2', kind: 'inferred', replacedIds: ['a1'], summaryId: 'sum', keptIds: ['s', 'u1', 'u2'] })]);
    expect(calls[2]!.compactionId).toBe('inferred-2');
    expect(labelsOf(eviction.find((r) => r.item.id === 'a1')!.runs, calls.length)).toEqual([null, 'verbatim', 'summarized']);
  });
});
