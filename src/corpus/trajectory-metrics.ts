// The metrics row of one trajectory: the session's facts (the figures `inspect` reports), the summary audit and
// the lints, reduced to numbers. The prefix-cache analysis is skipped: a corpus row does not report it, and it
// is the costliest part of a session's analysis.
import { sessionContextWindow } from '../analysis/context-window';
import { sessionContexts } from '../analysis/session-analysis';
import { analyzeSession } from '../analysis/analyze-session';
import type { CompactionEvent, Item, Session } from '../model/types';
import type { CorpusRow } from './corpus-row';
import { SURVIVAL_KINDS, totalSurvival, type Survival, type SurvivalKind } from '../audit/survival';

export interface MetricsOptions {
  /** Token counter for item texts; called once per distinct item object. */
  count(text: string): number;
  /** Name of the counter for the row (`o200k_base`, `estimate`, …). */
  counter: string;
  /** File path for the row (defaults to the session's first file). */
  file?: string;
  /** Line of the trajectory in a JSONL corpus. */
  line?: number | null;
}

const sum = (xs: number[]) => xs.reduce((n, x) => n + x, 0);

/** A session's survival by kind as the row's flat `evicted_<kind>` / `kept_<kind>` columns. */
const survivalColumns = (s: Survival) =>
  Object.fromEntries(SURVIVAL_KINDS.flatMap((k) => [[`evicted_${k}`, s[k].evicted], [`kept_${k}`, s[k].kept]])) as Pick<CorpusRow, `evicted_${SurvivalKind}` | `kept_${SurvivalKind}`>;
const sortedUnique = (xs: number[]) => [...new Set(xs)].sort((a, b) => a - b);

