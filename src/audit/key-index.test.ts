import { describe, expect, it } from 'vitest';
import { KeyIndex, textKeys } from './key-index';

function randomTexts(seed: number, n: number): string[] {
  const r = (k: number) => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) % k);
  const parts = ['db', 'Pool', 'conn', '5432', '007', '0', '1,024', '12,34', 'v2', '.', '/', '-', '_', ' ', '  ', '\n', ':', 'é', '\u212A', '\u0130x', 'Oct', 'x9', '2025', 'a', 'ms', ' MB', '$', 's'];
  return Array.from({ length: n }, () => Array.from({ length: 1 + r(30) }, () => parts[r(parts.length)]!).join(''));
}

describe('KeyIndex', () => {
  it('lists the items holding a word, a joined pair or triple, or a digit run, in order', () => {
    const texts = ['see src/db/pool_conn.ts', 'host db-prod-1:5432', 'nothing', 'Pool at 07:05, 1,024 rows', 'DB/POOL'];
    const keys = ['db', 'db/pool', 'db/pool_conn', 'pool_conn.ts', 'db-prod-1', 'prod', '#5432', '#7', '#5', '#1024', '#1', '#24', '1024', 'missing'];
    const index = new KeyIndex(keys);
    texts.forEach((t, i) => index.add(i, t));
    expect(index.postings('db')).toEqual([0, 1, 4]);
    expect(index.postings('db/pool')).toEqual([0, 4]);
    expect(index.postings('db/pool_conn')).toEqual([0]);
    expect(index.postings('pool_conn.ts')).toEqual([0]);
    expect(index.postings('db-prod-1')).toEqual([1]);
    expect(index.postings('#5432')).toEqual([1]);
    // `07` and `05` are the runs 7 and 5; `1,024` is read as `1` and `024`, and as `1024` without the separator.
    expect(index.postings('#7')).toEqual([3]);
    expect(index.postings('#5')).toEqual([3]);
    expect(index.postings('#1024')).toEqual([3]);
    expect(index.postings('#1')).toEqual([1, 3]);
    expect(index.postings('#24')).toEqual([3]);
    expect(index.postings('1024')).toEqual([3]);
    expect(index.postings('missing')).toEqual([]);
  });

  it("tells where a key first stands in each item's lower case, or 0 when the lower case moved the text", () => {
    const index = new KeyIndex(['db/pool', 'pool', '#7']);
    index.add(0, 'x DB/Pool, db/pool');
    index.add(1, '\u0130 db/pool');
    index.add(2, 'pool 7');
    expect(index.postings('db/pool')).toEqual([0, 1]);
    expect(index.offsets('db/pool')).toEqual([2, 0]);
    expect(index.offsets('pool')).toEqual([5, 0, 0]);
  });

  it('reads a character whose lower case is an ASCII letter also as a separator', () => {
    const index = new KeyIndex(['oct', 'koct']);
    index.add(0, '\u212AOct 7');
    expect(index.postings('oct')).toEqual([0]);
    expect(index.postings('koct')).toEqual([0]);
  });

  it('lists the items where the quantity pass matches an amount with that quantity key', () => {
    const index = new KeyIndex(['q:30 s', 'q:$1024', 'q:5 mb']);
    ['waited 30 seconds', 'waited 30s', 'cost $1,024', 'see https://x.io/?t=30s', '30 sheep'].forEach((t, i) => index.add(i, t));
    // The URL's `30s` is claimed by the URL, but the quantity pass still matches it.
    expect(index.postings('q:30 s')).toEqual([0, 1, 3]);
    expect(index.postings('q:$1024')).toEqual([2]);
    expect(index.postings('q:5 mb')).toEqual([]);
  });

  it('refuses a key it was not built for, and a key wanted once items were added', () => {
    expect(() => new KeyIndex(['a']).postings('b')).toThrow();
    const index = new KeyIndex();
    const a = index.want('a');
    index.add(0, 'a b');
    expect(a.items).toEqual([0]);
    expect(index.want('a')).toBe(a);
    expect(() => index.want('b')).toThrow();
  });

  it('gives every wanted key exactly the items whose straightforward reading holds it', () => {
    const texts = randomTexts(11, 400);
    const perText = texts.map(textKeys);
    const all = new Set(perText.flatMap((k) => [...k]));
    // Every key of some text, and a few that are in none.
    const wanted = [...all, 'zz', '#999', 'db/zz'];
    const index = new KeyIndex(wanted);
    texts.forEach((t, i) => index.add(i, t));
    for (const key of wanted) expect(index.postings(key), key).toEqual(perText.flatMap((keys, i) => (keys.has(key) ? [i] : [])));
  });
});
