// Splits a byte stream into lines without holding more than the current line: the corpus reads JSONL files of
// any size this way. Lines are cut on bytes (0x0A), so each line knows its byte range in the file and can be
// re-read later with a slice, without scanning the file again.

export interface ByteLine {
  /** 1-based line number. */
  line: number;
  /** Byte offset of the line's first byte in the stream. */
  start: number;
  /** Byte offset just past the line (before its `\n`; a trailing `\r` is inside). */
  end: number;
  bytes: Uint8Array;
}

export class ByteLineSplitter {
  private pending: Uint8Array[] = [];
  private pendingLength = 0;
  private offset = 0;
  private lineNo = 0;

  constructor(private readonly emit: (line: ByteLine) => void) {}

  push(chunk: Uint8Array): void {
    let from = 0;
    for (let nl = chunk.indexOf(10); nl >= 0; nl = chunk.indexOf(10, from)) {
      this.flush(chunk.subarray(from, nl));
      this.offset += 1; // the newline itself
      from = nl + 1;
    }
    if (from < chunk.length) {
      // Copy: the caller may reuse its chunk buffer.
      this.pending.push(chunk.slice(from));
      this.pendingLength += chunk.length - from;
    }
  }

  /** Emits the last line when the stream does not end with a newline. */
  finish(): void {
    if (this.pendingLength > 0) this.flush(new Uint8Array(0));
  }

  private flush(tail: Uint8Array): void {
    let bytes = tail;
    if (this.pendingLength > 0) {
      bytes = new Uint8Array(this.pendingLength + tail.length);
      let at = 0;
      for (const p of this.pending) {
        bytes.set(p, at);
        at += p.length;
      }
      bytes.set(tail, at);
      this.pending = [];
      this.pendingLength = 0;
    }
    this.lineNo++;
    const start = this.offset;
    this.offset += bytes.length;
    this.emit({ line: this.lineNo, start, end: this.offset, bytes });
  }
}

/** True when the line holds only spaces, tabs and `\r`. */
export function isBlankLine(bytes: Uint8Array): boolean {
  for (const b of bytes) if (b !== 32 && b !== 9 && b !== 13) return false;
  return true;
}
