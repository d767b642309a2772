import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { analyzeSession } from '../analysis/analyze-session';
import { loadText } from '../load/loader';

// The fixture imitates a Codex CLI 0.104 rollout (~/.codex/sessions/…/rollout-*.jsonl): session_meta,
// response_items, turn_context, event_msg token_count pairs, a `compacted` record with replacement_history
// followed by event_msg context_compacted, and texts replaced by a redacting exporter.
const fixture = (name: string) => readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), 'utf8');

function loadRollout() {
  const { sessions, issues } = loadText('codex-rollout.jsonl', fixture('codex-rollout.jsonl'));
  expect(sessions).toHaveLength(1);
  return { s: sessions[0]!, issues };
}

const line = (type: string, payload: unknown) => JSON.stringify({ timestamp: '2026-03-02T03:00:00.000Z', type, payload });
const message = (role: string, text: string) => line('response_item', { type: 'message', role, content: [{ type: role === 'assistant' ? 'output_text' : 'input_text', text }] });

describe('codex', () => {
  it('turns response items into items in order, with the base instructions as a system message', () => {
    const { s } = loadRollout();
    expect(s.format).toBe('codex');
    expect(s.items.map((i) => [i.id, i.role, i.kind])).toEqual([
      ['L1', 'system', 'message'],
      ['L2', 'developer', 'message'],
      ['L3', 'user', 'message'],
      ['L6', 'user', 'message'],
      ['L10', 'assistant', 'thinking'],
      ['L11', 'assistant', 'tool_call'],
      ['L13', 'tool', 'tool_result'],
      ['L16', 'assistant', 'thinking'],
      ['L17', 'assistant', 'message'],
      ['L18', 'assistant', 'tool_call'],
      ['L20', 'tool', 'tool_result'],
      ['L22', 'assistant', 'message'],
      ['L25.0', 'system', 'compaction'],
      ['L25.1', 'user', 'summary'],
      ['L28', 'user', 'message'],
      ['L29', 'assistant', 'thinking'],
      ['L30', 'assistant', 'message'],
    ]);
    expect(s.items[0]).toMatchObject({ text: 'You are Codex, a coding agent running in the Codex CLI. Keep answers short.', meta: { baseInstructions: true }, source: { file: 'codex-rollout.jsonl', line: 1 } });
    expect(s.items[3]).toMatchObject({ text: 'The nightly job fails. Check the database config.', timestamp: '2026-03-02T03:05:00.000Z' });
    expect(s.items[4]).toMatchObject({ text: 'Reading config/db.yaml first', meta: { encrypted: true } });
    expect(s.items[8]).toMatchObject({ text: 'pool_size is 5 for 12 workers; raising it to 20.', meta: { phase: 'commentary' } });
    // Reasoning with no summary: the model saw encrypted content only.
    expect(s.items[15]).toMatchObject({ text: '', meta: { encrypted: true } });
  });

  it('pairs function and custom tool calls with their outputs by call_id', () => {
    const { s } = loadRollout();
    const byId = new Map(s.items.map((i) => [i.id, i]));
    expect(byId.get('L11')).toMatchObject({ name: 'shell', callId: 'call_1', pairId: 'L13', text: '{"command":["cat","config/db.yaml"]}' });
    expect(byId.get('L13')).toMatchObject({ name: 'shell', callId: 'call_1', pairId: 'L11', text: 'host: db-prod-1\nport: 5432\npool_size: 5\nticket: FRE-512' });
    expect(byId.get('L18')).toMatchObject({ name: 'apply_patch', callId: 'call_2', pairId: 'L20' });
    expect(byId.get('L18')!.text).toContain('+pool_size: 20');
    expect(byId.get('L20')).toMatchObject({ name: 'apply_patch', callId: 'call_2', pairId: 'L18' });
  });

  it('keeps redacted placeholders verbatim with their length and hash', () => {
    const { s } = loadRollout();
    const byId = new Map(s.items.map((i) => [i.id, i]));
    expect(byId.get('L16')).toMatchObject({
      text: '[REDACTED_TEXT len=48 sha=1a2b3c4d]',
      redacted: { len: 48, sha: '1a2b3c4d' },
      meta: { encryptedContent: '[REDACTED_ENCRYPTED_CONTENT len=1840 sha=9f8e7d6c]' },
    });
    expect(byId.get('L20')).toMatchObject({ text: '[REDACTED_OUTPUT len=57 sha=0badc0de]', redacted: { len: 57, sha: '0badc0de' } });
    expect(s.items.filter((i) => i.redacted).map((i) => i.id)).toEqual(['L16', 'L20']);
  });

  it('groups model-side items into responses closed by the next token_count, with its usage', () => {
    const { s } = loadRollout();
    expect(s.responses.map((r) => [r.id, r.index, r.itemIds, r.usage])).toEqual([
      ['r0', 0, ['L10', 'L11'], { input: 9000, output: 120, cacheRead: 0, cacheWrite: null, inputIncludesCache: true, contextWindow: 272000 }],
      ['r1', 1, ['L16', 'L17', 'L18'], { input: 9400, output: 210, cacheRead: 8960, cacheWrite: null, inputIncludesCache: true, contextWindow: 272000 }],
      ['r2', 2, ['L22'], { input: 9700, output: 40, cacheRead: 9344, cacheWrite: null, inputIncludesCache: true, contextWindow: 272000 }],
      ['r3', 3, ['L29', 'L30'], { input: 2100, output: 30, cacheRead: 1920, cacheWrite: null, inputIncludesCache: true, contextWindow: 272000 }],
    ]);
    expect(s.responses[0]).toMatchObject({ model: 'gpt-5.3-codex', source: { line: 10 }, timestamp: '2026-03-02T03:09:00.000Z' });
    expect(s.items.filter((i) => i.responseId === 'r1').map((i) => i.id)).toEqual(['L16', 'L17', 'L18']);
    expect(s.items.find((i) => i.id === 'L13')!.responseId).toBeUndefined();
  });

  it('records a compacted replacement history as one compaction with the context_compacted event', () => {
    const { s } = loadRollout();
    expect(s.compactions).toEqual([
      {
        id: 'L25.0',
        index: 0,
        kind: 'replacement',
        trigger: 'auto',
        tokensBefore: null,
        tokensAfter: null,
        replacedIds: ['L10', 'L11', 'L13', 'L16', 'L17', 'L18', 'L20', 'L22'],
        keptIds: ['L2', 'L3', 'L6'],
        summaryId: 'L25.1',
        atItemId: 'L25.0',
        timestamp: '2026-03-02T03:24:00.000Z',
        source: { file: 'codex-rollout.jsonl', line: 25 },
      },
    ]);
    const summary = s.items.find((i) => i.id === 'L25.1')!;
    expect(summary.text.startsWith('## Conversation Summary')).toBe(true);
    expect(summary.text).toContain('db-prod-1:5432');
    expect(summary.text).toContain('FRE-512');
    expect(s.items.find((i) => i.id === 'L25.0')!.text).toBe('Context compacted (replacement history of 4 items)');
  });

  it('takes a compaction\'s tokens before from the last reported prompt, not the all-zero token_count Codex 0.10x writes before it', () => {
    // codex-rs recompute_token_usage: input and output 0, total_tokens the running total (598,103) above the window.
    const { sessions, issues } = loadText('rollout-2026-04-14T10-00-00-019a7c21.jsonl', fixture('codex-rollout-compaction-0.107.jsonl'));
    const s = sessions[0]!;
    expect(s.compactions.map((c) => c.tokensBefore)).toEqual([null]);
    expect(issues).toEqual([
      {
        file: 'rollout-2026-04-14T10-00-00-019a7c21.jsonl',
        line: 13,
        field: 'payload.info.last_token_usage.total_tokens',
        message: 'token_count with no input or output reports total_tokens 598,103, above the 258,400-token window: not the context, and no call\'s usage; the last reported prompt (209,950) stands for the context',
        severity: 'warning',
      },
    ]);
    // The odd record is no call's usage: four calls, each with its own prompt.
    expect(s.responses.map((r) => r.usage?.input)).toEqual([182310, 204880, 209950, 6120]);
    const a = analyzeSession(s, { count: (t) => Math.ceil(t.length / 4) });
    expect(a.compactions.map((c) => [c.tokensBefore, c.tokensBeforeSource, c.tokensAfter, c.call])).toEqual([[209950, 'reported', 6120, 4]]);
    expect(a.facts.peakContextTokens).toBeLessThanOrEqual(s.contextWindow!);
  });

  it('takes the session id, model, context window and meta from the rollout', () => {
    const { s } = loadRollout();
    expect(s.id).toBe('0199c0de-4a11-7b3e-9d2f-5e0f1a2b3c4d');
    expect(s.model).toBe('gpt-5.3-codex');
    expect(s.contextWindow).toBe(272000);
    expect(s.meta).toEqual({ cwd: '/home/dev/payments', cliVersion: '0.104.0', modelProvider: 'openai', originator: 'codex_cli_rs', source: 'cli', gitBranch: 'fix/nightly-pool' });
  });

  it('counts event and context lines in skipped and names the line of a line without payload', () => {
    const { s, issues } = loadRollout();
    expect(s.skipped).toEqual({
      'event_msg:task_started': 1,
      turn_context: 3,
      'event_msg:user_message': 1,
      'event_msg:token_count': 6,
      'event_msg:agent_reasoning': 1,
      'response_item:ghost_snapshot': 1,
      'event_msg:task_complete': 1,
      'event_msg:context_compacted': 1,
    });
    expect(issues).toEqual([{ file: 'codex-rollout.jsonl', line: 32, field: 'payload', message: 'response_item line has no payload object (got nothing)', severity: 'error' }]);
  });

  it('joins a context_compacted event written before its compacted record, and notes one that stands alone', () => {
    const text = [
      message('user', 'hello'),
      message('assistant', 'hi'),
      line('event_msg', { type: 'context_compacted' }),
      line('compacted', { message: 'They said hello.', replacement_history: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hello' }] }] }),
      message('user', 'again'),
      line('event_msg', { type: 'context_compacted' }),
    ].join('\n');
    const { sessions, issues } = loadText('order.jsonl', text);
    expect(issues).toEqual([]);
    const s = sessions[0]!;
    expect(s.items.map((i) => [i.id, i.kind])).toEqual([
      ['L1', 'message'],
      ['L2', 'message'],
      ['L3', 'compaction'],
      ['L4.0', 'summary'],
      ['L5', 'message'],
      ['L6', 'compaction'],
    ]);
    expect(s.compactions.map((c) => [c.id, c.atItemId, c.summaryId, c.keptIds, c.replacedIds])).toEqual([
      ['L3', 'L3', 'L4.0', ['L1'], ['L2']],
      ['L6', 'L6', null, [], []],
    ]);
  });

  it('adds replacement history items it has not seen as new context items', () => {
    const text = [
      message('user', 'fix it'),
      line('compacted', {
        message: '',
        replacement_history: [
          { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'fix it' }] },
          { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'a note the rollout never showed' }] },
          { type: 'compaction', encrypted_content: '[REDACTED_ENCRYPTED_CONTENT len=900 sha=abcd1234]' },
        ],
      }),
    ].join('\n');
    const s = loadText('remote.jsonl', text).sessions[0]!;
    expect(s.items.map((i) => [i.id, i.role, i.kind, i.text])).toEqual([
      ['L1', 'user', 'message', 'fix it'],
      ['L2.0', 'system', 'compaction', 'Context compacted (replacement history of 3 items)'],
      ['L2.1', 'user', 'summary', '[REDACTED_ENCRYPTED_CONTENT len=900 sha=abcd1234]'],
      ['L2.2', 'user', 'message', 'a note the rollout never showed'],
    ]);
    expect(s.items[2]).toMatchObject({ redacted: { len: 900, sha: 'abcd1234' }, meta: { encrypted: true } });
    expect(s.items[3]!.meta).toEqual({ replacementHistory: true });
    expect(s.compactions[0]).toMatchObject({ keptIds: ['L1'], replacedIds: [], summaryId: 'L2.1' });
  });

  it('claims its own files only', () => {
    expect(loadText('x.jsonl', fixture('codex-rollout.jsonl')).sessions[0]!.format).toBe('codex');
    expect(loadText('x.jsonl', fixture('claude-code-session.jsonl')).sessions[0]!.format).not.toBe('codex');
    expect(loadText('x.json', fixture('openai-chat-course.json')).sessions[0]!.format).not.toBe('codex');
  });
});
