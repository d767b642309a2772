// One-line builders for engine tests: sessions and items without the noise of real formats.
import { emptySession } from '../formats/adapter';
import type { CompactionEvent, FormatId, Item, ModelResponse, Session } from '../model/types';

const src = { file: 'test', line: null };

export const user = (id: string, text: string): Item => ({ id, kind: 'message', role: 'user', text, source: src });
export const system = (id: string, text: string): Item => ({ id, kind: 'message', role: 'system', text, source: src });
export const assistant = (id: string, text: string): Item => ({ id, kind: 'message', role: 'assistant', text, source: src });
export const toolCall = (id: string, callId: string, name: string, args = '{}'): Item => ({ id, kind: 'tool_call', role: 'assistant', text: args, name, callId, source: src });
export const toolResult = (id: string, callId: string, text: string): Item => ({ id, kind: 'tool_result', role: 'tool', text, callId, source: src });
export const summary = (id: string, text: string, role: Item['role'] = 'assistant'): Item => ({ id, kind: 'summary', role, text, source: src });
export const marker = (id: string): Item => ({ id, kind: 'omission', role: 'assistant', text: '[Earlier messages truncated]', omission: { target: 'turns', refs: [] }, source: src });
export const boundary = (id: string): Item => ({ id, kind: 'compaction', role: 'system', text: 'Conversation compacted', source: src });

export function compaction(id: string, fields: Partial<CompactionEvent> & Pick<CompactionEvent, 'replacedIds'>): CompactionEvent {
  return { id, index: 0, kind: 'compact', trigger: null, tokensBefore: null, tokensAfter: null, keptIds: [], summaryId: null, atItemId: null, source: src, ...fields };
}

export function response(id: string, itemIds: string[], usage: ModelResponse['usage'] = null): ModelResponse {
  return { id, index: 0, itemIds, usage, model: null, source: src };
}

export function session(items: Item[], extra: Partial<Session> = {}, format: FormatId = 'openai-chat'): Session {
  const s = { ...emptySession(format, 'test.json', 'test'), items, ...extra };
  s.compactions.forEach((c, i) => (c.index = i));
  s.responses.forEach((r, i) => (r.index = i));
  return s;
}
