// Does a change to the audit leave its output as it was? Writes the summary audit (auditContexts, as `inspect --json`
// runs it) of a set of sessions to a file, or compares it with one written before (from main's code): the shared
// samples (../shared/samples, when there), the four generated 3 MB sessions of bench/cli-vs-ccusage.ts, and the real
// files of the labelled sessions of the dev and test splits and hold-outs 1–4 (from the mirrors, with and without
// their instruction files). Never the pool or hold-outs 5–11.
//
//   npx tsx bench/audit-output-equal.ts --write /tmp/audit-base.jsonl
//   npx tsx bench/audit-output-equal.ts --compare /tmp/audit-base.jsonl
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { auditContexts } from '../src/analysis/audit-contexts';
import { loadText } from '../src/load/loader';
import type { Session } from '../src/model/types';
import { CLAUDE_CODE_TYPICAL, claudeCodeSession } from './generators/claude-code-session';
import { labelledRows, labelledSessions } from './labelled-fixture';
import { labelledInstructionFiles } from './labelled-instructions';
import { mirroredSessionFile } from './labelled-session-file';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const SAMPLES = join(ROOT, '..', 'shared', 'samples');
const SPLITS = new Set(['dev', 'test', 'holdout', 'holdout2', 'holdout3', 'holdout4']);

/** Each set's sessions by name: a file may hold several. */
function* cases(): Generator<{ name: string; sessions: Session[] }> {
  for (let i = 0; i < 4; i++) yield { name: `generated-${100 + i}`, sessions: loadText(`g${i}.jsonl`, claudeCodeSession({ ...CLAUDE_CODE_TYPICAL, seed: 100 + i })).sessions };
  if (existsSync(SAMPLES)) {
    for (const f of readdirSync(SAMPLES).filter((f) => /\.(jsonl?|eval)$/.test(f)).sort()) yield { name: `sample ${f}`, sessions: loadText(f, readFileSync(join(SAMPLES, f), 'utf8')).sessions };
  }
  // A session some of whose rows are in a later hold-out is left out whole.
  const splitsOf = new Map<string, Set<string>>();
  for (const r of labelledRows()) (splitsOf.get(r.session) ?? splitsOf.set(r.session, new Set()).get(r.session)!).add(r.split);
  const all = labelledSessions();
  for (const [key, splits] of [...splitsOf].sort(([a], [b]) => a.localeCompare(b))) {
    if (![...splits].every((s) => SPLITS.has(s))) continue;
    const file = mirroredSessionFile(key, all[key]!);
    if (!file) continue;
    const sessions = loadText(file.path, file.text).sessions;
    yield { name: `labelled ${key}`, sessions };
    const instructionFiles = labelledInstructionFiles(key);
    if (instructionFiles.length > 0) yield { name: `labelled ${key} +instructions`, sessions: sessions.map((s) => ({ ...s, instructionFiles })) };
  }
}

function lines(): string[] {
  const out: string[] = [];
  for (const c of cases()) out.push(JSON.stringify({ name: c.name, audits: c.sessions.map((s) => auditContexts(s)) }));
  return out;
}

const mode = process.argv[2];
const file = process.argv[3];
if (!file || (mode !== '--write' && mode !== '--compare')) throw new Error('usage: audit-output-equal.ts --write|--compare FILE');
const now = lines();
if (mode === '--write') {
  writeFileSync(file, `${now.join('\n')}\n`);
  console.log(`${now.length} cases written to ${file}`);
} else {
  const before = new Map(
    readFileSync(file, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => [(JSON.parse(l) as { name: string }).name, l] as const),
  );
  let differ = 0;
  for (const l of now) {
    const name = (JSON.parse(l) as { name: string }).name;
    const was = before.get(name);
    if (was === l) continue;
    differ++;
    if (was === undefined) console.log(`${name}: not in ${file}`);
    else {
      let at = 0;
      while (at < l.length && l[at] === was[at]) at++;
      console.log(`${name}: differs at ${at}\n  was: ${was.slice(Math.max(0, at - 120), at + 200)}\n  now: ${l.slice(Math.max(0, at - 120), at + 200)}`);
    }
  }
  const missing = [...before.keys()].filter((k) => !now.some((l) => l.includes(`"name":${JSON.stringify(k)}`)));
  for (const m of missing) console.log(`${m}: in ${file}, not read now`);
  console.log(`${now.length} cases: ${now.length - differ} identical, ${differ} differ${missing.length ? `, ${missing.length} missing` : ''}`);
  if (differ > 0 || missing.length > 0) process.exitCode = 1;
}
