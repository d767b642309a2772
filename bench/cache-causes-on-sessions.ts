// Cache-break causes on real sessions no cause rule was written on: the labelled audit set's Claude Code session files
// (~160 sessions of ~100 public projects) and the other harnesses' files of usage-cross-check-others.json (Codex
// rollouts, Gemini CLI chats, OpenHands, Cline, SWE-agent), read from the local mirrors (`fetch` of the search tool),
// in two halves by session (sha256 of its key). What a file proves is checked, not a guess: a break at a call the file
// records a compaction before, whose prompt lost items, is the compaction's cost, so its cause must read
// `compaction`, not a miss. Also prints each half's breaks by cause, those after a gap beyond the cache lifetime by
// cause, and each harness's.
//
//   npx tsx bench/cache-causes-on-sessions.ts [--list CAUSE]   (--list: each break of that cause, to read)
import { createHash } from 'node:crypto';
import { analyzeSession } from '../src/analysis/analyze-session';
import { loadText } from '../src/load/loader';
import { estimateTokens } from '../src/tokens/estimate';
import { mirroredSources } from './mirrored-sessions';

const listAt = process.argv.indexOf('--list');
const list = listAt >= 0 ? process.argv[listAt + 1] : undefined;
const half = (key: string): 'A' | 'B' => ((createHash('sha256').update(key).digest()[0]! & 1) === 0 ? 'A' : 'B');

interface Tally { sessions: Set<string>; breaks: number; atCompaction: number; namedCompaction: number; byCause: Map<string, number>; pastLifetime: Map<string, number> }
const halves = new Map<string, Tally>([['A', tally()], ['B', tally()]]);
function tally(): Tally {
  return { sessions: new Set(), breaks: 0, atCompaction: 0, namedCompaction: 0, byCause: new Map(), pastLifetime: new Map() };
}

const sources = mirroredSources();
const byFormat = new Map<string, { sessions: number; breaks: number; byCause: Map<string, number> }>();

for (const { key, repo, file } of sources) {
  if (!file) continue;
  const t = halves.get(half(key))!;
  let loaded;
  try {
    loaded = loadText(file.path, file.text);
  } catch {
    continue;
  }
  for (const session of loaded.sessions) {
    const f = byFormat.get(session.format) ?? { sessions: 0, breaks: 0, byCause: new Map() };
    byFormat.set(session.format, f);
    f.sessions++;
    // Causes do not depend on the tokenizer: an estimate keeps the run short.
    const a = analyzeSession(session, { count: (text) => estimateTokens(text), defer: ['audits', 'lints'] });
    t.sessions.add(key);
    a.cache.forEach((r, i) => {
      if (!r.cacheBreak) return;
      const call = a.contexts.calls[i]!;
      const previous = a.contexts.calls[i - 1];
      t.breaks++;
      t.byCause.set(String(r.cause), (t.byCause.get(String(r.cause)) ?? 0) + 1);
      f.breaks++;
      f.byCause.set(String(r.cause), (f.byCause.get(String(r.cause)) ?? 0) + 1);
      const lostItems = !!previous && previous.entries.some(((ids) => (e: { item: { id: string } }) => !ids.has(e.item.id))(new Set(call.entries.map((x) => x.item.id))));
      if (call.compactionId !== null && lostItems) {
        t.atCompaction++;
        if (r.cause === 'compaction') t.namedCompaction++;
        else console.log(`${key} (${repo}, ${session.format} ${String(session.meta['version'] ?? '?')}) call ${i + 1}: a recorded compaction, named ${r.cause}; ${r.missTokens ?? '—'} tokens processed again, $${(r.missCostUsd ?? 0).toFixed(2)} counted as a miss`);
      }
      // The file's timestamps and the lifetime its usage writes show the cache lapsed: how each such break is named.
      if (r.gapMs !== null && r.gapMs > r.ttlMs) t.pastLifetime.set(String(r.cause), (t.pastLifetime.get(String(r.cause)) ?? 0) + 1);
      if (list && r.cause === list) console.log(`${half(key)} ${key} call ${i + 1}: read ${call.usage?.cacheRead ?? '—'}, previous ${previous?.usage?.cacheRead ?? '—'} + ${previous?.usage?.cacheWrite ?? '—'} written`);
    });
  }
}

console.log('half  sessions  breaks  at a recorded compaction  named compaction  by cause');
for (const [h, t] of halves) {
  const causes = [...t.byCause].sort((x, y) => y[1] - x[1]).map(([c, n]) => `${c} ${n}`).join(', ');
  console.log(`${h}     ${String(t.sessions.size).padEnd(8)}  ${String(t.breaks).padEnd(6)}  ${String(t.atCompaction).padEnd(24)}  ${String(t.namedCompaction).padEnd(16)}  ${causes}`);
}

console.log('\nhalf  breaks after a gap beyond the cache lifetime, by cause');
for (const [h, t] of halves) console.log(`${h}     ${[...t.pastLifetime].sort((x, y) => y[1] - x[1]).map(([c, n]) => `${c} ${n}`).join(', ')}`);

console.log('\nformat  sessions  breaks  by cause');
for (const [format, f] of byFormat) console.log(`${format.padEnd(14)}  ${String(f.sessions).padEnd(8)}  ${String(f.breaks).padEnd(6)}  ${[...f.byCause].sort((x, y) => y[1] - x[1]).map(([c, n]) => `${c} ${n}`).join(', ')}`);
