import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { claudeCodeSession, CLAUDE_CODE_TYPICAL } from '../../bench/generators/claude-code-session';
import { loadFiles, loadText } from '../load/loader';
import type { ContextTimeline } from '../analysis/context-timeline';
import type { CallContext } from '../analysis/context-types';
import { sessionContexts } from '../analysis/session-analysis';
import type { Session } from '../model/types';
import { sharedSerialLength } from './divergence';
import { analyzeCachePrefix } from './prefix';
import { itemHeader, sameContent, serializeUnit, TOOLS_UNIT_ID, unitOf, unitsOf, type PromptUnit } from './item-hash';
import { partingTexts } from './parting-texts';

const dir = new URL('../formats/__fixtures__/', import.meta.url);

describe('partingTexts', () => {
  it('finds, on every fixture, the texts the cache pass counts besides whole items and tool schemas', () => {
    let parted = 0;
    for (const name of readdirSync(dir).filter((f) => !f.endsWith('.md'))) {
      for (const s of loadFiles([{ name, bytes: readFileSync(new URL(name, dir)) }]).sessions) {
        const contexts = sessionContexts(s);
        const whole = new Set<string>(['tools\n']);
        for (const call of contexts.calls) {
          if (call.tools) whole.add(call.tools);
          for (const e of call.entries) whole.add(e.item.text).add(itemHeader(e.item));
        }
        const asked = new Set<string>();
        analyzeCachePrefix(contexts.calls, { count: (t) => (whole.has(t) || asked.add(t), 0), rule: 'auto', timeline: contexts.timeline });
        const found = partingTexts(contexts.calls, contexts.timeline).filter((t) => !whole.has(t));
        expect(new Set(found), `${name} ${s.id}`).toEqual(asked);
        parted += asked.size;
      }
    }
    // Compacted sessions of several formats part inside an item.
    expect(parted).toBeGreaterThanOrEqual(8);
  });
});

/**
 * The texts as they were found before the walk took the context cursor: every call's span list copied and compared
 * from its start with the previous one's (quadratic on a long session). The reference the cursor's walk must match.
 */
function referenceTexts(calls: readonly CallContext[], timeline: ContextTimeline | null): string[] {
  type Units = { n: number; lead: 0 | 1; keys: Int32Array | null; at(j: number): PromptUnit };
  const promptOf = (call: CallContext, ci: number): Units => {
    const lead: 0 | 1 = call.tools != null && call.tools !== '' ? 1 : 0;
    if (!timeline) {
      const units = unitsOf(call);
      return { n: units.length, lead, keys: null, at: (j) => units[j]! };
    }
    const tools: PromptUnit | null = lead ? { id: TOOLS_UNIT_ID, item: null, text: call.tools! } : null;
    const keys = timeline.activeSpans(ci).slice();
    const spans = timeline.spans;
    return { n: keys.length + lead, lead, keys, at: (j) => (j < lead ? tools! : unitOf(spans[keys[j - lead]!]!.item)) };
  };
  const out = new Set<string>();
  let prev: Units | null = null;
  calls.forEach((call, ci) => {
    const cur = promptOf(call, ci);
    if (prev) {
      const n = Math.min(prev.n, cur.n);
      let k = 0;
      if (prev.keys && cur.keys && prev.lead === cur.lead && (!cur.lead || prev.at(0).text === cur.at(0).text)) {
        const a = prev.keys;
        const b = cur.keys;
        const m = Math.min(a.length, b.length);
        let same = 0;
        while (same < m && a[same] === b[same]) same++;
        k = cur.lead + same;
      }
      while (k < n && sameContent(prev.at(k), cur.at(k))) k++;
      if (k < prev.n && k < cur.n) {
        const chars = sharedSerialLength(prev.at(k), cur.at(k));
        if (chars > 0) out.add(serializeUnit(cur.at(k)).slice(0, chars));
      }
    }
    prev = cur;
  });
  return [...out];
}

/** Every session of the fixtures and demos (transcripts and request logs), and generated ones with compactions. */
function sessions(): { name: string; session: Session }[] {
  const out: { name: string; session: Session }[] = [];
  for (const d of [fileURLToPath(dir), fileURLToPath(new URL('../../public/demos/', import.meta.url))]) {
    for (const f of readdirSync(d).filter((n) => !n.endsWith('.md'))) for (const s of loadText(f, readFileSync(join(d, f), 'utf8')).sessions) out.push({ name: `${f} ${s.id}`, session: s });
  }
  out.push(
    { name: 'generated: three compactions', session: loadText('a.jsonl', claudeCodeSession({ seed: 7, records: 1500, bytes: 1_200_000, compactions: 3 })).sessions[0]! },
    { name: 'generated: the typical session', session: loadText('b.jsonl', claudeCodeSession(CLAUDE_CODE_TYPICAL)).sessions[0]! },
  );
  return out;
}

describe('partingTexts walks the prompts with the context cursor', () => {
  it.each(sessions().map((c) => [c.name, c.session] as const))('finds the reference texts, in order, on %s', (_, session) => {
    const c = sessionContexts(session);
    const want = referenceTexts(c.calls, c.timeline);
    expect(partingTexts(c.calls, c.timeline)).toEqual(want);
    // Without the timeline, each call's own units give the same texts.
    if (c.timeline) expect(new Set(partingTexts(c.calls, null))).toEqual(new Set(want));
  });
});
