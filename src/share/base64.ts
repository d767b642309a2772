// Base64 for bytes, both alphabets: base64url without padding for link fragments (URL-safe),
// standard base64 with padding for bundle files. The decoder is strict (no whitespace, no stray
// characters, no impossible lengths) and returns null rather than guessing.

const STD = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

function lookup(alphabet: string): Int16Array {
  const t = new Int16Array(128).fill(-1);
  for (let i = 0; i < alphabet.length; i++) t[alphabet.charCodeAt(i)] = i;
  return t;
}
const STD_LOOKUP = lookup(STD);
const URL_LOOKUP = lookup(URL);

export function encodeBase64(bytes: Uint8Array, opts: { url?: boolean } = {}): string {
  const a = opts.url ? URL : STD;
  const parts: string[] = [];
  let chunk = '';
  const n = bytes.length;
  let i = 0;
  for (; i + 2 < n; i += 3) {
    const v = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!;
    chunk += a[v >> 18]! + a[(v >> 12) & 63]! + a[(v >> 6) & 63]! + a[v & 63]!;
    // Flush now and then so very large files do not build one enormous rope.
    if (chunk.length >= 65_536) {
      parts.push(chunk);
      chunk = '';
    }
  }
  const rest = n - i;
  if (rest === 1) {
    const v = bytes[i]! << 16;
    chunk += a[v >> 18]! + a[(v >> 12) & 63]! + (opts.url ? '' : '==');
  } else if (rest === 2) {
    const v = (bytes[i]! << 16) | (bytes[i + 1]! << 8);
    chunk += a[v >> 18]! + a[(v >> 12) & 63]! + a[(v >> 6) & 63]! + (opts.url ? '' : '=');
  }
  parts.push(chunk);
  return parts.join('');
}

/** Bytes, or null when `text` is not base64 of the chosen alphabet. Padding is optional. */
export function decodeBase64(text: string, opts: { url?: boolean } = {}): Uint8Array | null {
  const table = opts.url ? URL_LOOKUP : STD_LOOKUP;
  let end = text.length;
  if (end % 4 === 0 && end > 0 && text[end - 1] === '=') end -= text[end - 2] === '=' ? 2 : 1;
  if (end % 4 === 1) return null;
  const out = new Uint8Array(Math.floor((end * 3) / 4));
  let o = 0;
  let acc = 0;
  let bits = 0;
  for (let i = 0; i < end; i++) {
    const c = text.charCodeAt(i);
    const v = c < 128 ? table[c]! : -1;
    if (v < 0) return null;
    acc = (acc << 6) | v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[o++] = (acc >> bits) & 255;
    }
    acc &= (1 << bits) - 1;
  }
  // Leftover bits must be zero, or the text was not produced by an encoder (or was cut mid-byte).
  if (acc !== 0) return null;
  return out;
}
