import { describe, expect, it } from 'vitest';
import { QuoteFinder, slicesOf } from './quoted-span';

// The plain scan the finder replaces: does `text` contain any fourth 16-character slice of `said`?
const scan = (text: string, said: string) => {
  for (let i = 0; i + 16 <= said.length; i += 4) if (text.includes(said.slice(i, i + 16))) return true;
  return false;
};

describe('QuoteFinder', () => {
  const said = 'please rename the config loader to loadsettings and keep the old export';

  it('finds a quote of the message anywhere in the text', () => {
    const finder = new QuoteFinder();
    expect(finder.contains('edit: src/x.ts -> rename the config loader to loadsettings now', slicesOf(said))).toBe(true);
    expect(finder.contains('{"old":"keep the old export"}', slicesOf(said))).toBe(true);
  });

  it('needs the 16 characters together, not both halves apart', () => {
    const finder = new QuoteFinder();
    // "rename the confi" split: its halves occur, but never side by side.
    expect(finder.contains('rename t ... he confi', slicesOf(said))).toBe(false);
    expect(finder.contains('grep -r loadSettings src/', slicesOf(said))).toBe(false);
  });

  it('answers nothing for texts or messages shorter than a span', () => {
    const finder = new QuoteFinder();
    expect(finder.contains('short', slicesOf(said))).toBe(false);
    expect(finder.contains(said, slicesOf('too short'))).toBe(false);
  });

  it('agrees with the plain scan on random texts, quotes and near-quotes', () => {
    let seed = 7;
    const rand = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
    const pick = (n: number) => Math.floor(rand() * n);
    const text = (n: number) => Array.from({ length: n }, () => 'ab c'[pick(4)]).join('');
    const finder = new QuoteFinder();
    let hits = 0;
    for (let k = 0; k < 400; k++) {
      const a = text(20 + pick(200));
      // Half the messages are cut from the text, some with one character changed; the rest are random.
      let b = text(16 + pick(60));
      if (k % 2 === 0) {
        const from = pick(a.length - 16);
        b = a.slice(from, from + 16 + pick(24));
        if (k % 4 === 0) {
          const at = pick(b.length);
          b = `${b.slice(0, at)}x${b.slice(at + 1)}`;
        }
      }
      const want = scan(a, b);
      if (want) hits++;
      expect(finder.contains(a, slicesOf(b))).toBe(want);
    }
    // Both answers occur, so the comparison means something.
    expect(hits).toBeGreaterThan(50);
    expect(hits).toBeLessThan(350);
  });
});
