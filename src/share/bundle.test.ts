import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { bundleFileName, decodeBundle, encodeBundle, isBundle, sniffBundle, type BundleInput } from './bundle';
import type { BundleLimits } from './limits';
import { note, onCall, onItem, T0, view } from './test-builders';
import type { VersionedFormat } from './versioned';

const enc = (s: string) => new TextEncoder().encode(s);
const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

// A transcript with a BOM and non-ASCII text, a request log, and a file that is not UTF-8.
const transcript = enc('\uFEFF{"type":"user","message":"héllo 👋"}\n');
const log = enc('{"messages":[]}\n');
const binary = new Uint8Array([0x00, 0xff, 0xfe, 0x80, 0x41]);

const input = (extra: Partial<BundleInput> = {}): BundleInput => ({
  files: [
    { name: 'session.jsonl', bytes: transcript },
    { name: 'requests.jsonl', bytes: log },
    { name: 'blob.bin', bytes: binary },
  ],
  annotations: [note('a1', onItem('m3'), 'lost the port', { tags: ['lost fact'] }), note('a2', onCall(2), 'ok')],
  view: view(),
  createdAt: T0,
  ...extra,
});

async function encoded(i: BundleInput = input()): Promise<string> {
  const r = await encodeBundle(i);
  if (!r.ok) throw new Error(r.error);
  return r.value;
}

async function bad(text: string | Uint8Array, limits?: Partial<BundleLimits>): Promise<string> {
  const r = await decodeBundle(text, limits ? { limits } : {});
  expect(r.ok).toBe(false);
  return r.ok ? '' : r.error;
}

