// Iterated summarization (reasoning traces, paper §2.2): every earlier attempt in the middle is replaced by
// a short summary of it, and all those summaries sit after the question in order (Figure 7), as ONE block
// that later compactions extend rather than stack. Summarizers: base and backtracking ask the Summarizer
// with the paper's prompts (Figures 4, 6); post-think, last-k, first-k and answer-only are plain functions
// of the attempt. An attempt is one model step: its thinking, its post-think answer, its tool calls.
import type { Item } from '../../model/types';
import { TRUNCATION_MARKER } from '../../model/markers';
import { hasNewMiddle, isModelItem, isRecap, isUserMessage, layout, stepStarts, type LayoutParams } from '../layout';
import { ANSWER_ONLY_TEMPLATE, fillPrompt, ITERATED_BACKTRACKING_PROMPT, ITERATED_BASE_PROMPT, ITERATED_BLOCK_TEMPLATE, ITERATED_SYSTEM_PROMPT } from '../prompts';
import { callSummarizer, markerItem, priorSummaryText, summaryItem } from '../recap';
import { clip, renderSlice } from '../render-slice';
import { unchanged, type CompactionFallback, type StrategyFn, type SummarizerCall } from '../types';
import { noMiddleNote } from './notes';

export const ITERATED_METHODS = ['base', 'backtracking', 'post-think', 'last-k', 'first-k', 'answer-only'] as const;
export type IteratedMethod = (typeof ITERATED_METHODS)[number];

export interface IteratedParams extends LayoutParams {
  method: IteratedMethod;
  /** Tokens kept by last-k and first-k (the paper's k = 404, the mean length of its base summaries). */
  k: number;
  /** The summarization prompt for base/backtracking with `{question}` and `{reasoning}`; null uses the paper's. */
  prompt: string | null;
  /** Sent as the system message with base/backtracking; empty sends none. */
  systemPrompt: string;
  /** The block with `{summaries}`. */
  blockTemplate: string;
  /** Answer-only's summary with `{answer}`. */
  answerTemplate: string;
  /** Longer reasoning is cut in the middle before it is sent (0 = never). */
  maxItemChars: number;
}

export const ITERATED_DEFAULTS: IteratedParams = {
  head: 1,
  tail: 1,
  unit: 'auto',
  method: 'backtracking',
  k: 404,
  prompt: null,
  systemPrompt: ITERATED_SYSTEM_PROMPT,
  blockTemplate: ITERATED_BLOCK_TEMPLATE,
  answerTemplate: ANSWER_ONLY_TEMPLATE,
  maxItemChars: 0,
};

export function iteratedPrompt(p: Pick<IteratedParams, 'method' | 'prompt'>): string | null {
  if (p.method !== 'base' && p.method !== 'backtracking') return null;
  return p.prompt ?? (p.method === 'base' ? ITERATED_BASE_PROMPT : ITERATED_BACKTRACKING_PROMPT);
}

/** One attempt split the way reasoning models write it: `<think>` reasoning, then the post-think answer. */
export interface Attempt {
  items: Item[];
  reasoning: string;
  postThink: string;
  /** The whole attempt as text: `<think>…</think>` then the rest. */
  full: string;
}

const THINK_CLOSE = '</think>';

export function attemptOf(items: Item[]): Attempt {
  let thinking = items.filter((it) => it.kind === 'thinking').map((it) => it.text.trim()).filter(Boolean).join('\n');
  const messages = items.filter((it) => it.kind === 'message' && it.role === 'assistant').map((it) => it.text);
  let post = messages.join('\n').trim();
  // Raw output with the tags still in it.
  if (!thinking && post.includes(THINK_CLOSE)) {
    const at = post.lastIndexOf(THINK_CLOSE);
    thinking = post.slice(0, at).replace(/^\s*<think>/, '').trim();
    post = post.slice(at + THINK_CLOSE.length).trim();
  }
  const rest = renderSlice(items.filter((it) => it.kind !== 'thinking'), 'plain');
  const full = thinking ? `<think>\n${thinking}\n</think>\n${post || rest}`.trim() : rest;
  return { items, reasoning: thinking || rest, postThink: post, full };
}

