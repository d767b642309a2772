// Progress records written late, and the records Claude Code chains onto them. Modelled on Viniciuscarvalho/FitToday's
// Entire checkpoint 4d/ae7bf07b83/2 (Claude Code 2.1.72): three Agent calls in one response, their results, then the
// conversation goes on (a response of 46,779 tokens and more); only afterwards the subagents' progress records are
// written, hanging off the last Agent call and stamped at its time; the turn's stop-hook summary hangs off the last of
// them, and the user's next message off that. The loader read the 126 records in between as an abandoned branch.
// The test also reads the file's usage the plain way (each assistant record's, once per message id) and compares.
import { describe, expect, it } from 'vitest';
import { loadText } from '../load/loader';
import { plainPrompts } from '../test/plain-usage';

let clock = 0;
const at = () => new Date(Date.UTC(2026, 2, 4, 2, 3, clock++)).toISOString();
const base = { isSidechain: false, sessionId: 's-1', version: '2.1.72', cwd: '/Users/dev/fit' };
const user = (uuid: string, parentUuid: string | null, content: unknown) => JSON.stringify({ ...base, type: 'user', uuid, parentUuid, timestamp: at(), message: { role: 'user', content } });
const assistant = (uuid: string, parentUuid: string, id: string, content: unknown[], input: number) =>
  JSON.stringify({ ...base, type: 'assistant', uuid, parentUuid, timestamp: at(), message: { id, model: 'claude-opus-4-6', role: 'assistant', content, usage: { input_tokens: 3, cache_read_input_tokens: input - 3, output_tokens: 40 } } });
const agent = (id: string) => ({ type: 'tool_use', id, name: 'Agent', input: { description: `explore ${id}`, prompt: 'look' } });
const result = (id: string) => [{ type: 'tool_result', tool_use_id: id, content: `report ${id}` }];
const progress = (uuid: string, parentUuid: string) => JSON.stringify({ ...base, type: 'progress', uuid, parentUuid, timestamp: '2026-03-04T02:03:21.000Z', data: { type: 'agent_progress' }, toolUseID: 'a3' });

const file = [
  user('u1', null, 'Plan the workout sync'),
  assistant('c1', 'u1', 'msg_1', [agent('a1')], 39056),
  assistant('c2', 'c1', 'msg_1', [agent('a2')], 39056),
  assistant('c3', 'c2', 'msg_1', [agent('a3')], 39056),
  user('r2', 'c2', result('a2')),
  user('r1', 'c1', result('a1')),
  user('r3', 'c3', result('a3')),
  assistant('d1', 'r3', 'msg_2', [{ type: 'text', text: 'The reports agree; writing the plan.' }], 46779),
  user('d2', 'd1', 'Write it to PLAN.md'),
  assistant('d3', 'd2', 'msg_3', [{ type: 'text', text: 'Written.' }], 100818),
  progress('p1', 'c3'),
  progress('p2', 'p1'),
  progress('p3', 'p2'),
  JSON.stringify({ ...base, type: 'system', subtype: 'stop_hook_summary', uuid: 'h1', parentUuid: 'p3', timestamp: at() }),
  user('e1', 'h1', 'Commit and push'),
  assistant('e2', 'e1', 'msg_4', [{ type: 'text', text: 'Pushed.' }], 105362),
].join('\n');

describe('a conversation record Claude Code chained onto progress records written late', () => {
  it('follows the conversation written before it: nothing in between is an abandoned branch', () => {
    const s = loadText('4d-ae7bf07b83.jsonl', file).sessions[0]!;
    expect(s.skipped['abandoned-branch']).toBeUndefined();
    expect(s.responses.map((r) => (r.usage?.input ?? 0) + (r.usage?.cacheRead ?? 0))).toEqual(plainPrompts(file));
    // The user's next message comes after the turn it follows, in the items the context is built from.
    const ids = s.items.map((it) => it.id);
    expect(ids.findIndex((id) => id.startsWith('e1'))).toBeGreaterThan(ids.findIndex((id) => id.startsWith('d3')));
  });
});
