import { describe, expect, it } from 'vitest';
import { survivalOf } from './survival';

const summary = '## Summary\n- The user asked to add a login page with OAuth support and tests, then to open a pull request for review.';

describe('survival of the user\'s instructions', () => {
  it('counts a message the summary restates as kept, and one it drops as lost', () => {
    const s = survivalOf([], [], {}, summary, [], ['Add a login page with OAuth support and tests please', 'Bump the version of the docs site']);
    expect(s.instructions).toEqual({ evicted: 2, kept: 1 });
  });

  it('leaves out of both counts a message in another language than the summary: no word-by-word reading can tell', () => {
    const portuguese = 'Adicione uma página de login com suporte a OAuth e testes, depois abra um pull request para revisão.';
    const s = survivalOf([], [], {}, summary, [], [portuguese, 'Add a login page with OAuth support and tests please']);
    expect(s.instructions).toEqual({ evicted: 1, kept: 1, notJudged: 1 });
  });

  it('still judges a message too short to tell its language by', () => {
    const s = survivalOf([], [], {}, summary, [], ['faça o deploy']);
    expect(s.instructions).toEqual({ evicted: 1, kept: 0 });
  });
});
