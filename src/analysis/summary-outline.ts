// The outline of a long free-text summary: its top-level headings ("Analysis:", "1. Primary Request and Intent:",
// "## Decisions"), each with the text under it, so a view can fold the summary and list what it holds.

export interface OutlinePart {
  /** The heading as written, markdown emphasis and the trailing colon removed; '' for text before the first heading. */
  heading: string;
  /** The part's text, its heading line included. */
  text: string;
}

/**
 * A heading line: a markdown heading, or an unindented line of a few words that ends with a colon ("Summary:",
 * "2. Key Technical Concepts:"); a sentence that ends with a colon ("Let me analyze the conversation:") is prose.
 */
const HEADING = /^(?:#{1,4}\s+(.{1,80}?)\s*#*|(?:\*\*)?((?:\d{1,2}[.)]\s+)?[A-Z][^\n:]{0,70}?)(?:\*\*)?:(?:\*\*)?)\s*$/;
const MAX_WORDS = 5;

function headingOf(line: string): string | null {
  const m = HEADING.exec(line);
  if (!m) return null;
  const heading = (m[1] ?? m[2] ?? '').replace(/\*\*/g, '').trim();
  const words = heading.replace(/^\d{1,2}[.)]\s+/, '').split(/\s+/).length;
  // Numbered section titles run a little longer than plain ones.
  return m[1] !== undefined || words <= (/^\d/.test(heading) ? MAX_WORDS + 3 : MAX_WORDS) ? heading : null;
}

export function summaryOutline(text: string): OutlinePart[] {
  const parts: OutlinePart[] = [];
  let current: OutlinePart = { heading: '', text: '' };
  for (const line of text.split('\n')) {
    const heading = headingOf(line);
    if (heading !== null) {
      if (current.text.trim() || current.heading) parts.push(current);
      current = { heading, text: `${line}\n` };
    } else current.text += `${line}\n`;
  }
  if (current.text.trim() || current.heading) parts.push(current);
  // The last part kept its final newline from the split; the text reads back as written.
  if (parts.length) parts[parts.length - 1]!.text = parts[parts.length - 1]!.text.replace(/\n$/, '');
  return parts;
}
