import { describe, expect, it } from 'vitest';
import { FETCH_CONSENT_KEY } from '../data/fetch-consent';
import { buildCsp, ENDPOINT_ORIGIN_KEY, originOf, startupOrigins } from './csp';

const loc = (href: string) => new URL(href) as unknown as Location;
const store = (v: Record<string, string>) => ({ getItem: (k: string) => v[k] ?? null });

describe('buildCsp', () => {
  it('allows connections only to the app and the origins given', () => {
    const p = buildCsp({ connectOrigins: ['http://127.0.0.1:8080', 'https://logs.example.com'] });
    expect(p).toContain("connect-src 'self' http://127.0.0.1:8080 https://logs.example.com;");
    expect(p).toContain("script-src 'self';");
    expect(p).toContain("object-src 'none'");
    expect(p).not.toMatch(/script-src[^;]*unsafe/);
  });

  it('drops anything that could widen the policy', () => {
    const p = buildCsp({ connectOrigins: ["https://a.example 'unsafe-eval'", 'https://b.example; script-src *', 'javascript:alert(1)'] });
    expect(p).toContain("connect-src 'self';");
  });
});

describe('startupOrigins', () => {
  const page = 'http://127.0.0.1:5173/?src=https://logs.example.com/a/b.jsonl&src=demos/x.json&src=https://other.example/c.jsonl';

  it('admits no ?src= origin the user has not accepted, only the remembered endpoint origin, never a path or key', () => {
    const origins = startupOrigins(loc(page), store({ [ENDPOINT_ORIGIN_KEY]: 'http://localhost:11434/v1' }));
    expect(origins).toEqual(['http://localhost:11434']);
  });

  it('admits the origins of the sources accepted in this tab, and of no other', () => {
    const tab = store({ [FETCH_CONSENT_KEY]: JSON.stringify(['https://logs.example.com/a/b.jsonl', 'https://elsewhere.example/z.jsonl']) });
    expect(startupOrigins(loc(page), null, tab)).toEqual(['https://logs.example.com']);
  });

  it('ignores non-http sources', () => {
    expect(originOf('file:///etc/passwd')).toBeNull();
    const tab = store({ [FETCH_CONSENT_KEY]: JSON.stringify(['data:text/plain,hi']) });
    expect(startupOrigins(loc('http://127.0.0.1:5173/?src=data:text/plain,hi'), null, tab)).toEqual([]);
  });
});

describe('startupOrigins with a share link', () => {
  it('admits the origins the shared session came from once the user accepted them', async () => {
    const { encodeShareFragment, DEFAULT_VIEW_STATE } = await import('../../src/share');
    const frag = encodeShareFragment({ sessionHash: 'a'.repeat(64), sourceUrls: ['https://logs.example.com/run.jsonl'], view: DEFAULT_VIEW_STATE, annotations: [] });
    expect(frag.ok).toBe(true);
    const at = loc(`http://127.0.0.1:5173/${frag.ok ? frag.value : ''}`);
    expect(startupOrigins(at, null)).toEqual([]);
    expect(startupOrigins(at, null, store({ [FETCH_CONSENT_KEY]: JSON.stringify(['https://logs.example.com/run.jsonl']) }))).toEqual(['https://logs.example.com']);
  });
});
