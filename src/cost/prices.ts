// One dated table of per-model prices (USD per million tokens), the only one in the project. A price the
// table does not know is null: unknown models get token figures and no invented dollars.
//
// Sources, read 2026-11-25:
//   Anthropic — platform.claude.com/docs/en/about-claude/pricing ("Model pricing": base input, 5m cache
//     writes, 1h cache writes, cache hits, output).
//   OpenAI — developers.openai.com/api/docs/pricing and the model pages (input, cached input, output);
//     OpenAI bills no cache writes: a miss costs the full input price instead of the cached one.
export const PRICES_AS_OF = '2026-11-25';

export interface ModelPrice {
  /** Uncached input. */
  input: number;
  /** Cache write with the 5-minute lifetime; for providers without write charges, the input price. */
  cacheWrite5m: number;
  /** Cache write with the 1-hour lifetime. */
  cacheWrite1h: number;
  /** Cache hit. */
  cacheRead: number;
  output: number;
}

export interface PriceRow extends ModelPrice {
  /** Matched against the lower-cased model name; the first row that matches wins, so specific rows lead. */
  match: string;
  label: string;
}

const anthropic = (label: string, match: string, input: number, output: number, readShare = 0.1): PriceRow => ({
  label,
  match,
  input,
  cacheWrite5m: input * 1.25,
  cacheWrite1h: input * 2,
  cacheRead: round(input * readShare),
  output,
});
const openai = (label: string, match: string, input: number, cached: number, output: number): PriceRow => ({ label, match, input, cacheWrite5m: input, cacheWrite1h: input, cacheRead: cached, output });
const round = (v: number) => Math.round(v * 1e6) / 1e6;

export const PRICE_TABLE: readonly PriceRow[] = [
  anthropic('Claude Fable 5.1', 'fable-5-1|fable-5\\.1', 10, 50, 0.025),
  anthropic('Claude Fable 5', 'fable-5', 10, 50),
  anthropic('Claude Opus 5.5', 'opus-5-5|opus-5\\.5', 4, 20, 0.05),
  anthropic('Claude Opus 4.5 – 5', 'opus-5|opus-4-[5-9]|opus-4\\.[5-9]', 5, 25),
  anthropic('Claude Opus 4 / 4.1 / 3', 'opus-4|opus-3|3-opus', 15, 75),
  anthropic('Claude Sonnet 5.5', 'sonnet-5-5|sonnet-5\\.5', 2, 10, 0.05),
  anthropic('Claude Sonnet 5', 'sonnet-5', 2, 10),
  anthropic('Claude Sonnet 3.7 – 4.6', 'sonnet-4|sonnet-3-7|3-7-sonnet|sonnet-3\\.7', 3, 15),
  anthropic('Claude Haiku 4.5', 'haiku-4', 1, 5),
  { ...anthropic('Claude Haiku 3.5', 'haiku-3-5|3-5-haiku', 0.8, 4), cacheWrite5m: 1, cacheWrite1h: 1.6, cacheRead: 0.08 },
  { ...anthropic('Claude Haiku 3', '3-haiku|haiku-3', 0.25, 1.25), cacheWrite5m: 0.3, cacheWrite1h: 0.5, cacheRead: 0.03 },
  openai('GPT-5.4', 'gpt-5\\.4(?!-mini|-nano)', 2.5, 0.25, 15),
  openai('GPT-5.4 mini', 'gpt-5\\.4-mini', 0.75, 0.075, 4.5),
  openai('GPT-5.2 / 5.3 (and Codex)', 'gpt-5\\.[23]', 1.75, 0.175, 14),
  openai('GPT-5 mini', 'gpt-5(\\.\\d)?-mini', 0.25, 0.025, 2),
  openai('GPT-5 nano', 'gpt-5(\\.\\d)?-nano', 0.05, 0.005, 0.4),
  openai('GPT-5 / 5.1 (and Codex)', 'gpt-5', 1.25, 0.125, 10),
  openai('GPT-4.1 mini', 'gpt-4\\.1-mini', 0.4, 0.1, 1.6),
  openai('GPT-4.1', 'gpt-4\\.1', 2, 0.5, 8),
  openai('GPT-4o mini', 'gpt-4o-mini', 0.15, 0.075, 0.6),
  openai('GPT-4o', 'gpt-4o', 2.5, 1.25, 10),
  openai('o4-mini', '(^|/)o4-mini', 1.1, 0.275, 4.4),
  openai('o3', '(^|/)o3(?!-mini)', 2, 0.5, 8),
  openai('codex-mini', 'codex-mini', 1.5, 0.375, 6),
];

