// Exact token counts, by gpt-tokenizer (default) or js-tiktoken. The rank tables (megabytes) load on first use,
// never in the app's initial bundle, and in the app only in workers: gpt-tokenizer's from the runtime's rank
// source (rank-tables.ts: JSON in the browser), js-tiktoken's by dynamic import.
import { isEncodingName, type EncodingName } from './encoding';
import type { BytePairEncodingCore, RawBytePairRanks } from 'gpt-tokenizer/BytePairEncodingCore';
import { byteTokens, isPackedRanks, RankLookup } from './rank-lookup';
import { ByteRanks } from './byte-merge';
import { pieceMemoCount, type RankPieces } from './piece-memo';
import { loadRankData } from './rank-tables';
import { countWithRedactions, hasRedactionHint } from './redaction';
import { DEFAULT_MAX_RUN, splitLongRuns } from './split-runs';

export const ENCODERS = ['gpt-tokenizer', 'js-tiktoken'] as const;
export type EncoderId = (typeof ENCODERS)[number];
/**
 * gpt-tokenizer: 4.5× (o200k_base) and 6.7× (cl100k_base) the speed of js-tiktoken with identical counts on
 * every text of the fixtures, demos and samples (`npm run bench`). js-tiktoken stays selectable.
 */
export const DEFAULT_ENCODER: EncoderId = 'gpt-tokenizer';

export function isEncoderId(v: unknown): v is EncoderId {
  return typeof v === 'string' && (ENCODERS as readonly string[]).includes(v);
}

export interface TokenCount {
  tokens: number;
  /** True when the text had runs cut before encoding (see split-runs), so the count may be off by a few tokens. */
  approximate: boolean;
}

export interface TokenCounter {
  readonly encoding: EncodingName;
  readonly encoder: EncoderId;
  count(text: string): TokenCount;
}

/** Number of tokens in a text with no special-token handling: `<|endoftext|>` in a transcript is plain text. */
export type EncodeLength = (text: string) => number;

/**
 * Where a short line splits into two parts whose counts add up exactly to the whole's: at its last `#`, when an
 * ASCII letter or digit comes before it and the line ends in a line break (an item header, `tool:tool_result#toolu_…\n`).
 * In the split patterns of o200k_base and cl100k_base a letter or number piece never takes in a `#`, and the piece
 * after it starts at the `#` whatever came before; so the pieces, and the tokens, of the two parts are the whole's.
 * A tool call's header and its result's share the part from the `#` on: counted once, it is a call id counted once
 * (random ids are the slowest text to tokenize: ~27 tokens each).
 */
export function idSeam(text: string, maxRun: number = DEFAULT_MAX_RUN): number {
  const n = text.length;
  if (n < 3 || n > maxRun || text.charCodeAt(n - 1) !== 10) return -1;
  const p = text.lastIndexOf('#');
  if (p <= 0) return -1;
  const c = text.charCodeAt(p - 1);
  if (!((c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122))) return -1;
  return text.includes('[REDACTED_') ? -1 : p;
}

/** Parts counted by `idSeam` kept per counter; cleared when this many are held. */
const SEAM_PARTS = 100_000;

export function counterFromEncoder(encoding: EncodingName, encoder: EncoderId, encodeLength: EncodeLength, maxRun: number = DEFAULT_MAX_RUN): TokenCounter {
  const parts = new Map<string, number>();
  const part = (t: string) => {
    let n = parts.get(t);
    if (n === undefined) {
      if (parts.size >= SEAM_PARTS) parts.clear();
      parts.set(t, (n = encodeLength(t)));
    }
    return n;
  };
  return {
    encoding,
    encoder,
    count(text: string): TokenCount {
      // Short, no redaction hint: nothing below would cut it or mark it approximate.
      const seam = idSeam(text, maxRun);
      if (seam > 0) return { tokens: part(text.slice(0, seam)) + part(text.slice(seam)), approximate: false };
      let approximate = hasRedactionHint(text);
      const tokens = countWithRedactions(text, (piece) => {
        const split = splitLongRuns(piece, maxRun);
        if (split.approximate) approximate = true;
        let n = 0;
        for (const p of split.parts) n += encodeLength(p);
        return n;
      });
      return { tokens, approximate };
    },
  };
}

