// The adapter registry: every format, and detection by content.
import type { Document } from '../load/document';
import type { FormatId } from '../model/types';
import type { FormatAdapter } from './adapter';
import { agentOmit } from './agent-omit';
import { anthropic } from './anthropic';
import { claudeCode } from './claude-code';
import { codex } from './codex';
import { compactionLog } from './compaction-log';
import { livekit } from './livekit';
import { openaiChat } from './openai-chat';
import { openaiResponses } from './openai-responses';
import { openhands } from './openhands';
import { openhandsSdk } from './openhands-sdk';
import { reasoningTrace } from './reasoning-trace';
import { requestLog } from './request-log';
import { selfSum } from './self-sum';
import { sharegpt } from './sharegpt';

export const ADAPTERS: readonly FormatAdapter[] = [
  claudeCode,
  codex,
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

/** The adapter with the highest confidence ≥ 0.5; ties go to the earlier (more specific) adapter. */
export function detect(doc: Document): FormatAdapter | null {
  let best: FormatAdapter | null = null;
  let bestScore = 0.5 - Number.EPSILON;
  for (const adapter of ADAPTERS) {
    let score = 0;
    try {
      score = adapter.sniff(doc);
    } catch {
      score = 0;
    }
    if (score > bestScore) {
      best = adapter;
      bestScore = score;
    }
  }
  return best;
}

export type { FormatAdapter, ParseContext, At } from './adapter';
export { createContext, emptySession, idFromFile } from './adapter';
