import { describe, expect, it } from 'vitest';
import { asst, marker, summary, sys, toolCall, toolResult, user } from '../cache/test-builders';
import { pairToolCalls } from '../model/pairing';
import type { Item } from '../model/types';
import { isRecap, layout, stepStarts, turnStarts } from './layout';

const chat = (): Item[] => [sys('s', 'sys'), user('u1', 'one'), asst('a1', 'r1'), user('u2', 'two'), asst('a2', 'r2'), user('u3', 'three'), asst('a3', 'r3')];

function agentRun(): Item[] {
  const items = [
    sys('s', 'sys'),
    user('u', 'fix it'),
    toolCall('c1', 'read', '{}', 'k1'),
    toolResult('r1', 'read', 'a', 'k1'),
    toolCall('c2', 'grep', '{}', 'k2'),
    toolResult('r2', 'grep', 'b', 'k2'),
    toolCall('c3', 'edit', '{}', 'k3'),
    toolResult('r3', 'edit', 'c', 'k3'),
    asst('a', 'done'),
  ];
  pairToolCalls(items);
  return items;
}

describe('stepStarts and turnStarts', () => {
  it('starts a step at each user message and at each model response after something the model did not write', () => {
    expect(stepStarts(agentRun())).toEqual([1, 2, 4, 6, 8]);
    expect(turnStarts(agentRun(), 'user')).toEqual([1]);
    expect(turnStarts(chat(), 'user')).toEqual([1, 3, 5]);
  });

  it('splits consecutive assistant items into two steps when their response ids differ', () => {
    const items = [user('u', 'x'), asst('a', 'one', { responseId: 'r1' }), asst('b', 'two', { responseId: 'r2' }), asst('c', 'three', { responseId: 'r2' })];
    expect(stepStarts(items)).toEqual([0, 1, 2]);
  });
});

describe('layout', () => {
  it('keeps the system prompt and first user message as head and the last user turns as tail (course layout)', () => {
    expect(layout(chat(), { head: 1, tail: 1, unit: 'user' })).toEqual({ preambleEnd: 1, headEnd: 2, tailStart: 5, unit: 'user' });
  });

  it('falls back to model steps in auto mode when user turns leave nothing to compact (one-prompt agent run)', () => {
    expect(layout(agentRun(), { head: 1, tail: 2, unit: 'user' })).toEqual({ preambleEnd: 1, headEnd: 2, tailStart: 2, unit: 'user' });
    expect(layout(agentRun(), { head: 1, tail: 2, unit: 'auto' })).toEqual({ preambleEnd: 1, headEnd: 2, tailStart: 6, unit: 'step' });
  });

  it('keeps the user message that caused the tail tool calls before them (LiveKit causal order)', () => {
    const items = [
      sys('s', 'sys'),
      user('u1', 'hi'),
      asst('a1', 'address?'),
      user('u2', 'Ship to 2150 Grove St'),
      toolCall('c', 'create_rma', '{}', 'k'),
      toolResult('r', 'create_rma', '{"rma_id":"RMA-90721"}', 'k'),
      asst('a2', 'All set'),
    ];
    pairToolCalls(items);
    const l = layout(items, { head: 0, tail: 1, unit: 'user' });
    expect(items.slice(l.tailStart).map((it) => it.id)).toEqual(['u2', 'c', 'r', 'a2']);
    expect(items.slice(0, l.headEnd).map((it) => it.id)).toEqual(['s']);
  });

  it('puts every earlier recap in the middle, never in the head or the tail', () => {
    const items = [sys('s', 'sys'), summary('old', '## Conversation Summary'), user('u1', 'one'), asst('a1', 'r1'), marker('m'), user('u2', 'two')];
    const l = layout(items, { head: 3, tail: 5, unit: 'user' });
    expect(l.headEnd).toBe(1);
    expect(l.tailStart).toBe(5);
    expect(items.slice(l.headEnd, l.tailStart).filter(isRecap).map((it) => it.id)).toEqual(['old', 'm']);
  });

  it('moves the tail boundary back rather than keep a result without its call', () => {
    // The result of c1 arrives after the user's next message.
    const items = [sys('s', 'sys'), user('u1', 'one'), toolCall('c1', 'f', '{}', 'k'), user('u2', 'two'), toolResult('r1', 'f', 'late', 'k'), asst('a', 'ok')];
    pairToolCalls(items);
    const l = layout(items, { head: 1, tail: 1, unit: 'user' });
    expect(l.tailStart).toBe(2);
  });
});
