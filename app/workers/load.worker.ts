// Parses dropped files off the main thread: streams each file in with progress, then runs the engine loader.
import * as Comlink from 'comlink';
import { loadFiles, type InputFile, type LoadResult } from '../../src/load/loader';

export interface LoadProgress {
  file: string;
  loaded: number;
  total: number;
  phase: 'reading' | 'parsing';
}

export type LoadSource = File | { name: string; text: string };

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
  async load(sources: LoadSource[], onProgress: (p: LoadProgress) => void): Promise<LoadResult> {
    const inputs: InputFile[] = [];
    for (const s of sources) inputs.push(await readAll(s, onProgress));
    const total = inputs.reduce((n, f) => n + f.bytes.length, 0);
    onProgress({ file: inputs.map((f) => f.name).join(', '), loaded: 0, total, phase: 'parsing' });
    return loadFiles(inputs);
  },
};

export type LoadWorkerApi = typeof api;
Comlink.expose(api);
