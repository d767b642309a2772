// The bench generators at small sizes: the files load through the engine's loader with no errors, hold the
// records, calls, turns and compactions asked for, and the same seed gives the same bytes.
import { describe, expect, it } from 'vitest';
import { loadText } from '../src/load/loader';
import { agentOmitTrajectory } from './generators/agent-omit';
import { CLAUDE_CODE_TYPICAL, claudeCodeSession } from './generators/claude-code-session';
import { extractIdentifiers } from '../src/audit/identifiers';
import { random } from './generators/random';
import { requestLog } from './generators/request-log';

const errorsOf = (r: ReturnType<typeof loadText>) => r.issues.filter((i) => i.severity === 'error');
const lines = (text: string) => text.split('\n').filter((l) => l.length > 0);

describe('random', () => {
  it('gives the same sequence for the same seed and another for another seed', () => {
    const a = random(7);
    const b = random(7);
    const c = random(8);
    const seqA = Array.from({ length: 5 }, () => a.next());
    expect(Array.from({ length: 5 }, () => b.next())).toEqual(seqA);
    expect(Array.from({ length: 5 }, () => c.next())).not.toEqual(seqA);
    expect(random(1).uuid()).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});

describe('claudeCodeSession', () => {
  const spec = { seed: 11, records: 600, bytes: 600_000, compactions: 3 };
  const text = claudeCodeSession(spec);
  const result = loadText('bench-a.jsonl', text);
  const session = result.sessions[0]!;

  it('writes exactly the records asked for, near the size asked for', () => {
    expect(lines(text)).toHaveLength(600);
    const bytes = Buffer.byteLength(text);
    expect(bytes).toBeGreaterThan(600_000 * 0.85);
    expect(bytes).toBeLessThan(600_000 * 1.15);
  });

  it('loads as one Claude Code session with no errors and no warnings', () => {
    expect(result.sessions).toHaveLength(1);
    expect(session.format).toBe('claude-code');
    expect(errorsOf(result)).toEqual([]);
    expect(result.issues).toEqual([]);
  });

  it('holds three compactions, each a boundary followed by its summary, replacing what came before', () => {
    expect(session.compactions.map((c) => c.kind)).toEqual(['compact', 'compact', 'compact']);
    for (const c of session.compactions) {
      expect(c.trigger).toBe('auto');
      expect(c.summaryId).not.toBeNull();
      expect(c.replacedIds.length).toBeGreaterThan(10);
      expect(session.items.find((i) => i.id === c.summaryId)?.kind).toBe('summary');
      expect(session.items.find((i) => i.id === c.atItemId)?.kind).toBe('compaction');
    }
  });

  it('has paired tool calls, responses with cache usage, and the noise records counted as skipped', () => {
    const calls = session.items.filter((i) => i.kind === 'tool_call');
    const results = session.items.filter((i) => i.kind === 'tool_result');
    expect(calls.length).toBeGreaterThan(20);
    expect(results).toHaveLength(calls.length);
    expect(results.every((r) => calls.some((c) => c.callId === r.callId))).toBe(true);
    expect(session.responses.length).toBeGreaterThan(calls.length);
    expect(session.responses.every((r) => r.usage !== null && r.usage.cacheRead !== null && r.usage.cacheWrite !== null)).toBe(true);
    expect(session.skipped['progress']).toBeGreaterThan(100);
    expect(session.skipped['file-history-snapshot']).toBeGreaterThan(0);
    expect(session.skipped['abandoned-branch']).toBeUndefined();
  });

  it('gives the same bytes for the same seed and other bytes for another seed', () => {
    expect(claudeCodeSession(spec)).toBe(text);
    expect(claudeCodeSession({ ...spec, seed: 12 })).not.toBe(text);
  });
});

describe('CLAUDE_CODE_TYPICAL', () => {
  // The shared 3 MB sample it is shaped like: 1,512 records, 139 model calls, 150 tool uses, ~400 distinct
  // identifiers in 579k characters of items, a 15.7 KB summary.
  const text = claudeCodeSession(CLAUDE_CODE_TYPICAL);
  const session = loadText('typical.jsonl', text).sessions[0]!;

  it('is about 3 MB of 1,500 records with about 150 model calls and one compaction', () => {
    expect(lines(text)).toHaveLength(1_500);
    expect(Buffer.byteLength(text)).toBeGreaterThan(2_700_000);
    expect(session.responses.length).toBeGreaterThan(120);
    expect(session.responses.length).toBeLessThan(200);
    expect(session.items.filter((i) => i.kind === 'tool_call').length).toBeLessThan(200);
    expect(session.compactions).toHaveLength(1);
  });

  it('reads and edits one project\'s files and names, as a real session does, not fresh ones every time', () => {
    const distinct = new Set(session.items.flatMap((i) => extractIdentifiers(i.text).map((id) => `${id.kind}:${id.value}`)));
    const chars = session.items.reduce((n, i) => n + i.text.length, 0);
    // The sample: 0.69 distinct identifiers per 1,000 characters; fresh names gave 8.7.
    expect((distinct.size / chars) * 1000).toBeLessThan(1.5);
  });

  it('ends its first part with a summary of Claude Code\'s length and sections, naming the project\'s files', () => {
    const summary = session.items.find((i) => i.id === session.compactions[0]!.summaryId)!.text;
    expect(summary.length).toBeGreaterThan(12_000);
    expect(summary).toContain('3. Files and Code Sections:');
    expect(extractIdentifiers(summary).filter((id) => id.kind === 'path').length).toBeGreaterThan(20);
  });

  it('opens with a request, and its summary quotes every user message before it whole, as the sample\'s does', () => {
    const summaryId = session.compactions[0]!.summaryId;
    const at = session.items.findIndex((i) => i.id === summaryId);
    const summary = session.items[at]!.text;
    const asked = session.items.slice(0, at).filter((i) => i.role === 'user' && i.kind === 'message');
    expect(asked.length).toBeGreaterThan(3);
    expect(asked[0]!.text).toMatch(/^Work on [A-Z]+-\d+\. Run `npm test -- [^`]+` to see what fails, then fix it\./);
    const flat = (t: string) => t.replace(/\s+/g, ' ');
    for (const m of asked) expect(flat(summary)).toContain(`"${flat(m.text)}"`);
    expect(summary.endsWith('Continue with the last task that you were asked to work on.')).toBe(true);
  });
});

describe('requestLog', () => {
  const spec = { seed: 5, calls: 40, avgTokens: 6000, compactions: 3 };
  const text = requestLog(spec);
  const result = loadText('bench-b.jsonl', text);
  const session = result.sessions[0]!;

  it('loads as a request log of the calls asked for, with usage on each, and no issues', () => {
    expect(lines(text)).toHaveLength(40);
    expect(session.format).toBe('request-log');
    expect(result.issues).toEqual([]);
    expect(session.requests).toHaveLength(40);
    expect(session.requests.every((r) => r.api === 'openai-chat' && r.usage !== null && r.output.some((o) => o.kind === 'tool_call'))).toBe(true);
  });

  it('shares the prefix: every call but the compacted ones re-sends the previous call whole', () => {
    const compacted = new Set<number>();
    session.requests.forEach((r, k) => {
      if (k === 0) return;
      const prev = session.requests[k - 1]!.items.map((i) => i.id);
      const now = r.items.map((i) => i.id);
      if (prev.every((id, i) => now[i] === id)) expect(now.length).toBeGreaterThan(prev.length);
      else compacted.add(k);
    });
    expect([...compacted]).toEqual([10, 20, 30]);
  });

  it('implies three summarizing compactions, at the calls that send a summary', async () => {
    const { sessionContexts } = await import('../src/analysis/session-analysis');
    const cx = sessionContexts(session);
    expect(cx.compactions.map((c) => c.id)).toEqual(['inferred-10', 'inferred-20', 'inferred-30']);
    for (const c of cx.compactions) {
      expect(c.summaryId).not.toBeNull();
      expect(cx.removals.get(c.replacedIds[0]!)?.label).toBe('summarized');
    }
  });

  it('averages about the prompt size asked for (reported usage)', () => {
    const avg = session.requests.reduce((n, r) => n + (r.usage?.input ?? 0), 0) / session.requests.length;
    expect(avg).toBeGreaterThan(6000 * 0.8);
    expect(avg).toBeLessThan(6000 * 1.25);
  });

  it('gives the same bytes for the same seed', () => {
    expect(requestLog(spec)).toBe(text);
    expect(requestLog({ ...spec, seed: 6 })).not.toBe(text);
  });
});

describe('agentOmitTrajectory', () => {
  const { text, stats } = agentOmitTrajectory({ seed: 9, turns: 400 });
  const result = loadText('bench-c.json', text);
  const session = result.sessions[0]!;

  it('loads as an Agent-Omit trajectory of the turns asked for, with no issues', () => {
    expect(session.format).toBe('agent-omit');
    expect(result.issues).toEqual([]);
    const doc = JSON.parse(text) as { messages: { role: string }[] };
    expect(doc.messages).toHaveLength(402);
    expect(doc.messages.slice(2).filter((m) => m.role === 'assistant')).toHaveLength(200);
    expect(doc.messages.slice(2).filter((m) => m.role === 'environment')).toHaveLength(200);
  });

  it('has one omission compaction per omit command, and the omitted thoughts it wrote', () => {
    expect(stats.omitCommands).toBeGreaterThan(10);
    expect(session.compactions).toHaveLength(stats.omitCommands);
    expect(session.compactions.every((c) => c.kind === 'omission' && c.replacedIds.length >= 1)).toBe(true);
    expect(session.meta['omittedThoughts']).toBe(stats.omittedThoughts);
  });

  it('gives the same bytes for the same seed', () => {
    expect(agentOmitTrajectory({ seed: 9, turns: 400 }).text).toBe(text);
  });
});
