import { describe, expect, it } from 'vitest';
import { countWithRedactions, hasRedactionHint, REDACTED_CHARS_PER_TOKEN } from './redaction';

const words = (t: string) => t.split(/\s+/).filter(Boolean).length;

describe('countWithRedactions', () => {
  it('counts a length-hinted placeholder from its hint, the text around it as usual', () => {
    const text = 'system: [REDACTED_TEXT len=13131 sha=f3ffd0ed] and then two words';
    expect(countWithRedactions(text, words)).toBe(1 + Math.ceil(13_131 / REDACTED_CHARS_PER_TOKEN) + 4);
    expect(hasRedactionHint(text)).toBe(true);
  });

  it('leaves texts without a hint to the counter, including redactions that give no length', () => {
    expect(countWithRedactions('plain text here', words)).toBe(3);
    expect(countWithRedactions('[REDACTED_EMAIL_1] wrote', words)).toBe(2);
    expect(hasRedactionHint('[REDACTED_EMAIL_1] wrote')).toBe(false);
  });
});
