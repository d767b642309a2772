import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadFiles } from '../load/loader';
import { describeSamples, readSample, SAMPLES_DIR } from '../test/shared-samples';
import { byteMergeCount } from './byte-merge';
import { gptTokenizerCore, gptTokenizerPieces } from './counter';
import type { EncodingName } from './encoding';
import { asciiMergeCount, asPieceCore, knowClasses, O200K_SPLIT_SOURCE, o200kPieceEnd, pieceMemoCount } from './piece-memo';
import type { RankLookup } from './rank-lookup';

const FIXTURES = new URL('./__fixtures__/', import.meta.url);
const fixtureTexts = readdirSync(FIXTURES).map((f) => readFileSync(new URL(f, FIXTURES), 'utf8'));
const HAND = [
  '',
  'hello world',
  "I'll say they're fine, DON'T you've we'd",
  '<|endoftext|> and <|im_start|>system',
  'Ünïcödé façade 😀👍🏽 emoji ﷺ \u0301combining',
  '    indented\n\n\tcode();\r\n  \n',
  ' '.repeat(300),
  'x'.repeat(300),
  '12345678901 3.14159 ١٢٣ 一二三',
  `{"port":5432,"host":"db-prod-1"}\n`,
  'tool:tool_result#toolu_01AbCdEfGhIjKlMnOpQrStUv\n',
  'camelCaseIdentifiers HTTPServer getHTTPResponse __init__ snake_case',
  '\u00a0\u2003 nbsp and em space\u3000ideographic',
];

async function pair(encoding: EncodingName) {
  const core = asPieceCore(await gptTokenizerCore(encoding));
  expect(core).not.toBeNull();
  if (!core) throw new Error('gpt-tokenizer core without the internals piece-memo reads');
  return { core, memo: pieceMemoCount(core), tiny: pieceMemoCount(core, 3) };
}

describe('pieceMemoCount', () => {
  it.each(['o200k_base', 'cl100k_base'] as const)('gives countNative’s count on hand-made and fixture texts in %s, twice over and with a tiny memo', async (encoding) => {
    const { core, memo, tiny } = await pair(encoding);
    const texts = [...HAND, ...fixtureTexts, ...HAND.map((t) => t + fixtureTexts.join('\n'))];
    const want = texts.map((t) => core.countNative(t));
    // Second pass reads the memo; the tiny memo clears itself every few pieces.
    for (let pass = 0; pass < 2; pass++) {
      expect(texts.map((t) => memo(t))).toEqual(want);
      expect(texts.map((t) => tiny(t))).toEqual(want);
    }
    expect(want.some((n) => n > 200)).toBe(true);
  });
});

describe('pieceMemoCount on the counter’s own rank tables', () => {
  it.each(['o200k_base', 'cl100k_base'] as const)('gives countNative’s count on hand-made and fixture texts in %s, twice over and with a tiny memo', async (encoding) => {
    const core = asPieceCore(await gptTokenizerCore(encoding))!;
    const pieces = await gptTokenizerPieces(encoding);
    const memo = pieceMemoCount(pieces);
    const tiny = pieceMemoCount(pieces, 3);
    const texts = [...HAND, ...fixtureTexts, ...HAND.map((t) => t + fixtureTexts.join('\n'))];
    const want = texts.map((t) => core.countNative(t));
    for (let pass = 0; pass < 2; pass++) {
      expect(texts.map((t) => memo(t))).toEqual(want);
      expect(texts.map((t) => tiny(t))).toEqual(want);
    }
  });

  it.each(['o200k_base', 'cl100k_base'] as const)('merges pieces past ASCII into as many tokens as gpt-tokenizer does in %s', async (encoding) => {
    const core = asPieceCore(await gptTokenizerCore(encoding))!;
    const { lookup, bytes } = await gptTokenizerPieces(encoding);
    // Two- to four-byte characters, combining marks, a byte order mark (gpt-tokenizer's decoder drops it at a run's
    // start) and lone surrogates (written as U+FFFD).
    const alphabet = [...'aé→—😀一\uFEFF \n\u0301xZ9ßΩ\u00a0ﷺ١', '\uD800', '\uDC00'];
    const random = ((seed: number) => () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32))(5);
    for (let i = 0; i < 3000; i++) {
      const p = Array.from({ length: 1 + Math.floor(random() * 12) }, () => alphabet[Math.floor(random() * alphabet.length)]).join('');
      const want = core.getBpeRankFromString(p) !== undefined ? 1 : core.bytePairEncode(p).length;
      expect(byteMergeCount(lookup, bytes, p), JSON.stringify(p)).toBe(want);
    }
  });
});

