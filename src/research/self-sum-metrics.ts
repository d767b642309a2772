// Self-Sum (reference 000): a trajectory in segments H¹ … H^{k+1}. Each segment after the first starts with
// U^(k) = (q, s_k), the query and the k-th summary; a summary is written in a summarization-content turn,
// usually right after a summarization-timing turn (the `summary` action). Steps count every agent turn, the
// way the paper's summary prompt does ("You are now at step {current_step}").
import type { Item, Session } from '../model/types';
import { agentTurns } from './agent-turns';
import { callByOutput, sentCalls } from './call-contexts';
import { itemCounter, type TokenSource } from './token-source';
import { maxOf } from '../model/arrays';

export type SelfSumStepKind = 'action' | 'timing' | 'summary' | 'answer' | 'other';

export interface SelfSumStep {
  /** 1-based step number: the agent turn's index. */
  step: number;
  kind: SelfSumStepKind;
  segment: number;
  itemIds: string[];
  tokens: number;
}

export interface SelfSumSegment {
  /** k in H^k, from 1. */
  index: number;
  /** The segment's items in order; the system prompt is left out (every segment repeats it). */
  itemIds: string[];
  /** U^(k-1): the query in H¹, the user turn that restates the query and the summary in later segments. */
  openerId: string | null;
  firstStep: number | null;
  lastStep: number | null;
  /** Agent turns in the segment, timing and summary turns included. */
  steps: number;
  /** Environment actions only (what the agent did in the world). */
  actionSteps: number;
  /** Tokens of `itemIds`. */
  tokens: number;
  /** The segment's last call (0-based): the one that wrote its summary, or its last step. */
  lastCall: number | null;
  /**
   * What that call was sent, as the context view counts it: the system prompt, U^(k-1) and the segment's turns
   * before it. The policy's whole context, so the largest of the segment.
   */
  contextTokens: number;
  /** Ids of the items that call was sent, in order. */
  contextIds: string[];
  /** The summary that closes the segment; null for the last one. */
  summaryId: string | null;
}

export interface FedSummary {
  /** The first user turn of the next segment, which carries the summary. */
  itemId: string;
  text: string;
  tokens: number;
  /** Where the summary's text sits in it, when it is there verbatim. */
  span: [number, number] | null;
}

export interface SelfSumSummary {
  /** k in s_k, from 1. */
  k: number;
  itemId: string;
  text: string;
  tokens: number;
  /** The segment this summary closes. */
  segment: number;
  /** The summarization-timing turn (`<action>summary</action>`) that asked for it, if any. */
  timingItemId: string | null;
  /** The timing turn's thought: why the agent chose to summarize now (the paper's explanation s_k^e). */
  timingThoughtId: string | null;
  timingStep: number | null;
  /** The summarization-content turn that wrote it. */
  contentStep: number;
  /** When the agent decided to summarize: the timing step, else the content step. */
  firedAtStep: number;
  /** Environment actions since the previous summary (since the start for the first). */
  stepsSinceLast: number;
  /** The agent summarized again with no environment action since the previous summary. */
  consecutive: boolean;
  /** The summary as the next segment received it; null when no user turn carries it. */
  fed: FedSummary | null;
}

export interface SelfSumReport {
  segments: SelfSumSegment[];
  summaries: SelfSumSummary[];
  steps: SelfSumStep[];
  /** q: the first user message. */
  queryId: string | null;
  systemTokens: number;
}

function isSystem(item: Item): boolean {
  return item.role === 'system' || item.role === 'developer';
}

function segmentOf(item: Item): number {
  const s = item.meta?.['segment'];
  return typeof s === 'number' && s >= 1 ? s : 1;
}

function stepKind(items: readonly Item[]): SelfSumStepKind {
  if (items.some((it) => it.kind === 'summary')) return 'summary';
  if (items.some((it) => it.meta?.['summaryTiming'] === true)) return 'timing';
  if (items.some((it) => it.meta?.['answer'] === true)) return 'answer';
  if (items.some((it) => it.kind === 'tool_call')) return 'action';
  return 'other';
}

const isEnvironmentStep = (kind: SelfSumStepKind) => kind !== 'timing' && kind !== 'summary';

/**
 * Segments, summaries and their timing, from the items' `meta.segment`, `meta.summaryTiming` and
 * `meta.carriesSummary` (set by the self-sum adapter).
 */
