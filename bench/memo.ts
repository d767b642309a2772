// Does the memo pay off on a request log? A synthetic log of 200 calls, each repeating the previous call's
// messages plus one new message (texts taken from the bench corpus), parsed from JSONL like a real log (so
// repeats are distinct string objects), counted with and without the memo. Budget: with the memo, at most
// 1.3× the cost of counting the log's unique content once.
import { pathToFileURL } from 'node:url';
import * as gptCl100k from 'gpt-tokenizer/encoding/cl100k_base';
import * as gptO200k from 'gpt-tokenizer/encoding/o200k_base';
import { counterFromEncoder, DEFAULT_ENCODER, loadEncoder, type EncoderId, type TokenCounter } from '../src/tokens/counter';
import type { EncodingName } from '../src/tokens/encoding';
import { contentHash, TokenMemo } from '../src/tokens/memo';
import { buildCorpus } from './corpus';
import { createNodeTokenPool } from './node-pool';

const CALLS = 200;
const PASSES = 15;

export interface MemoRow {
  encoder: EncoderId;
  method: string;
  encodes: number;
  ms: number;
  /** Cost relative to counting the unique content once. */
  ratio: number;
}

export interface MemoBench {
  calls: number;
  uniqueMessages: number;
  countedMessages: number;
  uniqueChars: number;
  totalChars: number;
  rows: MemoRow[];
  memoStats: { hits: number; misses: number };
  withinBudget: boolean;
}

function rng(seed: number) {
  return () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 4294967296);
}

const WORDS = 'the agent read config db host port summary cache prefix tool result compaction turn kept lost invented call request token budget window tail head middle evicted marker'.split(' ');

/** A generated message of 300–3,000 characters: prose, a code listing or a JSON tool output, all distinct. */
function message(i: number, rand: () => number): { role: string; content: string } {
  const kind = i % 3;
  const words = (n: number) => Array.from({ length: n }, () => WORDS[Math.floor(rand() * WORDS.length)]).join(' ');
  const len = 300 + Math.floor(rand() * 2700);
  let content = '';
  if (kind === 0) {
    while (content.length < len) content += `${words(12)} ${Math.floor(rand() * 10000)}. `;
    return { role: i % 2 ? 'assistant' : 'user', content };
  }
  if (kind === 1) {
    let line = 1;
    while (content.length < len) content += `${String(line++).padStart(4)}  const ${words(1)}_${i} = await ${words(1)}(${Math.floor(rand() * 999)}, '${words(2)}');\n`;
    return { role: 'tool', content };
  }
  const rows = [];
  while (JSON.stringify(rows).length < len) rows.push({ id: `FRE-${Math.floor(rand() * 9999)}`, title: words(6), port: Math.floor(rand() * 65535), ok: rand() > 0.5 });
  return { role: 'tool', content: JSON.stringify({ call: i, rows }) };
}

/**
 * The messages: 200 distinct texts of 200–6,000 characters from the bench corpus (fixtures, demos, samples),
 * spread over it; topped up with generated ones when the corpus is small.
 */
function messages(): { role: string; content: string }[] {
  const pool = buildCorpus().texts.filter((t) => t.length >= 200 && t.length <= 6000);
  const step = Math.max(1, Math.floor(pool.length / CALLS));
  const picked = pool.filter((_, i) => i % step === 0).slice(0, CALLS).map((content, i) => ({ role: ['user', 'assistant', 'tool'][i % 3]!, content }));
  const rand = rng(7);
  for (let i = picked.length; i < CALLS; i++) picked.push(message(i, rand));
  return picked;
}

/** The log as JSONL, then parsed: every call's messages are fresh strings, as after loading a real log. */
function requestLog(): { calls: string[][]; ids: string[][] } {
  const msgs = messages();
  const lines = msgs.map((_, i) => JSON.stringify({ request: { model: 'gpt-4o', messages: msgs.slice(0, i + 1) } }));
  const calls = lines.map((l) => (JSON.parse(l) as { request: { messages: { content: string }[] } }).request.messages.map((m) => m.content));
  // Content-based item ids, as the request-log adapter gives a message repeated across calls.
  const ids = calls.map((c) => c.map((_, j) => `m${j}`));
  return { calls, ids };
}

function clearGpt(encoding: EncodingName) {
  (encoding === 'o200k_base' ? gptO200k : gptCl100k).clearMergeCache();
}

/** Best time of each run over `passes` rounds, the runs interleaved so that drift in machine load hits all alike. */
function timeEach(passes: number, encoding: EncodingName, runs: (() => void)[]): number[] {
  const best = runs.map(() => Infinity);
  for (let p = 0; p <= passes; p++) {
    runs.forEach((run, k) => {
      clearGpt(encoding);
      const t = performance.now();
      run();
      if (p > 0) best[k] = Math.min(best[k]!, performance.now() - t); // round 0 warms the JIT
    });
  }
  return best;
}

async function timeAsync(passes: number, run: () => Promise<void>): Promise<number> {
  const times: number[] = [];
  for (let p = 0; p <= passes; p++) {
    const t = performance.now();
    await run();
    if (p > 0) times.push(performance.now() - t);
  }
  return Math.min(...times);
}

