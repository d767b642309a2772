// The baselines of the browser benches, run in Chromium on the engine's own code (the same modules the app
// bundles): js-tiktoken single-thread over the texts the app counts, counting a request log's unique content
// once, and the cache-prefix analysis against the naive token-by-token comparison. Playwright calls
// `window.bench.*` and reads the returned numbers.
import type { CallContext } from '../../../src/analysis/context-types';
import { countedTexts } from '../../../src/analysis/counted-texts';
import { sessionContexts } from '../../../src/analysis/session-analysis';
import { analyzeCachePrefix } from '../../../src/cache';
import { naivePrefix } from '../../../src/cache/naive-prefix';
import { loadFiles } from '../../../src/load/loader';
import type { Session } from '../../../src/model/types';
import { counterFromEncoder, createTokenCounter, loadEncoder, pickEncoding, TokenMemo, type EncodingName } from '../../../src/tokens';

let session: Session | null = null;

function current(): Session {
  if (!session) throw new Error('bench.open() first');
  return session;
}

function encodingOf(s: Session): EncodingName {
  return pickEncoding(s.model).encoding;
}

const ms = (t: number) => Math.round((performance.now() - t) * 10) / 10;

const bench = {
  async open(url: string, name: string) {
    const bytes = new Uint8Array(await (await fetch(url)).arrayBuffer());
    const t = performance.now();
    const result = loadFiles([{ name, bytes }]);
    session = result.sessions[0] ?? null;
    const s = current();
    return { loadMs: ms(t), items: s.items.length, requests: s.requests.length, errors: result.issues.filter((i) => i.severity === 'error').length, encoding: encodingOf(s) };
  },

  /** Counts the distinct texts once with a fresh exact counter (the app's default encoder): the floor for counting. */
  async uniqueOnce() {
    const s = current();
    const texts = countedTexts(s);
    const counter = await createTokenCounter(encodingOf(s));
    const t = performance.now();
    let tokens = 0;
    for (const x of texts) tokens += counter.count(x).tokens;
    return { texts: texts.length, chars: texts.reduce((n, x) => n + x.length, 0), tokens, ms: ms(t) };
  },

  /** js-tiktoken and the default encoder, single-thread, over every `stride`-th text the app counts. */
  async tokenizers(stride: number) {
    const s = current();
    const encoding = encodingOf(s);
    const sample = countedTexts(s).filter((_, i) => i % stride === 0);
    const chars = sample.reduce((n, x) => n + x.length, 0);
    const rows: Record<string, { ms: number; tokens: number }> = {};
    const js = counterFromEncoder(encoding, 'js-tiktoken', await loadEncoder('js-tiktoken', encoding));
    const def = await createTokenCounter(encoding);
    // Warm both up on a slice that is not timed.
    for (const x of sample.slice(0, 20)) {
      js.count(x.slice(0, 2000));
      def.count(x.slice(0, 2000));
    }
    for (const [name, c] of [['js-tiktoken', js], ['default', def]] as const) {
      const t = performance.now();
      let tokens = 0;
      for (const x of sample) tokens += c.count(x).tokens;
      rows[name] = { ms: ms(t), tokens };
    }
    return { encoding, texts: sample.length, chars, rows };
  },

  /**
   * The fast cache-prefix analysis against the naive comparison. The first fast run is what the app pays once
   * (it also counts each distinct unit's serialization); then both run with that memo warm, best of a few
   * runs, so the ratio compares the comparisons, not who tokenized first.
   */
  async cachePrefix() {
    const s = current();
    const counter = await createTokenCounter(encodingOf(s));
    const memo = new TokenMemo();
    const count = (x: string) => memo.count(x, (y) => counter.count(y)).tokens;
    const calls: CallContext[] = sessionContexts(s).calls;
    for (const x of countedTexts(s)) count(x);
    let t = performance.now();
    const fast = analyzeCachePrefix(calls, { count, rule: 'auto' });
    const coldMs = ms(t);
    const best = (runs: number, f: () => void) => {
      let min = Infinity;
      for (let i = 0; i < runs; i++) {
        t = performance.now();
        f();
        min = Math.min(min, ms(t));
      }
      return min;
    };
    const fastMs = best(3, () => analyzeCachePrefix(calls, { count, rule: 'auto' }));
    const naive: number[] = [];
    const naiveMs = best(2, () => {
      naive.length = 0;
      for (let i = 1; i < calls.length; i++) naive.push(naivePrefix(calls[i - 1]!, calls[i]!, count).prefixTokens);
    });
    const avgTokens = calls.reduce((n, c) => n + c.entries.reduce((m, e) => m + count(e.item.text), 0), 0) / Math.max(1, calls.length);
    const agree = naive.every((n, i) => fast[i + 1]!.prefixTokens === n);
    return { calls: calls.length, avgTokens: Math.round(avgTokens), coldMs, fastMs, naiveMs, agree };
  },
};

declare global {
  interface Window {
    bench: typeof bench;
  }
}
window.bench = bench;
document.body.dataset['ready'] = 'true';
