// abandonedLines went from a walk to the root per record (quadratic on a long session) to one memoized
// pass. The old algorithm is kept below as a plain port and must agree with the new one on the fixtures,
// the real samples, generated sessions and random trees with forks, retries and parallel tool calls.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { claudeCodeSession } from '../../bench/generators/claude-code-session';
import { random } from '../../bench/generators/random';
import { parseDocument, recordsOf } from '../load/document';
import { get, isObject, str, arr, obj, type JsonObject } from '../model/narrow';
import { describeSamples, readSample } from '../test/shared-samples';
import { abandonedLines, isConversationRecord, type TreeRecord } from './claude-code-tree';

function blocksOf(v: JsonObject): JsonObject[] {
  const message = obj(v, 'message');
  const content = message ? arr(message, 'content') : undefined;
  return (content ?? []).filter(isObject);
}

function messageId(v: JsonObject): string | undefined {
  const message = obj(v, 'message');
  return message ? str(message, 'id') : undefined;
}

/** The algorithm before the linear rewrite, as it was (commit 15dc3b4), with session 54's rule for progress links. */
function oldAbandonedLines(records: TreeRecord[]): Set<number> {
  const byUuid = new Map<string, JsonObject>();
  for (const r of records) {
    const uuid = str(r.value, 'uuid');
    if (uuid !== undefined && !byUuid.has(uuid)) byUuid.set(uuid, r.value);
  }
  const convs = records.filter((r) => isConversationRecord(r.value) && str(r.value, 'uuid') !== undefined);
  const lineOf = new Map<string, number>();
  for (const r of convs) if (!lineOf.has(str(r.value, 'uuid')!)) lineOf.set(str(r.value, 'uuid')!, r.line);
  const parent = new Map<string, string | null>();
  // Session 54: a record reached only through a progress record follows the conversation record written last before it.
  const lastBefore = new Map<TreeRecord, string>();
  let lastConv: string | null = null;
  for (const r of records) {
    if (!isConversationRecord(r.value) || str(r.value, 'uuid') === undefined) continue;
    if (!isConversationRecord(byUuid.get(str(r.value, 'uuid')!)!)) continue;
    if (lastConv !== null) lastBefore.set(r, lastConv);
    lastConv = str(r.value, 'uuid')!;
  }
  for (const r of convs) {
    const uuid = str(r.value, 'uuid')!;
    if (parent.has(uuid)) continue;
    let p = str(r.value, 'parentUuid');
    const seen = new Set<string>([uuid]);
    let found: string | null = null;
    while (p !== undefined && !seen.has(p)) {
      seen.add(p);
      const rec = byUuid.get(p);
      if (!rec) break;
      if (isConversationRecord(rec)) {
        found = p;
        break;
      }
      if (get(rec, 'type') === 'progress' && lastBefore.has(r)) {
        found = lastBefore.get(r)!;
        break;
      }
      p = str(rec, 'parentUuid');
    }
    parent.set(uuid, found);
  }
  const rootOf = (uuid: string): string => {
    let cur = uuid;
    const seen = new Set<string>();
    for (let p = parent.get(cur); p && !seen.has(p); p = parent.get(cur)) {
      seen.add(cur);
      cur = p;
    }
    return cur;
  };
  const trees = new Map<string, TreeRecord[]>();
  for (const r of convs) {
    const uuid = str(r.value, 'uuid')!;
    if (lineOf.get(uuid) !== r.line) continue;
    const root = rootOf(uuid);
    const list = trees.get(root) ?? [];
    list.push(r);
    trees.set(root, list);
  }
  const abandoned = new Set<number>();
  for (const members of trees.values()) {
    const kept = new Set<string>();
    const responseIds = new Set<string>();
    const toolUseIds = new Set<string>();
    const keep = (v: JsonObject) => {
      kept.add(str(v, 'uuid')!);
      const mid = get(v, 'type') === 'assistant' ? messageId(v) : undefined;
      if (mid) responseIds.add(mid);
      for (const b of blocksOf(v)) {
        const id = str(b, 'id');
        if (id && (get(b, 'type') === 'tool_use' || get(b, 'type') === 'server_tool_use')) toolUseIds.add(id);
      }
    };
    const seen = new Set<string>();
    for (let cur: string | null | undefined = str(members[members.length - 1]!.value, 'uuid'); cur && !seen.has(cur); cur = parent.get(cur)) {
      seen.add(cur);
      const rec = byUuid.get(cur);
      if (rec) keep(rec);
    }
    const belongs = (v: JsonObject): boolean => {
      if (get(v, 'type') === 'system') return true;
      if (get(v, 'isMeta') === true) return true;
      if (get(v, 'type') === 'assistant') {
        const mid = messageId(v);
        return mid !== undefined && responseIds.has(mid);
      }
      return blocksOf(v).some((b) => get(b, 'type') === 'tool_result' && toolUseIds.has(String(get(b, 'tool_use_id'))));
    };
    for (let changed = true; changed; ) {
      changed = false;
      for (const r of members) {
        const uuid = str(r.value, 'uuid')!;
        if (kept.has(uuid)) continue;
        const p = parent.get(uuid);
        if (p && kept.has(p) && belongs(r.value)) {
          keep(r.value);
          changed = true;
        }
      }
    }
    for (const r of members) if (!kept.has(str(r.value, 'uuid')!)) abandoned.add(r.line);
  }
  return abandoned;
}

