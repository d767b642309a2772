// The unrecorded prefix (system prompt, tools, what the harness sends unrecorded with the first turn) on real Claude
// Code sessions, checked against two figures the provider reported that the calibration does not fit to: the whole
// first prompt (the prefix cannot be larger, the first request having held it and the first message) and the cache
// read right after a compaction (the system prompt and tools the provider had cached: the prefix cannot be smaller).
// Each labelled Claude Code session (the audit set's files, from the local mirrors) whose first call is fresh (what
// the file records of it at most 10 % of its reported prompt) and that compacted; two halves by session (sha256 of
// its key, as the other benches). Prints per half how many sessions' prefix falls outside those bounds.
//
//   npx tsx bench/unrecorded-prefix-on-sessions.ts [--list]
import { createHash } from 'node:crypto';
import { analyzeSession } from '../src/analysis/analyze-session';
import { reportedPromptTokens } from '../src/cache/reported';
import { loadText } from '../src/load/loader';
import { estimateTokens } from '../src/tokens/estimate';
import { mirroredSessionFile } from './labelled-session-file';
import { labelledSessions } from './labelled-fixture';

const half = (key: string): 'A' | 'B' => ((createHash('sha256').update(key).digest()[0]! & 1) === 0 ? 'A' : 'B');
const tally = { A: { sessions: 0, above: 0, below: 0 }, B: { sessions: 0, above: 0, below: 0 } };

for (const [key, s] of Object.entries(labelledSessions())) {
  const file = mirroredSessionFile(key, s);
  if (!file) continue;
  for (const session of loadText(file.path, file.text).sessions) {
    if (session.format !== 'claude-code') continue;
    // The split of the prompt does not depend on which counter: an estimate keeps the run short.
    const a = analyzeSession(session, { count: (t) => estimateTokens(t), defer: ['audits', 'lints', 'cache'] });
    const calls = a.contexts.calls;
    const first = calls[0] ? reportedPromptTokens(calls[0]) : null;
    if (!calls[0]?.prefixUnrecorded || first === null || first <= 0 || a.counted.tokens[0]! > 0.1 * first) continue;
    // The first call after each compaction that took recorded items out: what the provider read back of its cache.
    const reads = calls.flatMap((c, i) => {
      const prev = calls[i - 1];
      if (!prev || c.compactionId === null || !c.usage?.cacheRead) return [];
      const ids = new Set(c.entries.map((e) => e.item.id));
      return prev.entries.some((e) => !ids.has(e.item.id)) ? [c.usage.cacheRead] : [];
    });
    if (reads.length === 0) continue;
    const prefix = a.calibration.calls[1]?.prefixTokens ?? a.calibration.calls[0]!.prefixTokens;
    const t = tally[half(key)];
    t.sessions++;
    const above = prefix > first;
    const below = prefix < Math.min(...reads);
    if (above) t.above++;
    if (below) t.below++;
    if (process.argv.includes('--list')) console.log(`${half(key)} ${key} v${String(session.meta['version'] ?? '?')}: prefix ${prefix}, first prompt ${first}, read after compaction ${reads.join('/')}${above ? ' ABOVE' : ''}${below ? ' BELOW' : ''}`);
  }
}
for (const h of ['A', 'B'] as const) {
  const t = tally[h];
  console.log(`half ${h}: ${t.sessions} sessions; prefix above the whole first prompt ${t.above}, below the read after a compaction ${t.below}`);
}
