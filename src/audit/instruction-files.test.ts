import { describe, expect, it } from 'vitest';
import { emptySession } from '../formats/adapter';
import type { InstructionFile, Item, Session } from '../model/types';
import { auditInputFor, auditSession } from './audit-session';
import { auditSummary } from './audit-summary';
import { instructionContext, instructionUnits } from './instruction-files';

const item = (id: string, role: Item['role'], kind: Item['kind'], text: string, extra: Partial<Item> = {}): Item => ({ id, role, kind, text, source: { file: 's.jsonl', line: null }, ...extra });

// A hand-made session: the agent reads the deploy script, a summary replaces that, then the agent runs the script
// by its path (a later use of a lost path). The summary also names a staging host no evicted item holds, and says
// what the user wants about commits, which no user message says.
const SUMMARY = 'Summary: the deploy fails on staging.internal.example:8443. The user wants every commit signed off with a DCO line.';
function deploySession(files?: InstructionFile[]): Session {
  const s = emptySession('claude-code', 's.jsonl', 'deploy');
  s.meta['cwd'] = '/home/dev/shop';
  s.items = [
    item('u1', 'user', 'message', 'The deploy fails. Look at the deploy script and fix it.'),
    item('a1', 'assistant', 'tool_call', '{"file_path":"/home/dev/shop/scripts/deploy-shop.sh"}', { name: 'Read', pairId: 'r1' }),
    item('r1', 'tool', 'tool_result', '#!/bin/sh\nset -e\nrsync -a dist/ deploy@shop:/srv/shop', { name: 'Read', pairId: 'a1' }),
    item('sum', 'user', 'summary', SUMMARY),
    item('a2', 'assistant', 'tool_call', '{"command":"sh scripts/deploy-shop.sh --dry-run"}', { name: 'Bash', pairId: 'r2' }),
    item('r2', 'tool', 'tool_result', 'ok', { name: 'Bash', pairId: 'a2' }),
  ];
  s.compactions = [
    { id: 'c0', index: 0, kind: 'summary', trigger: 'auto', tokensBefore: null, tokensAfter: null, replacedIds: ['u1', 'a1', 'r1'], keptIds: [], summaryId: 'sum', atItemId: 'sum', source: { file: 's.jsonl', line: null } },
  ];
  if (files) s.instructionFiles = files;
  return s;
}

const CLAUDE_MD: InstructionFile = {
  path: '/home/dev/shop/CLAUDE.md',
  text: [
    '# Shop',
    '',
    '## Deploying',
    '- Deploy with `scripts/deploy-shop.sh`; staging is staging.internal.example:8443.',
    '',
    '## Commits',
    '- Sign off every commit with a DCO line (`git commit -s`).',
  ].join('\n'),
};

const lostValues = (a: { lost: string[] }) => a.lost;
const neededValues = (a: { lostReferencedLater: { value: string }[]; lostRefetchedLater: { value: string }[] }) => [...a.lostReferencedLater, ...a.lostRefetchedLater].map((r) => r.value);

describe('auditSession with instruction files', () => {
  it('lists a lost path used later, an invented host and an invented instruction without the CLAUDE.md', () => {
    const [a] = auditSession(deploySession());
    expect(neededValues(a!)).toContain('/home/dev/shop/scripts/deploy-shop.sh');
    expect(a!.invented).toContain('staging.internal.example:8443');
    expect(a!.inventedInstructions.map((i) => i.sentence).join(' ')).toMatch(/signed off/);
  });

  it('lists none of them with the CLAUDE.md that holds them: it was in every request', () => {
    const [a] = auditSession(deploySession([CLAUDE_MD]));
    expect(lostValues(a!)).not.toContain('/home/dev/shop/scripts/deploy-shop.sh');
    expect(neededValues(a!)).not.toContain('/home/dev/shop/scripts/deploy-shop.sh');
    expect(a!.invented).not.toContain('staging.internal.example:8443');
    expect(a!.inventedInstructions).toEqual([]);
  });

  it('still lists what the file does not hold', () => {
    const other: InstructionFile = { path: 'CLAUDE.md', text: '# Shop\n- Use pnpm, never npm.' };
    const [a] = auditSession(deploySession([other]));
    expect(neededValues(a!)).toContain('/home/dev/shop/scripts/deploy-shop.sh');
    expect(a!.invented).toContain('staging.internal.example:8443');
    expect(a!.inventedInstructions).toHaveLength(1);
  });

  it('gives the same audit with an empty list of files as without one', () => {
    expect(auditSession(deploySession([]))).toEqual(auditSession(deploySession()));
  });
});

describe('auditSummary with instruction files', () => {
  it('reads the files as auditSession does, from auditInputFor', () => {
    for (const files of [undefined, [CLAUDE_MD]]) {
      const s = deploySession(files);
      const input = auditInputFor(s, s.compactions[0]!)!;
      expect(input.instructionFiles).toEqual(files);
      const a = auditSummary(input);
      const [b] = auditSession(s);
      expect({ lost: a.lost, invented: a.invented, claims: a.inventedInstructions.length }).toEqual({ lost: b!.lost, invented: b!.invented, claims: b!.inventedInstructions.length });
    }
  });

  it('does not count a value a file holds as lost in a slice audit', () => {
    const input = { summary: 'Fixed the build.', sources: ['The queue listens on amqp-broker.internal:5671.'], later: [] };
    expect(auditSummary(input).lost).toContain('amqp-broker.internal:5671');
    expect(auditSummary({ ...input, instructionFiles: [{ path: 'AGENTS.md', text: 'The broker is amqp-broker.internal:5671.' }] }).lost).not.toContain('amqp-broker.internal:5671');
  });
});

describe('instructionContext', () => {
  it('is null without files, or with only empty ones', () => {
    expect(instructionContext(undefined, null)).toBeNull();
    expect(instructionContext([{ path: 'CLAUDE.md', text: '  \n' }], null)).toBeNull();
  });
});

describe('instructionUnits', () => {
  it('reads each paragraph and list item as one instruction, under its heading', () => {
    expect(instructionUnits('# Rules\nIntro line one\nand two.\n\n- Use pnpm.\n- Never push to main,\n  open a PR.\n## Tests\nRun vitest.')).toEqual([
      'Rules: Intro line one\nand two.',
      'Rules: - Use pnpm.',
      'Rules: - Never push to main,\nopen a PR.',
      'Tests: Run vitest.',
    ]);
  });
});
