import { describe, expect, it } from 'vitest';
import { loadFiles } from './loader';
import { estimateRecords, jsonlPrefix } from './prefix';

const enc = (s: string) => new TextEncoder().encode(s);
const dec = (b: Uint8Array) => new TextDecoder('utf-8', { fatal: true }).decode(b);

/** A Claude Code main chain (user → assistant pairs), as its JSONL records are written one per line. */
function claudeCodeLines(pairs: number): string[] {
  const lines: string[] = [];
  let parent: string | null = null;
  for (let i = 0; i < pairs; i++) {
    const base = { isSidechain: false, userType: 'external', cwd: '/home/dev/app', sessionId: 'sess-prefix', version: '2.1.39' };
    const u = `u-${i}`;
    lines.push(JSON.stringify({ ...base, parentUuid: parent, type: 'user', uuid: u, timestamp: '2026-03-02T02:00:00.000Z', message: { role: 'user', content: `Step ${i}: check the pool — é ✓ 𝄞` } }));
    const a = `a-${i}`;
    lines.push(
      JSON.stringify({
        ...base,
        parentUuid: u,
        type: 'assistant',
        uuid: a,
        timestamp: '2026-03-02T02:00:01.000Z',
        message: { model: 'claude-opus-4-6', id: `msg_${i}`, type: 'message', role: 'assistant', content: [{ type: 'text', text: `Done with step ${i}.` }], usage: { input_tokens: 10 + i, output_tokens: 5 } },
      }),
    );
    parent = a;
  }
  return lines;
}

describe('jsonlPrefix', () => {
  it('cuts after the last newline, leaving out the partial line', () => {
    const head = enc('{"a":1}\n{"b":2}\n{"c":3');
    const cut = jsonlPrefix(head);
    expect(cut).not.toBeNull();
    expect(dec(cut!.bytes)).toBe('{"a":1}\n{"b":2}\n');
    expect(cut!.records).toBe(2);
  });

  it('counts non-blank lines only, with CRLF line ends and blank lines between records', () => {
    const cut = jsonlPrefix(enc('\r\n{"a":1}\r\n\r\n  \n{"b":2}\r\n{"c":3}\r\n{"d"'));
    expect(cut!.records).toBe(3);
    expect(dec(cut!.bytes)).toBe('\r\n{"a":1}\r\n\r\n  \n{"b":2}\r\n{"c":3}\r\n');
  });

  it('keeps a UTF-8 byte order mark and reads the first line after it', () => {
    const cut = jsonlPrefix(new Uint8Array([0xef, 0xbb, 0xbf, ...enc('{"a":1}\n{"b":2}\n{')]));
    expect(cut!.records).toBe(2);
    expect(Array.from(cut!.bytes.subarray(0, 3))).toEqual([0xef, 0xbb, 0xbf]);
  });

  it('never splits a multi-byte character: the cut decodes as strict UTF-8', () => {
    const lines = claudeCodeLines(20);
    const bytes = enc(lines.join('\n') + '\n');
    const twoLines = enc(`${lines[0]}\n${lines[1]}\n`).length;
    // Head lengths every few bytes once two lines are whole, many ending inside é, ✓ or 𝄞.
    for (let n = twoLines; n < bytes.length; n += 7) {
      const cut = jsonlPrefix(bytes.subarray(0, n))!;
      expect(() => dec(cut.bytes)).not.toThrow();
      expect(dec(cut.bytes).endsWith('\n')).toBe(true);
    }
  });

  it('refuses a file whose first non-blank line is not a JSON object', () => {
    expect(jsonlPrefix(enc('{\n  "messages": [\n    {"role": "user"}\n  ]\n}\n'))).toBeNull(); // pretty-printed JSON
    expect(jsonlPrefix(enc('[{"a":1}]\n[{"b":2}]\n'))).toBeNull(); // arrays, not objects
    expect(jsonlPrefix(enc('hello\n{"a":1}\n{"b":2}\n'))).toBeNull();
    expect(jsonlPrefix(enc('null\n{"a":1}\n'))).toBeNull();
  });

  it('refuses a head without a newline or with a single record, and UTF-16 text', () => {
    expect(jsonlPrefix(enc('{"a":1,"b":"a very long first line'))).toBeNull();
    expect(jsonlPrefix(enc('{"a":1}\n{"b":'))).toBeNull();
    expect(jsonlPrefix(new Uint8Array([0xff, 0xfe, 0x7b, 0x00, 0x7d, 0x00, 0x0a, 0x00]))).toBeNull();
    expect(jsonlPrefix(new Uint8Array([0xfe, 0xff, 0x00, 0x7b, 0x00, 0x7d, 0x00, 0x0a]))).toBeNull();
    expect(jsonlPrefix(new Uint8Array())).toBeNull();
  });

  it('gives the loader a prefix it parses without any issue, whatever the cut', () => {
    const bytes = enc(claudeCodeLines(40).join('\n') + '\n');
    for (const n of [1000, 4321, 9999, bytes.length - 3]) {
      const cut = jsonlPrefix(bytes.subarray(0, n))!;
      const r = loadFiles([{ name: 'session.jsonl', bytes: cut.bytes }]);
      expect(r.issues).toEqual([]);
      expect(r.sessions).toHaveLength(1);
      const users = r.sessions[0]!.items.filter((i) => i.role === 'user');
      expect(users.length).toBe(Math.ceil(cut.records / 2));
      expect(users[0]!.text).toContain('Step 0');
    }
  });
});

describe('estimateRecords', () => {
  it('scales the prefix count by the file size, to two significant digits', () => {
    expect(estimateRecords(1034, 3_900_000, 99_900_000)).toBe(26_000);
    expect(estimateRecords(1000, 5_000_000, 100_000_000)).toBe(20_000);
    expect(estimateRecords(123, 1_000_000, 9_000_000)).toBe(1_100);
  });

  it('never guesses fewer records than the prefix holds', () => {
    expect(estimateRecords(50, 1_000, 1_000)).toBe(50);
    expect(estimateRecords(7, 0, 100)).toBe(7);
  });
});
