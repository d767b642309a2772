// What a session cost, at the provider's reported usage and the dated prices: every response that was sent and
// billed, the timeline's calls, the responses on abandoned branches and the sidechains' calls, each a part of its
// own. The one home of a session's dollars: the header, the CLI, corpus rows and the report read it.
import type { CallContext } from './context-types';
import { priceOf, type PriceOverrides } from '../cost/prices';
import { usageCost } from '../cost/usage-cost';
import type { OffBranchResponse, Sidechain, Usage } from '../model/types';

export interface CostPart {
  responses: number;
  /** Those with a reported prompt and a model the prices know. */
  priced: number;
  /** Dollars over the priced ones; null when none is. */
  usd: number | null;
}

export interface SessionCost {
  /** Dollars over every priced response of every part; null when none is priced. */
  usd: number | null;
  /** The timeline's model calls ("Model calls"). */
  calls: CostPart;
  /** Responses on abandoned branches, billed though no later call saw them; null when the session has none. */
  offBranch: CostPart | null;
  /** The sidechains' own calls (subagents, compaction summarizers); null when none records any. */
  sidechains: CostPart | null;
  /** Responses of any part that were not priced (no reported prompt, or a model the prices do not know). */
  unpriced: number;
}

export interface CostInput {
  calls: readonly Pick<CallContext, 'model' | 'usage'>[];
  offBranch?: readonly OffBranchResponse[];
  sidechains?: readonly Sidechain[];
  /** The session's model, for responses that name none. */
  model?: string | null;
  prices?: PriceOverrides;
}

type Priced = { model: string | null; usage: Usage | null };

function part(responses: readonly Priced[], fallbackModel: string | null, prices: PriceOverrides | undefined): CostPart {
  let priced = 0;
  let usd = 0;
  for (const r of responses) {
    const price = r.usage ? priceOf(r.model ?? fallbackModel, prices) : null;
    const cost = price && r.usage ? usageCost(r.usage, price) : null;
    if (cost === null) continue;
    priced++;
    usd += cost;
  }
  return { responses: responses.length, priced, usd: priced ? round6(usd) : null };
}

export function sessionCost(input: CostInput): SessionCost {
  const model = input.model ?? null;
  const calls = part(input.calls, model, input.prices);
  const offBranch = input.offBranch?.length ? part(input.offBranch, model, input.prices) : null;
  const side = (input.sidechains ?? []).flatMap((s) => s.responses ?? []);
  const sidechains = side.length ? part(side, model, input.prices) : null;
  const parts = [calls, offBranch, sidechains].filter((p): p is CostPart => p !== null);
  const priced = parts.filter((p) => p.usd !== null);
  return {
    // The sum of the parts as shown (each to the micro-dollar), so they add up to it.
    usd: priced.length ? round6(priced.reduce((n, p) => n + p.usd!, 0)) : null,
    calls,
    offBranch,
    sidechains,
    unpriced: parts.reduce((n, p) => n + p.responses - p.priced, 0),
  };
}

const round6 = (v: number) => Math.round(v * 1e6) / 1e6;