export function selfSumSegments(session: Session, tokens: TokenSource): SelfSumReport {
  const tok = itemCounter(tokens);
  const items = session.items;
  const turns = agentTurns(items);
  const stepOfItem = new Map<string, number>();
  const timingItemOfStep = new Map<number, string>();
  const thoughtOfStep = new Map<number, string>();
  const steps: SelfSumStep[] = turns.map((t) => {
    for (const it of t.items) {
      stepOfItem.set(it.id, t.index);
      if (it.meta?.['summaryTiming'] === true) timingItemOfStep.set(t.index, it.id);
      if (it.kind === 'thinking' && !thoughtOfStep.has(t.index)) thoughtOfStep.set(t.index, it.id);
    }
    return { step: t.index, kind: stepKind(t.items), segment: segmentOf(t.items[0]!), itemIds: t.items.map((i) => i.id), tokens: t.items.reduce((n, i) => n + tok(i), 0) };
  });

  const query = items.find((it) => it.role === 'user' && it.kind === 'message') ?? null;
  const count = maxOf(items.map(segmentOf), 0);
  const byOutput = callByOutput(sentCalls(session, tokens));
  const segments: SelfSumSegment[] = [];
  for (let k = 1; k <= count; k++) {
    const own = items.filter((it) => segmentOf(it) === k && !isSystem(it));
    const opener = k === 1 ? query : (own.find((it) => it.meta?.['carriesSummary'] === true) ?? null);
    const segSteps = steps.filter((s) => s.segment === k);
    const last = own
      .map((it) => byOutput.get(it.id))
      .reduce<ReturnType<typeof byOutput.get>>((m, c) => (c && (!m || c.index > m.index) ? c : m), undefined);
    segments.push({
      index: k,
      itemIds: own.map((it) => it.id),
      openerId: opener && segmentOf(opener) === k ? opener.id : null,
      firstStep: segSteps[0]?.step ?? null,
      lastStep: segSteps.at(-1)?.step ?? null,
      steps: segSteps.length,
      actionSteps: segSteps.filter((s) => isEnvironmentStep(s.kind)).length,
      tokens: own.reduce((n, it) => n + tok(it), 0),
      lastCall: last?.index ?? null,
      contextTokens: last?.tokens ?? 0,
      contextIds: last?.ids ?? [],
      summaryId: own.find((it) => it.kind === 'summary')?.id ?? null,
    });
  }

  const byId = new Map(items.map((it) => [it.id, it]));
  const summaries: SelfSumSummary[] = [];
  let lastContentStep = 0;
  for (const item of items) {
    if (item.kind !== 'summary') continue;
    const contentStep = stepOfItem.get(item.id) ?? lastContentStep;
    const segment = segmentOf(item);
    // The timing turn of this summary: the latest one in its segment after the previous summary.
    const timing = [...steps].reverse().find((s) => s.kind === 'timing' && s.segment === segment && s.step < contentStep && s.step > lastContentStep) ?? null;
    const timingItemId = timing ? (timingItemOfStep.get(timing.step) ?? null) : null;
    const firedAtStep = timing?.step ?? contentStep;
    const stepsSinceLast = steps.filter((s) => s.step > lastContentStep && s.step < firedAtStep && isEnvironmentStep(s.kind)).length;
    const next = segments[segment];
    const opener = next?.openerId ? byId.get(next.openerId) : undefined;
    const at = opener ? opener.text.indexOf(item.text) : -1;
    summaries.push({
      k: summaries.length + 1,
      itemId: item.id,
      text: item.text,
      tokens: tok(item),
      segment,
      timingItemId,
      timingThoughtId: timing ? (thoughtOfStep.get(timing.step) ?? null) : null,
      timingStep: timing?.step ?? null,
      contentStep,
      firedAtStep,
      stepsSinceLast,
      consecutive: summaries.length > 0 && stepsSinceLast === 0,
      fed: opener ? { itemId: opener.id, text: opener.text, tokens: tok(opener), span: at >= 0 && item.text ? [at, at + item.text.length] : null } : null,
    });
    lastContentStep = contentStep;
  }

  return { segments, summaries, steps, queryId: query?.id ?? null, systemTokens: items.filter(isSystem).reduce((n, it) => n + tok(it), 0) };
}
