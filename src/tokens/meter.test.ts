import { describe, expect, it } from 'vitest';
import type { TokenCount } from './counter';
import { pickEncoding } from './encoding';
import { estimateTokens } from './estimate';
import { meterTokens, sumCounts, type MeteredCount } from './meter';
import { createTokenPool, type CountReply, type SpawnWorker } from './pool';

/** One worker that answers only when told to. */
function heldWorker() {
  const held: (() => void)[] = [];
  const spawn: SpawnWorker = (_i, hooks) => ({
    post(request) {
      const reply: CountReply = { id: request.id, counts: request.texts.map((t): TokenCount => ({ tokens: t.length, approximate: t.includes('~') })) };
      held.push(() => hooks.reply(reply));
    },
    terminate() {},
  });
  return { spawn, release: () => held.splice(0).forEach((f) => f()) };
}

describe('meterTokens', () => {
  it('shows estimates at once and exact counts as they arrive', async () => {
    const worker = heldWorker();
    const pool = createTokenPool({ size: 1, spawn: worker.spawn });
    const texts = ['The port is 5432 on db-prod-1.', 'a~b'];
    const updates: number[][] = [];
    const meter = meterTokens(pool, texts, pickEncoding('gpt-4o'), { onUpdate: (indices) => updates.push(indices) });
    expect(meter.get(0)).toEqual({ tokens: estimateTokens(texts[0]!), exact: false, approximate: true });
    expect(meter.progress).toEqual({ done: 0, total: 2, reused: 0 });
    await new Promise((r) => setTimeout(r, 0));
    worker.release();
    await meter.done;
    expect(meter.get(0)).toEqual({ tokens: texts[0]!.length, exact: true, approximate: false });
    expect(meter.get(1)).toEqual({ tokens: 3, exact: true, approximate: true });
    expect(updates).toEqual([[0, 1]]);
    expect(meter.progress).toEqual({ done: 2, total: 2, reused: 0 });
  });

  it('marks every count of a stand-in encoding approximate', async () => {
    const worker = heldWorker();
    const pool = createTokenPool({ size: 1, spawn: worker.spawn });
    const meter = meterTokens(pool, ['hello'], pickEncoding('claude-sonnet-4-5'));
    await new Promise((r) => setTimeout(r, 0));
    worker.release();
    await meter.done;
    expect(meter.get(0)).toEqual({ tokens: 5, exact: true, approximate: true });
  });

  it('keeps estimates readable when cancelled', async () => {
    const worker = heldWorker();
    const pool = createTokenPool({ size: 1, spawn: worker.spawn });
    const meter = meterTokens(pool, ['hello world'], pickEncoding('gpt-4o'));
    meter.cancel();
    await expect(meter.done).rejects.toMatchObject({ name: 'AbortError' });
    expect(meter.get(0)).toEqual({ tokens: 2, exact: false, approximate: true });
  });
});

describe('sumCounts', () => {
  it('is exact only when every part is, and approximate when any part is', () => {
    const exact: MeteredCount = { tokens: 3, exact: true, approximate: false };
    const estimate: MeteredCount = { tokens: 4, exact: false, approximate: true };
    expect(sumCounts([exact, exact])).toEqual({ tokens: 6, exact: true, approximate: false });
    expect(sumCounts([exact, estimate])).toEqual({ tokens: 7, exact: false, approximate: true });
    expect(sumCounts([])).toEqual({ tokens: 0, exact: true, approximate: false });
  });
});