/** User overrides by model name (exact, lower-cased), taking precedence over the table. */
export type PriceOverrides = Readonly<Record<string, ModelPrice>>;

const compiled = PRICE_TABLE.map((row) => ({ row, re: new RegExp(row.match) }));

/** The price of a model: an override, else the first matching table row, else null. */
export function priceOf(model: string | null | undefined, overrides?: PriceOverrides): (ModelPrice & { label: string; source: 'override' | 'table' }) | null {
  if (!model) return null;
  // Without overrides the answer is the table's for the name: one frozen copy per name, not one per call.
  if (!overrides) {
    let known = tableOf.get(model);
    if (known === undefined) {
      const row = rowFor(model.toLowerCase());
      known = row ? Object.freeze({ ...row, source: 'table' as const }) : null;
      if (tableOf.size >= 1000) tableOf.clear();
      tableOf.set(model, known);
    }
    return known;
  }
  const m = model.toLowerCase();
  const own = Object.prototype.hasOwnProperty.call(overrides, m) ? overrides[m] : undefined;
  if (own) return { ...own, label: model, source: 'override' };
  const row = rowFor(m);
  return row ? { ...row, source: 'table' } : null;
}

function rowFor(m: string): PriceRow | null {
  let row = rowOf.get(m);
  if (row === undefined) {
    row = compiled.find(({ re }) => re.test(m))?.row ?? null;
    rowOf.set(m, row);
  }
  return row;
}

/** The table row of each lower-cased model name met so far: a session asks for one name at every call. */
const rowOf = new Map<string, PriceRow | null>();
/** priceOf's answer without overrides, by the name as given. */
const tableOf = new Map<string, (ModelPrice & { label: string; source: 'table' }) | null>();

/**
 * Dollars a cache miss of `tokens` costs against a hit. Anthropic: the tokens are written again (5-minute or
 * 1-hour write price) instead of read. OpenAI: they are billed as input instead of cached input.
 */
export function missCost(price: ModelPrice, tokens: number, ttl: '5m' | '1h'): number {
  const write = ttl === '1h' ? price.cacheWrite1h : price.cacheWrite5m;
  return (tokens * (write - price.cacheRead)) / 1e6;
}

const PRICE_FIELDS = ['input', 'cacheWrite5m', 'cacheWrite1h', 'cacheRead', 'output'] as const;

/**
 * User prices read from untrusted JSON (`{"<model>": {input, cacheWrite5m, cacheWrite1h, cacheRead, output}}`, USD
 * per million tokens); a field left out takes the table's value for that model, else 0. Problems name the field.
 */
export function parsePriceOverrides(value: unknown): { prices: Record<string, ModelPrice>; errors: string[] } {
  const prices: Record<string, ModelPrice> = Object.create(null);
  const errors: string[] = [];
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { prices, errors: ['prices must be an object of model name → prices'] };
  for (const [model, raw] of Object.entries(value)) {
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
      errors.push(`${model}: must be an object with ${PRICE_FIELDS.join(', ')}`);
      continue;
    }
    const base = priceOf(model);
    const price = {} as ModelPrice;
    let ok = true;
    for (const f of PRICE_FIELDS) {
      const v = (raw as Record<string, unknown>)[f];
      if (v === undefined) price[f] = base ? base[f] : 0;
      else if (typeof v === 'number' && Number.isFinite(v) && v >= 0) price[f] = v;
      else {
        errors.push(`${model}.${f}: must be a number ≥ 0 (USD per million tokens)`);
        ok = false;
      }
    }
    if (ok) prices[model.toLowerCase()] = price;
  }
  return { prices, errors };
}
