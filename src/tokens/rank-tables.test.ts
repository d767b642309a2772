import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { ENCODINGS } from './encoding';

const fixtures = readdirSync(new URL('./__fixtures__/', import.meta.url)).map((f) => readFileSync(new URL(`./__fixtures__/${f}`, import.meta.url), 'utf8'));
// Tokens whose bytes are not valid UTF-8 are the ones a JSON copy could get wrong: lone bytes of split characters.
const texts = [...fixtures, 'Ünïcödé façade', '😀👍🏽 emoji', '\u00ff\u00fe bytes', '<|endoftext|> <|im_start|>', '    indented\n\n\tcode();', '中文标点，。！'];

describe('rank tables', () => {
  it.each(ENCODINGS)('a JSON copy of the %s table (what the browser workers fetch) gives the package module’s counts', async (encoding) => {
    vi.resetModules();
    const { loadRankTable, setRankTableSource } = await import('./rank-tables');
    const { createTokenCounter } = await import('./counter');
    const original = await loadRankTable(encoding);
    expect(original.some((t) => Array.isArray(t))).toBe(true);
    const asJson = vi.fn(async () => JSON.parse(JSON.stringify(original)));
    setRankTableSource(asJson);
    const fromJson = await createTokenCounter(encoding);
    expect(asJson).toHaveBeenCalledWith(encoding);
    const pkg = encoding === 'o200k_base' ? await import('gpt-tokenizer/encoding/o200k_base') : await import('gpt-tokenizer/encoding/cl100k_base');
    const options = { disallowedSpecial: new Set<string>() };
    expect(texts.map((t) => fromJson.count(t).tokens)).toEqual(texts.map((t) => pkg.countTokens(t, options)));
  });

  it('a source that fails rejects the counter, and the next request tries again', async () => {
    vi.resetModules();
    const { loadRankTable, setRankTableSource } = await import('./rank-tables');
    const { createTokenCounter } = await import('./counter');
    const real = await loadRankTable('o200k_base');
    let fail = true;
    setRankTableSource(async () => {
      if (fail) throw new Error('HTTP 404');
      return real;
    });
    await expect(createTokenCounter('o200k_base')).rejects.toThrow('HTTP 404');
    fail = false;
    expect((await createTokenCounter('o200k_base')).count('hello world').tokens).toBe(2);
  });
});
