// Versioned formats (links, bundles): an integer version, upgraded one step at a time to the
// current one before the strict schema reads it. A version newer than this app is refused with a
// message that says so, rather than half-read.
import type { Result } from './schema';

/** `upgraders[n]` turns a version-n document into a version-(n+1) document. */
export type Upgraders = Readonly<Record<number, (doc: unknown) => Result<unknown>>>;

export interface VersionedFormat {
  /** What the user calls it, for messages: "share link", "bundle". */
  label: string;
  current: number;
  upgraders: Upgraders;
}

/** Why this app cannot read `version` of `format`, or null when it can. */
export function versionProblem(format: VersionedFormat, version: unknown): string | null {
  const { label, current } = format;
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 1) {
    return `This ${label} has no valid version (expected a whole number from 1 to ${current}).`;
  }
  if (version > current) {
    return `This ${label} was made by a newer version of Compaction Inspector (${label} format ${version}; this app reads up to ${current}). Update the app to open it.`;
  }
  return null;
}

/** `doc`, written in `version`, brought up to `format.current` one step at a time. */
export function upgrade(format: VersionedFormat, version: unknown, doc: unknown): Result<unknown> {
  const problem = versionProblem(format, version);
  if (problem !== null || typeof version !== 'number') return { ok: false, error: problem ?? 'no version' };
  const { label, current } = format;
  let cur = doc;
  for (let v = version; v < current; v++) {
    const step = Object.prototype.hasOwnProperty.call(format.upgraders, v) ? format.upgraders[v] : undefined;
    if (!step) return { ok: false, error: `This app cannot upgrade a ${label} from format ${v} to ${v + 1}.` };
    let next: Result<unknown>;
    try {
      next = step(cur);
    } catch (e) {
      // Upgraders read untrusted input too; a throw is a bug that must not escape the decoder.
      next = { ok: false, error: e instanceof Error ? e.message : String(e) };
    }
    if (!next.ok) return { ok: false, error: `Upgrading the ${label} from format ${v} to ${v + 1} failed: ${next.error}` };
    cur = next.value;
  }
  return { ok: true, value: cur };
}
