import { describe, expect, it } from 'vitest';
import { emptySession } from '../formats/adapter';
import { loadText } from '../load/loader';
import type { InstructionFile, Item, Session } from '../model/types';
import { auditInputFor, auditSession } from './audit-session';
import { auditSummary } from './audit-summary';
import { instructionContext, instructionUnits } from './instruction-files';

const item = (id: string, role: Item['role'], kind: Item['kind'], text: string, extra: Partial<Item> = {}): Item => ({ id, role, kind, text, source: { file: 's.jsonl', line: null }, ...extra });

// A hand-made session: the agent reads the deploy script, a summary replaces that, then the agent runs the script
// by its path (a later use of a lost path). The summary also names a staging host no evicted item holds, and says
// what the user wants about commits, which no user message says.
const SUMMARY = 'Summary: the deploy fails on staging.internal.example:8443. The user wants every commit signed off with a DCO line. Always run the dry run before a deploy.';
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
    '- Always run the dry run before a deploy.',
  ].join('\n'),
};

const lostValues = (a: { lost: string[] }) => a.lost;
const neededValues = (a: { lostReferencedLater: { value: string }[]; lostRefetchedLater: { value: string }[] }) => [...a.lostReferencedLater, ...a.lostRefetchedLater].map((r) => r.value);