describeSamples('pieceMemoCount on the real samples', () => {
  it('gives countNative’s count for every item text of every shared sample', async () => {
    const { core, memo } = await pair('o200k_base');
    const own = pieceMemoCount(await gptTokenizerPieces('o200k_base'));
    let n = 0;
    for (const name of readdirSync(SAMPLES_DIR).filter((f) => f.endsWith('.jsonl'))) {
      const loaded = loadFiles([readSample(name)]);
      for (const s of loaded.sessions) {
        for (const it of [...s.items, ...s.requests.flatMap((r) => r.items)]) {
          expect(memo(it.text), `${name} ${it.id}`).toBe(core.countNative(it.text));
          expect(own(it.text), `${name} ${it.id}`).toBe(core.countNative(it.text));
          n++;
        }
      }
    }
    expect(n).toBeGreaterThan(100);
  });
});

describe('the ASCII scanner and merge', () => {
  // Characters where the pattern's alternatives meet: cases, digits, every kind of ASCII space, the contraction
  // suffixes, punctuation with slashes and line breaks, and characters past ASCII that continue or end a piece.
  const ALPHABET = [..."aAzZsSdDlLvVrReEtTmM09'\" \t\n\r\u000b\u000c/_-.{}#\u0000\u001f\u007f", 'é', 'É', '١', '\u00a0', '\u2003', '\u0301', '😀', '一'];
  const rng = (seed: number) => () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32);

  it('cuts every text into the pieces o200k’s pattern cuts it into, or leaves the piece to the pattern', async () => {
    const core = asPieceCore(await gptTokenizerCore('o200k_base'))!;
    expect(core.tokenSplitRegex.source).toBe(O200K_SPLIT_SOURCE);
    const random = rng(7);
    const texts = [...HAND, ...fixtureTexts];
    for (let i = 0; i < 3000; i++) texts.push(Array.from({ length: 1 + Math.floor(random() * 40) }, () => ALPHABET[Math.floor(random() * ALPHABET.length)]).join(''));
    const re = new RegExp(core.tokenSplitRegex.source, core.tokenSplitRegex.flags);
    let scanned = 0;
    for (const t of texts) {
      for (const m of t.matchAll(re)) {
        const e = o200kPieceEnd(t, m.index, t.length);
        if (e < 0) continue;
        expect(t.slice(m.index, e), JSON.stringify(t)).toBe(m[0]);
        scanned++;
      }
    }
    expect(scanned).toBeGreaterThan(20_000);
  });

  it('cuts texts with punctuation and symbols past ASCII as the pattern does, once it has read their classes', async () => {
    const core = asPieceCore(await gptTokenizerCore('o200k_base'))!;
    // Punctuation and symbols (to be read as ASCII punctuation), beside letters, digits, marks, spaces and surrogate
    // pairs of other scripts (to stay the regex's).
    const wide = ['→', '—', '–', '…', '✓', '✗', '•', '├', '─', '│', '’', '“', '×', '°', '≥', '€', '¿', '\u200b', '\ufeff'];
    const alphabet = [...ALPHABET, ...wide];
    knowClasses(alphabet.join(''), 0, alphabet.join('').length);
    const random = rng(13);
    const texts = [...HAND, ...fixtureTexts];
    for (let i = 0; i < 5000; i++) texts.push(Array.from({ length: 1 + Math.floor(random() * 40) }, () => alphabet[Math.floor(random() * alphabet.length)]).join(''));
    const re = new RegExp(core.tokenSplitRegex.source, core.tokenSplitRegex.flags);
    let wideScanned = 0;
    for (const t of texts) {
      for (const m of t.matchAll(re)) {
        const e = o200kPieceEnd(t, m.index, t.length);
        if (e < 0) continue;
        expect(t.slice(m.index, e), JSON.stringify(t)).toBe(m[0]);
        if (/[^\x00-\x7f]/.test(m[0])) wideScanned++;
      }
    }
    expect(wideScanned).toBeGreaterThan(5_000);
  });

  it('merges ASCII pieces into as many tokens as gpt-tokenizer does', async () => {
    const core = asPieceCore(await gptTokenizerCore('o200k_base'))!;
    const lookup = core.bytePairStringRankEncoder as RankLookup;
    const random = rng(11);
    const ascii = ALPHABET.filter((c) => c.charCodeAt(0) < 128);
    const pieces = ['toolu_01AbCdEfGhIjKlMnOpQrStUv', 'HTTPServer', 'aaaaaaaaaaaaaaaaaaaa', ' {"port":5432', '\n\n\n'];
    for (let i = 0; i < 2000; i++) pieces.push(Array.from({ length: 2 + Math.floor(random() * 30) }, () => ascii[Math.floor(random() * ascii.length)]).join(''));
    for (const p of pieces) {
      const want = core.getBpeRankFromString(p) !== undefined ? 1 : core.bytePairEncode(p).length;
      expect(asciiMergeCount(lookup, 'x' + p + 'y', 1, p.length), JSON.stringify(p)).toBe(want);
    }
  });
});
