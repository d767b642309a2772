// Rules of the invented-instruction list written in session 47 on half A of the judged flags
// (bench/flag-judgements.json; docs/audit.md), each on hand-made summaries and user messages.
import { describe, expect, it } from 'vitest';
import { inventedInstructions } from './invented-instructions';

const flagged = (summary: string, users: string[]) => inventedInstructions(summary, users).map((f) => f.sentence);

// Modelled on Lightprotocol/light-protocol (half A): a queued "no I dont like that we should use contracts" quoted
// back with a full stop inside the closing quote mark.
describe('a quote’s closing punctuation', () => {
  it('is the summarizer’s: the quote is the user’s words without it', () => {
    const users = ['no I dont like that we should use contracts', 'still deploying'];
    expect(flagged('User said "no I dont like that we should use contracts."', users)).toEqual([]);
    expect(flagged('- User messages:\n  - "still deploying?"', users)).toEqual([]);
    expect(flagged('- User messages:\n  - "still deploying!"\n  - "…we should use contracts,"', users)).toEqual([]);
  });
  it('but a word the user did not write is still not theirs', () => {
    const users = ['no I dont like that we should use contracts'];
    expect(flagged('User said "no I dont like that, we should use proofs."', users)).toHaveLength(1);
  });
});
