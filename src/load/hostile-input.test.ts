// Hostile and broken files: each gives a clear error naming file, line and field, or a partial load; none throws.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadFile, loadFiles, type LoadResult } from './loader';

const FIXTURES = new URL('../formats/__fixtures__/', import.meta.url);
const enc = (s: string) => new TextEncoder().encode(s);
const load = (name: string, bytes: Uint8Array) => loadFile({ name, bytes });

function expectCleanErrors(r: LoadResult, file: string) {
  for (const issue of r.issues) {
    expect(issue.file).toBe(file);
    expect(issue.message.length).toBeGreaterThan(5);
  }
}

describe('loadFile on broken bytes', () => {
  it('names an empty file', () => {
    expect(load('empty.json', new Uint8Array()).issues).toEqual([{ file: 'empty.json', line: null, field: null, message: 'the file is empty', severity: 'error' }]);
  });

  it('refuses a zip renamed to .json and binary data', () => {
    const zip = new Uint8Array([0x50, 0x4b, 0x03, 0x04, 1, 2, 3, 0, 0]);
    expect(load('logs.json', zip).issues[0]!.message).toContain('zip archive');
    const bin = new Uint8Array(256).map((_, i) => i);
    expect(load('blob.json', bin).issues[0]!.message).toContain('binary data');
  });

  it('names a compressed rollout (zstd, as Codex archives them) and gzip for what they are', () => {
    const zst = new Uint8Array([0x28, 0xb5, 0x2f, 0xfd, 0x24, 0x10, 0x81, 0, 0]);
    expect(load('rollout-2026-07-01T10-00-00.jsonl.zst', zst).issues[0]).toMatchObject({ file: 'rollout-2026-07-01T10-00-00.jsonl.zst', severity: 'error', message: expect.stringContaining('zstd-compressed') });
    expect(load('log.jsonl.gz', new Uint8Array([0x1f, 0x8b, 8, 0])).issues[0]!.message).toContain('gzip archive');
  });

  it('reads UTF-8 with a BOM and UTF-16 with its byte order mark', () => {
    const body = '{"messages":[{"role":"user","content":"héllo"}]}';
    const bom = new Uint8Array([0xef, 0xbb, 0xbf, ...enc(body)]);
    expect(load('bom.json', bom).sessions[0]!.items[0]!.text).toBe('héllo');
    const u16 = new Uint8Array(2 + body.length * 2);
    u16[0] = 0xff;
    u16[1] = 0xfe;
    for (let i = 0; i < body.length; i++) new DataView(u16.buffer).setUint16(2 + i * 2, body.charCodeAt(i), true);
    const r = load('u16.json', u16);
    expect(r.sessions[0]!.items[0]!.text).toBe('héllo');
    expect(r.issues).toEqual([expect.objectContaining({ severity: 'warning', message: expect.stringContaining('UTF-16LE') })]);
  });

  it('replaces invalid UTF-8 and says so', () => {
    const bytes = new Uint8Array([...enc('{"messages":[{"role":"user","content":"a'), 0xc3, 0x28, ...enc('"}]}')]);
    const r = load('bad-utf8.json', bytes);
    expect(r.sessions[0]!.items[0]!.text).toContain('\uFFFD');
    expect(r.issues).toContainEqual(expect.objectContaining({ severity: 'warning', message: expect.stringContaining('invalid UTF-8') }));
  });

  it('names the line of truncated JSON', () => {
    const r = load('cut.json', enc('{\n  "messages": [\n    {"role": "user", "content": "hi"'));
    expect(r.sessions).toEqual([]);
    expect(r.issues).toEqual([{ file: 'cut.json', line: 3, field: null, message: expect.stringContaining('invalid JSON'), severity: 'error' }]);
  });

  it('survives JSON nested 100k levels deep', () => {
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    const r = load('deep.json', enc(deep));
    expect(r.sessions).toEqual([]);
    expect(r.issues).toHaveLength(1);
    expectCleanErrors(r, 'deep.json');
  });

  it('survives a 50 MB single line', () => {
    const line = `{"messages":[{"role":"user","content":"${'x'.repeat(50 * 1024 * 1024)}"}]`;
    const r = load('huge-line.json', enc(line));
    expect(r.sessions).toEqual([]);
    expect(r.issues[0]).toMatchObject({ file: 'huge-line.json', message: expect.stringContaining('invalid JSON') });
  });

  it('keeps __proto__ and constructor keys as data, never on the prototype chain', () => {
    const r = load('proto.json', enc('{"__proto__":{"polluted":true},"constructor":{"prototype":{"x":1}},"messages":[{"role":"user","content":"hi","__proto__":{"role":"system"}}]}'));
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(r.sessions[0]!.items[0]).toMatchObject({ role: 'user', text: 'hi' });
  });

  it('takes huge numbers without breaking usage figures', () => {
    const line = JSON.stringify({ request: { model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] }, response: { usage: { prompt_tokens: 1e308, completion_tokens: -5, prompt_tokens_details: { cached_tokens: 'many' } } } });
    const r = load('nums.jsonl', enc(`${line}\n${line}\n`));
    expect(r.sessions).toHaveLength(1);
    expectCleanErrors(r, 'nums.jsonl');
  });

  it('reports the lines of another format mixed into a JSONL and keeps the rest', () => {
    const cc = readFileSync(new URL('claude-code-session.jsonl', FIXTURES), 'utf8').trim().split('\n');
    const foreign = JSON.stringify({ timestamp: '2026-01-01T00:00:00Z', type: 'response_item', payload: { type: 'message', role: 'user', content: [] } });
    const mixed = [...cc.slice(0, 5), foreign, 'not json', ...cc.slice(5)].join('\n');
    const r = load('mixed.jsonl', enc(mixed));
    expect(r.sessions).toHaveLength(1);
    expect(r.issues.filter((i) => i.severity === 'error').every((i) => i.line !== null)).toBe(true);
    expect(r.issues.some((i) => i.line === 7)).toBe(true);
  });
});

