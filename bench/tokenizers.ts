// gpt-tokenizer against js-tiktoken on the same texts: speed, and whether every count is identical.
// Rule from the issue: gpt-tokenizer becomes the default encoder if it is at least 2× faster and its counts
// are identical on the corpus. Also measures the worker pool against single-thread js-tiktoken (budget: 2×).
import { availableParallelism } from 'node:os';
import { pathToFileURL } from 'node:url';
import * as gptCl100k from 'gpt-tokenizer/encoding/cl100k_base';
import * as gptO200k from 'gpt-tokenizer/encoding/o200k_base';
import { counterFromEncoder, DEFAULT_ENCODER, loadEncoder, type EncoderId } from '../src/tokens/counter';
import type { EncodingName } from '../src/tokens/encoding';
import { buildCorpus, edgeTexts, type CorpusSource } from './corpus';
import { createNodeTokenPool } from './node-pool';

const PASSES = 5;

export interface EncoderRow {
  encoder: string;
  encoding: EncodingName;
  texts: number;
  chars: number;
  tokens: number;
  ms: number;
  tokensPerSec: number;
  /** Speed relative to single-thread js-tiktoken on the same encoding and texts. */
  ratio: number;
  identical: boolean;
  loadMs: number | null;
}

export interface TokenizerBench {
  sources: CorpusSource[];
  rows: EncoderRow[];
  edge: EncoderRow[];
  /** How many corpus texts differ between the encoders, per encoding. */
  differences: Record<string, { index: number; chars: number; jsTiktoken: number; gptTokenizer: number; sample: string }[]>;
  decision: { gptTokenizerWins: boolean; defaultEncoder: EncoderId; reason: string };
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

function clearGptCache(encoding: EncodingName): void {
  (encoding === 'o200k_base' ? gptO200k : gptCl100k).clearMergeCache();
}

async function timeEncoder(encoder: EncoderId, encoding: EncodingName, texts: string[], passes: number) {
  const t0 = performance.now();
  const encode = await loadEncoder(encoder, encoding);
  const loadMs = performance.now() - t0;
  const counter = counterFromEncoder(encoding, encoder, encode);
  let counts: number[] = [];
  const times: number[] = [];
  for (let p = 0; p <= passes; p++) {
    if (encoder === 'gpt-tokenizer') clearGptCache(encoding); // no merge cache carried from pass to pass
    const t = performance.now();
    counts = texts.map((x) => counter.count(x).tokens);
    if (p > 0) times.push(performance.now() - t); // pass 0 warms the JIT
  }
  return { counts, ms: median(times), loadMs };
}

function row(encoder: string, encoding: EncodingName, texts: string[], counts: number[], ms: number, baseMs: number, identical: boolean, loadMs: number | null): EncoderRow {
  const tokens = counts.reduce((a, b) => a + b, 0);
  return {
    encoder,
    encoding,
    texts: texts.length,
    chars: texts.reduce((a, t) => a + t.length, 0),
    tokens,
    ms: Math.round(ms * 10) / 10,
    tokensPerSec: Math.round(tokens / (ms / 1000)),
    ratio: Math.round((baseMs / ms) * 100) / 100,
    identical,
    loadMs: loadMs === null ? null : Math.round(loadMs),
  };
}

async function timePool(encoder: EncoderId, encoding: EncodingName, texts: string[], passes: number) {
  const pool = createNodeTokenPool();
  try {
    let counts: number[] = [];
    const times: number[] = [];
    for (let p = 0; p <= passes; p++) {
      pool.memo(encoding, encoder).clear(); // measure counting, not the memo (texts are distinct anyway)
      const t = performance.now();
      counts = (await pool.count(texts, { encoding, encoder })).map((c) => c.tokens);
      if (p > 0) times.push(performance.now() - t); // pass 0 loads the ranks in every worker
    }
    return { counts, ms: median(times), size: pool.size };
  } finally {
    pool.terminate();
  }
}

export function printTable(rows: EncoderRow[]): void {
  const head = ['encoder', 'encoding', 'texts', 'chars', 'tokens', 'ms', 'tokens/s', 'ratio', 'identical'];
  const body = rows.map((r) => [r.encoder, r.encoding, r.texts, r.chars, r.tokens, r.ms.toFixed(1), r.tokensPerSec, `${r.ratio.toFixed(2)}×`, r.identical ? 'yes' : 'no'].map(String));
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i]!.length)));
  const line = (cells: string[]) => '| ' + cells.map((c, i) => (i < 2 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(' | ') + ' |';
  console.log(line(head));
  console.log('|' + widths.map((w, i) => (i < 2 ? '-'.repeat(w + 2) : '-'.repeat(w + 1) + ':')).join('|') + '|');
  for (const b of body) console.log(line(b));
}

export async function benchTokenizers(): Promise<TokenizerBench> {
  const corpus = buildCorpus();
  const texts = corpus.texts;
  console.log(`\n## Tokenizers: ${texts.length} distinct texts, ${texts.reduce((a, t) => a + t.length, 0)} chars`);
  for (const s of corpus.sources) console.log(`  ${s.dir}: ${s.files} files, ${s.texts} texts, ${s.chars} chars`);
  const rows: EncoderRow[] = [];
  const edge: EncoderRow[] = [];
  const differences: TokenizerBench['differences'] = {};
  let wins = true;
  const edges = edgeTexts();
  for (const encoding of ['o200k_base', 'cl100k_base'] as const) {
    const base = await timeEncoder('js-tiktoken', encoding, texts, PASSES);
    const gpt = await timeEncoder('gpt-tokenizer', encoding, texts, PASSES);
    const diffs = texts.flatMap((t, i) => (base.counts[i] === gpt.counts[i] ? [] : [{ index: i, chars: t.length, jsTiktoken: base.counts[i]!, gptTokenizer: gpt.counts[i]!, sample: t.slice(0, 80) }]));
    differences[encoding] = diffs;
    rows.push(row('js-tiktoken', encoding, texts, base.counts, base.ms, base.ms, true, base.loadMs));
    const g = row('gpt-tokenizer', encoding, texts, gpt.counts, gpt.ms, base.ms, diffs.length === 0, gpt.loadMs);
    rows.push(g);
    if (!(g.ratio >= 2 && g.identical)) wins = false;
    const cores = availableParallelism();
    for (const encoder of ['js-tiktoken', 'gpt-tokenizer'] as const) {
      const pooled = await timePool(encoder, encoding, texts, PASSES);
      const same = pooled.counts.every((c, i) => c === base.counts[i]);
      rows.push(row(`pool ${pooled.size}×${encoder} (${cores} cores)`, encoding, texts, pooled.counts, pooled.ms, base.ms, same, null));
    }
    const eb = await timeEncoder('js-tiktoken', encoding, edges, 1);
    const eg = await timeEncoder('gpt-tokenizer', encoding, edges, 1);
    edge.push(row('js-tiktoken', encoding, edges, eb.counts, eb.ms, eb.ms, true, null));
    edge.push(row('gpt-tokenizer', encoding, edges, eg.counts, eg.ms, eb.ms, eb.counts.every((c, i) => c === eg.counts[i]), null));
  }
  console.log('\nCorpus (median of timed passes; ratio = speed vs single-thread js-tiktoken; identical = every text counted the same as js-tiktoken):\n');
  printTable(rows);
  console.log('\nEdge texts (CJK, emoji, special-token text, 200k base64, long letter/space runs; one pass):\n');
  printTable(edge);
  for (const [enc, d] of Object.entries(differences)) if (d.length) console.log(`\n${enc}: ${d.length} texts differ`, d.slice(0, 5));
  const reason = wins
    ? 'gpt-tokenizer is at least 2× faster than js-tiktoken with identical counts on the corpus, for both encodings'
    : 'gpt-tokenizer is not both at least 2× faster and identical on the corpus, for both encodings';
  const decision = { gptTokenizerWins: wins, defaultEncoder: DEFAULT_ENCODER, reason };
  console.log(`\nDecision: ${reason}. Default encoder in src/tokens: ${DEFAULT_ENCODER}.`);
  return { sources: corpus.sources, rows, edge, differences, decision };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await benchTokenizers();
}
