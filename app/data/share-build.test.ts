import { describe, expect, it } from 'vitest';
import { decodeBundle, decodeShareFragment, encodeBundle, encodeShareFragment, inflateForTest, sessionHash, type Annotation } from './share-test-support';
import { libraryMetaFor } from './library';
import { absoluteUrls, bundleInputFor, mergeAnnotations, nameFromUrl, pickByName, shareBase, shareInputFor, viewFromStore } from './share-build';

const T0 = '2025-03-01T10:00:00.000Z';
const HASH = 'b'.repeat(64);
const note = (id: string, text: string, extra: Partial<Annotation> = {}): Annotation => ({ id, target: { kind: 'call', call: 2 }, note: text, tags: [], createdAt: T0, updatedAt: T0, ...extra });

// The Re-run panel keeps an endpoint key in memory; this is what such a store state looks like.
const KEY = 'sk-proj-THISISTHEAPIKEY0123456789abcdef';
const storeState = { callIndex: 4, selectedItemId: 'm3', panel: 'annotations', rule: 'anthropic', leftView: 'context', apiKey: KEY, endpoint: { url: 'https://llm.example', apiKey: KEY } };

describe('viewFromStore', () => {
  it('turns the 0-based call into a 1-based turn and copies the other four fields', () => {
    expect(viewFromStore(storeState)).toEqual({ turn: 5, item: 'm3', panel: 'annotations', rule: 'anthropic', leftView: 'context' });
  });
  it('clamps the turn to the session and falls back on values a link would refuse', () => {
    expect(viewFromStore({ callIndex: 40, selectedItemId: 'x'.repeat(300), panel: 'Bad Panel', rule: 'nope', leftView: 'sideways' }, 14)).toEqual({
      turn: 14,
      item: null,
      panel: 'budget',
      rule: 'auto',
      leftView: 'context',
    });
  });
});

describe('mergeAnnotations', () => {
  it('keeps every existing note and adds only the new ones, re-numbering taken ids', () => {
    const mine = [note('a1', 'mine'), note('a2', 'shared')];
    const theirs = [note('a1', 'theirs', { tags: ['lost fact'] }), note('a7', 'shared')];
    const r = mergeAnnotations(mine, theirs);
    expect(r.added).toBe(1);
    expect(r.list.map((a) => [a.id, a.note])).toEqual([
      ['a1', 'mine'],
      ['a2', 'shared'],
      ['a3', 'theirs'],
    ]);
    expect(r.list[2]!.tags).toEqual(['lost fact']);
  });
  it('is idempotent: merging the same notes twice adds nothing the second time', () => {
    const once = mergeAnnotations([], [note('a1', 'x'), note('a2', 'y')]);
    expect(mergeAnnotations(once.list, [note('a1', 'x'), note('a2', 'y')]).added).toBe(0);
  });
  it('treats tags that differ only in case or order as the same note', () => {
    const r = mergeAnnotations([note('a1', 'x', { tags: ['Lost fact', 'question'] })], [note('a9', 'x', { tags: ['question', 'lost fact'] })]);
    expect(r.added).toBe(0);
  });
});

describe('pickByName', () => {
  it('picks files by name in the order named, each file at most once', () => {
    const pool = [{ name: 'a.jsonl', n: 1 }, { name: 'b.jsonl', n: 2 }, { name: 'a.jsonl', n: 3 }];
    expect(pickByName(['a.jsonl', 'b.jsonl', 'a.jsonl'], pool)?.map((f) => f.n)).toEqual([1, 2, 3]);
    expect(pickByName(['a.jsonl', 'a.jsonl', 'a.jsonl'], pool)).toBeNull();
  });
});

describe('source URLs', () => {
  it('makes demo paths absolute and drops what is not http(s)', () => {
    expect(absoluteUrls(['/demos/x.json', 'https://h.example/r.jsonl', 'file:///etc/passwd'], 'http://127.0.0.1:4173/app/?src=a')).toEqual(['http://127.0.0.1:4173/demos/x.json', 'https://h.example/r.jsonl']);
    expect(nameFromUrl('/demos/a%20b.json?x=1', 'http://h/')).toBe('a b.json');
    expect(shareBase('http://h:1/app/?src=x&turn=3#ci=1.abc')).toBe('http://h:1/app/');
  });
});

describe('shareInputFor and lint rule settings', () => {
  it('carries changed rule settings, field by field, and leaves them out when the defaults stand', () => {
    const lintRules = { version: 1 as const, rules: { 'summary-too-long': { 'claude-code': { threshold: 2500, apiKey: KEY } } } } as never;
    const frag = encodeShareFragment(shareInputFor({ hash: HASH }, viewFromStore(storeState), [], lintRules));
    if (!frag.ok) throw new Error(frag.error);
    expect(inflateForTest(frag.value)).not.toContain(KEY);
    const back = decodeShareFragment(frag.value);
    expect(back.ok && back.value.value.lintRules).toEqual({ version: 1, rules: { 'summary-too-long': { 'claude-code': { threshold: 2500 } } } });
    expect('lintRules' in shareInputFor({ hash: HASH }, viewFromStore(storeState), [], { version: 1, rules: {} })).toBe(false);
  });
});

describe('the API key never leaves the tab', () => {
  const annotations = [{ ...note('a1', 'ok'), apiKey: KEY } as Annotation];
  it('is not in a share link built from a store state that holds it', () => {
    const input = shareInputFor({ hash: HASH, sourceUrls: ['https://h.example/r.jsonl'], apiKey: KEY } as never, { ...viewFromStore(storeState), apiKey: KEY } as never, annotations);
    const frag = encodeShareFragment(input);
    if (!frag.ok) throw new Error(frag.error);
    expect(frag.value).not.toContain(KEY);
    expect(inflateForTest(frag.value)).not.toContain(KEY);
    const back = decodeShareFragment(frag.value);
    expect(back.ok && JSON.stringify(back.value)).not.toContain(KEY);
  });
  it('is not in a bundle', async () => {
    const files = [{ name: 'run.jsonl', bytes: new TextEncoder().encode('{"type":"user"}\n') }];
    const text = await encodeBundle(bundleInputFor(files, { ...viewFromStore(storeState), apiKey: KEY } as never, annotations, T0));
    if (!text.ok) throw new Error(text.error);
    expect(text.value).not.toContain(KEY);
    const back = await decodeBundle(text.value);
    expect(back.ok && back.value.value.sessionHash).toBe(await sessionHash(files));
  });
  it('is not in a library entry', () => {
    const file = new File(['{"type":"user"}\n'], 'run.jsonl');
    const meta = libraryMetaFor({ hash: HASH, title: 't', format: 'claude-code', files: [file], sourceUrls: [], apiKey: KEY } as never, T0, true);
    expect(JSON.stringify(meta)).not.toContain(KEY);
    expect(meta).toEqual({ hash: HASH, title: 't', format: 'claude-code', fileNames: ['run.jsonl'], totalBytes: 16, openedAt: T0, sourceUrls: [], stored: true });
  });
});
