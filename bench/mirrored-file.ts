// A file of a repository mirrored by the search tool's `fetch` (/work/.mirror/<owner>+<name>/repo, or MIRROR), read at
// a ref: how the judged-flag scripts reach the real session files they judge.
import { execFileSync } from 'node:child_process';

export const MIRROR = process.env['MIRROR'] ?? '/work/.mirror';

/** The file's text, or null (said on stderr) when the mirror lacks the repository, the ref or the path. */
export function mirroredFile(repo: string, ref: string, path: string, key: string): string | null {
  try {
    return execFileSync('git', ['-C', `${MIRROR}/${repo.replace('/', '+')}/repo`, 'show', `${ref}:${path}`], { encoding: 'utf8', maxBuffer: 1 << 30 });
  } catch {
    console.warn(`${key}: ${repo} ${path} not in the mirror; skipped`);
    return null;
  }
}
