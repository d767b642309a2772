// Recognizes summaries and fallback markers by their text, the way downstream harness code does.
import type { Item } from './types';

export const SCHEMA_HEADER = '## Conversation Summary';
export const TRUNCATION_MARKER = '[Earlier messages truncated]';

const CLAUDE_CODE_CONTINUATION = 'This session is being continued from a previous conversation';

export type TextRole = 'summary' | 'marker' | null;

export function classifyText(text: string): TextRole {
  const t = text.trimStart();
  if (t.startsWith(SCHEMA_HEADER)) return 'summary';
  if (t.startsWith('<chat_history_summary>')) return 'summary';
  if (t.startsWith('[history summary]')) return 'summary';
  if (t.startsWith('<summary>')) return 'summary';
  if (t.startsWith(CLAUDE_CODE_CONTINUATION)) return 'summary';
  if (t.startsWith(TRUNCATION_MARKER)) return 'marker';
  return null;
}

/** `[REDACTED_TEXT len=3017 sha=f3ffd0ed]`-style placeholders written by redacting exporters. */
export function redactionHint(text: string): { len: number; sha: string | null } | undefined {
  const m = /^\[REDACTED_[A-Z_]+ len=(\d+)(?: sha=([0-9a-f]+))?\]$/.exec(text.trim());
  return m ? { len: Number(m[1]), sha: m[2] ?? null } : undefined;
}

/**
 * An item built from a text that may itself be a summary, a fallback marker or a redacted placeholder:
 * the text decides the kind, so every adapter labels recaps the same way.
 */
export function textItem(base: Omit<Item, 'kind' | 'text'>, text: string, defaultKind: Item['kind'] = 'message'): Item {
  const cls = classifyText(text);
  const kind = cls === 'summary' ? 'summary' : cls === 'marker' ? 'omission' : defaultKind;
  const item: Item = { ...base, kind, text };
  const hint = redactionHint(text);
  if (hint) item.redacted = hint;
  if (cls === 'marker') item.omission = { target: 'turns', refs: [], marker: text.trim() };
  return item;
}
