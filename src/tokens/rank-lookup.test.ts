import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { ENCODINGS } from './encoding';
import { byteTokens, packRankTable, RankLookup, rankSlots, rankStarts, unpackRanks } from './rank-lookup';
import { loadRankTable } from './rank-tables';

const fixtures = readdirSync(new URL('./__fixtures__/', import.meta.url)).map((f) => readFileSync(new URL(`./__fixtures__/${f}`, import.meta.url), 'utf8'));
const texts = [...fixtures, 'Ünïcödé façade', '😀👍🏽 emoji', '\u00ff\u00fe bytes', '<|endoftext|> <|im_start|>', '    indented\n\n\tcode();', '中文标点，。！', 'toolu_01AbCdEfGhIjKlMnOpQrStUv\n'];

describe('packed rank tables', () => {
  it.each(ENCODINGS)('%s: packing keeps every token, and the lookup finds each string token at its rank and nothing else', async (encoding) => {
    const table = await loadRankTable(encoding);
    const packed = JSON.parse(JSON.stringify(packRankTable(table)));
    expect(unpackRanks(packed)).toEqual(table);
    const lookup = RankLookup.fromPacked(packed);
    const fromTable = RankLookup.fromTable(table);
    table.forEach((t, r) => {
      if (typeof t === 'string') {
        expect(lookup.get(t)).toBe(r);
        expect(fromTable.get(t)).toBe(r);
      }
    });
    for (const miss of ['', 'no such token in any table ✓✓✓', 'x'.repeat(300)]) expect(lookup.get(miss)).toBeUndefined();
    expect(byteTokens(packed).filter(Boolean)).toEqual(table.filter((t) => Array.isArray(t)));
  });

  it.each(ENCODINGS)('%s: a counter on the packed table (what the built CLI reads) gives the package’s own counts', async (encoding) => {
    vi.resetModules();
    const { loadRankTable: load, setRankTableSource } = await import('./rank-tables');
    const { createTokenCounter } = await import('./counter');
    const packed = JSON.parse(JSON.stringify(packRankTable(await load(encoding))));
    setRankTableSource(async () => packed);
    const counter = await createTokenCounter(encoding);
    const pkg = encoding === 'o200k_base' ? await import('gpt-tokenizer/encoding/o200k_base') : await import('gpt-tokenizer/encoding/cl100k_base');
    const options = { disallowedSpecial: new Set<string>() };
    expect(texts.map((t) => counter.count(t).tokens)).toEqual(texts.map((t) => pkg.countTokens(t, options)));
    // Read back through loadRankTable, a packed source gives the table in gpt-tokenizer's form.
    expect((await load(encoding)).length).toBe(packed.lengths.length);
  });
});

describe('rank lookup slots worked out at build time', () => {
  it('are used when they agree with the table, and rebuilt when they do not (another byte order, another table)', async () => {
    const packed = packRankTable(await loadRankTable('o200k_base'));
    const slots = rankSlots(packed);
    const lookup = RankLookup.fromPacked({ ...packed, slots });
    expect(lookup.slots).toBe(slots);
    expect(lookup.get('hello')).toBe(RankLookup.fromTable(await loadRankTable('o200k_base')).get('hello'));
    const swapped = new Int32Array(new Uint8Array(slots.buffer.slice(0)).reverse().buffer).reverse();
    const rebuilt = RankLookup.fromPacked({ ...packed, slots: swapped });
    expect(rebuilt.slots).not.toBe(swapped);
    expect(rebuilt.slots).toEqual(slots);
  });
});

describe('rank starts worked out at build time', () => {
  it('give the lookup the table’s tokens when they fit, and are worked out again when they do not', async () => {
    const table = await loadRankTable('cl100k_base');
    const packed = packRankTable(table);
    const starts = rankStarts(packed);
    expect(starts.length).toBe(packed.lengths.length + 1);
    expect(starts[starts.length - 1]).toBe(packed.text.length);
    const shifted = starts.map((v, r) => (r > 0 && r < starts.length - 1 ? v + 1 : v));
    const lookups = [RankLookup.fromPacked({ ...packed, starts }), RankLookup.fromPacked({ ...packed, starts: shifted }), RankLookup.fromPacked({ ...packed, starts: starts.subarray(1) })];
    table.forEach((t, r) => {
      if (typeof t === 'string') for (const lookup of lookups) expect(lookup.get(t)).toBe(r);
    });
  });
});
