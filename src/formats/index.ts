// The adapter registry: every format, and detection by content.
import type { Document } from '../load/document';
import type { FormatId } from '../model/types';
import type { FormatAdapter } from './adapter';
import { agentOmit } from './agent-omit';
import { anthropic } from './anthropic';
import { atif } from './atif';
import { claudeCode } from './claude-code';
import { codex } from './codex';
import { cline } from './cline';
import { geminiCli } from './gemini-cli';
import { inspect } from './inspect';
import { compactionLog } from './compaction-log';
import { livekit } from './livekit';
import { miniSweAgent } from './mini-swe-agent';
import { openaiChat } from './openai-chat';
import { openaiResponses } from './openai-responses';
import { openhands } from './openhands';
import { openhandsSdk } from './openhands-sdk';
import { otlp } from './otlp';
import { reasoningTrace } from './reasoning-trace';
import { requestLog } from './request-log';
import { selfSum } from './self-sum';
import { sharegpt } from './sharegpt';
import { sweAgent } from './swe-agent';
import { tauBench } from './tau-bench';

export const ADAPTERS: readonly FormatAdapter[] = [
  claudeCode,
  codex,
  sweAgent,
  miniSweAgent,
  atif,
  tauBench,
  inspect,
  geminiCli,
  cline,
  otlp,
  openhands,
  openhandsSdk,
  livekit,
  openaiChat,
  openaiResponses,
  anthropic,
  selfSum,
  agentOmit,
  sharegpt,
  reasoningTrace,
  compactionLog,
  requestLog,
];

export function adapterFor(id: FormatId): FormatAdapter {
  const found = ADAPTERS.find((a) => a.id === id);
  if (!found) throw new Error(`no adapter for ${id}`);
  return found;
}

/** How close a second format may score to the winner before the choice counts as a guess. */
export const AMBIGUITY_MARGIN = 0.15;

export interface Detection {
  adapter: FormatAdapter;
  score: number;
  /** A second format that also fits (≥ 0.5, within AMBIGUITY_MARGIN) and that the winner does not refine. */
  rival: { adapter: FormatAdapter; score: number } | null;
}

/**
 * The adapter with the highest confidence ≥ 0.5 (ties go to the earlier, more specific adapter), and the
 * runner-up when it scored close enough that the pick is a guess the user should hear about.
 */
export function detectWithRival(doc: Document): Detection | null {
  const scored: { adapter: FormatAdapter; score: number }[] = [];
  for (const adapter of ADAPTERS) {
    let score = 0;
    try {
      score = adapter.sniff(doc);
    } catch {
      score = 0;
    }
    if (score >= 0.5) scored.push({ adapter, score });
  }
  if (scored.length === 0) return null;
  // A stable sort keeps registry order among equal scores.
  scored.sort((a, b) => b.score - a.score);
  const best = scored[0]!;
  const rival = scored.slice(1).find((s) => best.score - s.score <= AMBIGUITY_MARGIN && !refinesOrRefined(best.adapter, s.adapter)) ?? null;
  return { adapter: best.adapter, score: best.score, rival };
}

function refinesOrRefined(a: FormatAdapter, b: FormatAdapter): boolean {
  return (a.refines ?? []).includes(b.id) || (b.refines ?? []).includes(a.id);
}

/** The adapter with the highest confidence ≥ 0.5; ties go to the earlier (more specific) adapter. */
export function detect(doc: Document): FormatAdapter | null {
  return detectWithRival(doc)?.adapter ?? null;
}

/** The warning a guessed detection earns: both candidates, and how to read the file as the other. */
export function ambiguityMessage(d: Detection): string | null {
  if (!d.rival) return null;
  const pct = (n: number) => `${Math.round(n * 100)}%`;
  return `format guessed: read as ${d.adapter.label} (${d.adapter.id}, ${pct(d.score)}), but it also looks like ${d.rival.adapter.label} (${d.rival.adapter.id}, ${pct(d.rival.score)}); check the calls and items below`;
}

export type { FormatAdapter, ParseContext, At } from './adapter';
export { createContext, emptySession, idFromFile } from './adapter';
