import { describe, expect, it } from 'vitest';
import { asst, countWords, marker, summary, sys, toolCall, toolResult, user } from '../cache/test-builders';
import { pairToolCalls } from '../model/pairing';
import type { Item } from '../model/types';
import { isRecap } from './layout';
import { offlineSummarizer } from './offline-summarizer';
import { resolveParams, runStrategy, STRATEGY_IDS, type StrategyId } from './strategy-registry';
import { seeded } from './test-support';
import { cutSplitsPair, pairGroups, pairSpans, safeCut, splitPairs } from './tool-pairs';

function paired(items: Item[]): Item[] {
  pairToolCalls(items);
  return items;
}

// Two parallel calls answered in order: [u, c1, c2, r1, r2, a].
const parallel = () =>
  paired([user('u', 'go'), toolCall('c1', 'read', '{"p":1}', 'x1'), toolCall('c2', 'read', '{"p":2}', 'x2'), toolResult('r1', 'read', 'one', 'x1'), toolResult('r2', 'read', 'two', 'x2'), asst('a', 'done')]);

describe('pairSpans', () => {
  it('spans each call with its result, whether linked by pairId or only by a shared call id', () => {
    expect(pairSpans(parallel())).toEqual([
      [1, 3],
      [2, 4],
    ]);
    // Unpaired items that share a provider call id are still one unit.
    expect(pairGroups([toolCall('c', 'f', '', 'k'), toolResult('r', 'f', 'x', 'k')])).toEqual([[0, 1]]);
  });

  it('ignores a call without a result', () => {
    expect(pairSpans(paired([toolCall('c', 'f', '', 'k'), asst('a', 'x')]))).toEqual([]);
  });
});

describe('cutSplitsPair and safeCut', () => {
  it('finds cuts between a call and its result and moves them to the nearest safe place', () => {
    const items = parallel();
    expect([0, 1, 2, 3, 4, 5, 6].map((c) => cutSplitsPair(items, c))).toEqual([false, false, true, true, true, false, false]);
    expect(safeCut(items, 3, 'earlier')).toBe(1);
    expect(safeCut(items, 3, 'later')).toBe(5);
    expect(safeCut(items, 5, 'earlier')).toBe(5);
  });
});

describe('splitPairs', () => {
  it('names the kept side of a pair whose other side is gone, but not a result replaced in place', () => {
    const before = parallel();
    expect(splitPairs(before, before.filter((it) => it.id !== 'r2'))).toEqual(['c2']);
    const masked = before.map((it) => (it.id === 'r1' ? { ...it, text: '[cleared]' } : it));
    expect(splitPairs(before, masked)).toEqual([]);
    expect(splitPairs(before, [before[0]!, before[5]!])).toEqual([]);
  });
});

/** A random agent context: system prompt, user turns, model steps with parallel tool calls, some orphans and recaps. */
function randomContext(rand: () => number, n: number): Item[] {
  const pick = (k: number) => Math.floor(rand() * k);
  const items: Item[] = [];
  let id = 0;
  const next = (p: string) => `${p}${n}_${id++}`;
  if (rand() < 0.8) items.push(sys(next('s'), 'You are an agent.'));
  const turns = 1 + pick(6);
  // Results that arrive late: after the user's next message or the next model step (interleaved logs).
  let late: Item[] = [];
  for (let t = 0; t < turns; t++) {
    items.push(user(next('u'), `Please check host-${t}.internal:${5000 + t} and ticket OPS-${100 + t}.`));
    items.push(...late);
    late = [];
    if (t === 0 && rand() < 0.3) items.push(rand() < 0.5 ? summary(next('sum'), '## Conversation Summary\n- **Decisions:** none\n- **Entities:** db-1:5432\n- **Facts:** none\n- **Open Items:** none') : marker(next('mk')));
    const steps = pick(5);
    for (let s = 0; s < steps; s++) {
      const response = next('resp');
      if (rand() < 0.5) items.push({ ...asst(next('th'), `thinking about step ${s} of /srv/app/file${s}.py`), kind: 'thinking', responseId: response });
      if (rand() < 0.4) items.push({ ...asst(next('m'), `I will run tool ${s}.`), responseId: response });
      const calls = pick(4);
      const made: Item[] = [];
      for (let c = 0; c < calls; c++) {
        const call = { ...toolCall(next('c'), `tool_${c}`, `{"arg":${c}}`, next('k')), responseId: response };
        items.push(call);
        made.push(call);
      }
      const order = rand() < 0.3 ? [...made].reverse() : made;
      items.push(...late);
      late = [];
      for (const call of order) {
        if (rand() > 0.9) continue;
        const result = toolResult(next('r'), call.name!, `result ${call.callId} at /var/log/x${s}.log`, call.callId!);
        if (rand() < 0.15) late.push(result);
        else items.push(result);
      }
    }
    if (rand() < 0.7) items.push(asst(next('a'), `Finished turn ${t}: decided to use v1.${t}.0.`));
  }
  items.push(...late);
  return paired(items);
}

