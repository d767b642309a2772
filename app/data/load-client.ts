// Runs the loader in a worker, matching replies to requests; a newer load never waits on an older one.
import * as Comlink from 'comlink';
import type { Session } from '../../src/model/types';
import type { LoadPreview, LoadProgress, LoadSource, LoadWorkerApi, WorkerLoadResult } from '../workers/load.worker';
import { handedOff, sessionPort } from './analysis-client';

export type { LoadPreview, LoadProgress, LoadSource, WorkerLoadResult };

export interface LoadOptions {
  /** Asks for a preview of a lone big JSONL file, delivered before the whole file is parsed. */
  onPreview?: (p: LoadPreview) => void;
  /** Stops the load: the worker is ended and the promise rejects with an AbortError. */
  signal?: AbortSignal;
  /** Keeps only the session with this id (one sample of a log that holds many), when the files have it. */
  only?: string;
}

export async function loadInWorker(sources: LoadSource[], onProgress: (p: LoadProgress) => void, opts: LoadOptions = {}): Promise<WorkerLoadResult> {
  const worker = new Worker(new URL('../workers/load.worker.ts', import.meta.url), { type: 'module', name: 'load' });
  const api = Comlink.wrap<LoadWorkerApi>(worker);
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
    const result = await Promise.race([api.load(sources, Comlink.proxy(onProgress), preview, Comlink.transfer(port, [port]), Comlink.proxy(onItems), opts.only), died]);
    for (const [i, list] of chunks) result.sessions[i]!.items = list.flat();
    result.sessions.forEach((s, i) => {
      const id = result.handedOff[i];
      if (id) handedOff(s, id);
    });
    return result;
  } finally {
    api[Comlink.releaseProxy]();
    worker.terminate();
  }
}

/** Fetches files named by `?src=` (or demos) from where the user pointed; nothing else is contacted. */
export async function fetchSources(urls: string[]): Promise<{ sources: LoadSource[]; failures: { url: string; message: string }[] }> {
  const sources: LoadSource[] = [];
  const failures: { url: string; message: string }[] = [];
  await Promise.all(
    urls.map(async (url, i) => {
      try {
        const res = await fetch(url, { credentials: 'omit' });
        if (!res.ok) throw new Error(`HTTP ${res.status}`);
        const blob = await res.blob();
        const name = decodeURIComponent(new URL(url, location.href).pathname.split('/').pop() || `source-${i + 1}`);
        sources[i] = new File([blob], name);
      } catch (e) {
        failures.push({ url, message: e instanceof Error ? e.message : String(e) });
      }
    }),
  );
  return { sources: sources.filter(Boolean), failures };
}
