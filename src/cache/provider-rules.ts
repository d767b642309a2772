// How much of a shared prefix a provider actually serves from its prompt cache.
import type { CallContext } from '../analysis/context-types';

export type ProviderRule = 'openai' | 'anthropic' | 'vllm' | 'deepseek' | 'exact';

export const PROVIDER_RULES: readonly ProviderRule[] = ['openai', 'anthropic', 'vllm', 'deepseek', 'exact'];

/** OpenAI: nothing is cached below 1024 prompt tokens; above it, hits grow in 128-token steps. */
export const OPENAI_MIN_TOKENS = 1024;
export const OPENAI_STEP_TOKENS = 128;
/** vLLM automatic prefix caching hashes full KV blocks (default block size 16). */
export const VLLM_BLOCK_TOKENS = 16;
/** DeepSeek context caching stores prefixes in 64-token units. */
export const DEEPSEEK_UNIT_TOKENS = 64;
/** Anthropic looks for earlier cache entries at most ~20 content blocks before each breakpoint. */
export const ANTHROPIC_LOOKBACK_BLOCKS = 20;

/** Cache lifetime without a hit: 5 minutes is the default of Anthropic and OpenAI. */
export const DEFAULT_TTL_MS = 5 * 60_000;
/** Anthropic's extended `cache_control: {ttl: "1h"}`. */
export const ONE_HOUR_TTL_MS = 60 * 60_000;

/**
 * Anthropic's minimum cacheable prefix per model — the one table of it. A prefix shorter than this
 * is never written, so never read. Source: Anthropic's prompt caching docs (2025–26):
 *   4096 — Claude Opus 4.5 and later, Claude Haiku 4.5
 *   2048 — Claude Haiku 3 / 3.5 (Haiku-class), Claude Sonnet 4.6
 *   1024 — every other Claude model (Sonnet 3.7/4/4.5, Opus 3/4/4.1, …) and unknown models
 */
export function anthropicMinTokens(model: string | null | undefined): number {
  const v = claudeVersion(model ?? '');
  if (!v) return 1024;
  const atLeast = (major: number, minor: number) => v.major > major || (v.major === major && v.minor >= minor);
  if (v.family === 'opus' && atLeast(4, 5)) return 4096;
  if (v.family === 'haiku') return atLeast(4, 5) ? 4096 : 2048;
  if (v.family === 'sonnet' && atLeast(4, 6)) return 2048;
  return 1024;
}

interface ClaudeVersion {
  family: 'opus' | 'sonnet' | 'haiku';
  major: number;
  minor: number;
}

/** `claude-opus-4-5-20251101`, `claude-haiku-4.5`, `anthropic/claude-sonnet-4-6`, `claude-3-5-haiku-20241022`. */
export function claudeVersion(model: string): ClaudeVersion | null {
  let v = versions.get(model);
  if (v === undefined) {
    if (versions.size >= MEMO_LIMIT) versions.clear();
    versions.set(model, (v = parseClaudeVersion(model)));
  }
  return v;
}

/** Names met so far, each parsed once: every call of a session asks for its model's (cache rules, prices). */
const versions = new Map<string, ClaudeVersion | null>();
const MEMO_LIMIT = 1000;

function parseClaudeVersion(model: string): ClaudeVersion | null {
  const m = model.toLowerCase();
  // Old naming: version first (`claude-3-5-sonnet`, `claude-3.5-haiku`, `claude-3-haiku`).
  const legacy = /claude-(\d)(?:[-.](\d))?-(opus|sonnet|haiku)/.exec(m);
  if (legacy) return { family: legacy[3] as ClaudeVersion['family'], major: Number(legacy[1]), minor: Number(legacy[2] ?? 0) };
  // New naming: family first; 1–2 digit numbers only, never the 8-digit date.
  const modern = /(opus|sonnet|haiku)[-_ ]?(\d{1,2})(?!\d)(?:[-_.](\d{1,2})(?!\d))?/.exec(m);
  if (modern) return { family: modern[1] as ClaudeVersion['family'], major: Number(modern[2]), minor: Number(modern[3] ?? 0) };
  return null;
}

/** The rule for a call's wire API: Anthropic for Messages, OpenAI for Chat/Responses, exact when unknown. */
export function ruleForApi(api: CallContext['api']): ProviderRule {
  if (api === 'anthropic') return 'anthropic';
  if (api === 'openai-chat' || api === 'openai-responses') return 'openai';
  return 'exact';
}

