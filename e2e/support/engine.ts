// What the engine makes of files on disk, to compare with what the page shows.
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { loadFiles, type LoadResult } from '../../src/load/loader';

export function engineLoad(...paths: string[]): LoadResult {
  return loadFiles(paths.map((p) => ({ name: basename(p), bytes: new Uint8Array(readFileSync(p)) })));
}
