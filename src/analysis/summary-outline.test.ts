import { describe, expect, it } from 'vitest';
import { summaryOutline } from './summary-outline';

// Shaped like a Claude Code /compact summary: a preamble, "Analysis:", then "Summary:" with numbered sections.
const CLAUDE_CODE = [
  'This session is being continued from a previous conversation that ran out of context.',
  '',
  'Analysis:',
  'Let me chronologically analyze the conversation:',
  '1. User asked to work on bead `spotter-dov`.',
  '',
  'Summary:',
  '1. Primary Request and Intent:',
  '   The user asked for a shared transcript renderer.',
  '2. Key Technical Concepts:',
  '   - Phoenix LiveView',
  '9. Optional Next Step:',
  '   Run the tests.',
].join('\n');

describe('summaryOutline', () => {
  it('lists the top-level headings of a Claude Code summary, not its numbered prose lines', () => {
    const parts = summaryOutline(CLAUDE_CODE);
    expect(parts.map((p) => p.heading)).toEqual(['', 'Analysis', 'Summary', '1. Primary Request and Intent', '2. Key Technical Concepts', '9. Optional Next Step']);
    expect(parts[1]!.text).toContain('1. User asked to work on bead');
  });

  it('reads back the whole text, in order', () => {
    expect(summaryOutline(CLAUDE_CODE).map((p) => p.text).join('')).toBe(CLAUDE_CODE);
  });

  it('takes markdown headings and bold headings', () => {
    const parts = summaryOutline('## Decisions\nkeep the pool\n**Open Items:**\n- FRE-512');
    expect(parts.map((p) => p.heading)).toEqual(['Decisions', 'Open Items']);
  });

  it('gives one untitled part for text with no heading', () => {
    expect(summaryOutline('just a paragraph\nand another line')).toEqual([{ heading: '', text: 'just a paragraph\nand another line' }]);
  });
});
