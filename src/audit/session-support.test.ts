import { describe, expect, it } from 'vitest';
import { extractIdentifiers, mayMatchAcross, type Identifier } from './identifiers';
import { dateSupported, foundIn, haystack } from './normalize';
import { SessionItems } from './session-items';
import { SupportCheck, supportKeys } from './session-support';

/** `auditSummary`'s reading: the texts joined with blank lines. */
function joinedBacks(id: Identifier, texts: string[]): boolean {
  const joined = haystack(texts.join('\n\n'));
  return id.kind === 'date' ? dateSupported(id.value, [joined]) : foundIn(id, joined);
}

function check(texts: string[], read: number[], ids: Identifier[]): SupportCheck {
  const items = new SessionItems(texts, texts.map(() => 'tool'));
  items.prepare([], ids.flatMap((i) => supportKeys(i, items.keys(i))).flat());
  const wanted = new Set(read);
  return new SupportCheck({ items, has: (i) => wanted.has(i), texts: () => read.map((i) => texts[i]!) });
}

const id = (kind: Identifier['kind'], value: string) => ({ kind, value, index: 0 }) as Identifier;

describe('SupportCheck', () => {
  it('backs host:port by its host in one text and its port in another, as the joined texts do', () => {
    const texts = ['host: db-prod-1', 'unrelated', 'listening on 5432'];
    const ids = [id('host-port', 'db-prod-1:5432'), id('host-port', 'db-prod-2:5432')];
    const c = check(texts, [0, 2], ids);
    expect(c.backs(ids[0]!)).toBe(true);
    expect(c.backs(ids[1]!)).toBe(false);
    expect(check(texts, [0, 1], ids).backs(ids[0]!)).toBe(false);
  });

  it('reads a date that runs across two texts as the joined texts do', () => {
    // Joined, `Oct` and `7, 2025` read as one date.
    const texts = ['due Oct', '7, 2025 it shipped'];
    const ids = [id('date', 'October 7, 2025')];
    expect(joinedBacks(ids[0]!, texts)).toBe(true);
    expect(check(texts, [0, 1], ids).backs(ids[0]!)).toBe(true);
    expect(check(texts, [1, 0], ids).backs(ids[0]!)).toBe(false);
  });

  it('gives the answer of the joined texts for every identifier, on made-up texts and subsets', () => {
    let seed = 9;
    const r = (n: number) => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) % n);
    const pick = <T,>(xs: T[]): T => xs[r(xs.length)]!;
    const facts = [
      () => `db-prod-${r(3)}`, () => `db-prod-${r(3)}:${pick([5432, 6379])}`, () => `port ${pick([5432, 6379])}`, () => `${pick(['Oct', 'October', 'Sept'])}`,
      () => `${1 + r(9)}`, () => `${1 + r(9)}th`, () => `202${r(4)}`, () => `in 202${r(4)}`, () => `2025-10-0${1 + r(9)}`, () => `${pick(['Oct', 'Sept'])} ${1 + r(9)}, 202${r(4)}`,
      () => `${pick([7, 30])}s`, () => `${pick([7, 30])} seconds`, () => `pool_size: ${pick([7, 20])}`, () => 'pool', () => `size: ${pick([7, 20])}`,
      () => `(510) 555-01${r(10)}6`, () => `510555${r(10)}136`, () => `v1.${r(3)}`, () => 'node', () => `src/db/pool${r(3)}.ts`, () => `FRE-${r(9)}`,
    ];
    const text = () => Array.from({ length: 1 + r(4) }, () => pick(facts)()).join(pick([' ', '\n', ', ', '']));
    let seamless = 0;
    let seams = 0;
    let backed = 0;
    for (let k = 0; k < 60; k++) {
      const texts = Array.from({ length: 12 }, text);
      const read = texts.map((_, i) => i).filter(() => r(3) > 0);
      if (r(2)) read.reverse();
      const readTexts = read.map((i) => texts[i]!);
      if (mayMatchAcross(readTexts)) seams++;
      else seamless++;
      const ids = [...new Map(Array.from({ length: 6 }, text).flatMap((t) => extractIdentifiers(t)).map((i) => [`${i.kind} ${i.value}`, i])).values()];
      const c = check(texts, read, ids);
      for (const i of ids) {
        const expected = joinedBacks(i, readTexts);
        if (expected) backed++;
        expect(c.backs(i), `${i.kind} ${i.value} in ${JSON.stringify(readTexts)}`).toBe(expected);
      }
    }
    expect(seamless).toBeGreaterThan(5);
    expect(seams).toBeGreaterThan(5);
    expect(backed).toBeGreaterThan(100);
  });
});
