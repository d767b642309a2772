// Parses dropped files off the main thread: streams each file in with progress, then runs the engine loader.
import * as Comlink from 'comlink';
import { loadFiles, type InputFile, type LoadResult } from '../../src/load/loader';
import { sha256Hex } from '../../src/share';
import { sessionHashes } from '../data/session-hash';

export interface LoadProgress {
  file: string;
  loaded: number;
  total: number;
  phase: 'reading' | 'parsing';
}

export type LoadSource = File | { name: string; text: string };

/** The loader's result plus each session's content hash (sessionHash of its files; null if unknown). */
export interface WorkerLoadResult extends LoadResult {
  hashes: (string | null)[];
}

async function readAll(source: LoadSource, onProgress: (p: LoadProgress) => void): Promise<InputFile> {
  if (!(source instanceof Blob)) return { name: source.name, bytes: new TextEncoder().encode(source.text) };
  const total = source.size;
  const reader = source.stream().getReader();
  const bytes = new Uint8Array(total);
  let loaded = 0;
  let lastReport = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes.set(value, loaded);
    loaded += value.length;
    if (loaded - lastReport > 1 << 20 || loaded === total) {
      lastReport = loaded;
      onProgress({ file: source.name, loaded, total, phase: 'reading' });
    }
  }
  return { name: source.name, bytes: bytes.subarray(0, loaded) };
}

const api = {
  async load(sources: LoadSource[], onProgress: (p: LoadProgress) => void): Promise<WorkerLoadResult> {
    const inputs: InputFile[] = [];
    for (const s of sources) inputs.push(await readAll(s, onProgress));
    const total = inputs.reduce((n, f) => n + f.bytes.length, 0);
    onProgress({ file: inputs.map((f) => f.name).join(', '), loaded: 0, total, phase: 'parsing' });
    // Hashed before parsing: the bytes are here already, and the hash keys the library and share links.
    const digests = await Promise.all(inputs.map(async (f) => ({ name: f.name, digest: await sha256Hex(f.bytes) })));
    const result = loadFiles(inputs);
    return { ...result, hashes: await sessionHashes(result.sessions, digests) };
  },
};

export type LoadWorkerApi = typeof api;
Comlink.expose(api);
