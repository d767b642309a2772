// A reply on an abandoned branch whose usage is zeros: a proxy that passed no usage on, so it measures nothing and is
// not billed off the branch (docs/formats.md: a usage of zeros throughout is no usage, `dropEmptyUsage`), while the
// kept branch's replies of zeros stay calls, estimated. Modelled on mango319/myclaude@8abfc6e9124dc50f2f90e8bb3245fc2a3106cc7e
// projects/C--Users-Administrator/6c558991-90dc-470e-8d8a-768dceb24596.jsonl (2.1.17, glm-4.7 through an
// Anthropic-compatible endpoint; lines 473–484): a prompt and its two-part reply, then a task notification written
// under the same parent, which the conversation goes on from.
import { describe, expect, it } from 'vitest';
import { loadText } from '../load/loader';
import { billedResponses } from '../test/plain-usage';

const base = { isSidechain: false, userType: 'external', cwd: 'C:\\Users\\u', sessionId: 's-glm', version: '2.1.17', gitBranch: '', timestamp: '2026-03-26T07:46:51.882Z' };
const zeros = { input_tokens: 0, output_tokens: 0 };
const user = (uuid: string, parent: string | null, content: string) => JSON.stringify({ ...base, parentUuid: parent, type: 'user', uuid, message: { role: 'user', content } });
const part = (uuid: string, parent: string, id: string, block: Record<string, unknown>) =>
  JSON.stringify({ ...base, parentUuid: parent, type: 'assistant', uuid, message: { id, type: 'message', role: 'assistant', model: 'glm-4.7', content: [block], stop_reason: null, usage: zeros } });

const text = [
  user('u0', null, 'write the document'),
  part('a0', 'u0', 'msg_0', { type: 'text', text: 'Done.' }),
  // The abandoned branch: a stray prompt and its reply.
  user('u1', 'a0', 'asdf1'),
  part('a1.0', 'u1', 'msg_1', { type: 'thinking', thinking: 'An unclear message.', signature: '' }),
  part('a1.1', 'a1.0', 'msg_1', { type: 'text', text: 'Looks sent by mistake.' }),
  user('u2', 'a1.1', 'write the full document'),
  // The conversation goes on from the first reply.
  user('u3', 'a0', '<task-notification>\n<task-id>b608012</task-id>\n</task-notification>'),
  part('a3', 'u3', 'msg_3', { type: 'text', text: 'Let me read the output.' }),
].join('\n');

describe('claudeCode: an abandoned reply with a usage of zeros', () => {
  const s = loadText('glm.jsonl', text).sessions[0]!;

  it('is no billed off-branch response, as the file read the plain way bills none', () => {
    expect(s.skipped['abandoned-branch']).toBe(4);
    expect(s.offBranch).toBeUndefined();
    expect(billedResponses(text)).toEqual([]);
  });

  it('leaves the kept replies calls with no usage', () => {
    expect(s.responses.map((r) => [r.id, r.usage])).toEqual([
      ['msg_0', null],
      ['msg_3', null],
    ]);
  });
});
