// Iterated-summarization reasoning traces: the model reasons, a summarizer compresses the trace,
// and the next attempt is prompted with the question plus all earlier summaries.
//
// No tool writes these, so we define the shape (one trace per file):
//   {
//     "question" | "problem": string,
//     "summarizer"?: "base" | "backtracking" | "post-think" | "last-k" | "first-k" | "answer-only",
//     "model"?: string, "id"?: string,
//     "iterations": [{
//       "prompt"?: string,               // as sent; default: the question, then earlier summaries (paper's Figure 7)
//       "output" | "reasoning": string,  // <think>…</think> then the post-think answer
//       "summary"?: string,              // this attempt's summary, fed to later prompts
//       "answer"?: string,               // extracted final answer
//       "correct"?: boolean
//     }],
//     "success"?: boolean, "reward"?: number
//   }
// Items per iteration i (from 1): `i{i}.prompt` (user), `i{i}.think` (thinking), `i{i}.answer` (assistant
// message), `i{i}.summary` (summary, role assistant), all with meta.iteration = i. Each summary is a
// `summary` compaction replacing that iteration's thinking and answer and keeping the first prompt, which
// holds the question. (Later prompts are not counted as replaced although the next prompt restates them:
// the audit would then report the question's identifiers as lost.) `restatedIn` names the next prompt: the
// next attempt is a fresh call sent that prompt alone, which restates the question and every summary.
import type { Document } from '../load/document';
import { arr, bool, get, isObject, num, str, type JsonObject } from '../model/narrow';
import type { CompactionEvent, Item } from '../model/types';
import { emptySession, idFromFile, type FormatAdapter } from './adapter';
import { splitThink } from './trajectory';

export const SUMMARIZERS = ['base', 'backtracking', 'post-think', 'last-k', 'first-k', 'answer-only'] as const;

/** The paper's Figure 7 prompt for attempts after the first; the first attempt gets the question alone. */
export function defaultPrompt(question: string, summaries: string[]): string {
  if (summaries.length === 0) return question;
  return [
    question,
    'Here are summaries of your previous solution attempts:',
    summaries.join('\n\n'),
    'Based on your previous solution attempts, evaluate whether the most recent approach and answer are correct. If not, consider a different approach.',
  ].join('\n\n');
}

function outputOf(it: JsonObject): { text: string; key: 'output' | 'reasoning' } | null {
  const output = str(it, 'output');
  if (output !== undefined) return { text: output, key: 'output' };
  const reasoning = str(it, 'reasoning');
  return reasoning !== undefined ? { text: reasoning, key: 'reasoning' } : null;
}

export const reasoningTrace: FormatAdapter = {
  id: 'reasoning-trace',
  label: 'Iterated-summarization reasoning trace',
  sniff(doc: Document) {
    if (doc.kind !== 'json' || !isObject(doc.value)) return 0;
    const iterations = arr(doc.value, 'iterations');
    if (!iterations || iterations.length === 0) return 0;
    return iterations.some((it) => isObject(it) && outputOf(it) !== null) ? 0.9 : 0;
  },
  parse(doc, ctx) {
    const session = emptySession('reasoning-trace', ctx.file, idFromFile(ctx.file));
    const value = doc.kind === 'json' ? doc.value : undefined;
    const iterations = isObject(value) ? arr(value, 'iterations') : undefined;
    if (!isObject(value) || !iterations) {
      ctx.error({ path: ['iterations'] }, 'expected an object with an `iterations` array');
      return [session];
    }
    const question = str(value, 'question') ?? str(value, 'problem');
    if (question === undefined) ctx.warn({ path: ['question'] }, 'no `question` or `problem`; default prompts hold only the summaries');
    const summarizer = str(value, 'summarizer') ?? null;
    if (summarizer !== null && !(SUMMARIZERS as readonly string[]).includes(summarizer)) {
      ctx.warn({ path: ['summarizer'] }, `unknown summarizer ${JSON.stringify(summarizer)}; expected one of ${SUMMARIZERS.join(', ')}`);
    }
    const id = str(value, 'id');
    if (id) session.id = id;
    session.model = str(value, 'model') ?? null;
    const success = bool(value, 'success');
    if (success !== undefined) session.meta['success'] = success;
    const reward = num(value, 'reward');
    if (reward !== undefined) session.meta['reward'] = reward;
    if (summarizer !== null) session.meta['summarizer'] = summarizer;
    session.meta['iterations'] = iterations.length;

    const source = { file: ctx.file, line: null };
    const items: Item[] = [];
    const compactions: CompactionEvent[] = [];
    const summaries: string[] = [];
    let firstPromptId: string | null = null;
    iterations.forEach((raw, index) => {
      const i = index + 1;
      const path = ['iterations', index];
      if (!isObject(raw)) {
        ctx.error({ path }, 'expected an iteration object');
        return;
      }
      const meta = { iteration: i };
      const given = str(raw, 'prompt');
      const prompt: Item = { id: `i${i}.prompt`, kind: 'message', role: 'user', text: given ?? defaultPrompt(question ?? '', summaries), source, meta: { ...meta, promptDefault: given === undefined } };
      items.push(prompt);
      // Each attempt is a fresh call sent its prompt alone (Algorithm 1: r_t ← R(q, Σ)).
      const previous = compactions.at(-1);
      if (previous && previous.restatedIn === undefined && previous.summaryId === `i${i - 1}.summary`) previous.restatedIn = prompt.id;
      firstPromptId ??= prompt.id;

      const out = outputOf(raw);
      if (!out) ctx.error({ path: [...path, 'output'] }, 'iteration has no `output` or `reasoning` text');
      const split = out ? splitThink(out.text) : { thinking: null, answer: '' };
      // A bare `reasoning` field without tags is all reasoning.
      const thinking = split.thinking ?? (out?.key === 'reasoning' ? split.answer : null);
      const answerText = split.thinking === null && out?.key === 'reasoning' ? '' : split.answer;
      const replaced: string[] = [];
      if (thinking !== null) {
        items.push({ id: `i${i}.think`, kind: 'thinking', role: 'assistant', text: thinking, source, meta });
        replaced.push(`i${i}.think`);
      }
      const extracted = str(raw, 'answer');
      const correct = bool(raw, 'correct');
      if (answerText || extracted !== undefined) {
        const answerMeta: Item['meta'] = { ...meta };
        if (extracted !== undefined) answerMeta['finalAnswer'] = extracted;
        if (correct !== undefined) answerMeta['correct'] = correct;
        items.push({ id: `i${i}.answer`, kind: 'message', role: 'assistant', text: answerText || (extracted ?? ''), source, meta: answerMeta });
        replaced.push(`i${i}.answer`);
      }

      const summary = get(raw, 'summary');
      if (summary === undefined || summary === null) return;
      if (typeof summary !== 'string') {
        ctx.error({ path: [...path, 'summary'] }, 'expected the summary to be text');
        return;
      }
      const summaryItem: Item = { id: `i${i}.summary`, kind: 'summary', role: 'assistant', text: summary, source, meta: summarizer ? { ...meta, summarizer } : meta };
      items.push(summaryItem);
      summaries.push(summary);
      compactions.push({
        id: `c${compactions.length}`,
        index: compactions.length,
        kind: 'summary',
        trigger: summarizer,
        tokensBefore: null,
        tokensAfter: null,
        replacedIds: replaced,
        keptIds: firstPromptId ? [firstPromptId] : [],
        summaryId: summaryItem.id,
        atItemId: summaryItem.id,
        source,
      });
    });
    session.items = items;
    session.compactions = compactions;
    return [session];
  },
};
