// The lints on real sessions no lint was written on: every labelled session of the audit set and the other harnesses'
// files the cache-cause bench reads, from the local mirrors, in two halves by session (sha256 of its key, as the other
// benches). Prints, per half, harness and rule, how many lints fire and in how many sessions; `--list RULE` prints each
// lint of that rule with its session, to judge by reading (half A only, by convention: half B is counted, not read).
//
//   npx tsx bench/lints-on-sessions.ts [--list causal-order]
import { createHash } from 'node:crypto';
import { analyzeSession } from '../src/analysis/analyze-session';
import { loadText } from '../src/load/loader';
import { estimateTokens } from '../src/tokens/estimate';
import { mirroredSources } from './mirrored-sessions';

const half = (key: string): 'A' | 'B' => ((createHash('sha256').update(key).digest()[0]! & 1) === 0 ? 'A' : 'B');
const at = process.argv.indexOf('--list');
const list = at >= 0 ? process.argv[at + 1] : undefined;
const lints = new Map<string, number>();
const sessionsWith = new Map<string, Set<string>>();
const read = { A: 0, B: 0 };
for (const { key, file } of mirroredSources()) {
  if (!file) continue;
  let loaded;
  try {
    loaded = loadText(file.path, file.text);
  } catch {
    continue;
  }
  for (const session of loaded.sessions) {
    read[half(key)]++;
    // Which lints fire does not depend on the counter but for the summary's token cap: an estimate keeps the run short.
    const a = analyzeSession(session, { count: (t) => estimateTokens(t), defer: ['audits', 'cache'] });
    for (const l of a.lints) {
      const k = `${half(key)}  ${session.format.padEnd(12)} ${l.rule}`;
      lints.set(k, (lints.get(k) ?? 0) + 1);
      sessionsWith.set(k, (sessionsWith.get(k) ?? new Set()).add(key));
      if (l.rule === list && half(key) === 'A') console.log(`A ${key} call ${(l.callIndex ?? -1) + 1} ${l.itemId}: ${l.message}`);
    }
  }
}
console.log(`sessions read: half A ${read.A}, half B ${read.B}`);
for (const [k, n] of [...lints].sort()) console.log(`${k.padEnd(44)} ${String(n).padStart(4)} in ${sessionsWith.get(k)!.size} sessions`);
