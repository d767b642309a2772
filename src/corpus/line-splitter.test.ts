import { describe, expect, it } from 'vitest';
import { ByteLineSplitter, isBlankLine, type ByteLine } from './line-splitter';

const enc = new TextEncoder();
const dec = new TextDecoder();

function split(chunks: string[]): ByteLine[] {
  const out: ByteLine[] = [];
  const s = new ByteLineSplitter((l) => out.push(l));
  for (const c of chunks) s.push(enc.encode(c));
  s.finish();
  return out;
}

describe('ByteLineSplitter', () => {
  it('cuts lines on newlines whatever the chunk boundaries, with byte ranges that slice the original', () => {
    const text = '{"a":"é"}\n\n{"b":2}\r\nlast';
    const bytes = enc.encode(text);
    for (const size of [1, 2, 3, 5, 100]) {
      // Chunk on bytes (a multi-byte character may be cut), as a file stream does.
      const out: ByteLine[] = [];
      const s = new ByteLineSplitter((l) => out.push(l));
      for (let i = 0; i < bytes.length; i += size) s.push(bytes.subarray(i, i + size));
      s.finish();
      expect(out.map((l) => [l.line, dec.decode(l.bytes)]), `chunk ${size}`).toEqual([
        [1, '{"a":"é"}'],
        [2, ''],
        [3, '{"b":2}\r'],
        [4, 'last'],
      ]);
      for (const l of out) expect(dec.decode(bytes.subarray(l.start, l.end))).toBe(dec.decode(l.bytes));
    }
  });

  it('emits no extra line after a final newline', () => {
    expect(split(['a\n', 'b\n']).map((l) => l.line)).toEqual([1, 2]);
  });

  it('does not keep a reference to the caller\'s chunk buffer', () => {
    const out: ByteLine[] = [];
    const s = new ByteLineSplitter((l) => out.push(l));
    const buf = enc.encode('abc');
    s.push(buf);
    buf.fill(120);
    s.finish();
    expect(dec.decode(out[0]!.bytes)).toBe('abc');
  });
});

describe('isBlankLine', () => {
  it('treats spaces, tabs and a carriage return as blank', () => {
    expect(isBlankLine(enc.encode(' \t\r'))).toBe(true);
    expect(isBlankLine(enc.encode(' x'))).toBe(false);
  });
});
