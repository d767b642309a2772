// The line of an item that shows a flagged value, cut to a readable window around it: what a person reads to decide
// whether a flag of the audit is real without leaving the list. The panel and the HTML report quote the same lines.
import type { Item } from '../model/types';
import { unescapeArguments } from './audit-summary';

export interface EvidenceLine {
  /** Text before the value in the window ('…' first when the line was cut). */
  before: string;
  /** The value as the item writes it. */
  match: string;
  /** Text after the value in the window ('…' last when the line was cut). */
  after: string;
}

/**
 * The first line of `text` that holds one of `values` (exactly, else ignoring case), cut to about `width` characters
 * around it; null when none does. Longer values are looked for first, so a path wins over its bare file name.
 */
export function evidenceLine(text: string | undefined, values: readonly string[], width = 140): EvidenceLine | null {
  if (!text) return null;
  const wanted = [...new Set(values.filter((v) => v.length > 0))].sort((a, b) => b.length - a.length);
  let at = -1;
  let length = 0;
  for (const v of wanted) {
    at = text.indexOf(v);
    if (at < 0) at = text.toLowerCase().indexOf(v.toLowerCase());
    if (at >= 0) {
      length = v.length;
      break;
    }
  }
  if (at < 0) return null;
  const lineStart = text.lastIndexOf('\n', at - 1) + 1;
  const newline = text.indexOf('\n', at + length);
  const lineEnd = newline < 0 ? text.length : newline;
  const room = Math.max(0, width - length);
  let from = Math.max(lineStart, at - Math.floor(room / 2));
  const to = Math.min(lineEnd, from + length + room);
  // A window cut short at the line's end gives its room back to the text before the value.
  from = Math.max(lineStart, Math.min(from, to - length - room));
  const before = text.slice(from, at).trimStart();
  const after = text.slice(at + length, to).trimEnd();
  return {
    before: (from > lineStart ? '…' : '') + before,
    match: text.slice(at, at + length),
    after: after + (to < lineEnd ? '…' : ''),
  };
}

/** Characters of a quoted line: about two lines of the column a quote sits in. */
export const QUOTE_WIDTH = 90;

/** An item's text as a person reads it: a tool call as its name and arguments, their strings' line breaks as lines. */
export const readableText = (it: Item | undefined): string | undefined =>
  !it ? undefined : it.kind === 'tool_call' ? `${it.name ?? ''} ${unescapeArguments(it.text)}` : it.text;

/** The values a flagged row is written as: its value (a function without its parentheses) and its other spellings. */
export const flaggedSpellings = (row: { value: string; spellings?: string[] }): string[] => [row.value.replace(/\(\)$/, ''), ...(row.spellings ?? [])];

/**
 * The line of the first of `ids` whose item writes the value, each call followed by its result (a fetch's arguments
 * rarely write what its output printed again): given the later items, the line that shows a flag's use; given the
 * evicted ones, where the compaction took it from. Null when none writes it as the row does (a use that asks for it by
 * kind).
 */
export function lineWriting(items: ReadonlyMap<string, Item>, ids: readonly string[], row: { value: string; spellings?: string[] }): EvidenceLine | null {
  const values = flaggedSpellings(row);
  for (const id of ids.flatMap((x) => [x, items.get(x)?.pairId ?? ''])) {
    const line = evidenceLine(readableText(items.get(id)), values, QUOTE_WIDTH);
    if (line) return line;
  }
  return null;
}

/**
 * A message that asks for a lost value by its kind ("which ticket was it?") holds no value to mark: the line up to its
 * first question mark, cut from the front to the quote width, else its first line.
 */
export function askingLine(items: ReadonlyMap<string, Item>, id: string): EvidenceLine | null {
  const text = readableText(items.get(id));
  if (!text?.trim()) return null;
  const mark = text.indexOf('?');
  if (mark >= 0) {
    const lineStart = text.lastIndexOf('\n', mark) + 1;
    const from = Math.max(lineStart, mark + 1 - QUOTE_WIDTH);
    return { before: (from > lineStart ? '…' : '') + text.slice(from, mark + 1).trimStart(), match: '', after: '' };
  }
  const line = text.split('\n').find((l) => l.trim() !== '')!.trim();
  return { before: line.length > QUOTE_WIDTH ? `${line.slice(0, QUOTE_WIDTH - 1)}…` : line, match: '', after: '' };
}
