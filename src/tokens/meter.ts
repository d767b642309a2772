// The token meter a view reads: an estimate for every text at once, replaced by the exact count as the
// pool delivers it. Counted tokens sit beside the usage a provider reported; they never replace it.
import type { Usage } from '../model/types';
import type { EncoderId, TokenCount } from './counter';
import type { EncodingChoice } from './encoding';
import { estimateTokens } from './estimate';
import type { CountProgress, TokenPool } from './pool';

export interface MeteredCount {
  tokens: number;
  /** True once the tokenizer counted it; false while it is the estimate. */
  exact: boolean;
  /** True for estimates, for counts whose long runs were cut, and for every count of a stand-in encoding. */
  approximate: boolean;
}

/** What a view shows for a call or an item: our count, and the provider's figure where the format has one. */
export interface TokenFigures {
  counted: MeteredCount;
  reported: Usage | null;
}

export interface TokenMeter {
  readonly encoding: EncodingChoice;
  /** The best count known now; estimates are computed on first ask, so huge batches cost nothing up front. */
  get(index: number): MeteredCount;
  readonly progress: CountProgress;
  /** Settles when every exact count has arrived; rejects if counting failed (estimates stay readable). */
  readonly done: Promise<void>;
  cancel(): void;
}

export interface MeterOptions {
  encoder?: EncoderId;
  /** Called when exact counts arrived for `indices`. */
  onUpdate?: (indices: number[], progress: CountProgress) => void;
}

export function meterTokens(pool: TokenPool, texts: readonly string[], choice: EncodingChoice, options: MeterOptions = {}): TokenMeter {
  const exact: (TokenCount | undefined)[] = new Array<TokenCount | undefined>(texts.length);
  const estimates = new Float64Array(texts.length).fill(-1);
  let progress: CountProgress = { done: 0, total: texts.length, reused: 0 };
  let arrived: number[] = [];
  const controller = new AbortController();
  const done = pool
    .count(texts, {
      encoding: choice.encoding,
      encoder: options.encoder,
      signal: controller.signal,
      onCounts(indices, counts) {
        for (let k = 0; k < indices.length; k++) {
          exact[indices[k]!] = counts[k];
          arrived.push(indices[k]!);
        }
      },
      // The pool reports progress right after the counts it belongs to: tell the caller once, with both.
      onProgress(p) {
        progress = p;
        const indices = arrived;
        arrived = [];
        options.onUpdate?.(indices, p);
      },
    })
    .then(() => undefined);
  return {
    encoding: choice,
    get(index) {
      const c = exact[index];
      if (c) return { tokens: c.tokens, exact: true, approximate: c.approximate || choice.approximate };
      let e = estimates[index]!;
      if (e < 0) {
        e = estimateTokens(texts[index] ?? '', choice.encoding);
        estimates[index] = e;
      }
      return { tokens: e, exact: false, approximate: true };
    },
    get progress() {
      return progress;
    },
    done,
    cancel: () => controller.abort(),
  };
}

/** Sum of counts: exact only if all are, approximate if any is. */
export function sumCounts(counts: Iterable<MeteredCount>): MeteredCount {
  let tokens = 0;
  let exact = true;
  let approximate = false;
  for (const c of counts) {
    tokens += c.tokens;
    exact &&= c.exact;
    approximate ||= c.approximate;
  }
  return { tokens, exact, approximate };
}
