// The start of a big JSONL file, cut after its last whole line, so a preview can be parsed from it
// with the ordinary loader while the rest is read: a cut record would otherwise become a parse error.

/**
 * More files than this at once is a corpus, not one session with its logs (plan-open.ts). Here, beside the preview's
 * sizes, since the page's first bundle reads both and not the plan's code.
 */
export const CORPUS_FILE_COUNT = 20;

/** Files smaller than this open whole, as they always did. */
export const PREVIEW_MIN_BYTES = 8 << 20;
/** How much of a big file the preview reads (cut back to the last newline in it). */
export const PREVIEW_PREFIX_BYTES = 3 << 20;

export interface JsonlPrefix {
  /** The head up to and including its last newline (a UTF-8 byte order mark stays, the decoder drops it). */
  bytes: Uint8Array;
  /** Non-blank lines in it. */
  records: number;
}

const NL = 0x0a;

function isBlank(bytes: Uint8Array, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const b = bytes[i]!;
    if (b !== 0x20 && b !== 0x09 && b !== 0x0d) return false;
  }
  return true;
}

/**
 * The whole lines at the start of `head` (the first bytes of a larger file), or null when the file is
 * not line-based JSON: its first non-blank line must parse as a JSON object, and the head must hold at
 * least two records (one line alone would be read as a JSON document, not JSONL). UTF-16 is refused:
 * its newlines are two bytes wide.
 */
export function jsonlPrefix(head: Uint8Array): JsonlPrefix | null {
  if ((head[0] === 0xff && head[1] === 0xfe) || (head[0] === 0xfe && head[1] === 0xff)) return null;
  const start = head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf ? 3 : 0;
  // A newline byte never occurs inside a multi-byte UTF-8 character, so this cut splits none.
  const end = head.lastIndexOf(NL) + 1;
  if (end <= start) return null;
  let records = 0;
  let firstChecked = false;
  let lineStart = start;
  while (lineStart < end) {
    const lineEnd = head.indexOf(NL, lineStart);
    if (!isBlank(head, lineStart, lineEnd)) {
      if (!firstChecked) {
        firstChecked = true;
        if (!isJsonObjectLine(head.subarray(lineStart, lineEnd))) return null;
      }
      records++;
    }
    lineStart = lineEnd + 1;
  }
  return records >= 2 ? { bytes: head.subarray(0, end), records } : null;
}

function isJsonObjectLine(line: Uint8Array): boolean {
  try {
    const value: unknown = JSON.parse(new TextDecoder('utf-8').decode(line));
    return typeof value === 'object' && value !== null && !Array.isArray(value);
  } catch {
    return false;
  }
}

/** Records in the whole file, judged from the prefix's share of its bytes, to two significant digits. */
export function estimateRecords(prefixRecords: number, prefixBytes: number, totalBytes: number): number {
  if (prefixBytes <= 0) return prefixRecords;
  const n = (prefixRecords * totalBytes) / prefixBytes;
  if (n < 100) return Math.max(prefixRecords, Math.round(n));
  const unit = 10 ** (Math.floor(Math.log10(n)) - 1);
  return Math.max(prefixRecords, Math.round(n / unit) * unit);
}
