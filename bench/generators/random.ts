// A seeded PRNG (mulberry32) and the small draws the generators make: same seed, same sequence, on any machine.

export interface Random {
  /** Uniform in [0, 1). */
  next(): number;
  /** Integer in [min, max], both included. */
  int(min: number, max: number): number;
  pick<T>(list: readonly T[]): T;
  chance(p: number): boolean;
  /** Lowercase hex of `n` characters. */
  hex(n: number): string;
  /** A v4-shaped UUID drawn from the sequence (never from crypto). */
  uuid(): string;
  /** Base-62 characters, as in Anthropic message and tool ids. */
  base62(n: number): string;
  /** A project's own names, when a generator draws from a fixed set (text.ts); fresh names otherwise. */
  vocabulary?: Vocabulary;
}

/** The files and names one project has: a real session reads, greps and edits the same ones again and again. */
export interface Vocabulary {
  paths: readonly string[];
  idents: readonly string[];
  /** Tickets, versions and hosts the project talks about. */
  facts: readonly string[];
  /** The numbers its tools print. */
  numbers: readonly number[];
}

const HEX = '0123456789abcdef';
const B62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

export function random(seed: number): Random {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const chars = (alphabet: string, n: number) => {
    let s = '';
    for (let i = 0; i < n; i++) s += alphabet[Math.floor(next() * alphabet.length)];
    return s;
  };
  const r: Random = {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    pick: (list) => list[Math.floor(next() * list.length)]!,
    chance: (p) => next() < p,
    hex: (n) => chars(HEX, n),
    uuid: () => `${chars(HEX, 8)}-${chars(HEX, 4)}-4${chars(HEX, 3)}-${'89ab'[Math.floor(next() * 4)]}${chars(HEX, 3)}-${chars(HEX, 12)}`,
    base62: (n) => chars(B62, n),
  };
  return r;
}
