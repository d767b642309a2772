// A summary that writes a range of ids keeps each id in it. Modelled on half A of bench/flag-judgements.json
// (sam-fakhreddine/wfc, s68 and s79: "TASK-001 to TASK-006", "5 formal properties (PROP-001 through PROP-005)").
import { describe, expect, it } from 'vitest';
import { inIdRange, keptAndLost } from './audit-summary';

describe('inIdRange', () => {
  it('reads through, to, dashes and dots between ids of one prefix', () => {
    expect(inIdRange('5 formal properties (PROP-001 through PROP-005)', 'PROP-002')).toBe(true);
    expect(inIdRange('tasks TASK-001 to TASK-006 done', 'TASK-006')).toBe(true);
    expect(inIdRange('FRE-10..FRE-12', 'FRE-11')).toBe(true);
    expect(inIdRange('T-1–4', 'T-3')).toBe(true);
  });
  it('keeps no id outside the bounds or of another prefix', () => {
    expect(inIdRange('PROP-001 through PROP-005', 'PROP-006')).toBe(false);
    expect(inIdRange('PROP-001 through PROP-005', 'TASK-002')).toBe(false);
  });
});

describe('keptAndLost with a range', () => {
  const ids = ['PROP-002', 'PROP-007'].map((value) => ({ value, kind: 'ticket' as const, index: 0 }));
  it('keeps the ids the range holds and loses the rest', () => {
    const r = keptAndLost('The plan defines 5 formal properties (PROP-001 through PROP-005).', ids, {});
    expect(r.kept).toEqual(['PROP-002']);
    expect(r.lost.map((i) => i.value)).toEqual(['PROP-007']);
  });
});
