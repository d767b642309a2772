import { describe, expect, it } from 'vitest';
import { describeAnalysisFailure } from './analysis-failure';

function stackOverflow(): unknown {
  const deep = (n: number): number => deep(n + 1) + 1;
  try {
    deep(0);
  } catch (e) {
    return e;
  }
  throw new Error('the stack did not overflow');
}

describe('describeAnalysisFailure', () => {
  it('turns a clone failure into what happened and what to do, keeping the original for a report', () => {
    const f = describeAnalysisFailure(new TypeError('Unserializable return value'), 'app');
    expect(f.kind).toBe('unserializable');
    expect(f.message).toMatch(/could not be handed to the page.*Please report it/);
    expect(f.message).not.toMatch(/Unserializable/);
    expect(f.detail).toBe('TypeError: Unserializable return value');
    expect(describeAnalysisFailure(new DOMException('function Object() { [native code] } could not be cloned.', 'DataCloneError'), 'app').kind).toBe('unserializable');
  });

  it('turns a real stack overflow into advice that depends on where it ran', () => {
    const e = stackOverflow();
    const app = describeAnalysisFailure(e, 'app');
    expect(app.kind).toBe('stack');
    expect(app.message).toMatch(/ran out of stack.*compaction-inspector inspect --json FILE/);
    expect(describeAnalysisFailure(e, 'cli').message).toMatch(/max-old-space-size/);
  });

  it('names memory exhaustion, a dead worker, and anything else with a next step', () => {
    expect(describeAnalysisFailure(new RangeError('Invalid string length'), 'app').kind).toBe('memory');
    expect(describeAnalysisFailure(new Error('the analysis worker stopped: out of memory'), 'app').kind).toBe('memory');
    expect(describeAnalysisFailure(new Error('the analysis worker stopped: unknown error'), 'app').kind).toBe('worker');
    const other = describeAnalysisFailure('boom', 'app');
    expect(other).toEqual({ kind: 'other', detail: 'boom', message: 'The analysis failed: boom. Reload the page to try again; if it fails again, please report it with the file.' });
  });
});
