import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadFiles } from '../load/loader';
import { createTokenCounter } from './counter';
import { estimateTokens } from './estimate';

const own = new URL('./__fixtures__/', import.meta.url);
const formats = new URL('../formats/__fixtures__/', import.meta.url);

describe('estimateTokens', () => {
  it.each(['o200k_base', 'cl100k_base'] as const)('stays within 20%% of the exact %s count on each kind of text', async (encoding) => {
    const counter = await createTokenCounter(encoding);
    for (const f of readdirSync(own)) {
      const text = readFileSync(new URL(f, own), 'utf8');
      const ratio = estimateTokens(text, encoding) / counter.count(text).tokens;
      expect({ f, ok: ratio > 0.8 && ratio < 1.2 }).toEqual({ f, ok: true });
    }
  });

  it('stays within a sane factor of the exact count on every format fixture', async () => {
    const counter = await createTokenCounter('o200k_base');
    const files = readdirSync(formats).filter((f) => !f.endsWith('.md'));
    expect(files.length).toBeGreaterThan(3);
    let exactAll = 0;
    let estimateAll = 0;
    for (const f of files) {
      const { sessions } = loadFiles([{ name: f, bytes: readFileSync(new URL(f, formats)) }]);
      const texts = sessions.flatMap((s) => s.items.map((i) => i.text));
      const exact = texts.reduce((n, t) => n + counter.count(t).tokens, 0);
      const estimate = texts.reduce((n, t) => n + estimateTokens(t), 0);
      exactAll += exact;
      estimateAll += estimate;
      if (exact >= 50) expect({ f, ok: estimate / exact > 0.6 && estimate / exact < 1.6 }).toEqual({ f, ok: true });
    }
    expect(estimateAll / exactAll).toBeGreaterThan(0.85);
    expect(estimateAll / exactAll).toBeLessThan(1.15);
  });

  it('prices CJK near a token per character where chars/4 would be four times too low', async () => {
    const zh = readFileSync(new URL('cjk-zh.txt', own), 'utf8');
    const exact = (await createTokenCounter('cl100k_base')).count(zh).tokens;
    expect(zh.length / 4 / exact).toBeLessThan(0.4);
    expect(estimateTokens(zh, 'cl100k_base') / exact).toBeGreaterThan(0.8);
  });

  it('returns 0 only for the empty text', () => {
    expect(estimateTokens('')).toBe(0);
    expect(estimateTokens(' ')).toBe(1);
    expect(estimateTokens('a')).toBe(1);
  });
});
