// What `inspect --json` says of a compaction's claims about the user the instruction list cannot judge.
import { describe, expect, it } from 'vitest';
import { sessionMetrics } from './session-metrics';
import { boundary, compaction, session, summary, user } from '../test/builders';

const count = (t: string) => Math.ceil(t.length / 4);

describe('sessionMetrics', () => {
  it('carries the claims in another language than the user’s messages as instructionsNotJudged, and none when there are none', () => {
    const audit = (said: string) => {
      const claim = 'The user wanted all acceptance criteria fulfilled and a separate branch created.';
      const s = session([user('u0', said), boundary('b'), summary('sum', claim)], {
        meta: { cwd: '/home/u/app' },
        compactions: [compaction('c', { atItemId: 'b', summaryId: 'sum', replacedIds: ['u0'] })],
      }, 'claude-code');
      return sessionMetrics(s, count, { rule: 'auto' }).audits[0]!;
    };
    const portuguese = audit('Realize a tarefa da issue, com todos os critérios de aceite sendo preenchidos e crie uma branch separada.');
    expect(portuguese.inventedInstructions).toEqual([]);
    expect(portuguese.instructionsNotJudged).toEqual(['The user wanted all acceptance criteria fulfilled and a separate branch created.']);
    const english = audit('please fix the login page on phones and then tell me what else is left to do');
    expect(english.inventedInstructions.map((f) => f.sentence)).toEqual(['The user wanted all acceptance criteria fulfilled and a separate branch created.']);
    expect(english).not.toHaveProperty('instructionsNotJudged');
  });
});
