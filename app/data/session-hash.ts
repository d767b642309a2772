// Session hashes from per-file digests: each loaded session is hashed over the files it was built
// from (a transcript with its joined logs), by the rule in src/share/content-hash.ts.
import { multiFileText, sha256Hex } from '../../src/share';
import { pickByName } from './share-build';

export interface FileDigest {
  name: string;
  /** sha256Hex of the file's bytes. */
  digest: string;
}

/** sessionHash() of a session given the digests of its files (same result as hashing the bytes). */
export async function hashFromDigests(digests: readonly string[]): Promise<string | null> {
  if (digests.length === 0) return null;
  if (digests.length === 1) return digests[0]!;
  return sha256Hex(multiFileText(digests));
}

/** One hash per session, from the digests of the files it names; null when a file is missing. */
export async function sessionHashes(sessions: readonly { files: readonly string[] }[], files: readonly FileDigest[]): Promise<(string | null)[]> {
  return Promise.all(
    sessions.map(async (s) => {
      const picked = pickByName(s.files, files);
      return picked ? hashFromDigests(picked.map((f) => f.digest)) : null;
    }),
  );
}
