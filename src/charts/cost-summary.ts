// The sentences that say what a session cost and what it billed outside the timeline: the header, the CLI and the
// HTML report word them alike from the one set of facts (analysis/session-cost.ts, analysis/off-branch.ts).
import type { OffBranchFacts } from '../analysis/off-branch';
import type { SessionCost } from '../analysis/session-cost';

/** What the responses on abandoned branches are, for a tooltip or a note beside the figure. */
export const OFF_BRANCH_NOTE =
  'Claude Code wrote these responses on branches the conversation then left (a retry, an edited message, an interrupted turn, a session resumed from an earlier message). ' +
  'The provider sent and billed them, so their reported usage is in the session cost; no later call saw them, so they are not among the model calls, the token totals or any context.';

const plural = (n: number, one: string, many: string, fmt: (n: number) => string) => `${fmt(n)} ${n === 1 ? one : many}`;

type PartKey = 'calls' | 'offBranch' | 'sidechains';

/**
 * Each priced part in whole cents, rounded so the parts add up to the total shown ($9.95 = $9.52 + $0.43, where each
 * alone rounds to $9.53 and $0.43): the cents the parts' floors leave go to the largest remainders. A part under a
 * cent keeps its own value, which reads "<$0.01".
 */
export function shownParts(cost: SessionCost): Partial<Record<PartKey, number>> {
  const keys = (['calls', 'offBranch', 'sidechains'] as const).filter((k) => cost[k]?.usd != null);
  if (cost.usd === null || keys.length === 0) return {};
  const exact = keys.map((k) => cost[k]!.usd! * 100);
  const cents = exact.map(Math.floor);
  // The total of the priced parts (session-cost.ts adds them so: the total shown).
  let left = Math.round(exact.reduce((n, e) => n + e, 0)) - cents.reduce((n, c) => n + c, 0);
  for (const i of exact.map((e, i) => i).sort((a, b) => exact[b]! - cents[b]! - (exact[a]! - cents[a]!))) {
    if (left <= 0) break;
    cents[i]!++;
    left--;
  }
  return Object.fromEntries(keys.map((k, i) => [k, cents[i] === 0 ? cost[k]!.usd! : cents[i]! / 100]));
}

/** `+2 responses on abandoned branches (billed, not shown): 38,592 prompt and 324 output tokens, $0.13`. */
export function offBranchSentence(off: OffBranchFacts, cost: SessionCost, fmt: (n: number) => string, usd: (v: number) => string): string {
  const shown = shownParts(cost).offBranch;
  const dollars = shown !== undefined ? `, ${usd(shown)}` : '';
  return `+${plural(off.responses, 'response on an abandoned branch', 'responses on abandoned branches', fmt)} (billed, not shown): ${fmt(off.prompt)} prompt and ${fmt(off.output)} output tokens${dollars}`;
}

/**
 * The parts of the session cost worth naming: each part when there is more than the model calls (`calls $1.10`,
 * `abandoned branches $0.13`, `sidechains $0.40`), and the responses left unpriced.
 */
export function costParts(cost: SessionCost, fmt: (n: number) => string, usd: (v: number) => string): string[] {
  const parts: string[] = [];
  const shown = shownParts(cost);
  const money = (k: PartKey) => (shown[k] !== undefined ? usd(shown[k]!) : 'not priced');
  if (cost.offBranch || cost.sidechains) {
    parts.push(`calls ${money('calls')}`);
    if (cost.offBranch) parts.push(`abandoned branches ${money('offBranch')}`);
    if (cost.sidechains) parts.push(`sidechains ${money('sidechains')}`);
  }
  if (cost.unpriced > 0) parts.push(`${plural(cost.unpriced, 'response', 'responses', fmt)} not priced: no reported usage or no price for the model`);
  return parts;
}

/** `$0.10 at the reported usage (calls $0.07 · abandoned branches $0.03)`; null when nothing is priced. */
export function costSentence(cost: SessionCost, fmt: (n: number) => string, usd: (v: number) => string): string | null {
  if (cost.usd === null) return null;
  const parts = costParts(cost, fmt, usd);
  return `${usd(cost.usd)} at the reported usage${parts.length ? ` (${parts.join(' · ')})` : ''}`;
}
