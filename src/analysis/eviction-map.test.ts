import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { claudeCodeSession, CLAUDE_CODE_TYPICAL } from '../../bench/generators/claude-code-session';
import { loadText } from '../load/loader';
import type { Item, Session } from '../model/types';
import { fixtureTranscripts } from '../test/fixture-transcripts';
import type { Span } from './context-timeline';
import type { EvictionLabel } from './context-types';
import { evictionMap, type EvictionRow } from './eviction-map';
import type { LabelRun } from './eviction-runs';
import type { Removal } from './replay';
import { sessionContexts } from './session-analysis';

/** The map as it was built before its one-span shortcut: cut points sorted for every item. The reference it must match. */
function referenceMap(items: readonly Item[], calls: readonly { output: readonly Item[] }[], spans: readonly Span[], removals: ReadonlyMap<string, Removal>): EvictionRow[] {
  const labelInContext = (original: Item, seen: Item): EvictionLabel => {
    if (original.omission?.target === 'thought') return 'omitted';
    if (seen.text !== original.text || (seen.omission && !original.omission)) return 'masked';
    if (seen.omission?.target === 'tool_result' || seen.omission?.target === 'observation') return 'masked';
    return 'verbatim';
  };
  const n = calls.length;
  const byItem = new Map<string, Span[]>();
  for (const s of spans) byItem.set(s.item.id, [...(byItem.get(s.item.id) ?? []), s]);
  const producedBy = new Map<string, number>();
  calls.forEach((call, ci) => {
    for (const o of call.output) if (!producedBy.has(o.id)) producedBy.set(o.id, ci + 1);
  });
  return items
    .filter((it) => it.kind !== 'compaction')
    .map((item) => {
      const own = byItem.get(item.id) ?? [];
      const known = Math.min(producedBy.get(item.id) ?? Infinity, ...own.map((s) => s.from));
      const runs: LabelRun[] = [];
      if (known >= n) return { item, runs };
      const r = removals.get(item.id);
      const cuts = new Set<number>([known, n]);
      for (const s of own) cuts.add(s.from).add(s.to);
      if (r) cuts.add(r.fromCall);
      const points = [...cuts].filter((p) => p >= known && p <= n).sort((a, b) => a - b);
      for (let k = 0; k + 1 < points.length; k++) {
        const at = points[k]!;
        const seen = own.find((s) => s.from <= at && at < s.to);
        const label: EvictionLabel = seen ? labelInContext(item, seen.item) : r && r.fromCall <= at ? r.label : 'dropped';
        const last = runs[runs.length - 1];
        if (last && last.label === label && last.end === at - 1) last.end = points[k + 1]! - 1;
        else runs.push({ label, start: at, end: points[k + 1]! - 1 });
      }
      return { item, runs };
    });
}

/** Every request-log session among the fixtures and demos: their items have a span per run of calls that sent them. */
function requestLogs(): { name: string; session: Session }[] {
  const out: { name: string; session: Session }[] = [];
  for (const dir of [join(__dirname, '../formats/__fixtures__'), join(__dirname, '../../public/demos')]) {
    for (const f of readdirSync(dir)) for (const s of loadText(f, readFileSync(join(dir, f), 'utf8')).sessions) if (s.requests.length > 0) out.push({ name: f, session: s });
  }
  return out;
}

describe('evictionMap', () => {
  it.each(requestLogs().map((c) => [c.name, c.session] as const))('gives the reference runs on the request log %s', (_, session) => {
    const c = sessionContexts(session);
    const items = [...new Map(session.requests.flatMap((q) => [...q.items, ...q.output]).map((it) => [it.id, it])).values()];
    expect(c.eviction).toEqual(referenceMap(items, c.calls, c.spans, c.removals));
  });

  const generated = [
    { name: 'three compactions', session: loadText('a.jsonl', claudeCodeSession({ seed: 7, records: 1500, bytes: 1_200_000, compactions: 3 })).sessions[0]! },
    { name: 'the typical session', session: loadText('b.jsonl', claudeCodeSession(CLAUDE_CODE_TYPICAL)).sessions[0]! },
  ];
  it.each([...fixtureTranscripts(), ...generated].map((c) => [c.name, c.session] as const))('gives the reference runs on %s', (_, session) => {
    const c = sessionContexts(session);
    expect(evictionMap(session.items, c.calls, c.spans, c.removals)).toEqual(referenceMap(session.items, c.calls, c.spans, c.removals));
  });
});
