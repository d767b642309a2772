// The Claude Code preset's trigger on real sessions no preset value was chosen on: each labelled Claude Code session
// (the audit set's files, from the local mirrors) whose first compaction Claude Code recorded as automatic, replayed
// with `rerun --policy claude-code`. Up to that compaction the replay's history is the recording's, so the figures it
// measures are the provider's reported ones: the check is the trigger itself. Prints, per half (sha256 of the
// session's key), how often the preset fires within one call of the recorded compaction, and per Claude Code version
// what the harness logged (`preTokens`) beside what the replay measured at that call and the preset's threshold.
// Then the Codex preset the same way on the Codex rollouts of the usage cross-check (usage-cross-check-others.json)
// whose first compaction is automatic, by CLI version: rollouts the preset (codex-rs 0.40–0.6x) was not written on.
//
//   npx tsx bench/rerun-triggers-on-sessions.ts
import { createHash } from 'node:crypto';
import { rerunRuns } from '../src/cli/rerun';
import { loadText } from '../src/load/loader';
import { estimateTokens } from '../src/tokens/estimate';
import { otherHarnessSources } from './mirrored-sessions';
import { mirroredSessionFile } from './labelled-session-file';
import { labelledSessions } from './labelled-fixture';

const half = (key: string): 'A' | 'B' => ((createHash('sha256').update(key).digest()[0]! & 1) === 0 ? 'A' : 'B');
const tally = { A: new Map<string, number>(), B: new Map<string, number>() };
const rows: string[] = [];

for (const [key, s] of Object.entries(labelledSessions())) {
  const file = mirroredSessionFile(key, s);
  if (!file) continue;
  for (const session of loadText(file.path, file.text).sessions) {
    if (session.format !== 'claude-code' || session.compactions[0]?.trigger !== 'auto') continue;
    const [report] = await rerunRuns(session, { policy: 'claude-code', params: {}, sweep: [], rule: 'auto' }, (t) => estimateTokens(t));
    const first = report?.recordedMatch[0];
    if (!first) continue;
    const t = tally[half(key)];
    t.set(first.verdict, (t.get(first.verdict) ?? 0) + 1);
    rows.push(`${half(key)} ${key} v${String(session.meta['version'] ?? '?')} ${session.model ?? '?'} call ${first.call}: logged ${first.harnessTokens ?? '—'}, measured ${first.measured ?? '—'}, ${first.verdict}${first.offset !== null ? ` (${first.offset > 0 ? '+' : ''}${first.offset})` : ''}`);
  }
}
console.log(rows.sort().join('\n'));
for (const h of ['A', 'B'] as const) console.log(`half ${h}: ${[...tally[h]].map(([v, n]) => `${v} ${n}`).join(', ')}`);

// Codex: the first compaction of each rollout whose first is automatic, by CLI version.
const codex = new Map<string, Map<string, number>>();
for (const src of otherHarnessSources('codex')) {
  if (!src.file) continue;
  for (const session of loadText(src.file.path, src.file.text).sessions) {
    if (session.format !== 'codex' || session.compactions[0]?.trigger !== 'auto') continue;
    const [report] = await rerunRuns(session, { policy: 'codex', params: {}, sweep: [], rule: 'auto' }, (t) => estimateTokens(t));
    const first = report?.recordedMatch[0];
    if (!first) continue;
    const version = (src.version ?? '?').replace(/-.*/, '').replace(/\.\d+$/, '.x');
    const t = codex.get(version) ?? new Map<string, number>();
    codex.set(version, t);
    t.set(first.verdict, (t.get(first.verdict) ?? 0) + 1);
    console.log(`codex ${src.version ?? '?'} ${src.key} ${session.model ?? '?'} call ${first.call}: measured ${first.measured ?? '—'}, ${first.verdict}${first.offset !== null ? ` (${first.offset > 0 ? '+' : ''}${first.offset})` : ''}`);
  }
}
for (const [v, t] of [...codex].sort()) console.log(`codex ${v}: ${[...t].map(([k, n]) => `${k} ${n}`).join(', ')}`);
