import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ListedSession } from '../../src/cli/serve-listing';
import { fetchServedInstructions, listServedSessions, parseInstructions, parseListing, watchServed } from './serve-api';

class FakeEventSource {
  static all: FakeEventSource[] = [];
  private listeners: ((e: MessageEvent) => void)[] = [];
  closed = false;
  constructor(readonly url: string) {
    FakeEventSource.all.push(this);
  }
  addEventListener(_type: string, fn: (e: MessageEvent) => void) {
    this.listeners.push(fn);
  }
  emit(size: number) {
    for (const fn of this.listeners) fn({ data: JSON.stringify({ size, modified: 1 }) } as MessageEvent);
  }
  close() {
    this.closed = true;
  }
}

const listed = { root: 0, path: 'p/rollout.jsonl', files: ['p/rollout.jsonl'] } as unknown as ListedSession;

beforeEach(() => {
  FakeEventSource.all = [];
  vi.stubGlobal('EventSource', FakeEventSource);
  vi.stubGlobal('location', { search: '?token=tok' });
  vi.stubGlobal('sessionStorage', { setItem() {}, getItem: () => null });
});
afterEach(() => vi.unstubAllGlobals());

describe('watchServed', () => {
  it('takes the stream’s first state as the file as read, and every later one as a change', () => {
    const onChange = vi.fn();
    const stop = watchServed(listed, onChange, () => 100);
    const es = FakeEventSource.all[0]!;
    expect(es.url).toContain('/api/events?token=tok');
    es.emit(100);
    expect(onChange).not.toHaveBeenCalled();
    es.emit(180);
    expect(onChange).toHaveBeenCalledTimes(1);
    stop();
    expect(es.closed).toBe(true);
  });

  it('reports lines appended between the page’s read and the stream’s start', () => {
    const onChange = vi.fn();
    watchServed(listed, onChange, () => 100);
    FakeEventSource.all[0]!.emit(180);
    expect(onChange).toHaveBeenCalledTimes(1);
  });
});

describe('parseListing', () => {
  it('keeps the figures the server measured, narrowed, and leaves out what is not a glance', () => {
    const row = { id: '0/a.jsonl', root: 0, path: 'a.jsonl', files: ['a.jsonl'], size: 10, modified: 1 };
    const glance = { format: 'claude-code', title: 't', model: null, started: null, lastActivity: null, calls: 6, compactions: 2, hitRate: 0.888 };
    const listing = parseListing({
      roots: [],
      sessions: [
        { ...row, glance: { ok: true, glance } },
        { ...row, id: '0/b', glance: { ok: true, glance: { ...glance, format: 'evil', calls: 1 } } },
        { ...row, id: '0/c', glance: { ok: false, skipped: true, message: 'too big' } },
        { ...row, id: '0/d' },
      ],
    });
    expect(listing.sessions.map((s) => s.glance)).toEqual([{ ok: true, glance }, undefined, { ok: false, skipped: true, message: 'too big' }, undefined]);
  });
});

describe('listServedSessions', () => {
  const answer = (path: string) => new Response(JSON.stringify({ roots: [], sessions: [{ id: `0/${path}`, root: 0, path, files: [path], size: 1, modified: 1 }] }));

  it('takes the listing asked for while the app loaded once, then asks the server', async () => {
    const fetch = vi.fn(async (_url: string) => answer('later.jsonl'));
    vi.stubGlobal('fetch', fetch);
    vi.stubGlobal('__servedListing', Promise.resolve(answer('early.jsonl')));
    expect((await listServedSessions()).sessions.map((s) => s.path)).toEqual(['early.jsonl']);
    expect(fetch).not.toHaveBeenCalled();
    expect((await listServedSessions()).sessions.map((s) => s.path)).toEqual(['later.jsonl']);
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(fetch.mock.calls[0]![0]).toBe('/api/sessions?token=tok');
  });

  it('reports the early request failing as the listing failing', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => answer('later.jsonl')));
    vi.stubGlobal('__servedListing', Promise.resolve(new Response('a valid token is required', { status: 403 })));
    await expect(listServedSessions()).rejects.toThrow('the server answered 403: a valid token is required');
  });
});

describe('fetchServedInstructions', () => {
  it("asks for the listed session's first file with the token, and keeps only entries with a path and a text", async () => {
    const fetchMock = vi.fn(async () => new Response(JSON.stringify({ files: [{ path: '/w/CLAUDE.md', text: 'port 7443' }, { path: '', text: 'x' }, { path: '/w/x.md' }, 'junk'] })));
    vi.stubGlobal('fetch', fetchMock);
    expect(await fetchServedInstructions(listed)).toEqual([{ path: '/w/CLAUDE.md', text: 'port 7443' }]);
    expect(String((fetchMock.mock.calls[0] as unknown[])[0])).toBe('/api/instructions?token=tok&root=0&path=p%2Frollout.jsonl');
  });

  it('says what the server answered when it refuses', async () => {
    vi.stubGlobal('fetch', async () => new Response('a valid token is required', { status: 403 }));
    await expect(fetchServedInstructions(listed)).rejects.toThrow('the server answered 403: a valid token is required');
  });

  it('reads an answer that is not a list of files as none', () => {
    expect(parseInstructions(null)).toEqual([]);
    expect(parseInstructions({ files: 'CLAUDE.md' })).toEqual([]);
  });
});