/**
 * Whose cache (and usage convention) a call follows. The wire API when recorded; else the model name
 * (transcripts replayed from Claude Code or Codex carry no API); else the usage itself — a cache read
 * larger than the input count means input excludes cached tokens, Anthropic's convention.
 */
export function providerOf(call: Pick<CallContext, 'api' | 'model' | 'usage'>): 'anthropic' | 'openai' | 'deepseek' | null {
  const named = providerNamed(call.model ?? '');
  if (named === 'deepseek') return 'deepseek';
  if (call.api === 'anthropic') return 'anthropic';
  if (call.api === 'openai-chat' || call.api === 'openai-responses') return 'openai';
  if (named) return named;
  const u = call.usage;
  if (u && u.input !== null && u.cacheRead !== null && u.cacheRead > u.input) return 'anthropic';
  return null;
}

/** The provider a model name says, read once per name (every call asks for its model's). */
function providerNamed(name: string): 'anthropic' | 'openai' | 'deepseek' | null {
  let p = providers.get(name);
  if (p === undefined) {
    const model = name.toLowerCase();
    p = /deepseek/.test(model) ? 'deepseek' : /claude|anthropic/.test(model) ? 'anthropic' : /gpt|codex|openai|(^|[/:])o\d/.test(model) ? 'openai' : null;
    if (providers.size >= MEMO_LIMIT) providers.clear();
    providers.set(name, p);
  }
  return p;
}

const providers = new Map<string, 'anthropic' | 'openai' | 'deepseek' | null>();

/** The rule `auto` picks for a call: its provider's, exact when the provider is unknown. */
export function ruleForCall(call: Pick<CallContext, 'api' | 'model' | 'usage'>): ProviderRule {
  return providerOf(call) ?? 'exact';
}

/**
 * Anthropic only: where the shared prefix may be served from. Blocks are the items of the current
 * call in order (tools and an unseen system prefix count as blocks).
 */
export interface RoundContext {
  model?: string | null;
  /** Cumulative tokens at the end of each block of the current call (plus `endOffset`). */
  blockEnds?: ArrayLike<number>;
  /** Added to every entry of `blockEnds` (tokens ahead of the blocks it sums). */
  endOffset?: number;
  /** How many leading blocks are identical to the previous call's. */
  sharedBlocks?: number;
  /** Block indices of the current call that carry a cache breakpoint (explicit or automatic). */
  breakpoints?: readonly number[];
  /** Block indices at which the previous call wrote cache entries (its breakpoints); omitted = any block end. */
  written?: readonly number[];
}

/**
 * Cached tokens a provider would serve for a shared prefix of `tokens` tokens.
 * Anthropic without `blockEnds` falls back to "whole prefix if at least the model minimum".
 */
export function roundPrefix(rule: ProviderRule, tokens: number, ctx: RoundContext = {}): number {
  const t = Math.max(0, Math.floor(tokens));
  switch (rule) {
    case 'exact':
      return t;
    case 'openai':
      return t < OPENAI_MIN_TOKENS ? 0 : t - (t % OPENAI_STEP_TOKENS);
    case 'vllm':
      return t - (t % VLLM_BLOCK_TOKENS);
    case 'deepseek':
      return t - (t % DEEPSEEK_UNIT_TOKENS);
    case 'anthropic':
      return anthropicCached(t, ctx);
  }
}

function anthropicCached(tokens: number, ctx: RoundContext): number {
  const min = anthropicMinTokens(ctx.model);
  const ends = ctx.blockEnds;
  if (!ends) return tokens >= min ? tokens : 0;
  const offset = ctx.endOffset ?? 0;
  const shared = Math.min(ctx.sharedBlocks ?? ends.length, ends.length);
  const breakpoints = ctx.breakpoints ?? [];
  // Latest shared block end that a breakpoint's lookback reaches and the previous call wrote: the written blocks
  // are few, so only they are tried when known.
  const candidates = ctx.written ? [...new Set(ctx.written)].filter((j) => j < shared).sort((a, b) => b - a) : null;
  const count = candidates ? candidates.length : shared;
  for (let c = 0; c < count; c++) {
    const j = candidates ? candidates[c]! : shared - 1 - c;
    const end = ends[j]! + offset;
    if (end > tokens || end < min) continue;
    if (breakpoints.some((k) => k >= j && k - j <= ANTHROPIC_LOOKBACK_BLOCKS)) return end;
  }
  return 0;
}