describe('auditSession with instruction files', () => {
  it('lists a lost path used later, an invented host, an invented instruction and an instruction-like sentence without the CLAUDE.md', () => {
    const [a] = auditSession(deploySession());
    expect(neededValues(a!)).toContain('/home/dev/shop/scripts/deploy-shop.sh');
    expect(a!.invented).toContain('staging.internal.example:8443');
    expect(a!.inventedInstructions.map((i) => i.sentence).join(' ')).toMatch(/signed off/);
    expect(a!.instructionLike).toEqual(['Always run the dry run before a deploy.']);
  });

  it('lists none of them with the CLAUDE.md that holds them: it was in every request', () => {
    const [a] = auditSession(deploySession([CLAUDE_MD]));
    expect(lostValues(a!)).not.toContain('/home/dev/shop/scripts/deploy-shop.sh');
    expect(neededValues(a!)).not.toContain('/home/dev/shop/scripts/deploy-shop.sh');
    expect(a!.invented).not.toContain('staging.internal.example:8443');
    expect(a!.inventedInstructions).toEqual([]);
    expect(a!.instructionLike).toEqual([]);
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
      const read = (x: typeof a) => ({ lost: x.lost, invented: x.invented, claims: x.inventedInstructions.length, instructionLike: x.instructionLike });
      expect(read(a)).toEqual(read(b!));
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

  it('holds and backs the path of a file it was given, whole or from a folder above it, as Claude Code names it', () => {
    const ctx = instructionContext([{ path: '/home/dev/shop/.claude/rules/deploy.md', text: 'Deploy on Fridays only.' }], '/home/dev/shop')!;
    const path = (value: string) => ({ value, kind: 'path' as const, index: 0 });
    for (const v of ['.claude/rules/deploy.md', '/home/dev/shop/.claude/rules/deploy.md', 'rules/deploy.md']) {
      expect(ctx.holds(path(v)), v).toBe(true);
      expect(ctx.backs(path(v)), v).toBe(true);
    }
    expect(ctx.backs(path('.claude/rules/release.md'))).toBe(false);
    expect(ctx.holds(path('ules/deploy.md'))).toBe(false);
  });

  it('holds a lost path only when a file names it whole, as written, from the working directory or absolute', () => {
    const md = ['- Skills live in `skills/` and commands in `commands/`.', '- Game modules: `src/gravity.js`.', '- Strategy: cmd/cli/strategy/manual_commit.go', '- Ship from /home/dev/shop/deploy/.'].join('\n');
    const ctx = instructionContext([{ path: 'CLAUDE.md', text: md }], '/home/dev/shop')!;
    const held = (v: string) => ctx.holds({ value: v, kind: 'path', index: 0 });
    // The file's `skills/` is another folder than the user's ~/.claude/skills/, or a skill's folder under it.
    expect(held('~/.claude/skills/')).toBe(false);
    expect(held('skills/diagnose/')).toBe(false);
    expect(held('skills/')).toBe(true);
    // Relative or absolute under the working directory, the same file; under another folder, another.
    expect(held('/home/dev/shop/src/gravity.js')).toBe(true);
    expect(held('src/gravity.js')).toBe(true);
    expect(held('web/src/gravity.js')).toBe(false);
    // A bare name the file states with its folder is that file; a folder is not named by a file under it.
    expect(held('manual_commit.go')).toBe(true);
    expect(held('cmd/cli/strategy/')).toBe(false);
    expect(held('deploy')).toBe(true);
    expect(held('/home/dev/shop/deploy/')).toBe(true);
    // A tree the file draws, or a file it lists under its folder, names those paths whole.
    const shaped = instructionContext([{ path: 'CLAUDE.md', text: ['├── wfc/', '│   ├── reviewers/', '### Strategy (`cmd/cli/strategy/`)', '- `auto_commit.go` - commits'].join('\n') }], '/home/dev/shop')!;
    for (const v of ['wfc/reviewers/', '/home/dev/shop/wfc/reviewers', 'cmd/cli/strategy/auto_commit.go']) expect(shaped.holds({ value: v, kind: 'path', index: 0 }), v).toBe(true);
    expect(shaped.holds({ value: 'web/wfc/reviewers/', kind: 'path', index: 0 })).toBe(false);
    // One name without an extension is a word unless a slash marks it a folder: "Shop is a store" names no folder.
    const app = instructionContext([{ path: 'CLAUDE.md', text: 'Shop is a store front. Ship from `deploy/`.' }], '/home/dev')!;
    expect(app.holds({ value: '/home/dev/Shop', kind: 'path', index: 0 })).toBe(false);
    expect(app.holds({ value: '/home/dev/deploy/', kind: 'path', index: 0 })).toBe(true);
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

// Claude Code records a CLAUDE.md of a folder the agent reached, or a rule file whose `paths:` match a file it touched,
// as a `nested_memory` attachment (claude-code-attachments.ts). Hand-made, modelled on the rule records of Claude Code
// 2.1.215 sessions in JanDeDobbeleer/oh-my-posh (Entire checkpoints, `.claude/rules/markdown.md`): the text sent is
// `content.content`, the file without its front matter (`rawContent`).
const base = { isSidechain: false, userType: 'external', cwd: '/home/dev/site', sessionId: 'f1e2d3c4-0000-4000-8000-000000000001', version: '2.1.215', gitBranch: 'main' };
const RULE = {
  ...base,
  parentUuid: 'u-3',
  type: 'attachment',
  uuid: 'at-4',
  timestamp: '2026-07-22T07:04:00.000Z',
  attachment: {
    type: 'nested_memory',
    path: '/home/dev/site/.claude/rules/markdown.md',
    displayPath: '.claude/rules/markdown.md',
    content: {
      path: '/home/dev/site/.claude/rules/markdown.md',
      type: 'Project',
      content: 'Wrap every Markdown line at 120 characters and never leave a bare URL.\n',
      globs: ['**/*.md'],
      contentDiffersFromDisk: true,
      rawContent: '---\npaths:\n  - "**/*.md"\n---\n\nWrap every Markdown line at 120 characters and never leave a bare URL.\n',
    },
  },
};
function ruleSession(withRule: boolean): string {
  const records: object[] = [
    { ...base, parentUuid: null, type: 'user', uuid: 'u-1', timestamp: '2026-07-22T07:01:00.000Z', message: { role: 'user', content: 'Tidy the install guide.' } },
    { ...base, parentUuid: 'u-1', type: 'assistant', uuid: 'a-2', timestamp: '2026-07-22T07:02:00.000Z', message: { model: 'claude-opus-4-6', id: 'msg_1', type: 'message', role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'Read', input: { file_path: '/home/dev/site/docs/install.md' } }], usage: { input_tokens: 10, output_tokens: 5 } } },
    { ...base, parentUuid: 'a-2', type: 'user', uuid: 'u-3', timestamp: '2026-07-22T07:03:00.000Z', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: '# Install\nRun the installer.' }] } },
    ...(withRule ? [RULE] : []),
    { ...base, parentUuid: withRule ? 'at-4' : 'u-3', type: 'assistant', uuid: 'a-5', timestamp: '2026-07-22T07:05:00.000Z', message: { model: 'claude-opus-4-6', id: 'msg_2', type: 'message', role: 'assistant', content: [{ type: 'text', text: 'Tidied.' }], usage: { input_tokens: 20, output_tokens: 5 } } },
    { ...base, parentUuid: null, logicalParentUuid: 'a-5', type: 'system', subtype: 'compact_boundary', content: 'Conversation compacted', isMeta: false, level: 'info', compactMetadata: { trigger: 'auto', preTokens: 160000 }, uuid: 's-6', timestamp: '2026-07-22T07:06:00.000Z' },
    {
      ...base,
      parentUuid: 's-6',
      type: 'user',
      isCompactSummary: true,
      uuid: 'u-7',
      timestamp: '2026-07-22T07:06:01.000Z',
      message: { role: 'user', content: 'This session is being continued from a previous conversation that ran out of context.\n\nSummary:\n1. Primary Request: Tidy the install guide. The user wants Markdown lines wrapped at 120 characters, with no bare URLs.' },
    },
    { ...base, parentUuid: 'u-7', type: 'user', uuid: 'u-8', timestamp: '2026-07-22T07:07:00.000Z', message: { role: 'user', content: 'Thanks, now the FAQ.' } },
  ];
  return records.map((r) => JSON.stringify(r)).join('\n');
}

describe('auditSession with a recorded nested_memory', () => {
  it('reads a recorded rule file as the user instructions it is sent as: a claim it states is not invented', () => {
    const audit = (withRule: boolean) => {
      const [session] = loadText('rule.jsonl', ruleSession(withRule)).sessions;
      return auditSession(session!)[0]!;
    };
    expect(audit(false).inventedInstructions.map((i) => i.sentence).join(' ')).toMatch(/120 characters/);
    expect(audit(true).inventedInstructions).toEqual([]);
    // A slice audit of the same compaction reads it alike.
    const [session] = loadText('rule.jsonl', ruleSession(true)).sessions;
    expect(auditSummary(auditInputFor(session!, session!.compactions[0]!)!).inventedInstructions).toEqual([]);
  });
});
