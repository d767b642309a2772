// A labelled session's file, read at its recorded commit from a local mirror (`fetch` of the search tool:
// /work/.mirror/<owner>+<name>/repo, or MIRROR). The bench scripts that check labels against the real sessions share it.
import type { LabelledSession } from '../src/audit/labelled-set';
import { loadText } from '../src/load/loader';
import type { Session } from '../src/model/types';
import { mirroredFile } from './mirrored-file';

/** The session file's path and text, or null (and a warning naming it) when the mirror lacks it. */
export function mirroredSessionFile(key: string, s: LabelledSession): { path: string; text: string } | null {
  const path = s.path.replace(/ \((?:branch|ref) [^)]+\)$/, '');
  const text = mirroredFile(s.repo, s.commit, path, `${key} @ ${s.commit.slice(0, 10)}`);
  return text === null ? null : { path, text };
}

/** The session of that file that holds a compaction (the one its rows were labelled on), or null. */
export function mirroredCompactedSession(key: string, s: LabelledSession): Session | null {
  const file = mirroredSessionFile(key, s);
  return file ? (loadText(file.path, file.text).sessions.find((x) => x.compactions.length > 0) ?? null) : null;
}