describe('encodeBundle / decodeBundle', () => {
  it('round-trips files byte for byte (BOM, emoji, binary), annotations, view and the hash', async () => {
    const text = await encoded();
    const r = await decodeBundle(text);
    if (!r.ok) throw new Error(r.error);
    const { value, version, warnings } = r.value;
    expect(version).toBe(1);
    expect(warnings).toEqual([]);
    expect(value.files.map((f) => f.name)).toEqual(['session.jsonl', 'requests.jsonl', 'blob.bin']);
    expect(value.files.map((f) => sha(f.bytes))).toEqual([sha(transcript), sha(log), sha(binary)]);
    expect(value.annotations).toEqual(input().annotations);
    expect(value.view).toEqual(view());
    expect(value.createdAt).toBe(T0);
    expect(value.sessionHash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('writes the documented shape: version key first, utf8 for text files and base64 for the rest', async () => {
    const doc = JSON.parse(await encoded());
    expect(Object.keys(doc)).toEqual(['compactionInspectorBundle', 'createdAt', 'sessionHash', 'view', 'annotations', 'files']);
    expect(doc.compactionInspectorBundle).toBe(1);
    expect(doc.files).toEqual([
      { name: 'session.jsonl', encoding: 'utf8', data: '\uFEFF{"type":"user","message":"héllo 👋"}\n' },
      { name: 'requests.jsonl', encoding: 'utf8', data: '{"messages":[]}\n' },
      { name: 'blob.bin', encoding: 'base64', data: 'AP/+gEE=' },
    ]);
  });

  it('reads the bundle from its bytes as well as its text', async () => {
    const r = await decodeBundle(enc(await encoded()));
    expect(r.ok && r.value.value.files.length).toBe(3);
  });

  it('never writes fields beyond the typed ones (no apiKey at any level)', async () => {
    const leaky = {
      ...input(),
      apiKey: 'sk-proj-SECRET',
      view: { ...view(), apiKey: 'sk-proj-SECRET' },
      annotations: [{ ...note('a1', onCall(1), 'x'), apiKey: 'sk-proj-SECRET' }],
    } as unknown as BundleInput;
    const text = await encoded(leaky);
    expect(text).not.toContain('SECRET');
    expect(text).not.toContain('apiKey');
  });

  it('refuses to export an empty or oversized bundle, saying why', async () => {
    expect(await encodeBundle(input({ files: [] }))).toEqual({ ok: false, error: 'Cannot export this bundle: files: a bundle needs at least one file.' });
    expect(await encodeBundle(input(), { limits: { fileBytes: 40 } })).toEqual({ ok: false, error: 'Cannot export this bundle: files[0]: "session.jsonl" has 43 bytes, over the 40-byte limit per file.' });
    expect(await encodeBundle(input({ createdAt: 'now' }))).toEqual({ ok: false, error: 'Cannot export this bundle: createdAt: is not an ISO 8601 date-time such as 2025-03-01T10:20:30Z.' });
  });

  it('warns, without failing, when the files no longer match the recorded hash', async () => {
    const doc = JSON.parse(await encoded());
    doc.files[1].data = '{"messages":[1]}\n';
    const r = await decodeBundle(JSON.stringify(doc));
    expect(r.ok).toBe(true);
    expect(r.ok && r.value.warnings).toEqual([expect.stringMatching(/^The files in this bundle do not match its recorded hash \(recorded [0-9a-f]{12}…, files [0-9a-f]{12}…\)/)]);
  });
});

describe('decodeBundle on malformed bundles', () => {
  const doc = async () => JSON.parse(await encoded()) as Record<string, any>;

  it('says when the file is not JSON, not UTF-8 or not a bundle', async () => {
    expect(await bad('{"compactionInspectorBundle": 1, "files": [')).toMatch(/^This bundle is damaged: it is not valid JSON \(/);
    expect(await bad(new Uint8Array([0xff, 0xfe, 0x00]))).toBe('This is not a bundle: the file is not UTF-8 text.');
    expect(await bad('{"messages": []}')).toBe('This is not a Compaction Inspector bundle: it has no "compactionInspectorBundle" version field.');
    expect(await bad('[1,2]')).toBe('This is not a Compaction Inspector bundle: it has no "compactionInspectorBundle" version field.');
  });

  it('refuses a newer version with a message to update, and nonsense versions', async () => {
    const d = await doc();
    expect(await bad(JSON.stringify({ ...d, compactionInspectorBundle: 2 }))).toBe(
      'This bundle was made by a newer version of Compaction Inspector (bundle format 2; this app reads up to 1). Update the app to open it.',
    );
    expect(await bad(JSON.stringify({ ...d, compactionInspectorBundle: '1' }))).toBe('This bundle has no valid version (expected a whole number from 1 to 1).');
  });

  it('runs older versions through the upgraders', async () => {
    // Pretend the app is at version 2, whose bundles renamed `view` from a version-1 `state`.
    const v2: VersionedFormat = {
      label: 'bundle',
      current: 2,
      upgraders: {
        1: (d) => {
          const { state, ...rest } = d as Record<string, unknown>;
          return { ok: true, value: { ...rest, compactionInspectorBundle: 2, view: state } };
        },
      },
    };
    const d = await doc();
    const { view: v, ...rest } = d;
    const r = await decodeBundle(JSON.stringify({ ...rest, state: v }), { format: v2 });
    expect(r.ok && r.value.version).toBe(1);
    expect(r.ok && r.value.value.view).toEqual(view());
  });

  it('rejects wrong types in each field with its path', async () => {
    const cases: [(d: Record<string, any>) => void, string][] = [
      [(d) => (d.createdAt = 5), 'createdAt: expected a string, got number'],
      [(d) => (d.sessionHash = 'xyz'), 'sessionHash: is not a SHA-256 hex digest (64 lowercase hex digits)'],
      [(d) => (d.view.panel = 7), 'view.panel: expected a string, got number'],
      [(d) => (d.annotations[0].target = { kind: 'chapter' }), 'annotations[0].target.kind: expected one of "item", "call", "range", "item-range", got "chapter"'],
      [(d) => (d.files = {}), 'files: expected an array, got an object'],
      [(d) => (d.files = []), 'files: a bundle needs at least one file'],
      [(d) => (d.files[0].encoding = 'gzip'), 'files[0].encoding: expected one of "utf8", "base64", got "gzip"'],
      [(d) => (d.files[0].data = null), 'files[0].data: expected a string'],
      [(d) => (d.files[0].name = ''), 'files[0].name: must not be empty'],
      [(d) => (d.files[0].name = 'a\nb'), 'files[0].name: must not contain control characters'],
      [(d) => (d.files[2].data = 'AP/+gEE=!'), 'files[2].data: is not valid base64'],
      [(d) => (d.files[0].data = 'x\ud800y'), 'files[0].data: holds a lone surrogate (\\ud800-\\udfff escape), which is not text any file had'],
      [(d) => (d.files[0].mode = '0777'), 'files[0]: unknown field "mode"'],
      [(d) => (d.apiKey = 'sk'), 'bundle: unknown field "apiKey"'],
    ];
    for (const [mutate, error] of cases) {
      const d = await doc();
      mutate(d);
      expect(await bad(JSON.stringify(d))).toBe(`This bundle is invalid: ${error}.`);
    }
  });

  it('enforces the caps on files, per file and in total', async () => {
    const text = await encoded();
    expect(await bad(text, { files: 2 })).toBe('This bundle is invalid: files: 3 entries is over the limit of 2.');
    expect(await bad(text, { fileBytes: 20 })).toBe('This bundle is invalid: files[0]: "session.jsonl" has 38 bytes or more, over the 20-byte limit per file.');
    expect(await bad(text, { totalBytes: 50 })).toBe('This bundle is invalid: files: the files hold more than 50 bytes in all, over the limit.');
    // The text cap is 1.5× the byte cap plus 16 MiB for annotations and JSON keys.
    expect(await bad(' '.repeat(16 * 1024 * 1024 + 200), { totalBytes: 100 })).toBe('This bundle is too large (16777416 characters; the limit is 16777366).');
    const d = JSON.parse(text);
    d.files[2].data = 'A'.repeat(400);
    expect(await bad(JSON.stringify(d), { fileBytes: 100 })).toBe('This bundle is invalid: files[2]: "blob.bin" has 298 bytes or more, over the 100-byte limit per file.');
  });

  it('rejects __proto__ and constructor keys without touching Object.prototype', async () => {
    const text = (await encoded()).replace('"files":[{', '"files":[{"__proto__":{"polluted":1},');
    expect(await bad(text)).toBe('This bundle is invalid: files[0]: forbidden key "__proto__".');
    const top = (await encoded()).replace('{"compactionInspectorBundle":1,', '{"compactionInspectorBundle":1,"constructor":{},');
    expect(await bad(top)).toBe('This bundle is invalid: bundle: forbidden key "constructor".');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('never rejects its promise, whatever it is given', async () => {
    for (const x of [null, undefined, 5, {}, '', 'null', '{"compactionInspectorBundle":1}']) {
      await expect(decodeBundle(x as string)).resolves.toMatchObject({ ok: false });
    }
  });
});

describe('isBundle / sniffBundle', () => {
  it('recognises a bundle from its parsed value or its first bytes, and nothing else', async () => {
    const text = await encoded();
    expect(isBundle(JSON.parse(text))).toBe(true);
    expect(isBundle({ messages: [] })).toBe(false);
    expect(isBundle([{ compactionInspectorBundle: 1 }])).toBe(false);
    expect(sniffBundle(text.slice(0, 100))).toBe(true);
    expect(sniffBundle(enc(`\uFEFF  \n${text}`))).toBe(true);
    expect(sniffBundle('{"messages": [{"content": "compactionInspectorBundle"}]}')).toBe(false);
    expect(sniffBundle('{"type":"user"}\n{"compactionInspectorBundle":1}')).toBe(false);
  });
});

describe('bundleFileName', () => {
  it('names the download after the short hash', () => {
    expect(bundleFileName('3f9a1c0b2d4e'.padEnd(64, '0'))).toBe('compaction-inspector-3f9a1c0b2d4e.bundle.json');
  });
});