function treeRecords(text: string): TreeRecord[] {
  const parsed = parseDocument('t.jsonl', text);
  if (!parsed.ok) throw new Error(parsed.issue.message);
  return recordsOf(parsed.doc).flatMap(({ line, value }) => (isObject(value) ? [{ line, value }] : []));
}

const sorted = (s: Set<number>) => [...s].sort((a, b) => a - b);
const fixture = (name: string) => readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), 'utf8');

/**
 * A random tree in file order: a main chain with retries (a fork off an earlier record), parallel tool
 * calls (assistant parts sharing message.id, each call's result after them), progress links between
 * records, meta and system records beside the chain, duplicate uuids, missing parents and new roots.
 */
function randomTree(seed: number, n: number): TreeRecord[] {
  const r = random(seed);
  const records: TreeRecord[] = [];
  const uuids: string[] = [];
  let tip: string | null = null;
  let line = 0;
  const push = (value: Record<string, unknown>) => {
    records.push({ line: ++line, value });
    if (typeof value['uuid'] === 'string') uuids.push(value['uuid']);
  };
  const id = () => `u${line + 1}-${r.int(0, 9)}`;
  while (records.length < n) {
    const roll = r.next();
    const parentUuid: string | null = r.chance(0.08) && uuids.length ? r.pick(uuids) : r.chance(0.02) ? null : r.chance(0.02) ? 'missing' : tip;
    if (roll < 0.3) {
      const uuid = id();
      push({ type: 'user', uuid, parentUuid, message: { role: 'user', content: 'hi' } });
      tip = uuid;
    } else if (roll < 0.55) {
      const mid = `m${line}`;
      const calls = r.int(1, 3);
      let prev: string | null = parentUuid;
      const ids: string[] = [];
      for (let k = 0; k < calls; k++) {
        const uuid = id();
        const toolId = `t${line}-${k}`;
        ids.push(toolId);
        // Parallel calls fan out as siblings of the first part, or chain one after another.
        push({ type: 'assistant', uuid, parentUuid: r.chance(0.5) ? parentUuid : prev, message: { id: mid, content: [{ type: 'tool_use', id: toolId }] } });
        prev = uuid;
      }
      for (const toolId of ids) {
        const uuid = id();
        push({ type: 'user', uuid, parentUuid: r.chance(0.6) ? prev : r.pick(uuids), message: { content: [{ type: 'tool_result', tool_use_id: toolId }] } });
        prev = uuid;
      }
      tip = prev;
    } else if (roll < 0.75) {
      const uuid = id();
      push({ type: 'progress', uuid, parentUuid });
      if (r.chance(0.5)) tip = uuid;
    } else if (roll < 0.85) {
      push({ type: 'user', uuid: id(), parentUuid, isMeta: true, message: { content: 'ctx' } });
    } else if (roll < 0.9) {
      const uuid = id();
      push({ type: 'system', subtype: r.chance(0.5) ? 'compact_boundary' : 'turn_duration', uuid, parentUuid: r.chance(0.5) ? null : parentUuid });
      tip = uuid;
    } else if (roll < 0.95 && uuids.length) {
      // A duplicate uuid (resumed sessions rewrite records).
      push({ type: 'user', uuid: r.pick(uuids), parentUuid, message: { content: 'dup' } });
    } else {
      push({ type: 'assistant', uuid: id(), parentUuid, message: { id: `m${r.int(0, line)}`, content: [{ type: 'text', text: 'x' }] } });
    }
  }
  return records;
}

