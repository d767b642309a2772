// Iterated summarization (reference 003): per iteration the prompt (question + earlier summaries), the
// reasoning inside <think>, the post-think answer, and the summary passed on to later prompts. The paper's
// Table 6 reports tokens per iteration; this gives the same per trajectory.
import type { Item, Session } from '../model/types';
import { callByOutput, sentCalls } from './call-contexts';
import { itemCounter, type TokenSource } from './token-source';

export interface IterationRow {
  /** From 1. */
  iteration: number;
  promptId: string | null;
  /** The prompt was rebuilt from the question and earlier summaries (the file recorded none). */
  promptDefault: boolean;
  thinkId: string | null;
  answerId: string | null;
  summaryId: string | null;
  /** The attempt's call (0-based): the one that wrote its reasoning and answer. */
  call: number | null;
  /** Ids of the items that call was sent: the prompt alone when the earlier attempts were summarized. */
  contextIds: string[];
  /** What the attempt's call was sent, as the context view counts it; the prompt's tokens when it has no call. */
  promptTokens: number;
  reasoningTokens: number;
  postThinkTokens: number;
  summaryTokens: number;
  /** The extracted final answer, as the file records it. */
  finalAnswer: string | null;
  correct: boolean | null;
  /** Later iterations whose prompt holds this summary verbatim. */
  passedTo: number[];
}

export interface IterationTotals {
  prompt: number;
  reasoning: number;
  postThink: number;
  summary: number;
}

export interface IterationStats {
  rows: IterationRow[];
  totals: IterationTotals;
  /** Per-iteration means, as the paper's Table 6 averages (over the rows that have the part). */
  means: IterationTotals;
  summarizer: string | null;
  /** The first iteration whose answer is marked correct. */
  firstCorrect: number | null;
}

function iterationOf(item: Item): number | null {
  const i = item.meta?.['iteration'];
  return typeof i === 'number' && i >= 1 ? i : null;
}

function mean(values: number[]): number {
  return values.length ? values.reduce((a, b) => a + b, 0) / values.length : 0;
}

export function iterationStats(session: Session, tokens: TokenSource): IterationStats {
  const tok = itemCounter(tokens);
  const groups = new Map<number, Item[]>();
  for (const item of session.items) {
    const i = iterationOf(item);
    if (i === null) continue;
    const list = groups.get(i) ?? [];
    list.push(item);
    groups.set(i, list);
  }
  const order = [...groups.keys()].sort((a, b) => a - b);
  const byOutput = callByOutput(sentCalls(session, tokens));
  const rows: IterationRow[] = order.map((iteration) => {
    const items = groups.get(iteration)!;
    const prompt = items.find((it) => it.role === 'user') ?? null;
    const think = items.find((it) => it.kind === 'thinking') ?? null;
    const answer = items.find((it) => it.role === 'assistant' && it.kind === 'message') ?? null;
    const summary = items.find((it) => it.kind === 'summary') ?? null;
    const finalAnswer = answer?.meta?.['finalAnswer'];
    const correct = answer?.meta?.['correct'];
    const call = [think, answer].map((it) => (it ? byOutput.get(it.id) : undefined)).find((c) => c !== undefined);
    return {
      iteration,
      promptId: prompt?.id ?? null,
      promptDefault: prompt?.meta?.['promptDefault'] === true,
      thinkId: think?.id ?? null,
      answerId: answer?.id ?? null,
      summaryId: summary?.id ?? null,
      call: call?.index ?? null,
      contextIds: call?.ids ?? [],
      promptTokens: call ? call.tokens : prompt ? tok(prompt) : 0,
      reasoningTokens: think ? tok(think) : 0,
      postThinkTokens: answer ? tok(answer) : 0,
      summaryTokens: summary ? tok(summary) : 0,
      finalAnswer: typeof finalAnswer === 'string' ? finalAnswer : null,
      correct: typeof correct === 'boolean' ? correct : null,
      passedTo: summary && summary.text.trim() ? order.filter((j) => j > iteration && (groups.get(j)!.find((it) => it.role === 'user')?.text.includes(summary.text) ?? false)) : [],
    };
  });
  const sum = (f: (r: IterationRow) => number) => rows.reduce((n, r) => n + f(r), 0);
  const avg = (f: (r: IterationRow) => number, has: (r: IterationRow) => boolean) => mean(rows.filter(has).map(f));
  const summarizer = session.meta['summarizer'];
  return {
    rows,
    totals: { prompt: sum((r) => r.promptTokens), reasoning: sum((r) => r.reasoningTokens), postThink: sum((r) => r.postThinkTokens), summary: sum((r) => r.summaryTokens) },
    means: {
      prompt: avg((r) => r.promptTokens, (r) => r.promptId !== null),
      reasoning: avg((r) => r.reasoningTokens, (r) => r.thinkId !== null),
      postThink: avg((r) => r.postThinkTokens, (r) => r.answerId !== null),
      summary: avg((r) => r.summaryTokens, (r) => r.summaryId !== null),
    },
    summarizer: typeof summarizer === 'string' ? summarizer : null,
    firstCorrect: rows.find((r) => r.correct === true)?.iteration ?? null,
  };
}
