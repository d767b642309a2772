import { describe, expect, it } from 'vitest';
import { auditSummary, type AuditInput } from './audit-summary';
import { inClaudeCodeSignature, loadedByClaudeCode, namedInEveryRequest } from './loaded-instructions';
import type { CallTarget } from '../refetch/call-target';

const CWD = '/home/v/zodiacid/app';
const path = (value: string) => ({ kind: 'path' as const, value });

describe('the CLAUDE.md files Claude Code loads', () => {
  it('are the working directory’s and its parents’, beside CLAUDE.local.md and .claude/CLAUDE.md, and the user’s', () => {
    for (const v of ['CLAUDE.md', './CLAUDE.local.md', '.claude/CLAUDE.md', `${CWD}/CLAUDE.md`, '/home/v/zodiacid/CLAUDE.md', '~/.claude/CLAUDE.md', '/home/v/.claude/CLAUDE.md']) {
      expect(loadedByClaudeCode(path(v), CWD), v).toBe(true);
    }
    // A folder below the working directory's is loaded only when the agent reads there, and then recorded.
    for (const v of ['docs/CLAUDE.md', `${CWD}/docs/CLAUDE.md`, '/home/v/other/CLAUDE.md', 'README.md']) {
      expect(loadedByClaudeCode(path(v), CWD), v).toBe(false);
    }
    expect(loadedByClaudeCode({ kind: 'url', value: 'https://x.dev/CLAUDE.md' }, CWD)).toBe(false);
  });

  // Modelled on zodiacid/zodiacid.com (session 51, half A): the agent greps the project's CLAUDE.md after the compaction.
  it('are never lost in a Claude Code session, lost as any file elsewhere', () => {
    const grep: CallTarget = { tool: 'Grep', target: 'CLAUDE.md', file: 'CLAUDE.md', writes: false, kind: 'search' };
    const input: AuditInput = {
      summary: 'Updated the positioning notes.',
      sources: ['Read({"file_path":"CLAUDE.md"})', '     1→# zodiacid\n     2→docs/strategy/ is human-only'],
      sourceMeta: [{ role: 'assistant', kind: 'tool_call', target: { ...grep, tool: 'Read', kind: 'file' } }, { role: 'tool', kind: 'tool_result' }],
      later: [{ id: 'g', role: 'assistant', kind: 'tool_call', target: grep, text: 'Grep({"pattern":"strategy","path":"CLAUDE.md"})' }],
      project: { cwd: CWD },
    };
    expect(auditSummary({ ...input, format: 'claude-code' }).lost).not.toContain('CLAUDE.md');
    expect(auditSummary({ ...input, format: 'codex' }).lost).toContain('CLAUDE.md');
  });
});

describe("Claude Code's signature", () => {
  // The commit and pull-request signature Claude Code's system prompt dictates (wfc, half A of bench/flag-judgements.json, s81).
  const url = (value: string) => ({ kind: 'url' as const, value, index: 0 });
  it('names its addresses, old and new', () => {
    expect(inClaudeCodeSignature(url('https://claude.com/claude-code'))).toBe(true);
    expect(inClaudeCodeSignature(url('https://claude.ai/code'))).toBe(true);
    expect(inClaudeCodeSignature({ kind: 'email', value: 'noreply@anthropic.com' })).toBe(true);
  });
  it('names no other address of the site', () => {
    expect(inClaudeCodeSignature(url('https://claude.ai/code/session_01abc'))).toBe(false);
    expect(inClaudeCodeSignature(url('https://docs.claude.com/en/docs/claude-code/hooks'))).toBe(false);
  });
  it('is never lost in a Claude Code session, and counts elsewhere', () => {
    expect(namedInEveryRequest(() => [], 'claude-code', '/repo')(url('https://claude.com/claude-code'))).toBe(true);
    expect(namedInEveryRequest(() => [], 'codex', '/repo')(url('https://claude.com/claude-code'))).toBe(false);
  });
});
