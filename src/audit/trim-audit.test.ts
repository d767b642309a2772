import { describe, expect, it } from 'vitest';
import type { CompactionAudit } from './audit-session';
import { emptySurvival } from './survival';
import { auditCount, trimAudit } from './trim-audit';

const audit = (n: number): CompactionAudit => ({
  compaction: 0,
  compactionId: 'c0',
  kept: ['FRE-512'],
  lost: Array.from({ length: n }, (_, i) => `host-${i}`),
  lostReferencedLater: Array.from({ length: n }, (_, i) => ({ value: `host-${i}`, itemId: `m${i}`, via: 'mention' as const })),
  lostRefetchedLater: Array.from({ length: n }, (_, i) => ({ value: `host-${i}`, itemId: `m${i}`, via: 'refetch' as const, usedIn: null })),
  invented: [],
  instructionLike: [],
  inventedInstructions: [],
  survival: emptySurvival(),
  kinds: Object.fromEntries([['FRE-512', 'ticket'], ...Array.from({ length: n }, (_, i) => [`host-${i}`, 'host'])]),
});

describe('trimAudit', () => {
  it('keeps a short audit as it is', () => {
    const a = audit(3);
    expect(trimAudit(a, 10)).toBe(a);
    expect(auditCount(a, 'lost')).toBe(3);
  });

  it('cuts long lists to the limit, keeps their kinds and records every full count', () => {
    const t = trimAudit(audit(5000), 100);
    expect(t.lost).toHaveLength(100);
    expect(t.lostReferencedLater).toHaveLength(100);
    expect(t.lostRefetchedLater).toHaveLength(100);
    expect(t.lost[99]).toBe('host-99');
    expect(t.kept).toEqual(['FRE-512']);
    expect(Object.keys(t.kinds)).toHaveLength(101);
    expect(t.kinds['host-99']).toBe('host');
    expect(t.totals).toEqual({ kept: 1, lost: 5000, lostReferencedLater: 5000, lostRefetchedLater: 5000, invented: 0, instructionLike: 0, inventedInstructions: 0 });
    expect(auditCount(t, 'lost')).toBe(5000);
    expect(auditCount(t, 'kept')).toBe(1);
  });
});