/** Word-boundary cut points of `text`: the end of each whitespace-separated word. */
function wordEnds(text: string): number[] {
  const ends: number[] = [];
  for (const m of text.matchAll(/\S+/g)) ends.push(m.index + m[0].length);
  return ends;
}

/** The longest run of whole words from the start with at most k tokens. */
export function firstTokens(text: string, k: number, count: (t: string) => number): string {
  if (count(text) <= k) return text;
  const ends = wordEnds(text);
  let lo = 0;
  let hi = ends.length; // prefix of `lo` words fits; `hi` words do not
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (count(text.slice(0, ends[mid - 1])) <= k) lo = mid;
    else hi = mid;
  }
  return lo === 0 ? '' : text.slice(0, ends[lo - 1]).trim();
}

/** The longest run of whole words at the end with at most k tokens. */
export function lastTokens(text: string, k: number, count: (t: string) => number): string {
  if (count(text) <= k) return text;
  const starts = [...text.matchAll(/\S+/g)].map((m) => m.index);
  let lo = 0; // `lo` last words fit
  let hi = starts.length;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (count(text.slice(starts[starts.length - mid])) <= k) lo = mid;
    else hi = mid;
  }
  return lo === 0 ? '' : text.slice(starts[starts.length - lo]).trim();
}

/** Contents of the last `\boxed{…}`, braces balanced. */
function lastBoxed(text: string): string | null {
  const at = text.lastIndexOf('\\boxed{');
  if (at < 0) return null;
  let depth = 0;
  const start = at + '\\boxed{'.length;
  for (let i = start; i < text.length; i++) {
    if (text[i] === '{') depth++;
    else if (text[i] === '}') {
      if (depth === 0) return text.slice(start, i).trim();
      depth--;
    }
  }
  return null;
}

/** The attempt's final answer: `\boxed{}`, an `<answer>` item or tag, else the answer's last line. */
export function finalAnswer(a: Attempt): string | null {
  const boxed = lastBoxed(a.postThink) ?? lastBoxed(a.reasoning);
  if (boxed) return boxed;
  const tagged = a.items.filter((it) => it.meta?.['answer'] === true).pop();
  if (tagged) return tagged.text.trim();
  const tag = /<answer>([\s\S]*?)<\/answer>/.exec(a.postThink);
  if (tag) return tag[1]!.trim();
  const lines = a.postThink.split('\n').map((l) => l.trim()).filter(Boolean);
  return lines.length > 0 ? clip(lines[lines.length - 1]!, 300) : null;
}

/** The attempts in a middle: its model steps (user messages in between are not attempts). */
function attemptsIn(context: readonly Item[], from: number, to: number): Attempt[] {
  const starts = stepStarts(context).filter((s) => s >= from && s < to);
  const out: Attempt[] = [];
  starts.forEach((s, k) => {
    if (!isModelItem(context[s]!)) return;
    out.push(attemptOf(context.slice(s, starts[k + 1] ?? to)));
  });
  return out;
}

const ATTEMPT_LINE = /^Attempt \d+:$/gm;

/** The entries of an earlier block (or an earlier summary of another kind) and how many attempts it holds. */
function priorEntries(recaps: Item[], blockTemplate: string): { body: string; attempts: number }[] {
  const lead = blockTemplate.split('{summaries}')[0] ?? '';
  return recaps
    .filter((it) => it.kind === 'summary' && it.text.trim() !== '')
    .map((it) => {
      const text = it.text.trim();
      const fromBlock = lead.trim() !== '' && text.startsWith(lead.trim());
      const body = fromBlock ? text.slice(lead.trim().length).trim() : `Earlier summary:\n${text}`;
      const meta = it.meta?.['iteratedAttempts'];
      return { body, attempts: typeof meta === 'number' ? meta : fromBlock ? (body.match(ATTEMPT_LINE)?.length ?? 0) : 0 };
    });
}

