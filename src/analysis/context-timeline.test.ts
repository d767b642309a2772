import { describe, expect, it } from 'vitest';
import type { CompactionEvent, Item, Session } from '../model/types';
import { assistant, compaction, session, summary, system, toolCall, toolResult, user } from '../test/builders';
import { fixtureTranscripts } from '../test/fixture-transcripts';
import { buildAnalysisView } from './analysis-view';
import { firstCallByItem } from './call-lookup';
import { modelCalls } from './calls';
import { spansOfCalls } from './context-timeline';
import { replayTranscript } from './replay';
import { ViewTimeline } from './view-timeline';

/**
 * The replay as it was before spans: a live list copied into every call. Kept here as the reference the
 * timeline must reproduce call for call.
 */
function referenceContexts(s: Session): string[][] {
  const byId = new Map(s.items.map((it) => [it.id, it]));
  const position = new Map(s.items.map((it, i) => [it.id, i]));
  const callAt = new Map<number, number>();
  modelCalls(s).forEach((call, ci) => {
    const first = call.itemIds.map((id) => position.get(id)).filter((p): p is number => p !== undefined);
    if (first.length) callAt.set(Math.min(...first), ci);
  });
  const compactionAt = new Map<number, CompactionEvent[]>();
  for (const c of s.compactions) {
    const anchor = [c.atItemId, c.summaryId].map((id) => (id ? position.get(id) : undefined)).find((p) => p !== undefined);
    if (anchor !== undefined) compactionAt.set(anchor, [...(compactionAt.get(anchor) ?? []), c]);
  }
  let live: Item[] = [];
  const inserted = new Set<string>();
  const out: string[][] = [];
  const apply = (c: CompactionEvent) => {
    const sum = c.summaryId ? byId.get(c.summaryId) : undefined;
    const replaced = new Set(c.replacedIds);
    if (c.kind === 'microcompact') {
      live = live.map((it) => (replaced.has(it.id) ? { ...it, text: it.omission?.marker ?? '[Old tool result content cleared]' } : it));
      return;
    }
    if (c.restatedIn !== undefined) {
      // The next context starts over from the item restating the summary: only the system prompt stays.
      live = live.filter((it) => it.role === 'system' || it.role === 'developer');
      if (sum) inserted.add(sum.id);
      return;
    }
    const at = live.findIndex((it) => replaced.has(it.id));
    live = live.filter((it) => !replaced.has(it.id));
    if (sum && !inserted.has(sum.id)) {
      live.splice(at < 0 ? live.length : at, 0, sum);
      inserted.add(sum.id);
    }
  };
  s.items.forEach((item, i) => {
    // The turns the user took back before this item (Codex's rollback) leave the list.
    if (item.rollsBack) {
      const gone = new Set(item.rollsBack);
      live = live.filter((it) => !gone.has(it.id));
    }
    const starts = callAt.has(i);
    if (!starts) for (const c of compactionAt.get(i) ?? []) apply(c);
    if (starts) {
      out.push(live.map((it) => shown(it, byId.get(it.id))));
      for (const c of compactionAt.get(i) ?? []) apply(c);
    }
    if (item.kind !== 'compaction' && !inserted.has(item.id)) {
      // An item that supersedes another (a system prompt update) takes its place.
      const at = item.supersedes !== undefined ? live.findIndex((it) => it.id === item.supersedes) : -1;
      if (at >= 0) live[at] = item;
      else live.push(item);
      inserted.add(item.id);
    }
  });
  return out;
}

const shown = (it: Item, original: Item | undefined) => `${it.id}${original && original.text !== it.text ? '*' : ''}`;

