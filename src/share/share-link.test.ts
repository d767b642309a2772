import { describe, expect, it } from 'vitest';
import { encodeBase64 } from './base64';
import { deflate } from './compress';
import { decodeShareFragment, encodeShareFragment, hasShareFragment, SHARE_LINK_FORMAT, shareLinkAdvice, shareUrl, type ShareInput } from './share-link';
import { HASH, note, onCall, onCalls, onItem, onItems, view } from './test-builders';
import type { VersionedFormat } from './versioned';

const input = (extra: Partial<ShareInput> = {}): ShareInput => ({
  sessionHash: HASH,
  sourceUrls: ['https://example.org/runs/run-1.jsonl'],
  view: view(),
  annotations: [
    note('a1', onItem('m7'), 'The port 5432 is gone after this summary.', { tags: ['lost fact'], author: 'ana' }),
    note('a2', onCall(4), 'Cache breaks here'),
    note('a3', onCalls(5, 9), 'Same prefix'),
    note('a4', onItems('m1', 'm3'), 'Good summary of these', { tags: ['good summary'] }),
  ],
  ...extra,
});

const encoded = (i: ShareInput): string => {
  const r = encodeShareFragment(i);
  if (!r.ok) throw new Error(r.error);
  return r.value;
};
/** A fragment holding arbitrary JSON, as a hostile or buggy link would. */
const craft = (json: unknown, version = 1) => `#ci=${version}.${encodeBase64(deflate(new TextEncoder().encode(JSON.stringify(json))), { url: true })}`;
const wire = () => JSON.parse(JSON.stringify(input())) as Record<string, any>;

