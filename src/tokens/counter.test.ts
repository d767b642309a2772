import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { counterFromEncoder, createTokenCounter, DEFAULT_ENCODER, ENCODERS } from './counter';

const zh = readFileSync(new URL('./__fixtures__/cjk-zh.txt', import.meta.url), 'utf8');

describe('createTokenCounter', () => {
  it.each(ENCODERS)('counts known strings with %s in both encodings', async (encoder) => {
    const o200k = await createTokenCounter('o200k_base', { encoder });
    const cl100k = await createTokenCounter('cl100k_base', { encoder });
    expect(o200k.count('hello world')).toEqual({ tokens: 2, approximate: false });
    expect(cl100k.count('hello world')).toEqual({ tokens: 2, approximate: false });
    // CJK is where the encodings differ most: o200k_base needs about a third fewer tokens.
    expect(o200k.count(zh).tokens / cl100k.count(zh).tokens).toBeLessThan(0.8);
    expect(o200k.count('')).toEqual({ tokens: 0, approximate: false });
  });

  it('counts special-token text as plain text instead of throwing', async () => {
    const c = await createTokenCounter('cl100k_base');
    expect(c.count('<|endoftext|>')).toEqual({ tokens: 7, approximate: false });
  });

  it('gives the same counts with both encoders', async () => {
    const texts = ['Ünïcödé façade', '😀👍🏽 emoji', '    indented\n\n\tcode();', 'x'.repeat(300), `{"port":5432,"host":"db-prod-1"}`];
    const a = await createTokenCounter('o200k_base', { encoder: 'gpt-tokenizer' });
    const b = await createTokenCounter('o200k_base', { encoder: 'js-tiktoken' });
    expect(texts.map((t) => a.count(t))).toEqual(texts.map((t) => b.count(t)));
  });

  it('defaults to gpt-tokenizer, the faster encoder in the bench', async () => {
    expect(DEFAULT_ENCODER).toBe('gpt-tokenizer');
    expect((await createTokenCounter('o200k_base')).encoder).toBe('gpt-tokenizer');
  });
});

describe('counterFromEncoder', () => {
  it('encodes the parts of a text with a long run separately and marks the count approximate', () => {
    const seen: string[] = [];
    const c = counterFromEncoder('o200k_base', 'js-tiktoken', (t) => (seen.push(t), 1), 10);
    expect(c.count('short words only')).toEqual({ tokens: 1, approximate: false });
    expect(c.count('a'.repeat(25))).toEqual({ tokens: 3, approximate: true });
    expect(seen.slice(1)).toEqual(['a'.repeat(10), 'a'.repeat(10), 'a'.repeat(5)]);
  });
});