describe('replayTranscript on spans', () => {
  const all = fixtureTranscripts();
  it('covers transcripts with compactions', () => {
    expect(all.filter((t) => t.session.compactions.length > 0).length).toBeGreaterThanOrEqual(5);
  });

  it.each(all.map((t) => [t.name, t.session] as const))('sends every call of %s what the copied live list held', (_, s) => {
    const byId = new Map(s.items.map((it) => [it.id, it]));
    const { calls } = replayTranscript(s);
    expect(calls.map((c) => c.entries.map((e) => shown(e.item, byId.get(e.item.id))))).toEqual(referenceContexts(s));
  });

  it('masks, summarizes and stacks summaries in place', () => {
    const s = session(
      [
        system('s', 'rules'),
        user('u1', 'go'),
        toolCall('c1', 'k1', 'read'),
        toolResult('r1', 'k1', 'long output'),
        assistant('a1', 'read it'),
        user('u2', 'more'),
        assistant('a2', 'ok'),
        summary('sum1', '## Summary\n- read the file'),
        user('u3', 'again'),
        assistant('a3', 'fine'),
        summary('sum2', '## Summary\n- read the file, then more'),
        user('u4', 'last'),
        assistant('a4', 'done'),
      ],
      {
        compactions: [
          compaction('m', { kind: 'microcompact', atItemId: 'u2', replacedIds: ['r1'] }),
          compaction('c1', { atItemId: 'sum1', summaryId: 'sum1', replacedIds: ['u1', 'c1', 'r1'] }),
          compaction('c2', { atItemId: 'sum2', summaryId: 'sum2', replacedIds: ['sum1', 'a1', 'u2'] }),
        ],
      },
    );
    const { calls } = replayTranscript(s);
    expect(calls.map((c) => c.entries.map((e) => e.item.id))).toEqual(referenceContexts(s).map((ids) => ids.map((id) => id.replace('*', ''))));
    expect(calls.at(-1)!.entries.map((e) => e.item.id)).toEqual(['s', 'sum2', 'a2', 'u3', 'a3', 'u4']);
  });
});

describe('ViewTimeline', () => {
  it("gives each call of a view the entries buildAnalysisView computed from the engine's lists", () => {
    for (const { session: s } of fixtureTranscripts().filter((t) => t.session.compactions.length > 0)) {
      const view = buildAnalysisView(s, { count: (t) => t.length, ghosts: false });
      const byId = new Map(view.items.map((it) => [it.id, it]));
      const fresh = new ViewTimeline({ calls: view.calls, spans: view.spans!, itemById: (id) => byId.get(id), variants: view.variants });
      const { calls } = replayTranscript(s);
      view.calls.forEach((call, ci) => {
        const got = fresh.entriesAt(ci);
        expect(got.map((e) => e.id)).toEqual(calls[ci]!.entries.map((e) => e.item.id));
        expect(got.map((e) => e.region)).toEqual(calls[ci]!.entries.map((e) => e.region));
        expect(got).toEqual(call.entries);
      });
      // The first call of every item reads the same from spans as from every call's list.
      const listed = view.calls.map((c) => ({ entries: [...c.entries], outputIds: c.outputIds, compactionId: c.compactionId }));
      expect(new Map(firstCallByItem(view.calls, view.spans))).toEqual(new Map(firstCallByItem(listed)));
    }
  });
});

describe('spansOfCalls', () => {
  it('runs a span while consecutive calls send the same content, and starts a new one when it changes', () => {
    const a = user('a', 'hello');
    const b = toolResult('b', 'k', 'output');
    const masked = { ...b, text: '[cleared]' };
    const calls = [{ entries: [{ item: a, region: 'head' as const }, { item: b, region: 'tail' as const }] }, { entries: [{ item: { ...a }, region: 'head' as const }, { item: masked, region: 'tail' as const }] }, { entries: [{ item: a, region: 'head' as const }] }];
    expect(spansOfCalls(calls).map((s) => [s.item.id, s.item.text, s.from, s.to])).toEqual([
      ['a', 'hello', 0, 3],
      ['b', 'output', 0, 1],
      ['b', '[cleared]', 1, 2],
    ]);
  });
});
