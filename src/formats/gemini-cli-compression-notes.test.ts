import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { analyzeSession } from '../analysis/analyze-session';
import { sessionContexts } from '../analysis/session-analysis';
import { reportedPromptTokens } from '../cache/reported';
import { loadText } from '../load/loader';

// The compression notes Gemini CLI records as `info` messages (google-gemini/gemini-cli
// packages/cli/src/ui/hooks/useHistoryManager.ts records info items since e1c711f5ba, 2025-11-19; the wording is
// useGeminiStream.ts handleChatCompressionEvent's, changed by 1e2afbb514 on 2026-03-03). The fixtures are hand-written
// in the shape of Mai0313/VibeCodingTracker's chats (examples/test_conversation_gemini.json @7bc2c73 and @894772f,
// tests/fixtures/sessions/gemini.jsonl @c4badfb), with notes worded as the harness writes them.
const fixture = (name: string) => readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), 'utf8');
const count = (t: string) => Math.ceil(t.length / 4);

/** Each `gemini` message's usage, read plainly: the prompt is total − output − thoughts − tool. */
function plainUsage(name: string): [number, number][] {
  const text = fixture(name);
  type Msg = { id?: string; type?: string; tokens?: { total: number; output: number; thoughts: number; tool: number } };
  const records: Msg[] = name.endsWith('.jsonl') ? text.trim().split('\n').map((l) => JSON.parse(l) as Msg) : (JSON.parse(text) as { messages: Msg[] }).messages;
  const byId = new Map<string, [number, number]>();
  for (const r of records) if (r.type === 'gemini' && r.tokens) byId.set(r.id!, [r.tokens.total - r.tokens.output - r.tokens.thoughts - r.tokens.tool, r.tokens.output + r.tokens.thoughts]);
  return [...byId.values()];
}

const engineUsage = (name: string) => sessionContexts(loadText(name, fixture(name)).sessions[0]!).calls.map((c) => [reportedPromptTokens(c), c.usage!.output]);

describe('gemini-cli: compression notes', () => {
  it('records a compression from the note of a JSON chat that has no $set, what it took out unknown', () => {
    // Before March 2026: "… (compressed from: 45139 to 6112 tokens)." The file keeps the whole history.
    const s = loadText('session-2026-01-14T08-10-5b0e1c2a.json', fixture('gemini-compression-note.json')).sessions[0]!;
    expect(s.compactions).toEqual([
      {
        id: 'compression-0',
        index: 0,
        kind: 'summary',
        trigger: 'chat compression',
        tokensBefore: 45_139,
        tokensAfter: 6_112,
        replacedIds: [],
        keptIds: [],
        summaryId: null,
        atItemId: '5b0e1c2a-0006',
        timestamp: '2026-01-14T08:12:00.000Z',
        source: { file: 'session-2026-01-14T08-10-5b0e1c2a.json', line: null },
      },
    ]);
    expect(s.items.find((i) => i.id === '5b0e1c2a-0006')).toMatchObject({ kind: 'compaction', role: 'system' });
    expect(s.skipped).toEqual({});
    const calls = sessionContexts(s).calls;
    expect(calls.map((c) => c.compactionId)).toEqual([null, null, null, 'compression-0']);
    // Nothing says what the model stopped seeing: the replay keeps every message.
    expect(calls[3]!.entries.map((e) => e.item.id)).toContain('5b0e1c2a-0001');
  });

  it('records a compression from the percent note of March 2026, its sizes left to the reported usage', () => {
    const s = loadText('session-2026-03-27T10-19-7c1d2e3f.json', fixture('gemini-compression-percent.json')).sessions[0]!;
    expect(s.compactions.map((c) => [c.atItemId, c.tokensBefore, c.tokensAfter, c.replacedIds])).toEqual([['7c1d2e3f-0004', null, null, []]]);
    const a = analyzeSession(s, { count });
    expect(a.compactions.map((c) => [c.call, c.tokensBefore, c.tokensAfter, c.tokensBeforeSource])).toEqual([[3, 96_210, 20_410, 'reported']]);
  });

  it("gives a note's figures to the $set compression it follows, and an empty /compress note to none", () => {
    // chatRecordingService writes $set.messages first (since 055e0f6452, 2026-05-18), then the CLI records the note.
    const s = loadText('session-2026-05-20T12-52-9e8d7c6b.jsonl', fixture('gemini-compression-note-after.jsonl')).sessions[0]!;
    expect(s.compactions.map((c) => [c.id, c.summaryId, c.tokensBefore, c.tokensAfter])).toEqual([
      ['compression-0', '9e8d7c6b-0004', 41_265, 2_480],
      ['compression-1', '9e8d7c6b-0009', null, null],
    ]);
    expect(s.items.some((i) => i.kind === 'compaction')).toBe(false);
    expect(s.skipped).toEqual({ info: 2 });
  });

  it.each(['gemini-compression-note.json', 'gemini-compression-percent.json', 'gemini-compression-note-after.jsonl'])('reads the usage of %s as a plain reading does', (name) => {
    expect(engineUsage(name)).toEqual(plainUsage(name));
    expect(plainUsage(name).length).toBeGreaterThan(2);
  });
});
