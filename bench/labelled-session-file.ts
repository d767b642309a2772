// A labelled session's file, read at its recorded commit from a local mirror (`fetch` of the search tool:
// /work/.mirror/<owner>+<name>/repo, or MIRROR). The bench scripts that check labels against the real sessions share it.
import { execFileSync } from 'node:child_process';
import type { LabelledSession } from '../src/audit/labelled-set';
import { loadText } from '../src/load/loader';
import type { Session } from '../src/model/types';

const MIRROR = process.env['MIRROR'] ?? '/work/.mirror';

/** The session file's path and text, or null (and a warning naming it) when the mirror lacks it. */
export function mirroredSessionFile(key: string, s: LabelledSession): { path: string; text: string } | null {
  const path = s.path.replace(/ \((?:branch|ref) [^)]+\)$/, '');
  try {
    const text = execFileSync('git', ['-C', `${MIRROR}/${s.repo.replace('/', '+')}/repo`, 'show', `${s.commit}:${path}`], { encoding: 'utf8', maxBuffer: 1 << 30 });
    return { path, text };
  } catch {
    console.warn(`${key}: ${s.repo} ${path} @ ${s.commit.slice(0, 10)} not in the mirror; skipped`);
    return null;
  }
}

/** The session of that file that holds a compaction (the one its rows were labelled on), or null. */
export function mirroredCompactedSession(key: string, s: LabelledSession): Session | null {
  const file = mirroredSessionFile(key, s);
  return file ? (loadText(file.path, file.text).sessions.find((x) => x.compactions.length > 0) ?? null) : null;
}
