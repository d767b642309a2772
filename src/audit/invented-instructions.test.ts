// Rules of the invented-instruction list written in session 47 on half A of the judged flags
// (bench/flag-judgements.json; docs/audit.md), each on hand-made summaries and user messages.
import { describe, expect, it } from 'vitest';
import { inventedInstructions, judgeUserClaims } from './invented-instructions';

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

// Modelled on Viniciuscarvalho/FitToday (half A): the user writes Portuguese, the summary retells the request in
// English; no word of the claim can stand in the message, so the list says it cannot judge the claim.
describe('a claim in another language than the user’s messages', () => {
  const portuguese = 'Realize a tarefa da issue, com todos os critérios de aceite sendo preenchidos, testes validados, e crie uma branch separada após a finalização.';
  it('is not judged, and said so, rather than flagged', () => {
    const verdicts = judgeUserClaims('The user wanted all acceptance criteria fulfilled, tests validated, and a separate branch created.', [portuguese, 'claude --permission-mode plan']);
    expect(verdicts.invented).toEqual([]);
    expect(verdicts.notJudged).toEqual(['The user wanted all acceptance criteria fulfilled, tests validated, and a separate branch created.']);
  });
  it('a quote is still checked: it claims the user’s own words', () => {
    expect(flagged('The user said "just proceed with the implementation and skip the tests".', [portuguese])).toHaveLength(1);
  });
  // Modelled on yutakobayashidev/dotnix (session 51, half A): the user writes Japanese and pastes English CI logs.
  it('is not judged when most of the user’s messages are in another language, whatever logs they paste', () => {
    const japanese = ['READMEも更新して、unstableのことも書いておいて', 'どれがおすすめ？理由も教えて', 'バージョンを下げて置きたい、workflowの動作を確認しておきたいので'];
    const log = 'Prepare all required actions Getting action download info Download action repository for the workflow and run it now';
    const verdicts = judgeUserClaims('User wanted to pin to old versions to test the workflow.', [...japanese, log]);
    expect(verdicts.invented).toEqual([]);
    expect(verdicts.notJudged).toHaveLength(1);
  });
  // Modelled on yutakobayashidev/dotnix (session 51, half A): the summary quotes the user with the package list elided.
  it('a quote that elides a value after its name (`PACKAGES=...`) is held when each part is', () => {
    const said = 'PACKAGES="claude-code ccusage codex opencode" これは今の自分の環境に合わせたい';
    expect(judgeUserClaims('User said: "PACKAGES=... これは今の自分の環境に合わせたい"', [said]).invented).toEqual([]);
    expect(judgeUserClaims('User said: "VERSIONS=... これは今の自分の環境に合わせたい"', [said]).invented).toHaveLength(1);
  });
  // Modelled on zodiacid/zodiacid.com and yutakobayashidev/dotnix (session 51, half A): the summary's own guesses.
  it('a guess at the user’s wish, or the user addressed, claims no words of the user’s', () => {
    const said = ['please write the positioning section like an astrologist would'];
    for (const claim of ['The user may want to manually update strategy-substack.md with the new decisions.', 'The user might ask to revert the nvfetcher approach.', 'So I should inform the user about what needs manual updating.']) {
      expect(judgeUserClaims(claim, said).invented, claim).toEqual([]);
    }
    expect(judgeUserClaims('The user wants strategy-substack.md updated by hand.', said).invented).toHaveLength(1);
  });
  it('a claim in the language of one of the messages is judged', () => {
    const english = 'please make the feed load faster and keep the likes working when offline';
    const verdicts = judgeUserClaims('The user wanted a separate branch created for the release.', [portuguese, english]);
    expect(verdicts.invented.map((f) => f.sentence)).toEqual(['The user wanted a separate branch created for the release.']);
    expect(verdicts.notJudged).toEqual([]);
  });
});


// Modelled on Viniciuscarvalho/FitToday (half A): under "All user messages" the summary lists the harness's replies to
// its own tool loading ("Tool loaded."), saying so.
describe('a line of the user’s messages that says its quote is a tool’s or the system’s output', () => {
  it('quotes no words of the user’s', () => {
    const users = ['build the social feed'];
    expect(flagged('6. All user messages:\n   - "build the social feed"\n   - Multiple "Tool loaded." responses to deferred tool loading', users)).toEqual([]);
    expect(flagged('All user messages:\n- "Hook blocked the commit" (hook output, not a request)\n- Two "ok" system reminders', users)).toEqual([]);
  });
  it('a line that gives the quote to the user, or names no other source, is still judged', () => {
    const users = ['build the social feed'];
    expect(flagged('All user messages:\n- "skip the tool tests" - the user’s reply to the tool results', users)).toHaveLength(1);
    expect(flagged('All user messages:\n- "skip the tool tests" - asked about tool errors', users)).toHaveLength(1);
  });
});

