// A measure someone set (a cost, an estimate, a timeout) is used later only as a value set again, by the user or by a
// command; a plan, a report or notes that repeat how much do not use it (relevance.ts). Modelled on hold-out 14's study
// part (Eduardodmb/ClaudeWork: vendor costs from the user's pasted analysis repeated in a written report) and half A of
// bench/flag-judgements.json (wfc, s78: a pasted plan's "(1 hour)" repeated in a new TASKS.md).
import { describe, expect, it } from 'vitest';
import { auditSummary } from './audit-summary';
import { setsMeasure } from './relevance';

const write = (file: string) => ({ tool: 'Write', target: file, file, writes: true, kind: 'file' as const });
const bash = (command: string) => ({ tool: 'Bash', target: command, file: null, writes: false, kind: 'command' as const });
const q = (value: string) => ({ value, kind: 'quantity' as const, index: 0 });

describe('setsMeasure', () => {
  it('reads a flag, a variable or a config assignment as setting it', () => {
    expect(setsMeasure(q('30s'), bash('curl --max-time 30s http://x'), 'curl --max-time 30s http://x')).toBe(true);
    expect(setsMeasure(q('4G'), write('deploy/app.yaml'), 'memory: 4G')).toBe(true);
  });
  it('does not read prose or a document as setting it', () => {
    expect(setsMeasure(q('1 hour'), write('plan/TASKS.md'), 'ESTIMATED TIME: 1 hour')).toBe(false);
    expect(setsMeasure(q('$180K'), write('report.yaml'), '- "3 vendors: CloudFit ($180K)"')).toBe(false);
  });
});

describe('a measure the user set, repeated later', () => {
  const input = (later: { text: string; target: ReturnType<typeof write> | ReturnType<typeof bash> }) => ({
    sources: ['Phase 1: fix the sync bug (1 hour). Keep the request timeout at 45s.'],
    sourceMeta: [{ role: 'user' as const, kind: 'message' as const }],
    summary: 'Fixing the sync bug.',
    later: [{ id: 'c1', role: 'assistant' as const, kind: 'tool_call' as const, ...later }],
    project: { cwd: '/repo' },
  });
  it('is not used by a document that repeats it', () => {
    const audit = auditSummary(input({ text: '{"file_path":"TASKS.md","content":"ESTIMATED TIME: 1 hour"}', target: write('TASKS.md') }));
    expect(audit.lostReferencedLater.map((r) => r.value)).not.toContain('1 hour');
  });
  it('is used by a call that sets it', () => {
    const audit = auditSummary(input({ text: '{"command":"TIMEOUT=45s ./sync.sh"}', target: bash('TIMEOUT=45s ./sync.sh') }));
    expect(audit.lostReferencedLater.map((r) => r.value)).toContain('45s');
  });
  // Modelled on the old test half's om-796f117a (a compose file's "start_period: 30s"; later a subagent's prompt
  // outlines a video, "Problem statement (30 seconds)") and zts-ce8b29a3 (a price repeated in a Task prompt).
  it('is not taken by a prompt to another agent that holds the same amount', () => {
    const prompt = '{"description":"Create video script","prompt":"Problem statement (45 seconds), then the demo."}';
    const audit = auditSummary(input({ text: prompt, target: null as unknown as ReturnType<typeof bash> }));
    expect(audit.lostReferencedLater.map((r) => r.value)).not.toContain('45s');
    const command = auditSummary(input({ text: '{"command":"sleep 45s && curl http://x"}', target: bash('sleep 45s && curl http://x') }));
    expect(command.lostReferencedLater.map((r) => r.value)).toContain('45s');
  });
});
