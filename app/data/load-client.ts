// Runs the loader in a worker, matching replies to requests; a newer load never waits on an older one.
import * as Comlink from 'comlink';
import type { Session } from '../../src/model/types';
import type { LoadPreview, LoadProgress, LoadSource, LoadWorkerApi, WorkerLoadResult } from '../workers/load.worker';
import { allowedConnectOrigins, policyInstalled } from '../security/csp';
import { handedOff, sessionPort } from './analysis-client';
import { checkSource, MAX_SOURCE_BYTES } from './fetch-consent';
import { readCapped, tooLarge } from './read-capped';
import type { Result } from '../../src/share';
import type { FirstLook } from '../store/session-slice';
import { readBundle, type OpenedBundle } from './bundle-open';
import { CORPUS_FILE_COUNT, PREVIEW_MIN_BYTES } from '../../src/load/prefix';

export type { LoadPreview, LoadProgress, LoadSource, WorkerLoadResult };

export interface LoadOptions {
  /** Asks for a preview of a lone big JSONL file, delivered before the whole file is parsed. */
  onPreview?: (p: LoadPreview) => void;
  /** Stops the load: the worker is ended and the promise rejects with an AbortError. */
  signal?: AbortSignal;
  /** Keeps only the session with this id (one sample of a log that holds many), when the files have it. */
  only?: string;
  /** Gets the first session's reported view as soon as the files are parsed, before the session itself arrives. */
  onReported?: (look: FirstLook) => void;
  /**
   * The load `startEarlyLoad` began for these same sources: its worker has them read and parsed, or under way. Its
   * first look goes to the callback given there (`onReported` here is for a load that was not started early).
   */
  early?: EarlyLoad | null;
}

const newLoadWorker = () => new Worker(new URL('../workers/load.worker.ts', import.meta.url), { type: 'module', name: 'load' });
/**
 * A load worker started ahead of need: at page start, then when the user goes to open something again (open-intent.ts).
 * Each load ends its worker. A spare started right after a load fetched and compiled its code beside the session's
 * first view and exact count: 8 alternated typical-session drops on 2 cores, first view 251 -> 219 ms and exact
 * counts 756 -> 675 ms (medians) without it.
 */
let spare: Worker | null = null;
let loadsBegun = 0;
export function warmLoadWorker(): void {
  spare ??= newLoadWorker();
}
/** The page-start spare, unless a load already began (a quick first click, or sources in the address): it would sit beside that session. */
export function warmFirstLoadWorker(): void {
  if (loadsBegun === 0) warmLoadWorker();
}
function takeLoadWorker(): Worker {
  loadsBegun++;
  const w = spare ?? newLoadWorker();
  spare = null;
  return w;
}

/** A load worker already reading and parsing what the user gave, before the page's open plan says what it is. */
export interface EarlyLoad {
  readonly sources: readonly LoadSource[];
  readonly worker: Worker;
  readonly api: Comlink.Remote<LoadWorkerApi>;
  ended: boolean;
}

/**
 * Starts reading and parsing dropped or picked files in a load worker at once, beside the page's open plan (which
 * reads each file's head and loads its own code to tell a corpus or a bundle from a session): the first view
 * waited for both one after the other. Files that open whole (no preview) only; null otherwise. `loadInWorker` with
 * `early` takes it over; `dropEarlyLoad` ends it when the plan opens the files otherwise.
 */
export function startEarlyLoad(sources: readonly LoadSource[], onReported?: (look: FirstLook) => void): EarlyLoad | null {
  // So many files open as a corpus whatever they hold (the plan says so without reading them).
  if (typeof Worker === 'undefined' || sources.length === 0 || sources.length > CORPUS_FILE_COUNT || !sources.every((s) => s instanceof Blob)) return null;
  if (sources.reduce((n, s) => n + (s as Blob).size, 0) > PREVIEW_MIN_BYTES) return null;
  const worker = takeLoadWorker();
  const api = Comlink.wrap<LoadWorkerApi>(worker);
  const early: EarlyLoad = { sources, worker, api, ended: false };
  // `onReported` gets the first look as soon as the files are parsed, even before the plan is done (the caller holds
  // it until then); never once the early load has ended.
  const look = onReported ? Comlink.proxy((l: FirstLook) => void (early.ended || onReported(l))) : undefined;
  void api.prepare([...sources], look).catch(() => undefined);
  return early;
}

export function dropEarlyLoad(early: EarlyLoad | null): void {
  if (!early || early.ended) return;
  early.ended = true;
  early.api[Comlink.releaseProxy]();
  early.worker.terminate();
}

/** The early load, when it was started for exactly these sources. */
const sameSources = (early: EarlyLoad, sources: readonly LoadSource[]) => early.sources.length === sources.length && early.sources.every((s, i) => s === sources[i]);

