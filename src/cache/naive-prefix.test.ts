import { describe, expect, it } from 'vitest';
import type { CallContext } from '../analysis/context-types';
import type { Item } from '../model/types';
import { itemHeader, unitsOf } from './item-hash';
import { naivePrefix } from './naive-prefix';
import { analyzeCachePrefix } from './prefix';
import { asst, call, calls, countWords, item, rng, summary, sys, user } from './test-builders';

const charsOver4 = (t: string) => Math.ceil(t.length / 4);

describe('naivePrefix', () => {
  it('counts the whole previous prompt when it is a prefix of the current one', () => {
    const a = call([sys('s', 'be brief'), user('u', 'hi there')]);
    const b = call([sys('s', 'be brief'), user('u', 'hi there'), asst('a', 'hello')]);
    expect(naivePrefix(a, b, countWords)).toEqual({ prefixTokens: 3 + 3, unitIndex: null, serialOffset: null });
  });

  it('stops at the first different character, counting the shared start of that item', () => {
    const a = call([sys('s', 'be brief'), user('u', 'hi there')]);
    const b = call([sys('s', 'be brief'), user('u', 'hi where')]);
    // "user:message\nhi " is shared: 2 words.
    expect(naivePrefix(a, b, countWords)).toEqual({ prefixTokens: 3 + 2, unitIndex: 1, serialOffset: 'user:message\nhi '.length });
  });

  it('treats an item that ends where the other goes on as a difference', () => {
    const a = call([user('u', 'abc'), user('v', 'def')]);
    const b = call([user('u', 'abcdef')]);
    expect(naivePrefix(a, b, countWords)).toEqual({ prefixTokens: 2, unitIndex: 0, serialOffset: 'user:message\nabc'.length });
  });

  it('reports a difference when the current prompt ends before the previous one', () => {
    const a = call([user('u', 'abc'), user('v', 'def')]);
    const b = call([user('u', 'abc')]);
    expect(naivePrefix(a, b, countWords)).toEqual({ prefixTokens: 2, unitIndex: 1, serialOffset: 0 });
  });
});

// Random prompts and edits: appends, in-place text edits (including one text becoming a prefix of the
// other), dropped ranges, summaries over ranges, header changes, tool schema changes, truncation.
const PIECES = ['a', 'b', 'ab', ' ', '\n', 'x y', 'ba ', 'zz'];

function randomText(r: () => number, max = 6): string {
  let s = '';
  const n = Math.floor(r() * max);
  for (let i = 0; i < n; i++) s += PIECES[Math.floor(r() * PIECES.length)];
  return s;
}

let serial = 0;
function randomItem(r: () => number): Item {
  const roles = [user, asst, sys];
  const make = roles[Math.floor(r() * roles.length)]!;
  return r() < 0.15 ? summary(`s${serial++}`, randomText(r)) : make(`i${serial++}`, randomText(r));
}

function mutate(r: () => number, prev: CallContext): CallContext {
  let items = prev.entries.map((e) => ({ ...e.item }));
  let tools = prev.tools;
  const pick = () => Math.floor(r() * items.length);
  const op = Math.floor(r() * 8);
  if (op === 0 && items.length) {
    const j = pick();
    const t = items[j]!.text;
    const at = Math.floor(r() * (t.length + 1));
    items[j] = { ...items[j]!, text: t.slice(0, at) + randomText(r, 3) + t.slice(at + Math.floor(r() * 3)) };
  } else if (op === 1 && items.length) {
    const j = pick();
    const t = items[j]!.text;
    items[j] = { ...items[j]!, text: r() < 0.5 ? t.slice(0, Math.floor(r() * t.length)) : t + randomText(r, 3) };
  } else if (op === 2 && items.length) {
    const j = pick();
    items.splice(j, 1 + Math.floor(r() * 3));
  } else if (op === 3 && items.length) {
    const j = pick();
    items.splice(j, 1 + Math.floor(r() * 3), summary(`s${serial++}`, randomText(r)));
  } else if (op === 4 && items.length) {
    const j = pick();
    items[j] = item(items[j]!.id, items[j]!.role, items[j]!.kind, items[j]!.text, { name: r() < 0.5 ? 'tool' : 'too' });
  } else if (op === 5) {
    tools = r() < 0.3 ? null : (tools ?? '') + randomText(r, 3);
  } else if (op === 6 && items.length) {
    items = items.slice(0, pick());
  }
  const added = Math.floor(r() * 4);
  for (let i = 0; i < added; i++) items.push(randomItem(r));
  return call(items, { tools });
}

describe('analyzeCachePrefix against naivePrefix', () => {
  for (const [name, count] of [
    ['words', countWords],
    ['chars/4', charsOver4],
  ] as const) {
    it(`agrees on prefix tokens and the divergence point over 600 seeded random call pairs (${name})`, () => {
      const r = rng(20250101);
      let checked = 0;
      const seen = { same: 0, inText: 0, header: 0, endedEarly: 0, tools: 0 };
      for (let round = 0; round < 60; round++) {
        let cur = call(Array.from({ length: Math.floor(r() * 6) }, () => randomItem(r)), { tools: r() < 0.3 ? randomText(r) : null });
        const seq: CallContext[] = [cur];
        for (let step = 0; step < 10; step++) seq.push((cur = mutate(r, cur)));
        const log = calls(...seq);
        const reports = analyzeCachePrefix(log, { count, rule: 'exact' });
        for (let i = 1; i < log.length; i++) {
          const naive = naivePrefix(log[i - 1]!, log[i]!, count);
          const fast = reports[i]!;
          expect(fast.prefixTokens, `round ${round} call ${i}`).toBe(naive.prefixTokens);
          expect(fast.sharedItems).toBe(naive.unitIndex ?? unitsOf(log[i - 1]!).length);
          expect(fast.divergence === null).toBe(naive.unitIndex === null);
          if (fast.divergence && naive.serialOffset !== null) {
            const unit = unitsOf(log[i - 1]!)[naive.unitIndex!]!;
            const header = unit.item ? itemHeader(unit.item) : 'tools\n';
            const currentHasIt = naive.unitIndex! < unitsOf(log[i]!).length;
            const expected = fast.divergence.headerChanged || !currentHasIt ? 0 : naive.serialOffset - header.length;
            expect(fast.divergence.offset).toBe(expected);
            if (!currentHasIt) seen.endedEarly++;
            else if (fast.divergence.itemIndex === -1) seen.tools++;
            else if (fast.divergence.headerChanged) seen.header++;
            else seen.inText++;
          } else seen.same++;
          checked++;
        }
      }
      expect(checked).toBe(600);
      // The sample covers every kind of case.
      for (const n of Object.values(seen)) expect(n).toBeGreaterThan(10);
    });
  }
});
