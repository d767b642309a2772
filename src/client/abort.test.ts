import { describe, expect, it } from 'vitest';
import { anySignal, combineManually, whenAborted } from './abort';

describe('anySignal', () => {
  it('uses AbortSignal.any when the runtime has it', () => {
    const a = new AbortController();
    const b = new AbortController();
    const seen: AbortSignal[][] = [];
    const combined = anySignal([a.signal, b.signal], (signals) => {
      seen.push(signals);
      return AbortSignal.any(signals);
    });
    expect(seen).toEqual([[a.signal, b.signal]]);
    b.abort('why');
    expect(combined.signal.aborted).toBe(true);
    expect(combined.signal.reason).toBe('why');
  });

  it('falls back to the manual combiner without AbortSignal.any', () => {
    const a = new AbortController();
    const combined = anySignal([a.signal, new AbortController().signal], undefined);
    expect(combined.signal.aborted).toBe(false);
    a.abort('first');
    expect(combined.signal.aborted).toBe(true);
    expect(combined.signal.reason).toBe('first');
  });
});

describe('combineManually', () => {
  it('is aborted at once when a source already is', () => {
    const a = new AbortController();
    a.abort('early');
    const c = combineManually([new AbortController().signal, a.signal]);
    expect(c.signal.aborted).toBe(true);
    expect(c.signal.reason).toBe('early');
  });

  it('stops following its sources once disposed', () => {
    const a = new AbortController();
    const c = combineManually([a.signal]);
    c.dispose();
    a.abort();
    expect(c.signal.aborted).toBe(false);
  });
});

describe('whenAborted', () => {
  it('rejects with the token when the signal aborts', async () => {
    const a = new AbortController();
    const w = whenAborted(a.signal, 'tok');
    a.abort();
    await expect(w.promise).rejects.toBe('tok');
  });

  it('rejects at once for a signal that is already aborted', async () => {
    await expect(whenAborted(AbortSignal.abort(), 7).promise).rejects.toBe(7);
  });
});