/** Every path to a value inside a JSON value, breadth-first. */
function paths(v: unknown, prefix: (string | number)[] = [], out: (string | number)[][] = []): (string | number)[][] {
  out.push(prefix);
  if (Array.isArray(v)) v.slice(0, 6).forEach((x, i) => paths(x, [...prefix, i], out));
  else if (v && typeof v === 'object') for (const k of Object.keys(v)) paths((v as Record<string, unknown>)[k], [...prefix, k], out);
  return out;
}

function withValue(root: unknown, p: (string | number)[], value: unknown): unknown {
  if (p.length === 0) return value;
  const copy: unknown = structuredClone(root);
  let cur = copy as Record<string | number, unknown>;
  for (const k of p.slice(0, -1)) cur = cur[k] as Record<string | number, unknown>;
  cur[p[p.length - 1]!] = value;
  return copy;
}

/** A value of the wrong type for whatever was there. */
function wrongFor(v: unknown): unknown {
  if (typeof v === 'string') return { text: v };
  if (typeof v === 'number') return 'NaN';
  if (typeof v === 'boolean') return 'yes';
  if (Array.isArray(v)) return 'not-a-list';
  if (v && typeof v === 'object') return 42;
  return ['null'];
}

describe('wrong types in every field of every fixture', () => {
  const files = readdirSync(FIXTURES).filter((f) => /\.(jsonl?|json)$/.test(f));
  for (const file of files) {
    it(`${file}: every mutated field gives a load or a located error, never a throw`, () => {
      const text = readFileSync(new URL(file, FIXTURES), 'utf8');
      const isJsonl = file.endsWith('.jsonl');
      // Fixtures may hold a deliberately broken line; it stays as raw text and is not mutated.
      const raw = isJsonl ? text.trim().split('\n') : [text];
      const parse = (l: string): unknown => {
        try {
          return JSON.parse(l);
        } catch {
          return undefined;
        }
      };
      const records: unknown[] = raw.map(parse);
      let mutations = 0;
      records.slice(0, 12).forEach((record, ri) => {
        if (record === undefined) return;
        for (const p of paths(record).slice(1, 40)) {
          let value: unknown = record;
          for (const k of p) value = (value as Record<string | number, unknown>)[k];
          const mutated = withValue(record, p, wrongFor(value));
          const body = isJsonl ? records.map((r, i) => (i === ri ? JSON.stringify(mutated) : r === undefined ? raw[i] : JSON.stringify(r))).join('\n') : JSON.stringify(mutated, null, 2);
          const r = loadFiles([{ name: file, bytes: enc(body) }]);
          mutations++;
          expectCleanErrors(r, file);
          // A located problem: JSONL errors name their line; JSON errors name a line or a field.
          for (const issue of r.issues.filter((i) => i.severity === 'error')) {
            if (isJsonl) expect(issue.line ?? issue.field).not.toBeNull();
          }
        }
      });
      expect(mutations).toBeGreaterThan(3);
    });
  }
});
