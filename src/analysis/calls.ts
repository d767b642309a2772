// Which model calls a transcript shows: its recorded responses, or else each run of assistant output.
import type { Item, ModelResponse, Session } from '../model/types';

const PRODUCED_BY_MODEL = new Set<Item['kind']>(['message', 'thinking', 'tool_call']);

/**
 * An assistant item the model produced. Summaries are usually written by a separate summarizer call
 * and inserted by the harness; only Self-Sum agents write their own.
 */
function isModelOutput(item: Item, format: Session['format']): boolean {
  if (item.role !== 'assistant') return false;
  // The harness's own notes in the assistant's place (Claude Code's `<synthetic>` "Not logged in", API errors): no call.
  if (item.meta?.['synthetic'] === true) return false;
  // Agent-Omit agents write their own omit commands inside the turn.
  const omitCommand = item.kind === 'omission' && item.omission?.marker?.startsWith('<omit_tool_response') === true;
  return PRODUCED_BY_MODEL.has(item.kind) || omitCommand || (item.kind === 'summary' && format === 'self-sum');
}

/**
 * The session's model calls. Formats that record responses (Claude Code, Codex, OpenHands, request
 * logs) give them directly; for the others each maximal run of assistant output is one call.
 */
export function modelCalls(session: Session): ModelResponse[] {
  if (session.responses.length > 0) return session.responses;
  const calls: ModelResponse[] = [];
  let current: ModelResponse | null = null;
  for (const item of session.items) {
    if (isModelOutput(item, session.format)) {
      if (!current) {
        current = { id: `call-${calls.length}`, index: calls.length, itemIds: [], usage: null, model: session.model, source: item.source, ...(item.timestamp ? { timestamp: item.timestamp } : {}) };
        calls.push(current);
      }
      current.itemIds.push(item.id);
    } else if (item.kind !== 'compaction') {
      current = null;
    }
  }
  return calls;
}
