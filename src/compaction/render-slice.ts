// The evicted slice as text for a summarizer: plain lines (course), or XML where tool calls and their
// results are actions with outputs (LiveKit PR #5099). XML escapes the text, so a message that contains
// "User:" or a closing tag cannot pose as structure.
import type { Item } from '../model/types';

export type SliceRender = 'plain' | 'xml';

/** Longer texts are cut in the middle, keeping both ends (the slice must fit the summarizer's window). */
export function clip(text: string, maxChars: number): string {
  if (maxChars <= 0 || text.length <= maxChars) return text;
  const half = Math.floor(maxChars / 2);
  return `${text.slice(0, half)}\n…[${text.length - 2 * half} characters cut]…\n${text.slice(text.length - half)}`;
}

function plainLine(it: Item, maxChars: number): string {
  const text = clip(it.text, maxChars);
  switch (it.kind) {
    case 'tool_call':
      return `${it.role} called ${it.name ?? 'tool'}(${text})`;
    case 'tool_result':
      return `${it.name ?? 'tool'} returned: ${text}`;
    case 'thinking':
      return `${it.role} (thinking): ${text}`;
    case 'summary':
      return `summary: ${text}`;
    case 'handoff':
      return `handoff: ${text}`;
    default:
      return `${it.role}: ${text}`;
  }
}

export function escapeXml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function attrs(pairs: [string, string | undefined][]): string {
  return pairs
    .filter((p): p is [string, string] => p[1] !== undefined && p[1] !== '')
    .map(([k, v]) => ` ${k}="${escapeXml(v)}"`)
    .join('');
}

function xmlElement(it: Item, maxChars: number): string {
  const body = escapeXml(clip(it.text, maxChars));
  switch (it.kind) {
    case 'tool_call':
      return `<function_call${attrs([['name', it.name], ['call_id', it.callId]])}>${body}</function_call>`;
    case 'tool_result':
      return `<function_call_output${attrs([['name', it.name], ['call_id', it.callId], ['is_error', it.isError ? 'true' : undefined]])}>${body}</function_call_output>`;
    case 'thinking':
      return `<thinking>${body}</thinking>`;
    case 'handoff':
      return `<agent_handoff${attrs([['name', it.name]])}>${body}</agent_handoff>`;
    default:
      return `<message${attrs([['role', it.role]])}>${body}</message>`;
  }
}

/** Items a summarizer is shown: bookkeeping records and empty placeholders carry nothing. */
const shown = (it: Item) => it.kind !== 'compaction' && !(it.kind === 'thinking' && it.text.trim() === '');

export function renderSlice(items: readonly Item[], render: SliceRender, maxItemChars = 0): string {
  const lines = items.filter(shown).map((it) => (render === 'xml' ? xmlElement(it, maxItemChars) : plainLine(it, maxItemChars)));
  return lines.join(render === 'xml' ? '\n' : '\n\n');
}
