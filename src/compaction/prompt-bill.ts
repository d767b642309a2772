// What one call's prompt costs: tokens read from the cache, written to it, and processed uncached, priced with the
// dated table (src/cost/prices.ts). Where the provider reported the call's usage and the replay sends exactly
// what the recording sent, its figures are the bill; elsewhere the cache is modelled with the provider's rule: the
// shared prefix with the previous call is read (the cache analysis rounds it by the provider's rule), the rest is
// written where the provider charges writes (Anthropic, with Claude Code's breakpoint at the last message) or
// processed uncached where it does not (OpenAI).
import { billedCost } from '../cost/usage-cost';
import type { CallContext } from '../analysis/context-types';
import { providerOf } from '../cache/provider-rules';
import { reportedPromptTokens } from '../cache/reported';
import type { CacheReport } from '../cache/prefix';
import { priceOf, type ModelPrice, type PriceOverrides } from '../cost/prices';

export interface CallBill {
  /** The whole prompt. */
  prompt: number;
  read: number;
  written: number;
  uncached: number;
  /** Dollars for the prompt; null without a price. */
  usd: number | null;
  source: 'reported' | 'modelled';
}

export interface BillTotals {
  prompt: number;
  read: number;
  written: number;
  uncached: number;
  /** Null when no call has a price. */
  usd: number | null;
  /** Calls whose bill is the provider's reported usage. */
  reportedCalls: number;
}

/** How a session's provider bills the cache: does it charge writes, and at which lifetime. */
export interface CacheBilling {
  writes: boolean;
  ttl: '5m' | '1h';
}

export function cacheBilling(calls: readonly Pick<CallContext, 'api' | 'model' | 'usage'>[]): CacheBilling {
  let anthropic = 0;
  let openai = 0;
  let wrote = false;
  let any = false;
  let oneHour = 0;
  let fiveMin = 0;
  for (const c of calls) {
    const p = providerOf(c);
    if (p === 'anthropic') anthropic++;
    else if (p === 'openai' || p === 'deepseek') openai++;
    const u = c.usage;
    if (!u) continue;
    if (u.cacheWrite !== null || u.cacheRead !== null) any = true;
    if ((u.cacheWrite ?? 0) > 0) wrote = true;
    oneHour += u.cacheWrite1h ?? 0;
    fiveMin += u.cacheWrite5m ?? 0;
  }
  // An Anthropic session that reports no cache figures at all sent no breakpoints; one that reports none writes nothing.
  const writes = anthropic >= openai && anthropic > 0 && (wrote || !any);
  return { writes, ttl: oneHour > fiveMin ? '1h' : '5m' };
}

export function priceCall(price: ModelPrice | null, read: number, written: number, uncached: number, ttl: '5m' | '1h'): number | null {
  if (!price) return null;
  return billedCost({ uncached, read, written5m: ttl === '1h' ? 0 : written, written1h: ttl === '1h' ? written : 0, output: 0 }, price);
}

/** The call's bill as the provider reported it; null without usage. */
export function reportedBill(call: CallContext, price: ModelPrice | null, billing: CacheBilling): CallBill | null {
  const u = call.usage;
  const prompt = reportedPromptTokens(call);
  if (!u || prompt === null) return null;
  const read = Math.max(0, Math.min(prompt, u.cacheRead ?? 0));
  const openai = providerOf(call) === 'openai' || providerOf(call) === 'deepseek';
  const written = openai ? 0 : Math.max(0, u.cacheWrite ?? 0);
  const uncached = Math.max(0, prompt - read - written);
  const w1h = u.cacheWrite1h ?? 0;
  const ttl = w1h > 0 && w1h >= (u.cacheWrite5m ?? 0) ? '1h' : u.cacheWrite5m != null && u.cacheWrite5m > 0 ? '5m' : billing.ttl;
  return { prompt, read, written, uncached, usd: priceCall(price, read, written, uncached, ttl), source: 'reported' };
}

/**
 * A prompt of `prompt` tokens whose counted prefix the cache analysis judged: everything but the calibrated tail
 * after the shared prefix is read. Where the prediction says the items could not be served, the system prompt and
 * tools the file never records (`prefixTokens`, cached under their own breakpoint) still are, unless the cache
 * lifetime ran out or the model changed.
 */
export function modelledBill(prompt: number, report: CacheReport, cal: { scale: number; perItem: number; prefixTokens?: number }, items: number, price: ModelPrice | null, billing: CacheBilling): CallBill {
  const tail = cal.scale * Math.max(0, report.contextTokens - report.prefixTokens) + cal.perItem * Math.max(0, items - report.sharedItems);
  const cold = report.index === 0 || report.ttlExpired || report.modelChanged;
  const read = report.cachedPredicted > 0 ? Math.max(0, Math.min(prompt, Math.round(prompt - tail))) : cold ? 0 : Math.min(prompt, Math.round(cal.prefixTokens ?? 0));
  const written = billing.writes ? prompt - read : 0;
  const uncached = prompt - read - written;
  return { prompt, read, written, uncached, usd: priceCall(price, read, written, uncached, billing.ttl), source: 'modelled' };
}

export function billTotals(bills: readonly CallBill[]): BillTotals {
  const priced = bills.filter((b) => b.usd !== null);
  return {
    prompt: bills.reduce((n, b) => n + b.prompt, 0),
    read: bills.reduce((n, b) => n + b.read, 0),
    written: bills.reduce((n, b) => n + b.written, 0),
    uncached: bills.reduce((n, b) => n + b.uncached, 0),
    usd: priced.length ? priced.reduce((n, b) => n + b.usd!, 0) : null,
    reportedCalls: bills.filter((b) => b.source === 'reported').length,
  };
}

/** The price of a call's model (the session's when the call names none). */
export function callPrice(call: Pick<CallContext, 'model'>, sessionModel: string | null, overrides?: PriceOverrides): ModelPrice | null {
  return priceOf(call.model ?? sessionModel, overrides);
}
