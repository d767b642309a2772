// Content hashes: the key of the local library and the check a teammate's file must pass.
//
// The rule (version 1), exactly:
//   - sha256Hex(x): lowercase hex SHA-256 of the bytes; a string is hashed as its UTF-8 bytes.
//   - sessionHash of ONE file: sha256Hex(bytes). It equals `sha256sum file`, so a user can check it by hand.
//   - sessionHash of N ≥ 2 files (a transcript plus its logs): hash each file, sort the N lowercase hex
//     digests as strings, and hash the UTF-8 text
//         "compaction-inspector/session/1\n" + digest_1 + "\n" + … + digest_N + "\n"
//     The prefix keeps this from ever equalling the hash of some single file.
//   - File names are NOT part of the hash: downloads and chat apps rename files ("session (1).jsonl"),
//     and a renamed copy of the same bytes is the same session. Order does not matter either.
//     The same file given twice counts twice (the digests are a list, not a set).
// Uses globalThis.crypto.subtle (browsers in secure contexts, Node ≥ 19), so it is async; where a page
// has no subtle (plain http on a LAN address) a pure-JS SHA-256 gives the same digest.
import { sha256Bytes } from './sha256-fallback';

export interface HashInput {
  name?: string;
  bytes: Uint8Array | string;
}

export const MULTI_FILE_PREFIX = 'compaction-inspector/session/1\n';

const encoder = new TextEncoder();

export async function sha256Hex(data: Uint8Array | ArrayBuffer | string): Promise<string> {
  const bytes = typeof data === 'string' ? encoder.encode(data) : data instanceof Uint8Array ? data : new Uint8Array(data);
  const subtle = globalThis.crypto?.subtle;
  if (!subtle) return toHex(sha256Bytes(bytes));
  // A view on a SharedArrayBuffer or a subrange is copied into a plain buffer subtle.digest accepts.
  const plain = bytes.buffer instanceof ArrayBuffer && bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes.buffer : bytes.slice().buffer;
  const digest = await subtle.digest('SHA-256', plain);
  return toHex(new Uint8Array(digest));
}

/** The hash of a session made of `files` (see the rule above). */
export async function sessionHash(files: readonly HashInput[]): Promise<string> {
  const digests = await Promise.all(files.map((f) => sha256Hex(f.bytes)));
  if (digests.length === 1) return digests[0]!;
  return sha256Hex(multiFileText(digests));
}

/** The text hashed for several files, given their digests: exposed so the rule is testable and checkable. */
export function multiFileText(digests: readonly string[]): string {
  return MULTI_FILE_PREFIX + [...digests].sort().map((d) => `${d}\n`).join('');
}

export const SHA256_HEX = /^[0-9a-f]{64}$/;

export function isSha256Hex(s: unknown): s is string {
  return typeof s === 'string' && SHA256_HEX.test(s);
}

/** First 12 hex digits, for labels ("session 3f9a1c0b2d4e"). */
export function shortHash(hash: string): string {
  return hash.slice(0, 12);
}

export function toHex(bytes: Uint8Array): string {
  let s = '';
  for (const b of bytes) s += b.toString(16).padStart(2, '0');
  return s;
}
