import { describe, expect, it } from 'vitest';
import { groupByKind, kindName } from './audit-groups';

describe('groupByKind', () => {
  // Kinds as the coding-agent demo's first audit reports them.
  const kinds = { 'db-prod-1:5432': 'host-port', 'FRE-512': 'ticket', 'v2.14.3': 'version', 'config/db.yaml': 'path', 'jobs/reconcile.py': 'path', '30s': 'quantity' } as const;

  it('groups values by kind in reading order, keeping the given order inside a group', () => {
    expect(groupByKind(['30s', 'jobs/reconcile.py', 'FRE-512', 'config/db.yaml', 'db-prod-1:5432'], kinds)).toEqual([
      { kind: 'host-port', label: 'host:port', values: ['db-prod-1:5432'] },
      { kind: 'path', label: 'paths', values: ['jobs/reconcile.py', 'config/db.yaml'] },
      { kind: 'ticket', label: 'tickets', values: ['FRE-512'] },
      { kind: 'quantity', label: 'quantities', values: ['30s'] },
    ]);
  });

  it('puts values the kinds map does not know under other, last', () => {
    expect(groupByKind(['mystery', 'v2.14.3', 'toString'], kinds)).toEqual([
      { kind: 'version', label: 'versions', values: ['v2.14.3'] },
      { kind: 'other', label: 'other', values: ['mystery', 'toString'] },
    ]);
  });

  it('returns no groups for no values', () => {
    expect(groupByKind([], kinds)).toEqual([]);
  });
});

describe('kindName', () => {
  it('names a kind in the singular for one and the plural otherwise', () => {
    expect([kindName('quantity'), kindName('quantity', 3), kindName('path', 0), kindName('host-port', 2), kindName('other', 5)]).toEqual(['quantity', 'quantities', 'paths', 'host:port', 'other']);
  });
});
