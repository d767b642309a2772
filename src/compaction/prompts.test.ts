import { describe, expect, it } from 'vitest';
import { DEFAULT_PROMPTS, fillPrompt, ITERATED_BASE_PROMPT, placeholdersOf, SCHEMA_SYSTEM_PROMPT } from './prompts';

describe('fillPrompt', () => {
  it('fills known placeholders in one pass and leaves unknown ones as written', () => {
    expect(fillPrompt('A {slice} B {prior_summary} C {other}', { slice: 'S', prior_summary: 'P' })).toBe('A S B P C {other}');
  });

  it('does not expand a placeholder that arrives inside a value (transcript text cannot inject)', () => {
    expect(fillPrompt('{slice} / {prior_summary}', { slice: 'user said {prior_summary}', prior_summary: 'X' })).toBe('user said {prior_summary} / X');
  });
});

describe('prompts', () => {
  it('lists the placeholders each default prompt uses', () => {
    for (const p of Object.values(DEFAULT_PROMPTS)) expect(placeholdersOf(p.template), p.id).toEqual(p.placeholders);
    expect(placeholdersOf(ITERATED_BASE_PROMPT)).toEqual(['question', 'reasoning']);
  });

  it('asks for the course schema: header, four sections, 200 words, verbatim identifiers, folding', () => {
    expect(SCHEMA_SYSTEM_PROMPT).toContain('## Conversation Summary\n- **Decisions:**');
    for (const s of ['**Entities:**', '**Facts:**', '**Open Items:**', 'At most about 200 words', 'Preserve identifiers verbatim', 'fold it into this one']) expect(SCHEMA_SYSTEM_PROMPT).toContain(s);
  });
});
