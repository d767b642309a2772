import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadText } from '../load/loader';
import { auditInputFor } from './audit-session';
import { auditSummary, type AuditInput } from './audit-summary';
import { extractIdentifiers, type Identifier } from './identifiers';
import { keysOf, LaterIndex, outerKeysOf, requiredWords } from './later-index';

const id = (kind: Identifier['kind'], value: string) => ({ kind, value }) as Identifier;

describe('keysOf', () => {
  // The first reading of keysOf, by regex: the words, and each pair and triple joined by single characters.
  function byRegex(lower: string, skipFirst = false): string[] {
    const keys: string[] = [];
    let a: { joined: string | null } | null = null;
    let b: { word: string; end: number } | null = null;
    let first = true;
    for (const m of lower.matchAll(/[a-z0-9]+/g)) {
      const word = m[0];
      if (first && skipFirst) {
        first = false;
        continue;
      }
      first = false;
      keys.push(word);
      if (b && m.index === b.end + 1) {
        const pair = `${b.word}${lower[b.end]}${word}`;
        keys.push(pair);
        if (a?.joined) keys.push(`${a.joined}${lower[b.end]}${word}`);
        a = { joined: pair };
      } else a = null;
      b = { word, end: m.index + word.length };
    }
    return keys;
  }

  it('gives the words, pairs and triples of a text in order', () => {
    expect(keysOf('db/pool_conn.ts')).toEqual(['db', 'pool', 'db/pool', 'conn', 'pool_conn', 'db/pool_conn', 'ts', 'conn.ts', 'pool_conn.ts']);
    expect(keysOf('https://a.io', true)).toEqual(['a', 'io', 'a.io']);
  });

  it('reads every text as the regex reading does', () => {
    let seed = 1;
    const r = (n: number) => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) % n);
    const parts = ['a', 'db', '42', '/', '.', '-', ' ', '  ', '_', 'é', 'X'];
    for (let k = 0; k < 2000; k++) {
      const text = Array.from({ length: r(12) }, () => parts[r(parts.length)]!).join('');
      expect(keysOf(text, k % 2 === 0)).toEqual(byRegex(text, k % 2 === 0));
    }
  });
});

describe('outerKeysOf', () => {
  it("gives each run's triples, or its pair, or its word", () => {
    expect(outerKeysOf('src/db/pool_conn.ts')).toEqual(['src/db/pool', 'db/pool_conn', 'pool_conn.ts']);
    expect(outerKeysOf('db/pool  ts x')).toEqual(['db/pool', 'ts x']);
    expect(outerKeysOf('https://a.io', true)).toEqual(['a.io']);
    expect(outerKeysOf('')).toEqual([]);
  });

  it('gives only keys keysOf gives, and every key keysOf gives stands inside one of them', () => {
    let seed = 2;
    const r = (n: number) => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) % n);
    const parts = ['a', 'db', '42', '/', '.', '-', ' ', '  ', '_', 'é'];
    for (let k = 0; k < 2000; k++) {
      const text = Array.from({ length: r(12) }, () => parts[r(parts.length)]!).join('');
      const skip = k % 2 === 0;
      const outer = outerKeysOf(text, skip);
      const all = keysOf(text, skip);
      for (const key of outer) expect(all, text).toContain(key);
      for (const key of all) expect(outer.some((o) => o.includes(key)), `${text}: ${key}`).toBe(true);
    }
  });
});

