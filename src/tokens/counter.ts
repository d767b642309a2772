// Exact token counts, by gpt-tokenizer (default) or js-tiktoken. The rank tables (megabytes) load on first use,
// never in the app's initial bundle, and in the app only in workers: gpt-tokenizer's from the runtime's rank
// source (rank-tables.ts: JSON in the browser), js-tiktoken's by dynamic import.
import { isEncodingName, type EncodingName } from './encoding';
import { loadRankTable } from './rank-tables';
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

export function counterFromEncoder(encoding: EncodingName, encoder: EncoderId, encodeLength: EncodeLength, maxRun: number = DEFAULT_MAX_RUN): TokenCounter {
  return {
    encoding,
    encoder,
    count(text: string): TokenCount {
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

async function loadGptTokenizer(encoding: EncodingName): Promise<EncodeLength> {
  // What gpt-tokenizer's encoding modules do, with the table from this runtime's rank source.
  const [{ GptEncoding }, ranks] = await Promise.all([import('gpt-tokenizer/GptEncoding'), loadRankTable(encoding)]);
  const api = GptEncoding.getEncodingApi(encoding, () => ranks);
  // An empty disallowed set: special-token text is counted as plain text instead of throwing.
  const options = { disallowedSpecial: new Set<string>() };
  return (text) => (text.length === 0 ? 0 : api.countTokens(text, options));
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
