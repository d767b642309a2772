// A value a later commit's message names is prose about the work, not a use of it (later-use.ts, onlyInCommitMessage).
// Modelled on the commits Claude Code sessions make through Bash (`git commit -m "$(cat <<'EOF' … EOF )"`), as in the
// judged flags of bench/flag-judgements.json (half B lost a wrong "used without a fetch" flag to this rule).
import { describe, expect, it } from 'vitest';
import { auditSummary } from './audit-summary';
import { onlyInCommitMessage } from './later-use';
import type { CallTarget } from '../refetch/call-target';

const bash = (command: string): CallTarget => ({ tool: 'Bash', target: command, file: null, writes: false, kind: 'command' });
const ticket = { value: 'FRE-512', kind: 'ticket' as const, index: 0 };
const file = { value: 'config/db.yaml', kind: 'path' as const, index: 0 };

describe('onlyInCommitMessage', () => {
  it('reads -m strings and heredoc messages as the message', () => {
    expect(onlyInCommitMessage(ticket, bash('git add -A && git commit -m "Fix FRE-512: pool size"'), null)).toBe(true);
    expect(onlyInCommitMessage(ticket, bash("git commit -m \"$(cat <<'EOF'\nfix: FRE-512 timeouts\n\nCo-Authored-By: Claude\nEOF\n)\""), null)).toBe(true);
  });
  it('counts a value the command itself takes', () => {
    expect(onlyInCommitMessage(file, bash('git commit config/db.yaml -m "raise the pool"'), null)).toBe(false);
    expect(onlyInCommitMessage(ticket, bash('gh issue close FRE-512 && git commit -m "close FRE-512"'), null)).toBe(false);
  });
  it('leaves a heredoc of another command in the same line alone', () => {
    expect(onlyInCommitMessage(ticket, bash('git commit -m "wip" && cat <<EOF > notes.txt\nFRE-512\nEOF'), null)).toBe(false);
  });
  it('says nothing of calls that make no commit', () => {
    expect(onlyInCommitMessage(ticket, bash('echo FRE-512'), null)).toBe(false);
    expect(onlyInCommitMessage(ticket, { tool: 'Read', target: 'a.md', file: 'a.md', writes: false, kind: 'file' }, null)).toBe(false);
  });
});

describe('auditSummary with a later commit', () => {
  const input = (command: string) => ({
    sources: ['read_file({"path":"config/db.yaml"})', 'host: db-prod-1\nticket: FRE-512'],
    summary: 'The nightly job failed; the config was read.',
    later: [{ id: 'c1', role: 'assistant' as const, kind: 'tool_call' as const, text: JSON.stringify({ command }), target: bash(command) }],
  });
  it('does not list a ticket only the commit message names as used later', () => {
    const audit = auditSummary(input('git commit -am "Fix FRE-512"'));
    expect(audit.lost).toContain('FRE-512');
    expect(audit.lostReferencedLater.map((r) => r.value)).not.toContain('FRE-512');
  });
  it('lists it when a command takes it', () => {
    expect(auditSummary(input('gh issue view FRE-512')).lostReferencedLater.map((r) => r.value)).toContain('FRE-512');
  });
});
