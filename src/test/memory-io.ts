// A CliIo over files held in memory, for CLI tests: what the CLI prints and writes is kept for assertions. A name
// with slashes sits in folders: `a/b.json` makes `a` a folder that lists `b.json`.
import type { CliIo } from '../cli/main';

export interface MemoryIo {
  io: CliIo;
  out: string[];
  err: string[];
  written: Map<string, string>;
}

export function memoryIo(files: Record<string, string | Uint8Array>, extra: Partial<CliIo> = {}): MemoryIo {
  const out: string[] = [];
  const err: string[] = [];
  const written = new Map<string, string>();
  const names = Object.keys(files);
  const io: CliIo = {
    out: (t) => out.push(t),
    err: (t) => err.push(t),
    readFile: (p) => {
      const f = files[p];
      if (f === undefined) throw new Error(`ENOENT: no such file, open '${p}'`);
      return typeof f === 'string' ? new TextEncoder().encode(f) : f;
    },
    listDir: (p) => [...new Set(names.filter((f) => f.startsWith(`${p}/`)).map((f) => f.slice(p.length + 1).split('/')[0]!))],
    isDir: (p) => !(p in files) && names.some((f) => f.startsWith(`${p}/`)),
    exists: (p) => p in files || names.some((f) => f.startsWith(`${p}/`)),
    writeFile: (p, t) => void written.set(p, t),
    ...extra,
  };
  return { io, out, err, written };
}
