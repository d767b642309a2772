// The CLI opens what it is given as the app does (src/load/plan-open.ts), with sessions asked for: a bundle opens
// as its own files (its warnings kept as warnings), a JSONL of whole trajectories is named as a corpus for
// `compaction-inspector corpus`, and everything else is loaded together, joined where it belongs together.
import { loadFiles, type InputFile, type LoadResult } from '../load/loader';
import { memorySource, planOpen } from '../load/plan-open';
import { decodeBundle } from '../share/bundle';
import type { InstructionFilesRead } from './instruction-files';

/**
 * The sessions, and the instruction files given among them (a CLAUDE.md named beside the session, as a drop in the app
 * gives it): read as a file named to `--instructions` is, for every session's audit.
 */
export async function openInputs(inputs: readonly InputFile[]): Promise<LoadResult & { instructions: InstructionFilesRead }> {
  const plan = await planOpen(inputs.map(memorySource), { corpus: false });
  const instructions: InstructionFilesRead = { files: [], read: [] };
  for (const f of plan.instructions) {
    instructions.files.push({ path: f.name, text: new TextDecoder().decode(f.bytes) });
    instructions.read.push({ path: f.name, bytes: f.bytes.length });
  }
  const loaded = loadFiles(plan.sessions.map(({ name, bytes }) => ({ name, bytes })));
  const sessions = [...loaded.sessions];
  const issues = [...plan.problems, ...loaded.issues];
  for (const b of plan.bundles) {
    const r = await decodeBundle(b.bytes);
    if (!r.ok) {
      issues.push({ file: b.name, line: null, field: null, message: r.error, severity: 'error' });
      continue;
    }
    for (const message of r.value.warnings) issues.push({ file: b.name, line: null, field: null, message, severity: 'warning' });
    const inner = loadFiles(r.value.value.files);
    sessions.push(...inner.sessions);
    issues.push(...inner.issues);
  }
  return { sessions, issues, instructions };
}
