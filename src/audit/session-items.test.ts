import { describe, expect, it } from 'vitest';
import { extractIdentifiers, type Identifier } from './identifiers';
import { SessionItems } from './session-items';
import { foundIn, haystack, referencedIn } from './normalize';

const texts = [
  'host: db-prod-1\nport: 5432',
  'Which port again?',
  'see src/db/pool_conn.ts, waited 30 seconds',
  'Which file was it?',
  'db/pool_conn.ts again, and db-prod-1:5432 after 30s',
  'What port?',
];
const roles = ['tool', 'user', 'tool', 'assistant', 'tool', undefined];
const id = (kind: Identifier['kind'], value: string) => ({ kind, value, index: 0 }) as Identifier;

describe('SessionItems', () => {
  const ids = [id('host-port', 'db-prod-1:5432'), id('path', 'lib/db/pool_conn.ts'), id('quantity', '30 s'), id('port', '5432'), id('ticket', 'FRE-1')];
  const later = new SessionItems(texts, roles);
  later.prepare(ids);

  it('finds the first item from a position on that mentions an identifier, leaving out skipped items', () => {
    expect(later.firstMention(ids[0]!, 0, () => false)).toBe(0);
    expect(later.firstMention(ids[0]!, 1, () => false)).toBe(4);
    expect(later.firstMention(ids[1]!, 0, () => false)).toBe(2);
    expect(later.firstMention(ids[1]!, 0, (i) => i === 2)).toBe(4);
    expect(later.firstMention(ids[2]!, 3, () => false)).toBe(4);
    expect(later.firstMention(ids[4]!, 0, () => false)).toBe(-1);
  });

  it('tells whether a wanted item holding the keys passes a test, and lists those items', () => {
    expect(later.some(later.keys(ids[1]!), () => true, (h) => h.text.includes('again'))).toBe(true);
    expect(later.some(later.keys(ids[1]!), (i) => i !== 4, (h) => h.text.includes('again'))).toBe(false);
    expect(later.holding(later.keys(ids[0]!), () => true).map((h) => h.text)).toEqual([texts[0], texts[4]]);
  });

  it("finds the first user question asking for the identifier's kind, not an assistant's", () => {
    expect(later.firstQuestion(ids[3]!, 0, () => false)).toBe(1);
    expect(later.firstQuestion(ids[3]!, 2, () => false)).toBe(5);
    expect(later.firstQuestion(ids[1]!, 0, () => false)).toBe(-1);
  });

  it('gives what a scan of every item gives, for every identifier of the items', () => {
    const all = texts.flatMap((t) => extractIdentifiers(t));
    const fresh = new SessionItems(texts, roles);
    fresh.prepare(all);
    for (const i of all) {
      for (let from = 1; from < texts.length; from++) {
        const skip = (k: number) => k % 3 === from % 3;
        let scan = -1;
        for (let k = from; k < texts.length && scan < 0; k++) if (!skip(k) && referencedIn(i, haystack(texts[k]!))) scan = k;
        expect(fresh.firstMention(i, from, skip), `${i.value} from ${from}`).toBe(scan);
      }
    }
  });

  it('gives what a scan gives on long made-up texts where paths and tickets recur, with and without İ', () => {
    let seed = 21;
    const r = (n: number) => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) % n);
    const bits = ['src/db/pool.ts', 'lib/db/pool.ts', 'db/pool.ts', 'xdb/pool.ts', 'db/pool.tsx', 'FRE-12', 'FRE-123', 'xFRE-12', 'a@b.io', ' ', '\n', '/', '\u0130', 'é', 'db', 'pool'];
    const many = Array.from({ length: 80 }, () => Array.from({ length: 40 + r(60) }, () => bits[r(bits.length)]!).join(r(2) ? ' ' : ''));
    const wanted = [id('path', 'app/src/db/pool.ts'), id('path', 'db/pool.ts'), id('ticket', 'FRE-12'), id('email', 'a@b.io'), id('host', 'b.io')];
    const items = new SessionItems(many, many.map(() => 'tool'));
    items.prepare(wanted);
    for (const i of wanted) {
      for (let from = 0; from < many.length; from += 7) {
        let scan = -1;
        for (let k = from; k < many.length && scan < 0; k++) if (referencedIn(i, haystack(many[k]!))) scan = k;
        expect(items.firstMention(i, from, () => false), `${i.value} from ${from}`).toBe(scan);
      }
    }
  });
});
