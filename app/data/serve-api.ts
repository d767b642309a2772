// Talking to `compaction-inspector serve`, when the page came from it: the address it printed carries a token,
// and every API call sends it back. Without a token the app is the static app it always was.
import type { GlanceOutcome, SessionGlance } from '../../src/analysis/session-glance';
import type { Harness, ListedSession } from '../../src/cli/serve-listing';
import { FORMAT_IDS } from '../../src/model/types';
import { arr, isObject, num, str } from '../../src/model/narrow';

export type { ListedSession, GlanceOutcome };

/** A listed session, with its measured columns when the server's index already had them. */
export type ServedSession = ListedSession & { glance?: GlanceOutcome };

const TOKEN_KEY = 'compaction-inspector.serve-token';

/** The server's token: from this page's address, else from this tab's earlier load (the address may lose it). */
export function serveToken(): string | null {
  const fromUrl = new URLSearchParams(location.search).get('token');
  try {
    if (fromUrl) sessionStorage.setItem(TOKEN_KEY, fromUrl);
    return fromUrl ?? sessionStorage.getItem(TOKEN_KEY);
  } catch {
    return fromUrl;
  }
}

export const servedMode = (): boolean => serveToken() !== null;

function apiUrl(path: string, params: Record<string, string | number> = {}): string {
  const q = new URLSearchParams({ token: serveToken() ?? '' });
  for (const [k, v] of Object.entries(params)) q.set(k, String(v));
  return `/api/${path}?${q.toString()}`;
}

export interface ServedListing {
  roots: { dir: string; harness: string | null }[];
  sessions: ServedSession[];
}

/**
 * The listing public/served-listing.js asked for while the app's code loaded, taken once: later listings (back to
 * the table, a reload of it) ask the server again. null when there is none (the static app, or already taken).
 */
function takeEarlyListing(): Promise<Response> | null {
  const w = globalThis as { __servedListing?: unknown };
  const early = w.__servedListing;
  delete w.__servedListing;
  return early instanceof Promise ? (early as Promise<Response>) : null;
}

export async function listServedSessions(): Promise<ServedListing> {
  const res = await (takeEarlyListing() ?? fetch(apiUrl('sessions'), { credentials: 'omit' }));
  if (!res.ok) throw new Error(`the server answered ${res.status}: ${await res.text()}`);
  return parseListing(await res.json());
}

const HARNESSES: readonly string[] = ['claude-code', 'codex', 'openhands', 'gemini-cli'] satisfies Harness[];
const isHarness = (h: string | undefined): h is Harness => h !== undefined && HARNESSES.includes(h);

/** The listing, narrowed: a row the page cannot use is left out rather than trusted. */
export function parseListing(body: unknown): ServedListing {
  const roots = (isObject(body) ? arr(body, 'roots') : undefined) ?? [];
  const sessions = (isObject(body) ? arr(body, 'sessions') : undefined) ?? [];
  return {
    roots: roots.filter(isObject).map((r) => ({ dir: str(r, 'dir') ?? '', harness: str(r, 'harness') ?? null })),
    sessions: sessions.flatMap((s): ServedSession[] => {
      if (!isObject(s)) return [];
      const id = str(s, 'id');
      const root = num(s, 'root');
      const path = str(s, 'path');
      const files = (arr(s, 'files') ?? []).filter((f): f is string => typeof f === 'string');
      if (id === undefined || root === undefined || path === undefined || files.length === 0) return [];
      const harness = str(s, 'harness');
      const row: ServedSession = { id, root, path, files, harness: isHarness(harness) ? harness : null, project: str(s, 'project') ?? null, size: num(s, 'size') ?? 0, modified: num(s, 'modified') ?? 0 };
      const glance = parseGlanceOutcome(s['glance']);
      return [glance ? { ...row, glance } : row];
    }),
  };
}

const strOrNull = (o: Record<string, unknown>, k: string): string | null => (typeof o[k] === 'string' ? (o[k] as string) : null);