describe('encodeShareFragment / decodeShareFragment', () => {
  it('round-trips the hash, source URLs, view and every kind of annotation', () => {
    const frag = encoded(input());
    expect(frag).toMatch(/^#ci=2\.[A-Za-z0-9_-]+$/);
    expect(decodeShareFragment(frag)).toEqual({ ok: true, value: { version: 2, value: { ...input(), sourceUrls: ['https://example.org/runs/run-1.jsonl'] } } });
  });

  it('gives an empty source list when the link has none, and accepts the fragment without # or inside a full URL', () => {
    const frag = encoded(input({ sourceUrls: undefined }));
    const want = { ok: true, value: { version: 2, value: { ...input(), sourceUrls: [] } } };
    expect(decodeShareFragment(frag)).toEqual(want);
    expect(decodeShareFragment(frag.slice(1))).toEqual(want);
    expect(decodeShareFragment(shareUrl('https://app.example/inspector?x=1#old', frag))).toEqual(want);
    expect(decodeShareFragment(`#other=1&${frag.slice(1)}&more`)).toEqual(want);
  });

  it('keeps a typical link (a view and a few notes) short enough for chat apps', () => {
    const frag = encoded(input());
    expect(frag.length).toBeLessThan(600);
    expect(shareLinkAdvice(`https://app.example/${frag}`.length)).toBe('ok');
  });

  it('never writes fields beyond the typed ones: an apiKey on any object stays out of the link', () => {
    const leaky = {
      ...input(),
      apiKey: 'sk-proj-SECRETSECRET1234567890',
      settings: { apiKey: 'sk-proj-SECRETSECRET1234567890' },
      view: { ...view(), apiKey: 'sk-proj-SECRETSECRET1234567890' },
      annotations: [{ ...note('a1', onItem('m7'), 'x'), apiKey: 'sk-proj-SECRETSECRET1234567890', target: { ...onItem('m7'), apiKey: 'k' } }],
    } as unknown as ShareInput;
    const frag = encoded(leaky);
    const r = decodeShareFragment(frag);
    expect(r.ok).toBe(true);
    expect(JSON.stringify(r)).not.toContain('SECRET');
    expect(JSON.stringify(r)).not.toContain('apiKey');
    expect(r).toEqual({ ok: true, value: { version: 2, value: { sessionHash: HASH, sourceUrls: input().sourceUrls, view: view(), annotations: [note('a1', onItem('m7'), 'x')] } } });
  });

  it('refuses to encode what the decoder would refuse, saying why', () => {
    expect(encodeShareFragment(input({ sessionHash: 'abc' }))).toEqual({ ok: false, error: 'sessionHash: is not a SHA-256 hex digest (64 lowercase hex digits)' });
    expect(encodeShareFragment(input({ sourceUrls: ['file:///etc/passwd'] }))).toEqual({ ok: false, error: 'sourceUrls[0]: is not an http(s) URL' });
  });
});

describe('decodeShareFragment on malformed links', () => {
  const bad = (fragment: string) => {
    const r = decodeShareFragment(fragment);
    expect(r.ok).toBe(false);
    return r.ok ? '' : r.error;
  };

  it('says when there is no share link at all', () => {
    expect(bad('')).toBe('This is not a share link: it has no "#ci=" part.');
    expect(bad('https://app.example/#turn=3')).toBe('This is not a share link: it has no "#ci=" part.');
  });

  it('refuses a newer version with a message to update, before reading the payload', () => {
    expect(bad('#ci=3.AAAA')).toBe('This share link was made by a newer version of Compaction Inspector (share link format 3; this app reads up to 2). Update the app to open it.');
    expect(bad('#ci=0.AAAA')).toBe('This share link has no valid version (expected a whole number from 1 to 2).');
    expect(bad('#ci=x.AAAA')).toBe('This share link is damaged: it does not start with a version number.');
  });

  it('upgrades an older version through the format upgraders before validating', () => {
    // Pretend the app is at version 3 and version 1 links lacked `sourceUrls` under another name.
    const v3: VersionedFormat = {
      label: 'share link',
      current: 3,
      upgraders: { 1: (doc) => ({ ok: true, value: { ...(doc as object), sourceUrls: ['https://example.org/a.jsonl'] } }), 2: (doc) => ({ ok: true, value: doc }) },
    };
    const r = decodeShareFragment(craft({ ...wire(), sourceUrls: undefined }, 1), v3);
    expect(r.ok && r.value.version).toBe(1);
    expect(r.ok && r.value.value.sourceUrls).toEqual(['https://example.org/a.jsonl']);
    expect(SHARE_LINK_FORMAT.current).toBe(2);
  });

  it('reads a version-1 link (before lint rules travelled) as one with the default rules', () => {
    const r = decodeShareFragment(craft(wire(), 1));
    expect(r).toEqual({ ok: true, value: { version: 1, value: { ...input(), sourceUrls: input().sourceUrls } } });
  });

  it('carries the lint rule settings, and refuses settings it cannot read', () => {
    const lintRules = { version: 1 as const, rules: { 'summary-too-long': { 'claude-code': { threshold: 2500 } }, 'causal-order': { '*': { muted: true } } } };
    const r = decodeShareFragment(encoded({ ...input(), lintRules }));
    expect(r.ok && r.value.value.lintRules).toEqual(lintRules);
    expect(bad(craft({ ...wire(), lintRules: { version: 1, rules: { 'no-such-rule': {} } } }, 2))).toBe('This share link is invalid: lintRules: unknown rule "no-such-rule".');
  });

  it('reports truncated, mangled and non-deflate payloads as damaged', () => {
    const frag = encoded(input());
    expect(bad(frag.slice(0, frag.length - 20))).toMatch(/^This share link is damaged: (the compressed data is damaged .*|its data is not valid base64url \(was it cut short\?\))/);
    expect(bad(`${frag.slice(0, 30)}%20${frag.slice(30)}`)).toBe('This share link is damaged: its data has characters a link never contains (was it edited or cut?).');
    expect(bad('#ci=1.A')).toBe('This share link is damaged: its data is not valid base64url (was it cut short?).');
    expect(bad(`#ci=1.${encodeBase64(new TextEncoder().encode('not deflate at all'), { url: true })}`)).toMatch(/^This share link is damaged: the compressed data is damaged/);
    expect(bad(`#ci=1.${encodeBase64(deflate(new TextEncoder().encode('{"a":')), { url: true })}`)).toBe('This share link is damaged: its data is not valid JSON.');
    expect(bad(`#ci=1.${encodeBase64(deflate(new Uint8Array([0xff, 0xfe])), { url: true })}`)).toBe('This share link is damaged: its data is not valid JSON.');
  });

  it('stops a compressed bomb at the size cap', () => {
    const bomb = `#ci=1.${encodeBase64(deflate(new Uint8Array(20 * 1024 * 1024).fill(32)), { url: true })}`;
    expect(bad(bomb)).toBe('This share link is damaged: the data expands to more than 8388608 bytes, over the limit.');
  });

  it('rejects wrong types in each field with its path', () => {
    const cases: [(w: Record<string, any>) => void, string][] = [
      [(w) => (w.sessionHash = 42), 'sessionHash: expected a string, got number'],
      [(w) => (w.sessionHash = 'A'.repeat(64)), 'sessionHash: is not a SHA-256 hex digest (64 lowercase hex digits)'],
      [(w) => (w.sourceUrls = 'https://x.org'), 'sourceUrls: expected an array, got a string'],
      [(w) => (w.sourceUrls = ['javascript:alert(1)']), 'sourceUrls[0]: is not an http(s) URL'],
      [(w) => (w.view = null), 'view: expected an object, got null'],
      [(w) => (w.view.turn = '3'), 'view.turn: expected an integer, got a string'],
      [(w) => (w.view.rule = 'magic'), 'view.rule: expected one of "auto", "openai", "anthropic", "vllm", "deepseek", "exact", got "magic"'],
      [(w) => (w.annotations = {}), 'annotations: expected an array, got an object'],
      [(w) => (w.annotations[0].target.kind = 'paragraph'), 'annotations[0].target.kind: expected one of "item", "call", "range", "item-range", got "paragraph"'],
      [(w) => (w.annotations[1].target.call = -1), 'annotations[1].target.call: -1 is outside 1..10000000'],
      [(w) => (w.annotations[0].tags = [1]), 'annotations[0].tags[0]: expected a string, got number'],
      [(w) => (w.annotations[0].author = ''), 'annotations[0].author: must not be empty'],
      [(w) => (w.apiKey = 'sk-x'), 'link: unknown field "apiKey"'],
      [(w) => delete w.view, 'view: expected an object, got undefined'],
    ];
    for (const [mutate, error] of cases) {
      const w = wire();
      mutate(w);
      expect(bad(craft(w))).toBe(`This share link is invalid: ${error}.`);
    }
    expect(bad(craft([1, 2]))).toBe('This share link is invalid: link: expected an object, got an array.');
    expect(bad(craft('hello'))).toBe('This share link is invalid: link: expected an object, got a string.');
  });

  it('rejects huge arrays and over-long strings', () => {
    const w = wire();
    w.annotations = Array.from({ length: 5001 }, (_, i) => ({ ...w.annotations[1], id: `a${i}` }));
    expect(bad(craft(w))).toBe('This share link is invalid: annotations: 5001 entries is over the limit of 5000.');
    const s = wire();
    s.sourceUrls = [`https://example.org/${'x'.repeat(5000)}`];
    expect(bad(craft(s))).toBe('This share link is invalid: sourceUrls[0]: string of 5020 characters is over the 4096-character limit.');
    expect(bad(`#ci=1.${'A'.repeat(2_000_001)}`)).toBe('This share link is too long (2000007 characters; the limit is 2000000).');
  });

  it('rejects __proto__ and constructor keys anywhere, without touching Object.prototype', () => {
    const text = JSON.stringify(wire()).replace('"view":{', '"view":{"__proto__":{"polluted":1},');
    expect(bad(`#ci=1.${encodeBase64(deflate(new TextEncoder().encode(text)), { url: true })}`)).toBe('This share link is invalid: view: forbidden key "__proto__".');
    const top = `{"constructor":{"prototype":{"polluted":1}},${JSON.stringify(wire()).slice(1)}`;
    expect(bad(`#ci=1.${encodeBase64(deflate(new TextEncoder().encode(top)), { url: true })}`)).toBe('This share link is invalid: link: forbidden key "constructor".');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('never throws, whatever it is given', () => {
    const inputs: unknown[] = [null, undefined, 42, {}, '#ci=', '#ci=1.', '#ci=99999999999.A', '#ci=1.____', `#ci=1.${'_'.repeat(4000)}`];
    for (const x of inputs) expect(() => decodeShareFragment(x as string)).not.toThrow();
    expect(decodeShareFragment(null as unknown as string)).toEqual({ ok: false, error: 'This is not a share link: expected text.' });
  });
});

describe('hasShareFragment', () => {
  it('tells a share link from other fragments without decoding', () => {
    expect(hasShareFragment('#ci=1.abc')).toBe(true);
    expect(hasShareFragment('https://app.example/#x=1&ci=1.abc')).toBe(true);
    expect(hasShareFragment('#section-2')).toBe(false);
  });
});

describe('shareLinkAdvice', () => {
  it('is ok up to 2,000 characters and long above', () => {
    expect(shareLinkAdvice(2000)).toBe('ok');
    expect(shareLinkAdvice(2001)).toBe('long');
  });
});
