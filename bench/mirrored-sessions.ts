// The real session files the mirror-reading benches run over: each labelled session of the audit set, then the other
// harnesses' files of bench/usage-cross-check-others.json, each with a key (the labelled key, or repo/path) that
// decides its half. A file the mirror lacks comes as null (mirroredFile says so on stderr).
import { readFileSync } from 'node:fs';
import { mirroredFile } from './mirrored-file';
import { mirroredSessionFile } from './labelled-session-file';
import { labelledSessions } from './labelled-fixture';

export interface MirroredSource {
  key: string;
  repo: string;
  file: { path: string; text: string } | null;
  /** The harness's version the cross-check list states (other harnesses' files only). */
  version?: string;
}

export function* mirroredSources(): Generator<MirroredSource> {
  for (const [key, s] of Object.entries(labelledSessions())) yield { key, repo: s.repo, file: mirroredSessionFile(key, s) };
  yield* otherHarnessSources();
}

/** The other harnesses' files of the usage cross-check alone; `format` keeps one harness's. */
export function* otherHarnessSources(format?: string): Generator<MirroredSource> {
  const others = JSON.parse(readFileSync(new URL('./usage-cross-check-others.json', import.meta.url), 'utf8')) as { format: string; repo: string; commit: string; path: string; version?: string }[];
  for (const o of others) {
    if (format && o.format !== format) continue;
    const key = `${o.repo}/${o.path}`;
    const text = mirroredFile(o.repo, o.commit, o.path, key);
    yield { key, repo: o.repo, file: text === null ? null : { path: o.path, text }, ...(o.version ? { version: o.version } : {}) };
  }
}
