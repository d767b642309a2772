import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { SessionFacts } from '../analysis/session-facts';
import { AUDIT_HOLDOUT, auditTrustNote } from '../audit/audit-trust';
import { unrecordedRestoreNote } from '../audit/restored-lead';
import { readRulesFile, renderCheckGithub, renderCheckMarkdown, renderCheckText, shortenMiddle, type CheckResult } from './check';
import type { CliIo } from './cli-io';
import { run } from './main';
import { continuedSession } from '../test/continued-session';
import { ASKED, INVENTED_CLAIM, inventedInstructionSession } from '../test/invented-instruction-session';

const FIXTURE = 'src/formats/__fixtures__/claude-code-session.jsonl';
const claude = readFileSync(new URL('../formats/__fixtures__/claude-code-session.jsonl', import.meta.url));
const course = readFileSync(new URL('../formats/__fixtures__/openai-chat-course.json', import.meta.url));

function fakeIo(files: Record<string, Uint8Array | string>) {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = {
    out: (t) => out.push(t),
    err: (t) => err.push(t),
    readFile: (p) => {
      const f = files[p];
      if (f === undefined) throw new Error('ENOENT: no such file');
      return typeof f === 'string' ? new TextEncoder().encode(f) : f;
    },
    listDir: () => [],
    isDir: () => false,
    exists: (p) => p in files,
  };
  return { io, out: () => out.join('\n'), err: () => err.join('\n') };
}

