import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadFiles } from '../load/loader';
import { describeSamples, readSample, SAMPLES_DIR } from '../test/shared-samples';
import { gptTokenizerCore } from './counter';
import type { EncodingName } from './encoding';
import { asPieceCore, pieceMemoCount } from './piece-memo';

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

describeSamples('pieceMemoCount on the real samples', () => {
  it('gives countNative’s count for every item text of every shared sample', async () => {
    const { core, memo } = await pair('o200k_base');
    let n = 0;
    for (const name of readdirSync(SAMPLES_DIR).filter((f) => f.endsWith('.jsonl'))) {
      const loaded = loadFiles([readSample(name)]);
      for (const s of loaded.sessions) {
        for (const it of [...s.items, ...s.requests.flatMap((r) => r.items)]) {
          expect(memo(it.text), `${name} ${it.id}`).toBe(core.countNative(it.text));
          n++;
        }
      }
    }
    expect(n).toBeGreaterThan(100);
  });
});