export async function benchMemo(): Promise<MemoBench> {
  const encoding: EncodingName = 'o200k_base';
  const { calls, ids } = requestLog();
  const fresh = calls.flat();
  const keys = ids.flat();
  const unique = calls[calls.length - 1]!;
  // The same log as an adapter could hand it over: each repeated message is the first copy's string object.
  const shared = calls.flatMap((c) => c.map((_, j) => unique[j]!));
  const uniqueChars = unique.reduce((a, t) => a + t.length, 0);
  const totalChars = fresh.reduce((a, t) => a + t.length, 0);
  console.log(`\n## Memo: request log of ${CALLS} calls, ${unique.length} unique messages (${uniqueChars} chars), ${fresh.length} message copies (${totalChars} chars)`);
  const rows: MemoRow[] = [];
  let stats = { hits: 0, misses: 0 };
  let withinBudget = true;
  for (const encoder of [DEFAULT_ENCODER, ...(['js-tiktoken', 'gpt-tokenizer'] as const).filter((e) => e !== DEFAULT_ENCODER)]) {
    const counter: TokenCounter = counterFromEncoder(encoding, encoder, await loadEncoder(encoder, encoding));
    const r = (method: string, encodes: number, ms: number, once: number): MemoRow => ({ encoder, method, encodes, ms: Math.round(ms * 10) / 10, ratio: Math.round((ms / once) * 100) / 100 });
    const memoRun = (all: string[]) => () => {
      const memo = new TokenMemo();
      for (const t of all) memo.count(t, (x) => counter.count(x));
      if (encoder === DEFAULT_ENCODER && all === fresh) stats = { hits: memo.stats.hits, misses: memo.stats.misses };
    };
    // The design the memo did not take: key every text by a full content hash (cyrb53) and its length.
    const hashMemoRun = () => {
      const m = new Map<string, number>();
      for (const t of fresh) {
        const k = `${t.length}:${contentHash(t)}`;
        if (!m.has(k)) m.set(k, counter.count(t).tokens);
      }
    };
    // What the memo adds on top of the unique encodes: every lookup, with all counts already stored.
    const filled = new TokenMemo();
    for (const t of unique) filled.store(t, counter.count(t));
    const lookups = (all: string[]) => () => all.forEach((t) => filled.lookup(t));
    const [once, withFresh, withShared, hashMemo, lookFresh, lookShared] = timeEach(PASSES, encoding, [
      () => unique.forEach((t) => counter.count(t)),
      memoRun(fresh),
      memoRun(shared),
      hashMemoRun,
      lookups(fresh),
      lookups(shared),
    ]) as [number, number, number, number, number, number];
    clearGpt(encoding);
    const t0 = performance.now();
    fresh.forEach((t) => counter.count(t));
    const noMemo = performance.now() - t0;
    rows.push(r('unique content once', unique.length, once, once));
    rows.push(r('every message, no memo (one pass)', fresh.length, noMemo, once));
    rows.push(r('memo, fresh strings (as parsed)', unique.length, withFresh, once));
    rows.push(r('memo, shared strings (repeats are one string)', unique.length, withShared, once));
    rows.push(r('full-hash memo (cyrb53 + length), fresh strings', unique.length, hashMemo, once));
    rows.push(r('memo lookups alone, fresh strings', 0, lookFresh, once));
    rows.push(r('memo lookups alone, shared strings', 0, lookShared, once));
    if (encoder === DEFAULT_ENCODER && withFresh / once > 1.3) withinBudget = false;

    if (encoder === DEFAULT_ENCODER) {
      // Through the worker pool: the whole log as one batch (in-batch dedupe) against its unique texts.
      const pool = createNodeTokenPool();
      try {
        await pool.count(unique, { encoding, encoder }); // load the ranks in the workers
        const run = (texts: string[], withKeys = false) =>
          timeAsync(PASSES, async () => {
            pool.memo(encoding, encoder).clear();
            await pool.count(texts, { encoding, encoder, keys: withKeys ? keys : undefined });
          });
        const poolOnce = await run(unique);
        rows.push(r(`pool ${pool.size}×: unique content once`, unique.length, poolOnce, poolOnce));
        rows.push(r(`pool ${pool.size}×: whole log, fresh strings`, unique.length, await run(fresh), poolOnce));
        rows.push(r(`pool ${pool.size}×: whole log, shared strings`, unique.length, await run(shared), poolOnce));
        rows.push(r(`pool ${pool.size}×: whole log, fresh strings + item ids as keys`, unique.length, await run(fresh, true), poolOnce));
      } finally {
        pool.terminate();
      }
    }
  }
  console.log('\n| encoder | method | encodes | ms (best of ' + PASSES + ') | ratio vs unique once |\n|---|---|---:|---:|---:|');
  for (const x of rows) console.log(`| ${x.encoder} | ${x.method} | ${x.encodes} | ${x.ms.toFixed(1)} | ${x.ratio.toFixed(2)}× |`);
  console.log(`\nMemo with ${DEFAULT_ENCODER}: ${stats.hits} hits, ${stats.misses} misses. Budget (≤ 1.3× unique once, fresh strings): ${withinBudget ? 'met' : 'NOT met'}.`);
  return { calls: CALLS, uniqueMessages: unique.length, countedMessages: fresh.length, uniqueChars, totalChars, rows, memoStats: stats, withinBudget };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await benchMemo();
}