describe('run check', () => {
  it('exits 1 on a lost-and-needed identifier when --max-lost-needed 0 is given, naming the limit', async () => {
    const { io, out } = fakeIo({ [FIXTURE]: claude });
    expect(await run(['check', FIXTURE, '--max-lost-needed', '0'], io)).toBe(1);
    // The microcompaction cleared the config read, but the agent's own message after it still says db-prod-1:5432.
    expect(out()).toContain('FAIL 1 lost-and-needed identifier, more than --max-lost-needed 0');
    expect(out()).toMatch(/^check failed: .*--max-lost-needed 0/m);
  });

  it('lists an instruction the summary gave the user that no user message gave, with the closest one, in every format, and never fails on it', async () => {
    const text = inventedInstructionSession();
    const { io, out } = fakeIo({ 'redirect.jsonl': text });
    expect(await run(['check', 'redirect.jsonl', '--max-invented', '0', '--max-lost-needed', '0'], io)).toBe(0);
    expect(out()).toContain(`  instructions a summary gave the user, which no user message gave: "${INVENTED_CLAIM}"`);
    // The sentence saying how often such flags held comes with it.
    expect(out()).toContain(auditTrustNote());
    // One annotation at the summary's line, the closest user message beside the sentence (`%` escaped as GitHub reads it).
    const gh = fakeIo({ 'redirect.jsonl': text });
    await run(['check', 'redirect.jsonl', '--format', 'github'], gh.io);
    const line = text.split('\n').findIndex((l) => l.includes('"subtype":"compact_boundary"')) + 1;
    expect(gh.out()).toMatch(new RegExp(`^::warning file=redirect\\.jsonl,line=${line},title=instruction invented by a summary::compaction #1's summary says "${INVENTED_CLAIM.replace(/\./g, '\\.')}", which no user message says; closest user message \\(\\d+%25 alike\\): "${ASKED.replace(/\./g, '\\.')}"$`, 'm'));
    const md = fakeIo({ 'redirect.jsonl': text });
    await run(['check', 'redirect.jsonl', '--format', 'markdown'], md.io);
    expect(md.out()).toContain('<details><summary>Instructions a summary gave the user, which no user message gave</summary>');
    expect(md.out()).toContain('The user asked to deploy the fix to production and notify the whole team by email.');
  });

  it('keeps a quoted instruction in one pair of quotes', async () => {
    // Claude Code's summaries list the user's messages as quotes ("All user messages: - \"…\""), as s148 of bench/flag-judgements.json does.
    const quote = '"it also seems like the deploy script is broken? if so can you email the whole team about it?"';
    const { io, out } = fakeIo({ 'quoted.jsonl': inventedInstructionSession(`All user messages:\n   - ${quote}`) });
    await run(['check', 'quoted.jsonl'], io);
    expect(out()).toContain(`which no user message gave: ${quote}\n`);
    expect(out()).not.toContain('""');
  });

  it('says, of a Claude Code that read files again after compacting without recording which, that their values may be listed lost', async () => {
    // The hand-made session is written as Claude Code 2.1.39 writes (src/test/claude-code-records.ts).
    const { io, out } = fakeIo({ 'old.jsonl': inventedInstructionSession() });
    await run(['check', 'old.jsonl'], io);
    expect(out()).toMatch(/^ {2}compaction #1 kept, of what it evicted: .* · files read again unrecorded$/m);
    // Said once for the session, under its compaction lines.
    expect(out().split('\n').filter((l) => l === `  ${unrecordedRestoreNote('2.1.39')}`)).toHaveLength(1);
    const json = fakeIo({ 'old.jsonl': inventedInstructionSession() });
    await run(['inspect', 'old.jsonl', '--json', '--no-cache'], json.io);
    expect(JSON.parse(json.out()).sessions[0].audits[0].restoredUnrecorded).toBe('2.1.39');
  });

  it('says which summary it could not judge for invented values, and passes --max-invented 0 on it only so', async () => {
    const { io, out } = fakeIo({ 'd32a8ce8.jsonl': continuedSession('a790157c-in-the-other-file', 158_881) });
    expect(await run(['check', 'd32a8ce8.jsonl', '--max-invented', '0'], io)).toBe(0);
    expect(out()).toMatch(/compaction #1 kept, of what it evicted: .* · invented not judged: the summarizer read turns this file does not hold/);
    // The same summary over a file that holds what it read: its pricing path is invented, and the gate fails.
    const held = fakeIo({ 'held.jsonl': continuedSession('never-written', 51_600) });
    expect(await run(['check', 'held.jsonl', '--max-invented', '0'], held.io)).toBe(1);
    expect(held.out()).not.toContain('invented not judged');
    expect(held.out()).toContain('src/pages/pricing/PlanTable.tsx');
  });

  it('exits 0 on the same file without limits, and still reports what was lost', async () => {
    const { io, out } = fakeIo({ [FIXTURE]: claude });
    expect(await run(['check', FIXTURE], io)).toBe(0);
    expect(out()).toContain('lost and needed later: FRE-512\n');
    expect(out()).toContain('2 compactions');
    // The masked tool result at call 5 is no break: the provider read all 6,500 tokens the call before left cached.
    // The compaction's miss is the compaction's cost, not "lost to misses".
    expect(out()).toMatch(/cache: reported hit rate \d+\.\d% · 1 break \(1 compaction\) · nothing lost to misses · <\$0\.01 at 1 compaction \(805 tokens processed again; 3,295 cached tokens dropped, not processed again\)/);
    expect(out()).toContain('check passed: 1 session within limits');
  });

  it('reports what was lost and then fetched again, survival by kind, and fails on --max-refetched', async () => {
    // The coding-agent demo: after the fallback, the user asks which version introduced the leak, and the agent
    // runs `git log` again to find v2.14.3, which the fallback had lost.
    const names = ['coding-agent.transcript.json', 'coding-agent.compaction-log.jsonl', 'coding-agent.requests.jsonl'];
    const files = Object.fromEntries(names.map((n) => [n, readFileSync(new URL(`../../public/demos/${n}`, import.meta.url))]));
    const a = fakeIo(files);
    expect(await run(['check', ...names, '--no-cache'], a.io)).toBe(0);
    expect(a.out()).toMatch(/lost, then fetched again: .*v2\.14\.3/);
    expect(a.out()).toMatch(/compaction #\d+ kept, of what it evicted: .*paths \d+\/\d+/);
    const b = fakeIo(files);
    expect(await run(['check', ...names, '--no-cache', '--max-refetched', '0'], b.io)).toBe(1);
    expect(b.out()).toMatch(/FAIL \d+ lost identifiers? fetched again, more than --max-refetched 0/);
    const c = fakeIo(files);
    expect(await run(['check', ...names, '--no-cache', '--max-refetched', 'x'], c.io)).toBe(2);
  });

  it('fails on a lint rule named in --fail-on, and not once a rules file mutes it', async () => {
    const rules = JSON.stringify({ rules: { 'summary-header-missing': { muted: true } } });
    const a = fakeIo({ [FIXTURE]: claude });
    expect(await run(['check', FIXTURE, '--fail-on', 'summary-header-missing'], a.io)).toBe(1);
    expect(a.out()).toContain('(--fail-on summary-header-missing)');
    const b = fakeIo({ [FIXTURE]: claude, 'rules.json': rules });
    expect(await run(['check', FIXTURE, '--fail-on', 'summary-header-missing', '--rules', 'rules.json'], b.io)).toBe(0);
    expect(b.out()).not.toContain('summary-header-missing');
    // The app's own shape, per harness, reads the same.
    const c = fakeIo({ [FIXTURE]: claude, 'rules.json': JSON.stringify({ version: 1, rules: { 'summary-header-missing': { 'claude-code': { muted: true } } } }) });
    expect(await run(['check', FIXTURE, '--fail-on', 'summary-header-missing', '--rules', 'rules.json'], c.io)).toBe(0);
  });

  it('fails on the cache limits only when the session crosses them', async () => {
    const { io, out } = fakeIo({ [FIXTURE]: claude });
    expect(await run(['check', FIXTURE, '--max-cache-breaks', '0', '--max-miss-cost', '0'], io)).toBe(1);
    expect(out()).toContain('FAIL 1 cache break, more than --max-cache-breaks 0');
    // The one break is the compaction's: its cost is not lost to misses, so --max-miss-cost 0 holds.
    expect(out()).not.toContain('--max-miss-cost');
    const ok = fakeIo({ [FIXTURE]: claude });
    expect(await run(['check', FIXTURE, '--max-cache-breaks', '1'], ok.io)).toBe(0);
  });

  it('reports input errors without failing, unless --fail-on input-error', async () => {
    const a = fakeIo({ [FIXTURE]: claude });
    expect(await run(['check', FIXTURE], a.io)).toBe(0);
    expect(a.out()).toContain(`input error: ${FIXTURE} · line 21`);
    const b = fakeIo({ [FIXTURE]: claude });
    expect(await run(['check', FIXTURE, '--fail-on', 'input-error'], b.io)).toBe(1);
  });

  it('writes GitHub annotations pointing at the compaction and the lint lines', async () => {
    const { io, out } = fakeIo({ [FIXTURE]: claude });
    expect(await run(['check', FIXTURE, '--max-lost-needed=0', '--format', 'github'], io)).toBe(1);
    const lines = out().split('\n');
    expect(lines[0]).toBe(`::error file=${FIXTURE},line=18,title=compaction-inspector --max-lost-needed::session 7f3c2a10-5d1e-4c7a-9b21-0c0ffee51200: 1 lost-and-needed identifier, more than --max-lost-needed 0`);
    expect(lines).toContain(`::warning file=${FIXTURE},line=18,title=lost and needed later::compaction #1 lost FRE-512, which a later turn needs`);
    expect(lines.filter((l) => l.startsWith('::warning') && l.includes('title=lint '))).toHaveLength(1);
  });

  it('rejects bad usage with status 2', async () => {
    for (const argv of [['check'], ['check', FIXTURE, '--max-lost-needed', '-1'], ['check', FIXTURE, '--fail-on', 'no-such-rule'], ['check', FIXTURE, '--format', 'html'], ['check', FIXTURE, '--rules', 'missing.json']]) {
      const { io, err } = fakeIo({ [FIXTURE]: claude });
      expect(await run(argv, io)).toBe(2);
      expect(err()).not.toBe('');
    }
  });

  it('passes a session without compactions, with no lost identifiers', async () => {
    const { io, out } = fakeIo({ 'course.json': course });
    expect(await run(['check', 'course.json', '--max-lost-needed', '0', '--max-invented', '0'], io)).toBe(0);
    expect(out()).toContain('0 compactions');
  });
});

describe('readRulesFile', () => {
  it('mutes the rules marked muted and names the field of a bad entry', () => {
    const enc = (v: unknown) => new TextEncoder().encode(JSON.stringify(v));
    expect(readRulesFile('r.json', enc({ rules: { 'causal-order': { muted: true }, 'tool-pair-split': {} } }))).toMatchObject({ rules: { version: 1, rules: { 'causal-order': { '*': { muted: true } } } } });
    expect(readRulesFile('r.json', enc({ rules: { nope: {} } }))).toEqual({ error: expect.stringContaining('r.json: field rules.nope: unknown rule') });
    expect(readRulesFile('r.json', enc({ rules: { 'causal-order': { muted: 'yes' } } }))).toEqual({ error: 'r.json: field rules.causal-order.muted: expected true or false' });
    expect(readRulesFile('r.json', enc([]))).toEqual({ error: 'r.json: field rules: expected an object of rule names' });
  });
});

const facts = (over: Partial<SessionFacts> = {}): SessionFacts => ({
  calls: 4,
  items: 10,
  toolCalls: 2,
  compactions: { recorded: 1, inferred: 0, total: 1 },
  peakContextTokens: 1000,
  peakCall: 3,
  peakSource: 'reported',
  peakUncertainty: 0,
  totalInputTokens: 3000,
  reportedInputTokens: 3000,
  reportedCalls: 4,
  tokenizer: { encoding: 'o200k_base', scale: 1, perItem: 0, prefixTokens: 0, estimated: false, uncertainty: 0, fitSpread: 0.02 },
  outputTokens: 400,
  reportedOutputTokens: 400,
  reportedOutputCalls: 4,
  models: [{ model: 'claude-opus-4-6', calls: 4 }],
  totals: null,
  cache: { hitRate: 0.75, breaks: 1, reportedMisses: 1, predictedBreaks: 1, agreement: { compared: 3, agree: 3 }, diagnostics: { compared: 0, agree: 0 }, missCostUsd: 0.42, missTokens: 900, compactionMiss: { calls: 0, tokens: 0, costUsd: null, droppedTokens: 0 }, shortfalls: { calls: 0, tokens: 0, costUsd: null }, notCached: 0, byCause: { compaction: 1 }, unrecordedNotRead: { calls: 0, tokens: 0 } },
  offBranch: null,
  cost: { usd: null, calls: { responses: 4, priced: 0, usd: null }, offBranch: null, sidechains: null, unpriced: 4 },
  ...over,
});

const result: CheckResult = {
  sessions: [
    {
      id: 's-1',
      format: 'claude-code',
      files: ['runs/a.jsonl'],
      facts: facts(),
      findings: [
        { kind: 'lost-needed', what: 'db|prod`1', message: 'compaction #1 lost db|prod`1, which a later turn needs', at: { file: 'runs/a.jsonl', line: 7 } },
        { kind: 'lint', what: 'causal-order', message: 'user message placed after\nthe tool call, 50% sure', at: { file: 'runs/a,b.jsonl', line: 3 } },
      ],
      crossed: [{ flag: '--max-lost-needed', value: 1, limit: 0, message: '1 lost-and-needed identifier, more than --max-lost-needed 0', at: { file: 'runs/a.jsonl', line: 7 } }],
      survival: [],
    },
  ],
  errors: [],
  errorsFail: false,
};

describe('renderCheckGithub', () => {
  it('writes one error per crossed limit, one warning per finding, escaped as workflow commands require', () => {
    expect(renderCheckGithub(result)).toBe(
      [
        '::error file=runs/a.jsonl,line=7,title=compaction-inspector --max-lost-needed::session s-1: 1 lost-and-needed identifier, more than --max-lost-needed 0',
        '::warning file=runs/a.jsonl,line=7,title=lost and needed later::compaction #1 lost db|prod`1, which a later turn needs',
        '::warning file=runs/a%2Cb.jsonl,line=3,title=lint causal-order::user message placed after%0Athe tool call, 50%25 sure',
        'check failed: s-1: 1 lost-and-needed identifier, more than --max-lost-needed 0',
      ].join('\n'),
    );
  });
});

describe('renderCheckGithub past 10 annotations a file', () => {
  it('annotates the first 10 of each file, errors first, and counts the rest by kind on one plain line', () => {
    const lint = (i: number, file = 'runs/big.jsonl') => ({ kind: 'lint' as const, what: i % 2 ? 'causal-order' : 'tool-pair-split', message: `finding ${i}`, at: { file, line: i } });
    const lost = { kind: 'lost-needed' as const, what: 'b7636e2', message: 'lost b7636e2', at: { file: 'runs/big.jsonl', line: 40 } };
    const many: CheckResult = {
      ...result,
      sessions: [
        {
          ...result.sessions[0]!,
          findings: [...Array.from({ length: 13 }, (_, i) => lint(i + 1)), lost, lint(1, 'runs/small.jsonl')],
          crossed: [{ ...result.sessions[0]!.crossed[0]!, at: { file: 'runs/big.jsonl', line: 40 } }],
        },
      ],
    };
    const lines = renderCheckGithub(many).split('\n');
    const annotated = (file: string) => lines.filter((l) => l.startsWith('::') && l.includes(`file=${file},`));
    expect(annotated('runs/big.jsonl')).toHaveLength(10);
    expect(annotated('runs/big.jsonl')[0]).toMatch(/^::error .*--max-lost-needed/);
    expect(annotated('runs/small.jsonl')).toHaveLength(1);
    // 15 findings and 1 error on big.jsonl: the error and 9 findings annotated, 5 counted (the last 4 lints, the lost id).
    expect(lines.at(-2)).toBe('runs/big.jsonl: 5 more findings not annotated (GitHub shows about 10 per step): 2 lint tool-pair-split, 2 lint causal-order, 1 lost and needed later');
    expect(lines.at(-1)).toMatch(/^check failed: /);
  });

  it('writes the count line as a log line, never as a workflow command', () => {
    const evil = { kind: 'lint' as const, what: 'causal-order', message: 'x', at: { file: '::error::pwned', line: 1 } };
    const r: CheckResult = { ...result, sessions: [{ ...result.sessions[0]!, crossed: [], findings: Array.from({ length: 12 }, () => evil) }] };
    const line = renderCheckGithub(r).split('\n').at(-2)!;
    expect(line).toBe(': :error::pwned: 2 more findings not annotated (GitHub shows about 10 per step): 2 lint causal-order');
  });
});

describe('shortenMiddle', () => {
  it('keeps a long path\'s start and its file name, with an ellipsis between', () => {
    const long = `/home/runner/work/app/app/.claude/projects/-home-runner-work-app/${'deep/'.repeat(12)}5e1f0c2a-7d4b-4a39.jsonl:1204`;
    const short = shortenMiddle(long);
    expect([...short]).toHaveLength(80);
    expect(short.startsWith('/home/runner/work/app/')).toBe(true);
    expect(short.endsWith('…/5e1f0c2a-7d4b-4a39.jsonl:1204')).toBe(true);
    expect(shortenMiddle('runs/a.jsonl:3')).toBe('runs/a.jsonl:3');
    // Without a separator, or with a name too long to keep whole, both ends stay.
    const id = 'x'.repeat(50) + 'y'.repeat(50);
    expect(shortenMiddle(id)).toBe(`${'x'.repeat(40)}…${'y'.repeat(39)}`);
  });

  it('shortens the markdown comment\'s long paths in the middle', () => {
    const file = `runs/${'nested-folder/'.repeat(8)}session-with-a-long-name.jsonl`;
    const r: CheckResult = { ...result, sessions: [{ ...result.sessions[0]!, findings: [{ kind: 'lint', what: 'causal-order', message: 'm', at: { file, line: 9 } }] }] };
    const line = renderCheckMarkdown(r).split('\n').find((l) => l.startsWith('- `causal-order`'))!;
    expect(line).toMatch(/^- `causal-order` at `runs\/nested-folder\/[^`]*…\/session-with-a-long-name\.jsonl:9`: m$/);
  });
});

describe('renderCheckMarkdown', () => {
  it('writes a PR-comment summary: verdict, one table row per session, limits crossed, details, transcript text kept in code spans', () => {
    expect(renderCheckMarkdown(result)).toBe(
      [
        '### Compaction Inspector check: ❌ failed',
        '',
        '| Session | Calls | Compactions | Cache hit rate | Breaks | Lost to misses | Lost & needed | Re-fetched | Lints |',
        '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
        '| `s-1` (claude-code) | 4 | 1 | 75.0% | 1 | $0.42 | 1 | 0 | 1 |',
        '',
        '**Limits crossed**',
        '',
        '- **--max-lost-needed** · `s-1`: 1 lost-and-needed identifier, more than --max-lost-needed 0',
        '',
        '<details><summary>Lost and needed later</summary>',
        '',
        '- `s-1`: `db prod 1`',
        '',
        '</details>',
        '',
        `_${auditTrustNote()}_`,
        '',
        '<details><summary>Lints</summary>',
        '',
        '- `causal-order` at `runs/a,b.jsonl:3`: user message placed after the tool call, 50% sure',
        '',
        '</details>',
      ].join('\n'),
    );
  });

  it('says how far the audit\'s lists hold on unseen sessions when it lists any, and not for lints alone', () => {
    expect(auditTrustNote()).toMatch(/^The summary audit, measured on \d+ sessions of \d+ projects no rule was written looking at: of the identifiers it listed as lost, then fetched again, \d+% were needed \(\d+ of \d+\); of those it listed as needed later without a fetch, \d+% \(\d+ of \d+\), the agent often having the rest from context the file does not record; \d+ of \d+ it listed as invented were; of the invented instructions it listed on \d+ other sessions, judged one by one, \d+ of \d+ were\./);
    expect(renderCheckText(result)).toContain(auditTrustNote());
    const lintsOnly = { ...result, sessions: [{ ...result.sessions[0]!, findings: result.sessions[0]!.findings.filter((f) => f.kind === 'lint') }] };
    expect(renderCheckText(lintsOnly)).not.toContain(auditTrustNote());
    expect(renderCheckMarkdown(lintsOnly)).not.toContain(auditTrustNote());
  });

  it('states the figures measured with instruction files read when the audit read them', () => {
    const h = AUDIT_HOLDOUT.withInstructions;
    const note = auditTrustNote({ instructions: true });
    expect(note).toContain("each read with its project's CLAUDE.md as this one was");
    expect(note).toContain(`(${h.refetchedRight} of ${h.refetchedFlags})`);
    expect(note).toContain(`(${h.referencedRight} of ${h.referencedFlags})`);
    expect(note).toContain(`${h.inventedRight} of ${h.inventedFlags} it listed as invented`);
    const read = { ...result, instructionFiles: [{ path: 'CLAUDE.md', bytes: 120 }] };
    expect(renderCheckText(read)).toContain(note);
    expect(renderCheckText(read)).not.toContain(auditTrustNote());
    expect(renderCheckMarkdown(read)).toContain(`_${note}_`);
  });

  it('says passed when nothing crossed a limit', () => {
    const ok = { ...result, sessions: [{ ...result.sessions[0]!, crossed: [], findings: [] }] };
    expect(renderCheckMarkdown(ok).split('\n')[0]).toBe('### Compaction Inspector check: ✅ passed');
    expect(renderCheckText(ok)).toContain('check passed: 1 session within limits');
  });
});