export async function loadInWorker(sources: LoadSource[], onProgress: (p: LoadProgress) => void, opts: LoadOptions = {}): Promise<WorkerLoadResult> {
  const early = opts.early && !opts.early.ended && sameSources(opts.early, sources) ? opts.early : null;
  if (opts.early && !early) dropEarlyLoad(opts.early);
  const worker = early?.worker ?? takeLoadWorker();
  const api = early?.api ?? Comlink.wrap<LoadWorkerApi>(worker);
  const died = new Promise<never>((_, reject) => {
    worker.addEventListener('error', (e) => reject(new Error(`the loader worker stopped: ${e.message || 'unknown error'}`)));
    opts.signal?.addEventListener('abort', () => reject(new DOMException('the load was cancelled', 'AbortError')), { once: true });
  });
  try {
    opts.signal?.throwIfAborted();
    const preview = opts.onPreview ? Comlink.proxy(opts.onPreview) : undefined;
    const port = sessionPort();
    const chunks = new Map<number, Session['items'][]>();
    const onItems = (i: number, items: Session['items']) => {
      const list = chunks.get(i);
      if (list) list.push(items);
      else chunks.set(i, [items]);
    };
    const onReported = opts.onReported && !early ? Comlink.proxy(opts.onReported) : undefined;
    const result = await Promise.race([api.load(sources, Comlink.proxy(onProgress), preview, Comlink.transfer(port, [port]), Comlink.proxy(onItems), opts.only, onReported), died]);
    for (const [i, list] of chunks) result.sessions[i]!.items = list.flat();
    result.sessions.forEach((s, i) => {
      const id = result.handedOff[i];
      if (id) handedOff(s, id);
    });
    return result;
  } finally {
    if (early) early.ended = true;
    api[Comlink.releaseProxy]();
    worker.terminate();
  }
}

/** Decodes a bundle in a load worker (inline where there is no Worker, as in unit tests). */
export async function readBundleOffThread(source: LoadSource): Promise<Result<OpenedBundle>> {
  if (typeof Worker === 'undefined') return readBundle(source instanceof Blob ? new Uint8Array(await source.arrayBuffer()) : source.text);
  const worker = new Worker(new URL('../workers/load.worker.ts', import.meta.url), { type: 'module', name: 'load' });
  const api = Comlink.wrap<LoadWorkerApi>(worker);
  const died = new Promise<never>((_, reject) => worker.addEventListener('error', (e) => reject(new Error(`the loader worker stopped: ${e.message || 'unknown error'}`))));
  try {
    return await Promise.race([api.readBundle(source), died]);
  } finally {
    api[Comlink.releaseProxy]();
    worker.terminate();
  }
}

/**
 * Fetches the sources a link names (the caller has the user's consent for any on another origin, see
 * fetch-consent.ts); nothing else is contacted. Each failure says what happened and what to do: a scheme that is
 * never fetched, an origin the page's policy does not admit, a file over MAX_SOURCE_BYTES, an HTTP error.
 */
export async function fetchSources(urls: string[], maxBytes = MAX_SOURCE_BYTES): Promise<{ sources: LoadSource[]; failures: { url: string; message: string }[] }> {
  const sources: LoadSource[] = [];
  const failures: { url: string; message: string }[] = [];
  // The browser says only "Failed to fetch" for a request its policy blocked; the violation event says which.
  const blocked: string[] = [];
  const onViolation = (e: SecurityPolicyViolationEvent) => {
    if (e.effectiveDirective === 'connect-src') blocked.push(e.blockedURI);
  };
  document.addEventListener('securitypolicyviolation', onViolation);
  try {
    await Promise.all(
      urls.map(async (url, i) => {
        const check = checkSource(url, location.href);
        if (check.kind === 'refused') return failures.push({ url, message: `not opened: ${check.reason}` });
        if (check.kind === 'remote' && policyInstalled(document) && !allowedConnectOrigins(document).includes(check.origin)) {
          return failures.push({ url, message: notAdmitted(check.origin) });
        }
        try {
          const res = await fetch(check.url, { credentials: 'omit' });
          if (!res.ok) throw new Error(`the server answered HTTP ${res.status}${res.statusText ? ` ${res.statusText}` : ''}`);
          const body = await readCapped(res, maxBytes);
          if (!body.ok) return failures.push({ url, message: tooLarge(body.bytes, body.declared, maxBytes) });
          const name = decodeURIComponent(new URL(check.url).pathname.split('/').pop() || `source-${i + 1}`);
          sources[i] = new File(body.parts, name);
        } catch (e) {
          // Violation events are queued: let them arrive before reading them.
          await new Promise((r) => setTimeout(r, 0));
          failures.push({ url, message: fetchFailure(check.url, check.origin, blocked, e) });
        }
      }),
    );
  } finally {
    document.removeEventListener('securitypolicyviolation', onViolation);
  }
  return { sources: sources.filter(Boolean), failures };
}

function notAdmitted(origin: string): string {
  return `not fetched: this page's Content-Security-Policy does not admit ${origin} (it admits a link's sources only once you accept them, and this tab could not keep your answer). Open the link again and accept it, or download the file and drop it on the page.`;
}

function fetchFailure(url: string, origin: string, blocked: readonly string[], e: unknown): string {
  const detail = e instanceof Error ? e.message : String(e);
  const mine = blocked.find((b) => b === url || b === origin || url.startsWith(b));
  if (mine) return `blocked by this page's Content-Security-Policy, which does not admit ${mine}. Open the link again and accept its sources, or download the file and drop it on the page.`;
  if (blocked.length) return `blocked by this page's Content-Security-Policy: the request went on to ${blocked[0]} (a redirect?), which the policy does not admit. Download the file and drop it on the page.`;
  if (/HTTP \d/.test(detail)) return `could not fetch: ${detail}. Check the link.`;
  return `could not fetch (${detail}): the server did not answer, or refused this page (it must allow CORS, Access-Control-Allow-Origin). Check the link, or download the file and drop it on the page.`;
}