describe('requiredWords', () => {
  it('asks only for the runs a match must show as whole words, and the pairs and triples they form, per kind', () => {
    // Every accepted suffix of a path holds its last two segments.
    expect(requiredWords(id('path', 'src/db/pool_conn.ts'))).toEqual(['db', 'pool', 'db/pool', 'conn', 'pool_conn', 'db/pool_conn', 'ts', 'conn.ts', 'pool_conn.ts']);
    expect(requiredWords(id('host-port', 'db-prod-1:5432'))).toEqual(['db', 'prod', 'db-prod', '1', 'prod-1', 'db-prod-1']);
    expect(requiredWords(id('ticket', 'FRE-512'))).toEqual(['fre', '512', 'fre-512']);
    expect(requiredWords(id('function', 'pool.getConn()'))).toEqual(['getconn']);
    // A URL's first run and a version's first run may be glued to what precedes them.
    expect(requiredWords(id('url', 'https://api.example.com/v2'))).toEqual(['api', 'example', 'api.example', 'com', 'example.com', 'api.example.com', 'v2', 'com/v2', 'example.com/v2']);
    expect(requiredWords(id('version', 'v2.14.3'))).toEqual(['14', '3', '14.3']);
    expect(requiredWords(id('number', '1,024'))).toEqual(['1024']);
    // Matched through the identifiers of the item (dates, phones) or a setting pattern: every item is checked.
    expect(requiredWords(id('date', 'October 7, 2025'))).toBeNull();
    expect(requiredWords(id('number', '(510) 555-0136'))).toBeNull();
    expect(requiredWords(id('quantity', '30 s'))).toBeNull();
  });
});

describe('LaterIndex', () => {
  const texts = ['host: db-prod-1\nport: 5432', 'nothing here', 'see src/db/pool_conn.ts and FRE-512', 'waited 30 seconds, then 1,024 rows'];
  const index = new LaterIndex(texts, (i) => extractIdentifiers(texts[i]!));

  it('lists the items holding every required word, in order', () => {
    expect(index.candidates(id('host-port', 'db-prod-1:5432'))).toEqual([0]);
    expect(index.candidates(id('path', 'lib/db/pool_conn.ts'))).toEqual([2]);
    expect(index.candidates(id('path', 'lib/x/pool_conn.ts'))).toEqual([]);
    expect(index.candidates(id('ticket', 'FRE-513'))).toEqual([]);
    expect(index.candidates(id('number', '1024'))).toEqual([3]);
  });

  it('finds quantities by their canonical key as well as by their words', () => {
    expect(index.candidates(id('quantity', '30 s'))).toEqual([3]);
    expect(index.candidates(id('quantity', '31 s'))).toEqual([]);
  });
});

/** Every compaction of the repo's fixtures and demos, plus a synthetic one dense in identifiers. */
function inputs(): AuditInput[] {
  const out: AuditInput[] = [];
  for (const dir of ['src/formats/__fixtures__', 'public/demos', 'src/audit/__fixtures__']) {
    for (const f of readdirSync(dir)) {
      for (const s of loadText(f, readFileSync(join(dir, f), 'utf8')).sessions) {
        for (const c of s.compactions) {
          const input = auditInputFor(s, c);
          if (input) out.push(input);
        }
      }
    }
  }
  let seed = 7;
  const r = (n: number) => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) % n);
  const fact = () =>
    [`src/${['db', 'api'][r(2)]}/${['pool', 'conn', 'retry'][r(3)]}_${['a', 'b'][r(2)]}.ts`, `db-prod-${r(3)}:${[5432, 6379][r(2)]}`, `FRE-${r(40)}`, `v1.${r(5)}.${r(3)}`, `${r(90)} ms`, `${r(3)},${100 + r(900)} rows`, `pool_size: ${r(30)}`, `getConn${r(4)}()`, `https://api.example.com/v${r(3)}`, `October ${1 + r(9)}, 2025`][r(10)]!;
  const text = (n: number) => Array.from({ length: n }, () => `the agent read ${fact()} and then ${fact()};`).join(' ');
  out.push({ summary: text(5), sources: Array.from({ length: 40 }, () => text(8)), later: Array.from({ length: 60 }, (_, i) => ({ id: `l${i}`, text: text(4), role: i % 3 ? 'assistant' : 'user' })) });
  return out;
}

describe('auditSummary with the later-item index', () => {
  it('gives exactly the audit the full scan gives, on every fixture compaction and a dense synthetic one', () => {
    const all = inputs();
    expect(all.length).toBeGreaterThan(5);
    for (const input of all) expect(auditSummary(input, { indexAboveLost: 0 })).toEqual(auditSummary(input, { indexAboveLost: Infinity }));
    const dense = all[all.length - 1]!;
    expect(auditSummary(dense, { indexAboveLost: 0 }).lostReferencedLater.length).toBeGreaterThan(5);
  });
});
