// Bytes → text, refusing what is clearly not a text transcript before any JSON parsing.

export type Decoded = { ok: true; text: string; warnings: string[] } | { ok: false; message: string };

const ZIP = [0x50, 0x4b, 0x03, 0x04];
const GZIP = [0x1f, 0x8b];
const ZSTD = [0x28, 0xb5, 0x2f, 0xfd];

function startsWith(bytes: Uint8Array, magic: number[]): boolean {
  return magic.every((b, i) => bytes[i] === b);
}

/** A zip archive (an Inspect `.eval` log is one): read by `readEvalArchive`, not decoded as text. */
export function isZip(bytes: Uint8Array): boolean {
  return startsWith(bytes, ZIP);
}

export function decodeBytes(bytes: Uint8Array): Decoded {
  if (bytes.length === 0) return { ok: false, message: 'the file is empty' };
  if (isZip(bytes)) return { ok: false, message: 'this is a zip archive, not a transcript; unzip it and drop the files inside' };
  if (startsWith(bytes, GZIP)) return { ok: false, message: 'this is a gzip archive, not a transcript; decompress it first' };
  // Codex compresses archived rollouts older than a week (`rollout-….jsonl.zst`, codex-rs rollout/src/compression.rs).
  if (startsWith(bytes, ZSTD)) return { ok: false, message: 'this is a zstd-compressed file (Codex compresses archived rollouts this way), not a transcript; decompress it first (zstd -d)' };
  const warnings: string[] = [];
  if (bytes[0] === 0xff && bytes[1] === 0xfe) {
    return { ok: true, text: new TextDecoder('utf-16le').decode(bytes.subarray(2)), warnings: ['decoded as UTF-16LE (byte order mark)'] };
  }
  if (bytes[0] === 0xfe && bytes[1] === 0xff) {
    return { ok: true, text: new TextDecoder('utf-16be').decode(bytes.subarray(2)), warnings: ['decoded as UTF-16BE (byte order mark)'] };
  }
  let body = bytes;
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) body = bytes.subarray(3);
  const head = body.subarray(0, 4096);
  let nul = 0;
  for (const b of head) if (b === 0) nul++;
  if (nul > 0) return { ok: false, message: `binary data (${nul} NUL bytes in the first ${head.length} bytes); expected JSON or JSONL text` };
  try {
    return { ok: true, text: new TextDecoder('utf-8', { fatal: true }).decode(body), warnings };
  } catch {
    warnings.push('invalid UTF-8 byte sequences were replaced with U+FFFD');
    return { ok: true, text: new TextDecoder('utf-8').decode(body), warnings };
  }
}
