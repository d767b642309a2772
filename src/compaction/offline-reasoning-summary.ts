// Offline stand-ins for the iterated-summarization paper's two LLM summarizers (reference 003, §2.2), written
// from the attempt itself like the rest of the offline summarizer: nothing invented, no network.
// - base (Figure 4, "summarize the attempted solution"): the approach it opened with, the steps that produced
//   results, and where it ended;
// - backtracking (Figure 6, "emphasizing the instances where the model changed its strategy, revised a previous
//   decision, or explicitly backtracked"): the moments the reasoning changed course, each with what it
//   turned to, then where it ended.
// Reasoning gets reasoning-style prose; the course schema (Decisions / Entities / Facts / Open Items) is for
// conversations, and its Entities line reads "125k" off a math trace as if it were an identifier.
import type { Item } from '../model/types';
import { attemptOf, finalAnswer } from './strategies/iterated';
import { clipWords, sentencesOf } from './sentences';

export type ReasoningStyle = 'reasoning' | 'backtracking';

/** Words that mark a change of course in a reasoning trace (the paper's "backtracking" behaviour). */
const CUES =
  "wait|actually|hmm+|hold on|on second thought|scratch that|let me (?:re-?consider|re-?check|re-?think|re-?do|re-?visit|re-?examine|double[- ]check|check again|try (?:again|another|a different))|i made (?:a|an) (?:mistake|error)|that(?:'s| is| was) (?:wrong|not right|incorrect|a mistake)|this (?:is|was) (?:wrong|incorrect)|mistake|instead|alternatively|but that (?:doesn't|does not|can't|cannot)|never checked|re-?check(?:ed|ing)?|reconsider(?:ed|ing)?|switch(?:ed|ing)? to|correct(?:ed|ing)? (?:the|my|this)";
export const BACKTRACK_CUE = new RegExp(`\\b(?:${CUES})\\b`, 'i');
/** A sentence that starts by changing course ("Wait, …"). */
const OPENS_WITH_CUE = new RegExp(`^(?:${CUES})\\b`, 'i');

/** A sentence that reports a result: an equation, a congruence, a value found. */
const RESULT = /[=≡≈<>≤≥]|\b(?:so|thus|therefore|hence|gives?|get|got|equals?|is)\b[^.]*\d/i;

const MAX_STEPS = 6;
const MAX_MOMENTS = 6;
const ENTRY_WORDS = 28;

const clip = (s: string) => clipWords(s, ENTRY_WORDS);

function ending(slice: readonly Item[]): string | null {
  const a = attemptOf([...slice]);
  const answer = finalAnswer(a);
  if (answer) return `It ended with the answer ${answer}.`;
  const last = sentencesOf(a.postThink || a.reasoning).at(-1);
  return last ? `It ended: ${clip(last)}.` : null;
}

/** The reasoning-style summary of an attempt (one model step: thinking, post-think answer). */
export function reasoningSummary(slice: readonly Item[], style: ReasoningStyle): string {
  const a = attemptOf([...slice]);
  const sentences = sentencesOf(a.reasoning);
  if (sentences.length === 0) return ending(slice) ?? '(the attempt wrote no reasoning)';
  const lines: string[] = [`The attempt began: ${clip(sentences[0]!)}.`];
  if (style === 'backtracking') {
    const moments: string[] = [];
    for (let i = 1; i < sentences.length && moments.length < MAX_MOMENTS; i++) {
      const s = sentences[i]!;
      if (!BACKTRACK_CUE.test(s)) continue;
      // What it turned to: the next sentence, unless that opens another change of course ("Wait, …").
      const next = sentences[i + 1];
      if (next && !OPENS_WITH_CUE.test(next)) {
        moments.push(`${clip(s)} → ${clip(next)}`);
        i++;
      } else moments.push(clip(s));
    }
    lines.push(moments.length === 0 ? 'It never changed course.' : `It changed course ${moments.length === 1 ? 'once' : `${moments.length} times`}:`);
    lines.push(...moments.map((m) => `- ${m}`));
  } else {
    const steps = sentences.slice(1).filter((s) => RESULT.test(s) && !BACKTRACK_CUE.test(s)).slice(0, MAX_STEPS);
    if (steps.length > 0) lines.push(`Steps: ${steps.map(clip).join('; ')}.`);
  }
  const end = ending(slice);
  if (end) lines.push(end);
  return lines.join('\n');
}
