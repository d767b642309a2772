import { describe, expect, it } from 'vitest';
import { OffBranchResponses } from './claude-code-off-branch';

const record = (id: string, model: string, output: number, extra: Record<string, unknown> = {}) => ({
  type: 'assistant',
  uuid: `u-${id}-${output}`,
  message: { id, model, role: 'assistant', content: [], usage: { input_tokens: 4, cache_read_input_tokens: 100, cache_creation_input_tokens: 20, output_tokens: output } },
  ...extra,
});

describe('OffBranchResponses', () => {
  it("counts a response once over the records that share its message id, with the last part's usage", () => {
    const off = new OffBranchResponses('f.jsonl');
    off.add(record('msg_1', 'claude-opus-4-6', 3), 5);
    off.add(record('msg_1', 'claude-opus-4-6', 250), 6);
    expect(off.notIn(new Map())).toEqual([{ id: 'msg_1', model: 'claude-opus-4-6', usage: expect.objectContaining({ input: 4, output: 250 }), source: { file: 'f.jsonl', line: 5 } }]);
  });

  it("leaves out Claude Code's synthetic replies, subagents' sidechain records and responses the conversation kept", () => {
    const off = new OffBranchResponses('f.jsonl');
    off.add(record('syn', '<synthetic>', 0), 1);
    off.add(record('side', 'claude-opus-4-6', 9, { isSidechain: true }), 2);
    off.add(record('kept', 'claude-opus-4-6', 9), 3);
    off.add(record('left', 'claude-opus-4-6', 9), 4);
    expect(off.notIn(new Map([['kept', null]])).map((r) => r.id)).toEqual(['left']);
  });
});
