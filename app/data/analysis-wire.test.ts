import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildAnalysisView } from '../../src/analysis/analysis-view';
import { loadText } from '../../src/load/loader';
import { claudeCodeSession } from '../../bench/generators/claude-code-session';
import { forgetStatic, pack, park, PARK_ABOVE_CALLS, unpackResult, unpark } from './analysis-wire';

const path = join(__dirname, '../../src/formats/__fixtures__/claude-code-session.jsonl');
const session = loadText('claude-code-session.jsonl', readFileSync(path, 'utf8')).sessions[0]!;
const encoding = { encoding: 'o200k_base', reason: 'test' } as never;

describe('pack and unpackResult', () => {
  it("carry a replayed view across without its calls' entry lists and rebuild them on the page", () => {
    const view = buildAnalysisView(session, { count: (t) => t.length, ghosts: false });
    const packed = pack({ view, encoding, exact: true }, session, 'k1');
    expect(packed.view.calls.every((c) => !('entries' in c))).toBe(true);
    const back = unpackResult(structuredClone(packed), session).view;
    expect(back.calls.map((c) => c.entries)).toEqual(view.calls.map((c) => c.entries));
    expect(back.items.every((it, i) => it === view.items[i])).toBe(true);
    forgetStatic('k1');
  });

  it('send the parts that depend only on the contexts once per session, and the page fills them in', () => {
    const first = buildAnalysisView(session, { count: (t) => t.length, ghosts: false });
    const second = buildAnalysisView(session, { count: (t) => Math.ceil(t.length / 4), ghosts: false });
    const a = pack({ view: first, encoding, exact: false }, session, 'k2');
    const b = pack({ view: second, encoding, exact: true }, session, 'k2');
    expect(a.view.eviction).toBeDefined();
    expect(b.view.eviction).toBeUndefined();
    unpackResult(structuredClone(a), session);
    const back = unpackResult(structuredClone(b), session).view;
    expect(back.eviction).toEqual(second.eviction);
    expect(back.compactions).toEqual(second.compactions);
    expect(back.calls.map((c) => c.bands)).toEqual(second.calls.map((c) => c.bands));
    forgetStatic('k2');
    // Forgotten: the next view of the session carries them again.
    expect(pack({ view: second, encoding, exact: true }, session, 'k2').view.eviction).toBeDefined();
    forgetStatic('k2');
  });

  it("park a big view's cache reports and lints for a second message, and the page puts them back as they were", () => {
    const big = loadText('big.jsonl', claudeCodeSession({ seed: 5, records: 7_000, bytes: 2_000_000, compactions: 2 })).sessions[0]!;
    const view = buildAnalysisView(big, { count: (t) => Math.ceil(t.length / 4), ghosts: false });
    expect(view.calls.length).toBeGreaterThan(PARK_ABOVE_CALLS);
    expect(view.cache.length).toBe(view.calls.length);
    const packed = pack({ view, encoding, exact: true }, big, 'k3');
    const parts = park(packed)!;
    expect(packed.parked).toBe(true);
    expect(packed.view.cache).toEqual([]);
    const back = unpackResult(unpark(structuredClone(packed), structuredClone(parts)), big).view;
    expect(back.cache).toEqual(view.cache);
    expect(back.lintCandidates).toEqual(view.lintCandidates);
    expect(back.lints).toEqual(view.lints);
    forgetStatic('k3');
    // A small view goes whole.
    expect(park(pack({ view: buildAnalysisView(session, { count: (t) => t.length, ghosts: false }), encoding, exact: true }, session, 'k4'))).toBeNull();
    forgetStatic('k4');
  });
});