// Modelled on Eduardodmb/ClaudeWork (half A of bench/flag-judgements.json, s92–s93, session 52): the summary quotes the
// user's requests with their typos fixed ("isntead teh" → "instead the") and their names written with underscores.
describe('a quote with the user’s typos corrected', () => {
  const users = [
    'in X:\\addons\\hr_recruit\\views\\applicant_views.xml isntead teh page recruitment_checklist, add the list without tabs before the notebook',
    'oh! it is because project_header_row is now in line 1 isntead 4',
  ];
  it('is still the user’s, long or short, names with underscores read as the message reads them', () => {
    expect(flagged('## User messages\n- "in X:\\addons\\hr_recruit\\views\\applicant_views.xml instead the page recruitment_checklist, add the list without tabs before the notebook"', users)).toEqual([]);
    expect(flagged('## User messages\n- "oh! it is because project_header_row is now in line 1 instead 4"', users)).toEqual([]);
  });
  // Modelled on wfc (s78) and yakschuss/dotfiles (s104), half A, session 52: a short quote with its typo or a stray space
  // before a comma corrected.
  it('so is a short one, with a word of four letters mistyped or a space before a comma dropped', () => {
    const more = ['memory manager neexs to be split up!', 'I thnk #3 is the most sensible, right?', 'do A , a reminder to the user'];
    expect(flagged('## User messages\n- "memory manager needs to be split up!"\n- "I think #3 is the most sensible, right?"\n- "do A, a reminder to the user"', more)).toEqual([]);
    expect(flagged('## User messages\n- "memory manager needs to be merged!"', more)).toHaveLength(1);
  });
  // Modelled on JamesTiberiusKirk/dotsv2 (half A, s126–s127, session 52): short quotes with one typo fixed.
  it('so is a short quote within an edit a dozen letters of what the user wrote', () => {
    const more = ['how do i run teh test?', 'are you stipid?', 'ship it on monday'];
    expect(flagged('## User messages\n- "how do i run the test?"\n- "are you stupid?"', more)).toEqual([]);
    expect(flagged('## User messages\n- "ship it on friday"', more)).toHaveLength(1);
  });
  it('but a name the user did not write is not a typo', () => {
    expect(flagged('## User messages\n- "in X:\\docs\\odoo_docs\\views\\applicant_views.xml instead the page recruitment_checklist, add the list without tabs before the notebook"', users)).toHaveLength(1);
  });
});

// Modelled on Claude Code summaries' "Errors and fixes" section (wfc s79 and others, half A of
// bench/flag-judgements.json, session 52): a "User feedback:" field under an error, with its value on its own line.
describe('a user-feedback field that gives its value inline', () => {
  it('introduces no quotes of the user: the lines below it are the summarizer’s notes', () => {
    const summary = '4. Errors and fixes:\n   - Pre-commit hook failed\n     - User feedback: None, automated hook\n     - detect-secrets flagged false positives (test fixtures with "password", hashes)';
    expect(flagged(summary, ['commit the fix'])).toEqual([]);
  });
  it('a heading of the user’s messages still does', () => {
    expect(flagged('6. All user messages:\n   - "ship it on friday"', ['commit the fix'])).toHaveLength(1);
  });
});

// Session 64, on half A of the judged flags: s140 (a French request quoted after a parenthesis describing the
// screenshot), s80 (a queued `/passes` with the summarizer's guess at its meaning), s127 and s154 (what the user's
// screenshot showed, retold).
describe('a parenthesis beside the user’s quoted words', () => {
  it('is the summarizer’s aside: only the quote outside it is checked', () => {
    const users = ["supprime le texte sur l'image ci-joint"];
    expect(flagged('## All user messages:\n- (Screenshot of "Nouvel Audit" header) "supprime le texte sur l\'image ci-joint"', users)).toEqual([]);
    expect(flagged('## All user messages:\n- (Screenshot of "Nouvel Audit" header) "supprime tout le texte"', users)).toHaveLength(1);
  });
  it('quotes no words of the user’s when it guesses', () => {
    expect(flagged('## All user messages:\n- `/passes` (sent mid-implementation; meaning unclear — possibly "let it proceed")', ['/passes'])).toEqual([]);
  });
  it('alone, and stating, is still the claim', () => {
    expect(flagged('## All user messages:\n- (User exited plan mode - implicit "just proceed with implementation")', ['fix the login page'])).toHaveLength(1);
  });
  it('inside the quote is the user’s own', () => {
    expect(flagged('## All user messages:\n- "show it on the dashboard (superuser) only"', ['show it on the dashboard (superuser) only'])).toEqual([]);
  });
});

describe('a claim about an image the user sent', () => {
  const claim = 'User shared a screenshot showing the mutex with References: 65536.';
  it('is not judged: no word of the user’s holds what the image shows', () => {
    const v = judgeUserClaims(claim, ['[image]', 'i checked and the mutant still spawn, what is your solution']);
    expect(v.invented).toEqual([]);
    expect(v.notJudged).toEqual([claim]);
    expect(judgeUserClaims(claim, ['[Image #2] the mutant still spawns']).invented).toEqual([]);
  });
  it('is judged when the user sent no image', () => {
    expect(flagged(claim, ['i checked and the mutant still spawn, what is your solution'])).toHaveLength(1);
  });
});