export const iterated: StrategyFn<IteratedParams> = async (context, params, deps) => {
  if (deps.signal?.aborted) return unchanged(context, 'cancelled', true);
  const l = layout(context, params);
  if (!hasNewMiddle(context, l)) return unchanged(context, noMiddleNote(l, params));
  const middle = context.slice(l.headEnd, l.tailStart);
  const slice = middle.filter((it) => !isRecap(it));
  const attempts = attemptsIn(context, l.headEnd, l.tailStart);
  if (attempts.length === 0) return unchanged(context, 'nothing to summarize: the middle holds no model step');
  const question = [...context.slice(0, l.headEnd)].reverse().find(isUserMessage)?.text ?? context.find(isUserMessage)?.text ?? '';
  const prompt = iteratedPrompt(params);
  const calls: SummarizerCall[] = [];
  const summaries: string[] = [];
  let fallback: CompactionFallback | null = null;

  for (const a of attempts) {
    if (prompt === null) {
      summaries.push(deterministicSummary(a, params, deps.count));
      continue;
    }
    const messages: { role: 'system' | 'user'; content: string }[] = [];
    if (params.systemPrompt.trim() !== '') messages.push({ role: 'system', content: params.systemPrompt });
    messages.push({ role: 'user', content: fillPrompt(prompt, { question, reasoning: clip(a.full, params.maxItemChars) }) });
    const { result, call } = await callSummarizer(deps, { messages, slice: a.items, priorSummary: null, style: params.method === 'backtracking' ? 'backtracking' : 'reasoning' });
    calls.push(call);
    if (!result.ok && result.failure === 'cancelled') return { ...unchanged(context, result.reason, true), summarizerCalls: calls };
    if (!result.ok) {
      fallback = { failure: result.failure, reason: result.reason };
      break;
    }
    summaries.push(result.text.trim());
  }

  const prefix = deps.idPrefix ?? 'compact';
  const recaps = middle.filter(isRecap);
  const prior = priorEntries(recaps, params.blockTemplate);
  const before = prior.reduce((n, p) => n + p.attempts, 0);
  const entries = [...prior.map((p) => p.body), ...summaries.map((s, i) => `Attempt ${before + i + 1}:\n${s}`)];
  const recap = fallback
    ? markerItem(`${prefix}.marker`, slice.map((it) => it.id), 'iterated', TRUNCATION_MARKER)
    : summaryItem(`${prefix}.summary`, fillPrompt(params.blockTemplate, { summaries: entries.join('\n\n') }), 'iterated', {
        method: params.method,
        iteratedAttempts: before + summaries.length,
        summarizer: prompt === null ? params.method : deps.summarizer.name,
      });
  return {
    context: [...context.slice(0, l.headEnd), recap, ...context.slice(l.tailStart)],
    changed: true,
    replacedIds: slice.map((it) => it.id),
    label: fallback ? 'dropped' : 'summarized',
    slice,
    recap,
    foldedIds: recaps.map((it) => it.id),
    priorSummary: priorSummaryText(middle),
    fallback,
    summarizerCalls: calls,
    note: `${params.method}: ${attempts.length} attempt${attempts.length === 1 ? '' : 's'} summarized (turns counted by ${l.unit})`,
    cancelled: false,
  };
};

/**
 * The k of last-k and first-k for one attempt: at most half its reasoning. The paper's k (404) is the mean length
 * of its base summaries against attempts of about 10,000 tokens; applied to a shorter attempt it would keep the
 * whole reasoning, and first-k and last-k would both be the attempt itself rather than its start and its end.
 */
export function spanTokens(a: Attempt, p: Pick<IteratedParams, 'k'>, count: (t: string) => number): number {
  return Math.max(1, Math.min(p.k, Math.floor(count(a.reasoning) / 2)));
}

function deterministicSummary(a: Attempt, p: IteratedParams, count: (t: string) => number): string {
  switch (p.method) {
    case 'post-think':
      return a.postThink || '(no post-think answer)';
    case 'last-k':
      return lastTokens(a.reasoning, spanTokens(a, p, count), count);
    case 'first-k':
      return firstTokens(a.reasoning, spanTokens(a, p, count), count);
    case 'answer-only':
      return fillPrompt(p.answerTemplate, { answer: finalAnswer(a) ?? 'unknown' });
    default:
      return '';
  }
}
