import { describe, expect, it } from 'vitest';
import { acceptedOrigins, acceptedUrls, acceptUrls, checkSource, describeFetch, FETCH_CONSENT_KEY, planFetch } from './fetch-consent';

const PAGE = 'http://127.0.0.1:5173/?src=x';

function memoryStorage(init: Record<string, string> = {}) {
  const m = new Map(Object.entries(init));
  return { getItem: (k: string) => m.get(k) ?? null, setItem: (k: string, v: string) => void m.set(k, v) };
}

describe('checkSource', () => {
  it("tells the app's own origin from another, with the URL made absolute", () => {
    expect(checkSource('demos/a.json', PAGE)).toEqual({ url: 'http://127.0.0.1:5173/demos/a.json', kind: 'first-party', origin: 'http://127.0.0.1:5173' });
    expect(checkSource('https://logs.example.com/r.jsonl', PAGE)).toEqual({ url: 'https://logs.example.com/r.jsonl', kind: 'remote', origin: 'https://logs.example.com' });
    // Another port of the same host is another origin.
    expect(checkSource('http://127.0.0.1:9999/r.jsonl', PAGE).kind).toBe('remote');
  });

  it('refuses javascript:, data:, file: and blob: URLs, each with its own reason', () => {
    const reasons = ['javascript:alert(1)', 'data:text/plain,hi', 'file:///etc/passwd', 'blob:http://127.0.0.1:5173/x'].map((u) => {
      const c = checkSource(u, PAGE);
      return c.kind === 'refused' ? c.reason : null;
    });
    expect(reasons[0]).toMatch(/javascript: URL is code/);
    expect(reasons[1]).toMatch(/data: URL/);
    expect(reasons[2]).toMatch(/file: URL .*your own computer/);
    expect(reasons[3]).toMatch(/blob: URL/);
  });
});

describe('planFetch', () => {
  it('opens first-party sources at once', () => {
    expect(planFetch(['demos/a.json', '/demos/b.jsonl'], PAGE, [])).toEqual({ open: ['http://127.0.0.1:5173/demos/a.json', 'http://127.0.0.1:5173/demos/b.jsonl'], ask: null, refused: [] });
  });

  it('asks once for all the sources when one is on another origin, listing each origin once', () => {
    const plan = planFetch(['demos/a.json', 'https://a.example/1.jsonl', 'https://a.example/2.jsonl', 'https://b.example/3.jsonl'], PAGE, []);
    expect(plan.open).toEqual([]);
    expect(plan.ask).toEqual({ urls: ['http://127.0.0.1:5173/demos/a.json', 'https://a.example/1.jsonl', 'https://a.example/2.jsonl', 'https://b.example/3.jsonl'], origins: ['https://a.example', 'https://b.example'] });
  });

  it('opens remote sources once each was accepted, and asks again when one was not', () => {
    expect(planFetch(['https://a.example/1.jsonl'], PAGE, ['https://a.example/1.jsonl']).open).toEqual(['https://a.example/1.jsonl']);
    expect(planFetch(['https://a.example/1.jsonl', 'https://a.example/2.jsonl'], PAGE, ['https://a.example/1.jsonl']).ask?.urls).toHaveLength(2);
  });

  it('never fetches a refused source, and says why', () => {
    const plan = planFetch(['javascript:alert(1)', 'demos/a.json'], PAGE, []);
    expect(plan.open).toEqual(['http://127.0.0.1:5173/demos/a.json']);
    expect(plan.refused).toEqual([{ url: 'javascript:alert(1)', reason: expect.stringContaining('javascript:') }]);
  });
});

describe('acceptUrls', () => {
  it("keeps the user's yes for this tab, and admits only those origins among a link's sources", () => {
    const tab = memoryStorage();
    acceptUrls(tab, ['https://a.example/1.jsonl']);
    acceptUrls(tab, ['https://b.example/2.jsonl', 'https://a.example/1.jsonl']);
    expect(acceptedUrls(tab)).toEqual(['https://a.example/1.jsonl', 'https://b.example/2.jsonl']);
    expect(acceptedOrigins(['https://a.example/1.jsonl', 'https://c.example/3.jsonl', 'demos/x.json'], PAGE, tab)).toEqual(['https://a.example']);
  });

  it('reads a damaged record as no consent', () => {
    expect(acceptedUrls(memoryStorage({ [FETCH_CONSENT_KEY]: '{"not":"a list"' }))).toEqual([]);
    expect(acceptedUrls(memoryStorage({ [FETCH_CONSENT_KEY]: '[1, "https://a.example/x"]' }))).toEqual(['https://a.example/x']);
    expect(acceptedUrls(null)).toEqual([]);
  });
});

describe('describeFetch', () => {
  it('says how many files from where', () => {
    expect(describeFetch({ urls: ['u'], origins: ['https://example.com'] })).toBe('1 file from example.com');
    expect(describeFetch({ urls: ['u', 'v', 'w'], origins: ['https://a.example', 'http://b.example:8080'] })).toBe('3 files from a.example and b.example:8080');
    expect(describeFetch({ urls: ['u', 'v', 'w', 'x'], origins: ['https://a.example', 'https://b.example', 'https://c.example', 'https://d.example'] })).toBe('4 files from a.example, b.example and 2 other sites');
  });
});
