// Reads a summary the way the views show it: the course schema as sections, any other style as text.
import { SCHEMA_HEADER } from '../model/markers';
import { SCHEMA_SECTIONS } from '../lints/summary-schema';

export interface SummarySection {
  name: string;
  /** Bullet or paragraph texts under the section, markdown emphasis removed. */
  lines: string[];
}

export type SummaryCard =
  | { style: 'schema'; sections: SummarySection[]; missing: string[] }
  | { style: 'text'; text: string };

const SECTION_LINE = new RegExp(`^\\s*(?:[-*]\\s*)?(?:#{1,4}\\s*)?(?:\\*\\*)?(${SCHEMA_SECTIONS.join('|')})\\s*:?\\s*(?:\\*\\*)?\\s*:?\\s*(.*)$`, 'i');

const clean = (s: string) => s.replace(/\*\*/g, '').replace(/^\s*[-*]\s+/, '').trim();

export function parseSummaryCard(text: string): SummaryCard {
  if (!text.trimStart().startsWith(SCHEMA_HEADER)) return { style: 'text', text };
  const sections: SummarySection[] = [];
  let current: SummarySection | null = null;
  for (const raw of text.trimStart().slice(SCHEMA_HEADER.length).split('\n')) {
    const m = SECTION_LINE.exec(raw);
    if (m) {
      const name = SCHEMA_SECTIONS.find((s) => s.toLowerCase() === m[1]!.toLowerCase())!;
      current = { name, lines: [] };
      sections.push(current);
      const rest = clean(m[2] ?? '');
      if (rest) current.lines.push(rest);
      continue;
    }
    const line = clean(raw);
    if (!line) continue;
    if (!current) {
      current = { name: 'Notes', lines: [] };
      sections.push(current);
    }
    current.lines.push(line);
  }
  const present = new Set(sections.map((s) => s.name));
  return { style: 'schema', sections, missing: SCHEMA_SECTIONS.filter((s) => !present.has(s)) };
}
