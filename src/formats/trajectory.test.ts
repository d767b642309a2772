import { describe, expect, it } from 'vitest';
import { parseDocument } from '../load/document';
import { createContext } from './adapter';
import { readTrajectory, splitTags, splitThink, trajectoryItems, trajectorySignals } from './trajectory';

function ctxFor(text: string) {
  const parsed = parseDocument('t.json', text);
  if (!parsed.ok || parsed.doc.kind !== 'json') throw new Error('test input must be JSON');
  return { doc: parsed.doc, ctx: createContext(parsed.doc) };
}

describe('splitTags', () => {
  it('splits known tags in order and keeps the text between them', () => {
    expect(splitTags('I will look.\n<think>plan</think>\n<action>go to desk 1</action>')).toEqual([
      { tag: null, body: 'I will look.', raw: 'I will look.\n' },
      { tag: 'think', body: 'plan', raw: '<think>plan</think>' },
      { tag: 'action', body: 'go to desk 1', raw: '<action>go to desk 1</action>' },
    ]);
  });

  it('reads Agent-Omit commands and placeholders as tags, and leaves unknown tags in the text', () => {
    expect(splitTags('<omit_tool_response_1_2></omit_tool_response_1_2><tool_call>q</tool_call>').map((p) => p.tag)).toEqual(['omit_tool_response_1_2', 'tool_call']);
    expect(splitTags('<b><think>x</think></b>')).toEqual([
      { tag: null, body: '<b>', raw: '<b>' },
      { tag: 'think', body: 'x', raw: '<think>x</think>' },
      { tag: null, body: '</b>', raw: '</b>' },
    ]);
  });

  it('runs an unclosed <think> to the end of the turn', () => {
    expect(splitTags('<think>cut off mid')).toEqual([{ tag: 'think', body: 'cut off mid', raw: '<think>cut off mid' }]);
  });
});

describe('splitThink', () => {
  it('separates reasoning from the post-think answer, with or without the opening tag', () => {
    expect(splitThink('<think>\nr\n</think>\n\nA')).toEqual({ thinking: 'r', answer: 'A' });
    expect(splitThink('r\n</think>A')).toEqual({ thinking: 'r', answer: 'A' });
    expect(splitThink('<think>never closed')).toEqual({ thinking: 'never closed', answer: '' });
    expect(splitThink('just an answer')).toEqual({ thinking: null, answer: 'just an answer' });
  });
});

describe('readTrajectory', () => {
  it('reads ShareGPT conversations with a top-level system prompt and trajectory facts', () => {
    const { doc, ctx } = ctxFor(JSON.stringify({ item_id: 7, system: 'be brief', success: 1, score: 0.5, task: 'find it', conversations: [{ from: 'human', value: 'hi' }, { from: 'gpt', value: 'ok' }] }));
    const t = readTrajectory(doc.value, ctx)!;
    expect(t.shape).toBe('conversations');
    expect(t.id).toBe('7');
    expect(t.meta).toEqual({ success: true, reward: 0.5, task: 'find it' });
    expect(t.turns.map((x) => [x.id, x.role, x.text])).toEqual([
      ['system', 'system', 'be brief'],
      ['m0', 'user', 'hi'],
      ['m1', 'assistant', 'ok'],
    ]);
    expect(ctx.issues).toEqual([]);
  });

  it('names the line and field of a turn with an unknown role and keeps the others', () => {
    const { doc, ctx } = ctxFor('{\n  "messages": [\n    {"role": "user", "content": "q"},\n    {"role": "constructor", "content": "x"}\n  ]\n}');
    const t = readTrajectory(doc.value, ctx)!;
    expect(t.turns.map((x) => x.id)).toEqual(['m0']);
    expect(ctx.issues).toEqual([{ file: 't.json', line: 4, field: 'messages[1].role', message: expect.stringContaining('unknown role "constructor"'), severity: 'error' }]);
  });
});

describe('readTrajectory of a bare array', () => {
  it('reports a turn that is not an object by its index', () => {
    const { doc, ctx } = ctxFor('[\n  {"role": "user", "content": "q"},\n  5\n]');
    expect(readTrajectory(doc.value, ctx)!.turns.map((x) => x.id)).toEqual(['m0']);
    expect(ctx.issues).toEqual([{ file: 't.json', line: 3, field: '[1]', message: 'expected a turn object, got number', severity: 'error' }]);
  });
});

describe('trajectoryItems', () => {
  it('pairs each observation with the oldest open call and numbers observations from 1', () => {
    const { doc, ctx } = ctxFor(
      JSON.stringify([
        { role: 'user', content: 'q' },
        { role: 'assistant', content: '<tool_call>{"name": "search", "arguments": {"q": "a"}}</tool_call><tool_call>b</tool_call>' },
        { role: 'tool', content: 'A' },
        { role: 'environment', content: '<tool_response_2>B</tool_response_2>' },
        { role: 'assistant', content: '<answer>done</answer>' },
      ]),
    );
    const items = trajectoryItems(readTrajectory(doc.value, ctx)!, 't.json', { userTurnsAnswerCalls: false });
    expect(items.map((i) => [i.id, i.role, i.kind, i.name ?? null, i.callId ?? null, i.text, i.meta ?? null])).toEqual([
      ['m0', 'user', 'message', null, null, 'q', null],
      ['m1.call', 'assistant', 'tool_call', 'search', 'm1.call', '{"q":"a"}', null],
      ['m1.call1', 'assistant', 'tool_call', 'tool_call', 'm1.call1', 'b', null],
      ['m2', 'tool', 'tool_result', null, 'm1.call', 'A', { turn: 1 }],
      ['m3', 'environment', 'tool_result', null, 'm1.call1', '<tool_response_2>B</tool_response_2>', { turn: 2 }],
      ['m4.answer', 'assistant', 'message', null, null, 'done', { answer: true }],
    ]);
  });

  it('treats a user turn after an action as its observation only when asked to', () => {
    const { doc, ctx } = ctxFor(JSON.stringify([{ role: 'assistant', content: '<action>look</action>' }, { role: 'user', content: 'You see a desk.' }]));
    const traj = readTrajectory(doc.value, ctx)!;
    expect(trajectoryItems(traj, 't.json', { userTurnsAnswerCalls: true })[1]).toMatchObject({ kind: 'tool_result', role: 'user', callId: 'm0.call' });
    expect(trajectoryItems(traj, 't.json', { userTurnsAnswerCalls: false })[1]).toMatchObject({ kind: 'message', role: 'user' });
  });
});

describe('trajectorySignals', () => {
  it('collects agent text apart from the rest, and refuses non-trajectories', () => {
    const { doc } = ctxFor(JSON.stringify({ conversations: [{ from: 'human', value: 'a' }, { from: 'gpt', value: 'b' }, { from: 'observation', value: 'c' }] }));
    expect(trajectorySignals(doc)).toEqual({ shape: 'conversations', agentText: 'b', otherText: 'a\nc', hasEnvironmentRole: true });
    expect(trajectorySignals(ctxFor('{"items": []}').doc)).toBeNull();
    expect(trajectorySignals(ctxFor('[{"role": "wizard", "content": "x"}, {"role": "user", "content": "y"}]').doc)).toBeNull();
    expect(trajectorySignals(ctxFor('[1, 2, {"role": "user", "content": "y"}]').doc)).toBeNull();
  });
});
