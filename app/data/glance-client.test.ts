import { describe, expect, it } from 'vitest';
import type { SessionGlance } from '../../src/analysis/session-glance';
import { glanceSessions, knownGlance, type Glance } from './glance-client';
import type { ServedSession } from './serve-api';

const glance = (calls: number): SessionGlance => ({ format: 'claude-code', title: 't', model: null, started: null, lastActivity: null, calls, compactions: 0, hitRate: null });
let seq = 0;
/** A listed session; `calls` set means the listing brought its figures (the server's index). */
function served(calls?: number): ServedSession {
  const n = seq++;
  return { id: `0/s${n}.jsonl`, root: 0, path: `s${n}.jsonl`, files: [`s${n}.jsonl`], harness: null, project: null, size: 100 + n, modified: 1, ...(calls === undefined ? {} : { glance: { ok: true, glance: glance(calls) } }) };
}

/** Runs glanceSessions to the end with a clock that moves `stepMs` per measured session. */
async function run(sessions: ServedSession[], stepMs: number, batchMs: number) {
  let clock = 0;
  const batches: Map<string, Glance>[] = [];
  let finish!: () => void;
  const done = new Promise<void>((r) => (finish = r));
  const todo = sessions.filter((s) => !knownGlance(s)).length;
  let fetched = 0;
  glanceSessions(sessions, (b) => batches.push(new Map(b)), {
    batchMs,
    now: () => clock,
    fetch: async (s) => {
      clock += stepMs;
      if (++fetched === todo) setTimeout(finish, 0);
      return s.path.endsWith('3.jsonl') ? { ok: false, message: 'unreadable' } : { ok: true, glance: glance(7) };
    },
  });
  if (todo === 0) finish();
  await done;
  return batches;
}

describe('glanceSessions', () => {
  it('reports the glances the listing brought at once, in one batch, before asking for any other', async () => {
    const list = [served(1), served(2), served(), served(4)];
    const batches = await run(list, 10, 1000);
    expect([...batches[0]!.keys()]).toEqual([list[0]!.id, list[1]!.id, list[3]!.id]);
    expect(batches[0]!.get(list[1]!.id)).toEqual({ state: 'done', glance: glance(2) });
    expect(batches).toHaveLength(2);
    expect([...batches[1]!.keys()]).toEqual([list[2]!.id]);
  });

  it('reports measured glances in batches, not one render per session, and each session exactly once', async () => {
    const list = Array.from({ length: 100 }, () => served());
    // 100 sessions measured 10 ms apart, batched every 250 ms: a handful of reports, not a hundred.
    const batches = await run(list, 10, 250);
    expect(batches.length).toBeLessThanOrEqual(5);
    const ids = batches.flatMap((b) => [...b.keys()]);
    expect(ids).toEqual(list.map((s) => s.id));
    // A session the server could not measure is reported as failed, in its batch.
    const failed = list.find((s) => s.path.endsWith('3.jsonl'))!;
    expect(batches.find((b) => b.has(failed.id))!.get(failed.id)).toEqual({ state: 'failed', message: 'unreadable' });
  });

  it('keeps a glance taken in this tab: the same file listed again is known without asking', async () => {
    const s = served();
    await run([s], 10, 250);
    expect(knownGlance({ ...s })).toEqual({ state: 'done', glance: glance(7) });
    // The same path with another size is another file state: asked again.
    expect(knownGlance({ ...s, size: s.size + 1 })).toBeUndefined();
  });
});