describe('abandonedLines', () => {
  it('agrees with the old algorithm on the Claude Code fixtures', () => {
    for (const name of ['claude-code-session.jsonl', 'claude-code-session.agent-acompact.jsonl']) {
      const records = treeRecords(fixture(name));
      expect(sorted(abandonedLines(records)), name).toEqual(sorted(oldAbandonedLines(records)));
    }
  });

  it('finds the abandoned branch the main fixture holds', () => {
    // The fixture's edit leaves two records on a dead branch (claude-code.test.ts counts them as skipped).
    expect(abandonedLines(treeRecords(fixture('claude-code-session.jsonl'))).size).toBe(2);
  });

  it('agrees with the old algorithm on random trees with retries, parallel calls, links and duplicates', () => {
    let abandonedSeen = 0;
    for (let seed = 1; seed <= 300; seed++) {
      const records = randomTree(seed, 20 + (seed % 60));
      const expected = sorted(oldAbandonedLines(records));
      abandonedSeen += expected.length;
      expect(sorted(abandonedLines(records)), `seed ${seed}`).toEqual(expected);
    }
    // The trees really do fork: a comparison of empty sets would prove nothing.
    expect(abandonedSeen).toBeGreaterThan(300);
  });

  it('agrees with the old algorithm on a generated session, and keeps its linear chain whole', () => {
    const records = treeRecords(claudeCodeSession({ seed: 5, records: 3000, bytes: 600_000, compactions: 2 }));
    expect(sorted(abandonedLines(records))).toEqual(sorted(oldAbandonedLines(records)));
    expect(abandonedLines(records).size).toBe(0);
  });

  it('keeps a 100,000-record chain whole (the old walk to the root per record took minutes here)', () => {
    const records: TreeRecord[] = [];
    for (let i = 0; i < 100_000; i++) records.push({ line: i + 1, value: { type: i % 2 ? 'assistant' : 'user', uuid: `u${i}`, parentUuid: i ? `u${i - 1}` : null, message: { id: `m${i}`, content: [] } } });
    // Its time per record at 100k within 1.5× of that at 10k is a bench row (bench/linear-inputs.ts), not a budget here.
    expect(abandonedLines(records).size).toBe(0);
    // A retry forked off the middle, last in the file: the tree keeps the path to it, so the chain's second half,
    // 50,000 records deep, is the abandoned branch.
    records.push({ line: 100_001, value: { type: 'assistant', uuid: 'fork', parentUuid: 'u49999', message: { id: 'mf', content: [] } } });
    const abandoned = [...abandonedLines(records)].sort((a, b) => a - b);
    expect(abandoned.length).toBe(50_000);
    expect([abandoned[0], abandoned.at(-1)]).toEqual([50_001, 100_000]);
  });

  it('treats a parent cycle as one tree without hanging', () => {
    const records: TreeRecord[] = [
      { line: 1, value: { type: 'user', uuid: 'a', parentUuid: 'b', message: { content: 'x' } } },
      { line: 2, value: { type: 'assistant', uuid: 'b', parentUuid: 'a', message: { id: 'm', content: [] } } },
      { line: 3, value: { type: 'progress', uuid: 'p', parentUuid: 'q' } },
      { line: 4, value: { type: 'progress', uuid: 'q', parentUuid: 'p' } },
      { line: 5, value: { type: 'user', uuid: 'c', parentUuid: 'p', message: { content: 'y' } } },
    ];
    expect(sorted(abandonedLines(records))).toEqual([]);
  });
});

describeSamples('abandonedLines on real sessions', () => {
  it('agrees with the old algorithm on every Claude Code sample', () => {
    for (const name of ['claude-code-compacted.jsonl', 'claude-code-compacted.agent-acompact.jsonl', 'claude-code-short.jsonl', 'claude-code-tool-heavy.jsonl']) {
      const records = treeRecords(new TextDecoder().decode(readSample(name).bytes));
      expect(sorted(abandonedLines(records)), name).toEqual(sorted(oldAbandonedLines(records)));
    }
  });
});
