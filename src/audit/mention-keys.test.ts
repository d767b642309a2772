import { describe, expect, it } from 'vitest';
import { extractIdentifiers, type Identifier } from './identifiers';
import { textKeys } from './key-index';
import { mentionKeys } from './mention-keys';
import { foundIn, haystack } from './normalize';

const id = (kind: Identifier['kind'], value: string) => ({ kind, value, index: 0 }) as Identifier;


describe('mentionKeys', () => {
  it('narrows quantities by their key, and dates, settings and phone numbers by the digit runs a match must show', () => {
    expect(mentionKeys(id('quantity', '1,024 ms'))).toEqual([['q:1024 ms'], ['1', '024', '1,024', 'ms', '024 ms', '1,024 ms']]);
    expect(mentionKeys(id('quantity', 'pool_size: 20'))).toEqual([['#20']]);
    expect(mentionKeys(id('date', '2025'))).toEqual([['#2025']]);
    expect(mentionKeys(id('date', 'Oct 7'))).toEqual([['#7', '#10'], ['#7', 'oct'], ['#7', 'october']]);
    expect(mentionKeys(id('number', '(510) 555-0136'))).toEqual([['#555'], ['#5105550136'], ['#136']]);
  });

  it('reads a version with and without its `v`, and other kinds by their required words', () => {
    expect(mentionKeys(id('version', 'v2'))).toEqual([['2'], ['v2']]);
    expect(mentionKeys(id('ticket', 'FRE-512'))).toEqual([['fre', '512', 'fre-512']]);
    expect(mentionKeys(id('path', 'src/db/pool.ts'))).toEqual([['db', 'pool', 'db/pool', 'ts', 'pool.ts', 'db/pool.ts']]);
  });

  it('never leaves out a text that foundIn finds the identifier in', () => {
    let seed = 5;
    const r = (n: number) => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) % n);
    const d = () => String(1 + r(12));
    const n = () => String([7, 20, 30, 1024, 5432, 12345][r(6)]);
    const month = () => ['Oct', 'October', 'Sept', 'Sep', 'May', 'Jan'][r(6)]!;
    const snippets: (() => string)[] = [
      () => `2025-${d().padStart(2, '0')}-0${r(10)}`, () => `202${r(6)}-1${r(3)}-07T08:00Z`, () => `${month()} ${d()}, 202${r(6)}`, () => `${d()}th ${month()}`,
      () => `${month()} 0${r(10)}`, () => `in 202${r(6)}`, () => `since 20${r(3)}4`, () => `(202${r(3)})`,
      () => `(510) 55${r(10)}-0136`, () => `510-555-01${r(10)}6`, () => '+1 510.555.0136', () => '5105550136', () => '5,105,550,136',
      () => `${n()}s`, () => `${n()} seconds`, () => `${n()}.0 secs`, () => `1,0${r(3)}4 ms`, () => `10${r(3)}4ms`, () => '1024.50 ms',
      () => `$1,0${r(3)}4`, () => '$1,0245', () => `$1.${r(3)}M`, () => '$1.50M', () => `00${r(10)}ms`, () => `${r(10)}ms`, () => `${n()}%`, () => `${r(10)} MB`,
      () => `pool_size: ${n()}`, () => `pool size is ${n()}`, () => `PoolSize ${n()}`, () => 'pool-size=1,000', () => `pool_size ${n()}`,
      () => `v${r(4)}`, () => `V2.${r(3)}`, () => `${r(3)}.1.0`, () => `version 1.${r(4)}`, () => 'node 20.11',
      () => `src/db/pool${r(3)}.ts`, () => `lib/db/pool${r(3)}.ts`, () => `db-prod-${r(3)}:5432`, () => `db-prod-${r(3)}`, () => `port ${n()}`,
      () => `https://api.example.com/v${r(3)}`, () => `FRE-${r(20)}`, () => `getConn${r(3)}()`, () => 'pool.getConn(', () => n(), () => '1,234,567',
      () => 'a@b.io', () => `deadbeef1${r(10)}`,
    ];
    const joins = [' ', '', '\n', '. ', ', ', '-', '/', '_', 'x', '\u212A', '\u0130', 'é', '\n\n', ' at ', ': '];
    const texts = Array.from({ length: 400 }, () =>
      Array.from({ length: 1 + r(6) }, () => snippets[r(snippets.length)]!() + joins[r(joins.length)]!).join(''),
    );
    const ids = new Map<string, Identifier>();
    for (const t of texts) for (const i of extractIdentifiers(t)) ids.set(`${i.kind} ${i.value}`, i);
    expect(ids.size).toBeGreaterThan(100);
    const hays = texts.map((t) => ({ hay: haystack(t), keys: textKeys(t) }));
    let found = 0;
    for (const i of ids.values()) {
      const groups = mentionKeys(i);
      for (const { hay, keys } of hays) {
        if (!foundIn(i, hay)) continue;
        found++;
        if (groups === null) continue;
        expect(groups.some((g) => g.length > 0 && g.every((k) => keys.has(k))), `${i.kind} ${i.value} in ${JSON.stringify(hay.text)}`).toBe(true);
      }
    }
    expect(found).toBeGreaterThan(1000);
  });
});