async function loadJsTiktoken(encoding: EncodingName): Promise<EncodeLength> {
  const [{ Tiktoken }, ranks] = await Promise.all([
    import('js-tiktoken/lite'),
    // Literal specifiers, so the bundler splits each rank table into its own chunk.
    encoding === 'o200k_base' ? import('js-tiktoken/ranks/o200k_base') : import('js-tiktoken/ranks/cl100k_base'),
  ]);
  const enc = new Tiktoken(ranks.default);
  const none: string[] = [];
  return (text) => (text.length === 0 ? 0 : enc.encode(text, none, none).length);
}

/**
 * gpt-tokenizer's core for an encoding, as the counter uses it: built with the byte tokens only, reading the string
 * tokens from a RankLookup instead of the 200k-entry Map it would build (rank-lookup.ts).
 */
export async function gptTokenizerCore(encoding: EncodingName): Promise<BytePairEncodingCore> {
  const [{ BytePairEncodingCore }, { getEncodingParams }, ranks] = await Promise.all([import('gpt-tokenizer/BytePairEncodingCore'), import('gpt-tokenizer/modelParams'), loadRankData(encoding)]);
  const params = getEncodingParams(encoding, () => byteTokens(ranks) as RawBytePairRanks);
  const core = new BytePairEncodingCore(params);
  const inner = core as unknown as { bytePairStringRankEncoder: unknown };
  if (!(inner.bytePairStringRankEncoder instanceof Map) || typeof core.countNative !== 'function') throw new Error('gpt-tokenizer: its core no longer reads string ranks from a Map');
  inner.bytePairStringRankEncoder = isPackedRanks(ranks) ? RankLookup.fromPacked(ranks) : RankLookup.fromTable(ranks);
  return core;
}

/**
 * gpt-tokenizer's split pattern for an encoding with the counter's own rank tables, which is all the count needs
 * (piece-memo.ts, byte-merge.ts): gpt-tokenizer's core, with its decoders, is not built.
 */
export async function gptTokenizerPieces(encoding: EncodingName): Promise<RankPieces> {
  const [{ getEncodingParams }, ranks] = await Promise.all([import('gpt-tokenizer/modelParams'), loadRankData(encoding)]);
  // The pattern alone is read: no ranks are handed over.
  const { tokenSplitRegex } = getEncodingParams(encoding, () => [] as unknown as RawBytePairRanks);
  const lookup = isPackedRanks(ranks) ? RankLookup.fromPacked(ranks) : RankLookup.fromTable(ranks);
  return { tokenSplitRegex, lookup, bytes: ByteRanks.of(ranks) };
}

async function loadGptTokenizer(encoding: EncodingName): Promise<EncodeLength> {
  // What gpt-tokenizer's GptEncoding.countTokens does with an empty disallowed set (special-token text counted as
  // plain text): its core's countNative with no special token allowed, each distinct split piece merged once
  // (piece-memo.ts), on the counter's own rank tables.
  return pieceMemoCount(await gptTokenizerPieces(encoding));
}

const loaded = new Map<string, Promise<EncodeLength>>();

/** Loads an encoder once per (encoder, encoding); building js-tiktoken's rank map takes ~0.5 s. */
export function loadEncoder(encoder: EncoderId, encoding: EncodingName): Promise<EncodeLength> {
  // Requests cross a worker boundary: check what arrives instead of trusting the types.
  if (!isEncoderId(encoder)) return Promise.reject(new Error(`unknown encoder ${JSON.stringify(encoder)}`));
  if (!isEncodingName(encoding)) return Promise.reject(new Error(`unknown encoding ${JSON.stringify(encoding)}`));
  const key = `${encoder}/${encoding}`;
  let p = loaded.get(key);
  if (!p) {
    p = encoder === 'gpt-tokenizer' ? loadGptTokenizer(encoding) : loadJsTiktoken(encoding);
    loaded.set(key, p);
    p.catch(() => loaded.delete(key));
  }
  return p;
}

export interface CounterOptions {
  encoder?: EncoderId;
  /** Longest run encoded in one piece; see split-runs. */
  maxRun?: number;
}

export async function createTokenCounter(encoding: EncodingName, options: CounterOptions = {}): Promise<TokenCounter> {
  const encoder = options.encoder ?? DEFAULT_ENCODER;
  return counterFromEncoder(encoding, encoder, await loadEncoder(encoder, encoding), options.maxRun);
}
