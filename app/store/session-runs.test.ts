import { describe, expect, it } from 'vitest';
import { sessionRuns } from './session-runs';

describe('sessionRuns', () => {
  const idle = { runId: 0, status: 'idle', progress: 0 };

  it('keeps each session apart and answers the idle state for one never run', () => {
    const runs = sessionRuns(idle);
    runs.patch('a', null, { runId: 1, status: 'running' });
    expect(runs.get('a')).toEqual({ runId: 1, status: 'running', progress: 0 });
    expect(runs.get('b')).toBe(idle);
  });

  it("drops a patch from a run that is no longer the session's current one", () => {
    const runs = sessionRuns(idle);
    runs.patch('a', null, { runId: 1, status: 'running' });
    runs.patch('a', null, { runId: 2, status: 'running', progress: 0 });
    runs.patch('a', 1, { progress: 90 });
    expect(runs.get('a').progress).toBe(0);
    runs.patch('a', 2, { progress: 40 });
    expect(runs.get('a')).toEqual({ runId: 2, status: 'running', progress: 40 });
  });
});
