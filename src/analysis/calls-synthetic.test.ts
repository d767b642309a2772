// A session in which the harness answered every prompt itself: Claude Code's `<synthetic>` notes are no model calls.
// Modelled on austinweitao/claude-backup@9fbf6756e58e9ad057efa25fc41ddce7d1b821bc
// projects/-home-cwtrocks--claude-mem-observer-sessions/sessions/17313d95-c6ff-4bb0-b854-27fdd983dc11.jsonl (2.1.212,
// a claude-mem observer run while logged out): each prompt queued, then a user record, then a `<synthetic>` reply
// "Not logged in · Please run /login" flagged isApiErrorMessage with a usage of zeros, then a `last-prompt` record.
import { describe, expect, it } from 'vitest';
import { loadText } from '../load/loader';
import { emptySession } from '../formats/adapter';
import type { Item } from '../model/types';
import { billedResponses } from '../test/plain-usage';
import { analyzeSession } from './analyze-session';
import { modelCalls } from './calls';

const SID = '5e55b0a1-0000-4000-8000-00000000f005';
const at = (s: number) => `2026-07-18T02:31:${String(s).padStart(2, '0')}.000Z`;
const base = { isSidechain: false, userType: 'external', entrypoint: 'sdk-cli', cwd: '/home/u/.claude-mem/observer-sessions', sessionId: SID, version: '2.1.212', gitBranch: 'HEAD' };
const zeros = { input_tokens: 0, output_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, cache_creation: { ephemeral_1h_input_tokens: 0, ephemeral_5m_input_tokens: 0 } };

function turn(n: number, parent: string | null): string[] {
  const prompt = `Hello memory agent, you are continuing to observe the primary Claude session. (${n})`;
  return [
    JSON.stringify({ type: 'queue-operation', operation: 'enqueue', timestamp: at(n * 3), sessionId: SID, content: prompt }),
    JSON.stringify({ type: 'queue-operation', operation: 'dequeue', timestamp: at(n * 3), sessionId: SID }),
    JSON.stringify({ ...base, parentUuid: parent, type: 'user', uuid: `u${n}`, timestamp: at(n * 3), message: { role: 'user', content: prompt } }),
    JSON.stringify({
      ...base,
      parentUuid: `u${n}`,
      type: 'assistant',
      uuid: `a${n}`,
      timestamp: at(n * 3 + 1),
      message: { id: `f5e4a73b-${n}`, model: '<synthetic>', role: 'assistant', type: 'message', stop_reason: 'stop_sequence', usage: zeros, content: [{ type: 'text', text: 'Not logged in · Please run /login' }] },
      error: 'authentication_failed',
      isApiErrorMessage: true,
    }),
    JSON.stringify({ type: 'last-prompt', lastPrompt: prompt.slice(0, 40), leafUuid: `a${n}`, sessionId: SID }),
  ];
}
const text = [...turn(1, null), ...turn(2, 'a1'), ...turn(3, 'a2')].join('\n');

describe('modelCalls on harness-written assistant records', () => {
  const s = loadText('observer.jsonl', text).sessions[0]!;

  it('counts no call where every assistant record is a `<synthetic>` note', () => {
    expect(s.format).toBe('claude-code');
    expect(s.items.filter((i) => i.role === 'assistant')).toHaveLength(3);
    expect(modelCalls(s)).toEqual([]);
    const f = analyzeSession(s, { count: (t) => Math.ceil(t.length / 4) }).facts;
    expect(f.calls).toBe(0);
    expect(f.totalInputTokens).toBe(0);
  });

  it("agrees with the file's usage read the plain way: nothing billed", () => {
    expect(billedResponses(text)).toEqual([]);
    expect(s.responses).toEqual([]);
  });

  it('still counts runs of assistant output for a format with no per-call records', () => {
    const chat = emptySession('sharegpt', 'chat.json', 'c');
    const item = (id: string, role: Item['role'], meta?: Item['meta']): Item => ({ id, kind: 'message', role, text: id, source: { file: 'chat.json', line: null }, ...(meta ? { meta } : {}) });
    chat.items = [item('q1', 'user'), item('r1', 'assistant'), item('q2', 'user'), item('r2', 'assistant'), item('r3', 'assistant')];
    expect(modelCalls(chat).map((c) => c.itemIds)).toEqual([['r1'], ['r2', 'r3']]);
  });
});