function randomParams(id: StrategyId, rand: () => number): Record<string, unknown> {
  const pick = (k: number) => Math.floor(rand() * k);
  const unit = ['auto', 'user', 'step'][pick(3)];
  switch (id) {
    case 'drop-oldest':
      return { head: pick(3), tail: pick(4), unit, targetTokens: rand() < 0.5 ? null : 20 + pick(200) };
    case 'summarize-middle':
      return { head: pick(3), tail: pick(4), unit, render: rand() < 0.5 ? 'schema' : 'xml' };
    case 'observation-masking':
      return { keepLast: pick(4) };
    case 'omission':
      return { keepLast: pick(4), keepFirst: pick(2), thoughts: rand() < 0.7, observations: rand() < 0.7 };
    case 'iterated':
      return { head: pick(3), tail: pick(3), unit, method: ['base', 'backtracking', 'post-think', 'last-k', 'first-k', 'answer-only'][pick(6)], k: 1 + pick(20) };
    case 'claude-code-compact':
      return { maxFiles: pick(6), fileTokens: 1 + pick(50), filesBudget: pick(200) };
    case 'codex-compact':
      return { userBudget: pick(60) };
    case 'openhands-condenser':
      return { keepFirst: pick(5), maxSize: 2 + pick(30) };
    case 'inspect-trim':
      return { preservePercent: pick(101) };
    case 'server-compact':
      return {};
  }
}

describe('tool-pair invariant', () => {
  it('no strategy ever splits a tool call from its result, keeps causal order and leaves at most one recap (400 random contexts)', async () => {
    const rand = seeded(20261122);
    let compacted = 0;
    for (let n = 0; n < 400; n++) {
      const context = randomContext(rand, n);
      const id = STRATEGY_IDS[n % STRATEGY_IDS.length]!;
      const params = resolveParams(id, randomParams(id, rand));
      const out = await runStrategy(id, context, params, { summarizer: offlineSummarizer, count: countWords, idPrefix: `p${n}` });
      const label = `${id} ${JSON.stringify(params)} on context ${n}`;
      expect(splitPairs(context, out.context), label).toEqual([]);
      // Causal order: the original items still present appear in their original order.
      const position = new Map(context.map((it, i) => [it.id, i]));
      const kept = out.context.map((it) => position.get(it.id)).filter((p): p is number => p !== undefined);
      expect(kept, label).toEqual([...kept].sort((a, b) => a - b));
      // Every original item is still there, or was replaced/folded by this compaction.
      const gone = context.filter((it) => !out.context.some((o) => o.id === it.id)).map((it) => it.id);
      expect(gone.sort(), label).toEqual([...out.replacedIds.filter((r) => !out.context.some((o) => o.id === r)), ...out.foldedIds].sort());
      if (out.changed && out.recap) expect(out.context.filter(isRecap), label).toEqual([out.recap]);
      if (out.changed) compacted++;
    }
    // The property is only worth something if most runs compacted something.
    expect(compacted).toBeGreaterThan(200);
  });
});
