// The CLI opens what it is given as the app does (src/load/plan-open.ts), with sessions asked for: a bundle opens
// as its own files (its warnings kept as warnings), a JSONL of whole trajectories is named as a corpus for
// `compaction-inspector corpus`, and everything else is loaded together, joined where it belongs together.
import { loadFiles, type InputFile, type LoadResult } from '../load/loader';
import { memorySource, planOpen } from '../load/plan-open';
import { decodeBundle } from '../share/bundle';

export async function openInputs(inputs: readonly InputFile[]): Promise<LoadResult> {
  const plan = await planOpen(inputs.map(memorySource), { corpus: false });
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
  return { sessions, issues };
}