export function trajectoryMetrics(session: Session, opts: MetricsOptions): CorpusRow {
  const ctx = sessionContexts(session);
  const calls = ctx.calls;
  // Token figures, counts, audits and lints from the one analysis `inspect` reads, so a row equals its report.
  const memo = new Map<string, number>();
  const counted = (t: string) => {
    let n = memo.get(t);
    if (n === undefined) memo.set(t, (n = opts.count(t)));
    return n;
  };
  const a = analyzeSession(session, { count: counted, contexts: ctx, defer: ['cache'] });
  const facts = a.facts;
  // Items are shared objects across calls; a masked variant is its own object with its own text.
  const tokensOf = new WeakMap<Item, number>();
  const tok = (it: Item) => {
    let n = tokensOf.get(it);
    if (n === undefined) {
      n = counted(it.text);
      tokensOf.set(it, n);
    }
    return n;
  };

  // Request logs hold their items per request; the flat list is the eviction map's.
  const items = session.requests.length > 0 ? ctx.eviction.map((r) => r.item) : session.items;
  const byId = new Map<string, Item>();
  for (const it of session.items) byId.set(it.id, it);
  for (const it of items) byId.set(it.id, it);

  // The turn after which something happened: the call whose output holds the item (the agent's own step),
  // else the number of calls that produced output before the item (a harness's or summarizer's summary).
  const outputCall = new Map<string, number>();
  calls.forEach((c, i) => c.output.forEach((o) => outputCall.set(o.id, i)));
  const position = new Map(items.map((it, i) => [it.id, i]));
  const firstOutput = calls.map((c) => (c.output[0] ? (position.get(c.output[0].id) ?? null) : null));
  const turnOf = (itemId: string | null, c: CompactionEvent | null): number | null => {
    const own = itemId ? outputCall.get(itemId) : undefined;
    if (own !== undefined) return own + 1;
    const at = itemId ? position.get(itemId) : undefined;
    if (at !== undefined) {
      const before = firstOutput.filter((p) => p !== null && p < at).length;
      return before > 0 ? before : null;
    }
    if (!c) return null;
    const seenAt = calls.findIndex((call) => call.compactionId === c.id);
    return seenAt > 0 ? seenAt : null;
  };

  const summaryCompactions = ctx.compactions.filter((c) => c.kind !== 'omission' && c.summaryId !== null && byId.get(c.summaryId)?.kind === 'summary');
  const summaryTurns = summaryCompactions.map((c) => turnOf(c.summaryId, c)).filter((t): t is number => t !== null);

  const thoughtOmissions = items.filter((it) => it.omission?.target === 'thought');
  const thoughtTurns = sortedUnique(thoughtOmissions.map((it) => turnOf(it.id, null)).filter((t): t is number => t !== null));
  const omissionCompactions = ctx.compactions.filter((c) => c.kind === 'omission');
  const observationTurns = sortedUnique(omissionCompactions.map((c) => turnOf(c.atItemId, c)).filter((t): t is number => t !== null));
  const omittedObservations = new Set([
    ...omissionCompactions.flatMap((c) => c.replacedIds),
    ...items.filter((it) => it.kind === 'tool_result' && it.omission?.target === 'observation').map((it) => it.id),
  ]);

  // Savings from what each compaction recorded, else from the items it replaced: the next call's prompt holds
  // new input too, so the resolved sizes would not measure the compaction alone.
  const saved = sum(
    ctx.compactions.map((c) => {
      if (c.tokensBefore !== null && c.tokensAfter !== null) return c.tokensBefore - c.tokensAfter;
      const replaced = sum(c.replacedIds.map((id) => byId.get(id)).filter((x): x is Item => !!x).map(tok));
      const summary = c.summaryId ? byId.get(c.summaryId) : undefined;
      return replaced - (summary ? tok(summary) : 0);
    }),
  );

  const audits = a.audits;
  const lints = a.lints;
  const success = session.meta['success'];
  const reward = session.meta['reward'];
  return {
    id: session.id,
    file: opts.file ?? session.files[0] ?? session.title,
    line: opts.line ?? null,
    format: session.format,
    model: session.model,
    items: facts.items,
    turns: facts.calls,
    tool_calls: facts.toolCalls,
    total_tokens: facts.totalInputTokens,
    output_tokens: facts.outputTokens,
    peak_context_tokens: facts.peakContextTokens,
    reported_input_tokens: facts.reportedInputTokens,
    off_branch_responses: facts.offBranch?.responses ?? 0,
    off_branch_prompt_tokens: facts.offBranch?.prompt ?? 0,
    off_branch_output_tokens: facts.offBranch?.output ?? 0,
    cost_usd: facts.cost.usd,
    context_window: sessionContextWindow(session),
    compactions: facts.compactions.total,
    summaries: summaryCompactions.length,
    summary_turns: summaryTurns,
    omissions: new Set([...thoughtTurns, ...observationTurns]).size,
    thought_omission_turns: thoughtTurns,
    observation_omission_turns: observationTurns,
    omitted_thoughts: thoughtOmissions.length,
    omitted_observations: omittedObservations.size,
    tokens_saved: saved,
    invented_identifiers: new Set(audits.flatMap((a) => a.invented)).size,
    lost_identifiers: new Set(audits.flatMap((a) => a.lost)).size,
    lost_needed_later: new Set(audits.flatMap((a) => a.lostReferencedLater.map((l) => l.value))).size,
    lost_refetched_later: new Set(audits.flatMap((a) => a.lostRefetchedLater.map((l) => l.value))).size,
    invented_instructions: sum(audits.map((a) => a.inventedInstructions.length)),
    instructions_not_judged: sum(audits.map((a) => a.instructionsNotJudged?.length ?? 0)),
    summaries_not_judged: audits.filter((a) => a.readUnheldTurns).length,
    ...survivalColumns(totalSurvival(audits.map((a) => a.survival))),
    refetches: sum(a.refetch.map((r) => r.refetches.length)),
    refetch_tokens: sum(a.refetch.map((r) => r.refetchTokens)),
    lints: lints.length,
    success: typeof success === 'boolean' ? success : null,
    reward: typeof reward === 'number' && Number.isFinite(reward) ? reward : null,
    errors: session.issues.filter((i) => i.severity === 'error').length,
    warnings: session.issues.filter((i) => i.severity === 'warning').length,
    token_counter: opts.counter,
    sidechain_of: typeof session.meta['sidechainOf'] === 'string' ? session.meta['sidechainOf'] : null,
    error: null,
  };
}