/** A measured row as the server sent it, narrowed field by field; null when it is not one. */
export function parseGlanceOutcome(v: unknown): GlanceOutcome | null {
  if (!isObject(v)) return null;
  if (v['ok'] === false) {
    const message = str(v, 'message') ?? 'could not be measured';
    return v['skipped'] === true ? { ok: false, skipped: true, message } : { ok: false, message };
  }
  const g = v['glance'];
  if (v['ok'] !== true || !isObject(g)) return null;
  const format = str(g, 'format');
  const calls = num(g, 'calls');
  const compactions = num(g, 'compactions');
  if (!format || !(FORMAT_IDS as readonly string[]).includes(format) || calls === undefined || compactions === undefined) return null;
  const hit = g['hitRate'];
  const glance: SessionGlance = {
    format: format as SessionGlance['format'],
    title: str(g, 'title') ?? '',
    model: strOrNull(g, 'model'),
    started: strOrNull(g, 'started'),
    lastActivity: strOrNull(g, 'lastActivity'),
    calls,
    compactions,
    hitRate: typeof hit === 'number' && Number.isFinite(hit) ? hit : null,
  };
  return { ok: true, glance };
}

/** Asks the server to measure one listed session (answered from its index when the file is unchanged). */
export async function fetchGlance(s: ListedSession): Promise<GlanceOutcome> {
  const res = await fetch(apiUrl('glance', { id: s.id }), { credentials: 'omit', cache: 'no-store' });
  if (!res.ok) throw new Error(`the server answered ${res.status}: ${await res.text()}`);
  return parseGlanceOutcome(await res.json()) ?? { ok: false, message: 'the server sent no figures' };
}

/** A listed session's files, named as the loader expects (a conversation folder keeps its paths). */
export async function fetchServedFiles(s: ListedSession): Promise<File[]> {
  const folder = s.files.length > 1 || s.files[0] !== s.path;
  return Promise.all(
    s.files.map(async (f) => {
      const res = await fetch(apiUrl('file', { root: s.root, path: f }), { credentials: 'omit', cache: 'no-store' });
      if (!res.ok) throw new Error(`${f}: the server answered ${res.status}`);
      const name = folder ? f.slice(s.path.lastIndexOf('/') + 1) : f.split('/').pop()!;
      return new File([await res.blob()], name);
    }),
  );
}

/**
 * The instruction files a listed session's harness loaded where it ran (its CLAUDE.md and the user's), as the server
 * found them from the working directory the session recorded; an entry the page cannot use is left out.
 */
export async function fetchServedInstructions(s: ListedSession): Promise<{ path: string; text: string }[]> {
  const res = await fetch(apiUrl('instructions', { root: s.root, path: s.files[0]! }), { credentials: 'omit', cache: 'no-store' });
  if (!res.ok) throw new Error(`the server answered ${res.status}: ${await res.text()}`);
  return parseInstructions(await res.json());
}

export function parseInstructions(body: unknown): { path: string; text: string }[] {
  const files = (isObject(body) ? arr(body, 'files') : undefined) ?? [];
  return files.flatMap((f) => {
    const path = isObject(f) ? str(f, 'path') : undefined;
    const text = isObject(f) ? str(f, 'text') : undefined;
    return path !== undefined && path !== '' && text !== undefined ? [{ path, text }] : [];
  });
}

/**
 * Calls `onChange` each time one of the session's files changes on disk; returns the function that stops. `readSize`
 * gives each file's size when the page last read it: a stream opens with the file's current state, and when that
 * differs, lines arrived between the read and the stream's start (a loaded machine takes a while to connect).
 */
export function watchServed(s: ListedSession, onChange: () => void, readSize: (file: string) => number | undefined = () => undefined): () => void {
  const sources = s.files.map((f) => {
    const es = new EventSource(apiUrl('events', { root: s.root, path: f }));
    let first = true;
    es.addEventListener('change', (e) => {
      if (!first) return onChange();
      first = false;
      const size = sizeOf((e as MessageEvent).data);
      const read = readSize(f);
      if (size !== null && read !== undefined && size !== read) onChange();
    });
    return es;
  });
  return () => sources.forEach((es) => es.close());
}

function sizeOf(data: unknown): number | null {
  try {
    const v: unknown = JSON.parse(String(data));
    return isObject(v) && typeof v['size'] === 'number' ? v['size'] : null;
  } catch {
    return null;
  }
}
