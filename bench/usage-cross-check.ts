// Reads every mirrored Claude Code session of the labelled set and the judged flags the plain way, with no tree: each
// assistant record's usage, once per message id (Claude Code splits a response over records that share it; a record
// with none, as some proxies write them, is a response of its own, once per uuid), Claude Code's zero-usage
// `<synthetic>` replies left out. Then compares with the responses the engine reads: the timeline's
// and those on branches the loader judged abandoned (a retry, an edit, an interrupted turn), which are billed too
// (Session.offBranch). A response the engine lacks, or a prompt total that differs, is a loader bug: in session 54
// this found Claude Code 1.0.21's and 1.0.31's conversations read as abandoned branches.
// `npx tsx bench/usage-cross-check.ts [--all]` (needs the mirrors; --all: every file, not only those that differ).
import { flagJudgements } from './flag-judgements-file';
import { labelledSessions } from './labelled-fixture';
import { mirroredFile } from './mirrored-file';
import { loadText } from '../src/load/loader';
import type { Usage } from '../src/model/types';
import { promptTokens } from '../src/model/usage';
import { billedResponses, plainPrompt } from '../src/test/plain-usage';

/** The file's billed responses as its records state them: id, first line, input + cache read + cache write. */
const plainResponses = (text: string) => billedResponses(text).map((r) => ({ id: r.id, line: r.line, prompt: plainPrompt(r.usage) }));

const files = new Map<string, { repo: string; ref: string; path: string }>();
for (const s of Object.values(flagJudgements().sessions)) files.set(`${s.repo}@${s.ref.slice(0, 10)}:${s.path}`, { repo: s.repo, ref: s.ref, path: s.path });
for (const s of Object.values(labelledSessions())) {
  const path = s.path.replace(/ \((?:branch|ref) [^)]+\)$/, '');
  files.set(`${s.repo}@${s.commit.slice(0, 10)}:${path}`, { repo: s.repo, ref: s.commit, path });
}

let read = 0;
let differ = 0;
let plainTotal = 0;
let lackedTotal = 0;
let offTotal = 0;
let withOff = 0;
const all = process.argv.includes('--all');
for (const [key, f] of files) {
  const text = mirroredFile(f.repo, f.ref, f.path, key);
  if (text === null) continue;
  const sessions = loadText(f.path, text).sessions.filter((s) => s.format === 'claude-code');
  if (sessions.length === 0) continue;
  read++;
  const kept = sessions.flatMap((s) => s.responses);
  const off = sessions.flatMap((s) => s.offBranch ?? []);
  const engine = new Set([...kept, ...off].map((r) => r.id));
  const plain = plainResponses(text);
  const lacked = plain.filter((p) => !engine.has(p.id));
  const prompt = (list: readonly { usage: Usage | null }[]) => list.reduce((n, r) => n + (r.usage ? (promptTokens(r.usage) ?? 0) : 0), 0);
  const promptGap = plain.reduce((n, p) => n + p.prompt, 0) - prompt(kept) - prompt(off);
  plainTotal += plain.length;
  lackedTotal += lacked.length;
  offTotal += off.length;
  const abandoned = sessions.reduce((n, s) => n + (s.skipped['abandoned-branch'] ?? 0), 0);
  if (lacked.length > 0 || promptGap !== 0) differ++;
  if (off.length > 0) withOff++;
  if (lacked.length > 0 || promptGap !== 0 || all) {
    const version = /"version":"([^"]+)"/.exec(text)?.[1] ?? '?';
    console.log(`${key}  v${version}: ${plain.length} responses in the file, ${off.length} of them off the timeline; the engine lacks ${lacked.length}${lacked.length ? ` (first at L${lacked[0]!.line})` : ''}, prompt tokens differ by ${promptGap}; ${abandoned} records skipped as abandoned`);
  }
}
console.log(`\n${read} Claude Code session files; ${withOff} with ${offTotal} responses on abandoned branches (billed, counted off the timeline); ${differ} whose responses or prompt tokens the engine does not match: ${lackedTotal} of ${plainTotal} responses lacked (${((lackedTotal / Math.max(1, plainTotal)) * 100).toFixed(1)}%)`);
