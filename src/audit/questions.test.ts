import { describe, expect, it } from 'vitest';
import type { Identifier } from './identifiers';
import { askedAs, asksAgain, asksFor, questions } from './questions';

const id = (kind: Identifier['kind'], value: string) => ({ kind, value, index: 0 }) as Identifier;

describe('questions', () => {
  it('keeps the sentences that end in a question mark', () => {
    expect(questions('Done. Which port again? And the host?\nok')).toEqual([' Which port again?', ' And the host?']);
    expect(questions('no question here')).toEqual([]);
  });
});

describe('asksFor', () => {
  it("reads a question as asking for an identifier's kind, or for a setting by its name", () => {
    expect(asksFor(id('port', '5432'), ['Which port again?'])).toBe(true);
    expect(asksFor(id('path', 'src/a.ts'), ['Which port again?'])).toBe(false);
    expect(asksFor(id('quantity', 'pool_size: 20'), ['What was the pool size?'])).toBe(true);
    expect(asksFor(id('quantity', '30s'), ['What was the timeout?'])).toBe(false);
  });

  it('reads only a question that asks which one it is, not a question about things of that kind', () => {
    expect(asksFor(id('url', 'https://api.example.com/v1/users'), ['Which URL did we call?'])).toBe(true);
    expect(asksFor(id('url', 'https://api.example.com/v1/users'), ['What was the endpoint again?'])).toBe(true);
    expect(asksFor(id('path', 'src/a.ts'), ['Where is that file?'])).toBe(true);
    expect(asksFor(id('ticket', 'FRE-512'), ['And the ticket again?'])).toBe(true);
    expect(asksFor(id('port', '5432'), ['Which host and port was the db on?'])).toBe(true);
    // A count, a yes/no question, a question about the code: the user asks about the work, not for a lost value.
    expect(asksFor(id('url', 'https://api.example.com/v1/users'), ['Look in server/routes and tell me: how many endpoints have some provider_tokens sent from FE?'])).toBe(false);
    expect(asksFor(id('url', 'https://api.example.com/v1/users'), ['In other words, how many endpoints are affected?'])).toBe(false);
    expect(asksFor(id('path', 'src/a.ts'), ['Do the files compile now?'])).toBe(false);
    expect(asksFor(id('function', 'parse()'), ['Can you check the functions for null handling?'])).toBe(false);
  });

  it('counts only questions a user asks', () => {
    expect(asksAgain('user')).toBe(true);
    expect(asksAgain(undefined)).toBe(true);
    expect(asksAgain('assistant')).toBe(false);
  });
});

describe('askedAs', () => {
  it('names identifiers alike when every question asks for both or for neither', () => {
    expect(askedAs(id('port', '5432'))).toBe(askedAs(id('port', '6379')));
    expect(askedAs(id('quantity', 'pool_size: 20'))).toBe('quantity:pool_size');
    expect(askedAs(id('quantity', 'pool_size: 30'))).toBe('quantity:pool_size');
    expect(askedAs(id('quantity', '30s'))).toBeNull();
    expect(askedAs(id('number', '12345'))).toBeNull();
  });
});
