// Maps a position in a built chunk back to the source file and line through the chunk's source map, so a CPU
// profile of the minified app names `src/audit/normalize.ts:247` instead of `z`. A plain VLQ decoder: the
// bench needs nothing more than "which original line is at this generated line and column".
import { existsSync, readFileSync } from 'node:fs';

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

interface RawMap {
  sources: string[];
  names?: string[];
  mappings: string;
}

/** Per generated line: segments [column, source, line, nameIndex?], sorted by column. */
type Lines = number[][][];

function decode(mappings: string): Lines {
  const lines: Lines = [];
  let source = 0;
  let line = 0;
  let column = 0;
  let name = 0;
  for (const l of mappings.split(';')) {
    const segs: number[][] = [];
    let gen = 0;
    for (const seg of l.split(',')) {
      if (!seg) continue;
      const values: number[] = [];
      let value = 0;
      let shift = 0;
      for (const ch of seg) {
        const digit = B64.indexOf(ch);
        value += (digit & 31) << shift;
        if (digit & 32) shift += 5;
        else {
          values.push(value & 1 ? -(value >>> 1) : value >>> 1);
          value = 0;
          shift = 0;
        }
      }
      gen += values[0]!;
      if (values.length >= 4) {
        source += values[1]!;
        line += values[2]!;
        column += values[3]!;
        const entry = [gen, source, line];
        if (values.length >= 5) {
          name += values[4]!;
          entry.push(name);
        }
        segs.push(entry);
      }
    }
    lines.push(segs);
  }
  return lines;
}

export interface Resolver {
  /** `src/x.ts:12` (and the original name when the map has one) for a 0-based generated line and column. */
  resolve(line: number, column: number): string | null;
}

export function loadSourceMap(chunkPath: string): Resolver | null {
  const mapPath = `${chunkPath}.map`;
  if (!existsSync(mapPath)) return null;
  const raw = JSON.parse(readFileSync(mapPath, 'utf8')) as RawMap;
  const lines = decode(raw.mappings);
  return {
    resolve(line, column) {
      const segs = lines[line];
      if (!segs?.length) return null;
      let best: number[] | undefined;
      for (const s of segs) {
        if (s[0]! > column) break;
        best = s;
      }
      best ??= segs[0];
      if (!best) return null;
      const file = (raw.sources[best[1]!] ?? '?').replace(/^(\.\.\/)+/, '');
      const name = best[3] !== undefined ? raw.names?.[best[3]] : undefined;
      return `${file}:${best[2]! + 1}${name ? ` (${name})` : ''}`;
    },
  };
}
