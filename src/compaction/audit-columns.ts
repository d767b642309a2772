// What a run's summary audits say, as the columns a policy comparison shows: identifiers lost and needed later,
// lost and fetched again by a later tool call, and survival by kind. The summary audit (src/audit) is the one
// source: where its result carries `lostRefetchedLater` and `survival` (the audit's own, per compaction) they are
// read as they are; an audit without them gets the same columns worked out here from what it has (its lost values
// against later tool results, and its identifier kinds), and says so.
import type { SummaryAudit } from '../audit';
import type { IdentifierKind } from '../audit';
import type { Item } from '../model/types';

export interface Survival {
  evicted: number;
  kept: number;
}

export interface AuditColumns {
  /** Distinct lost identifiers a later turn needed. */
  lostNeeded: string[];
  /** Distinct lost identifiers a later tool call fetched again. */
  lostRefetched: string[];
  /** Per kind of evicted content: how many values there were and how many the summaries kept. */
  survival: Record<string, Survival>;
  /** `audit`: read from the audit's own fields; `derived`: worked out here from kept/lost and later tool results. */
  source: 'audit' | 'derived';
}

/** The audit fields another module adds (the summary audit's re-fetch and survival work), read where present. */
type ExtendedAudit = SummaryAudit & {
  lostRefetchedLater?: readonly ({ value: string } | string)[];
  survival?: Readonly<Record<string, Survival>>;
};

/** Survival groups of the identifier kinds, as a reader names them. */
const KIND_GROUP: Record<IdentifierKind, string> = {
  path: 'file paths',
  url: 'URLs',
  function: 'functions',
  'host-port': 'identifiers',
  host: 'identifiers',
  port: 'numbers',
  email: 'identifiers',
  ticket: 'identifiers',
  'order-id': 'identifiers',
  uuid: 'identifiers',
  hash: 'identifiers',
  date: 'numbers',
  version: 'numbers',
  quantity: 'numbers',
  number: 'numbers',
};

/** Every tool result after each call, lower-cased, to find where a lost value came back. */
export class LaterToolText {
  private readonly text: string;
  private readonly starts: number[];

  constructor(fresh: readonly (readonly Item[])[]) {
    const parts: string[] = [];
    this.starts = [];
    let at = 0;
    for (const items of fresh) {
      this.starts.push(at);
      for (const it of items) {
        if (it.kind !== 'tool_result') continue;
        const t = `${it.text.toLowerCase()}\n`;
        parts.push(t);
        at += t.length;
      }
    }
    this.starts.push(at);
    this.text = parts.join('');
  }

  /** Values some tool result from call `fromCall` on shows again. */
  refetched(values: readonly string[], fromCall: number): string[] {
    const start = this.starts[Math.min(fromCall, this.starts.length - 1)] ?? this.text.length;
    return values.filter((v) => v.length >= 3 && this.text.indexOf(v.toLowerCase(), start) >= 0);
  }
}

/** The columns for a run's audits, each with the call its compaction was first sent at (0-based). */
export function auditColumns(audits: readonly { audit: SummaryAudit; callIndex: number }[], later: LaterToolText): AuditColumns {
  const extended = audits.map((a) => a.audit as ExtendedAudit);
  const own = extended.length > 0 && extended.every((a) => Array.isArray(a.lostRefetchedLater) && a.survival !== undefined);
  const lostNeeded = [...new Set(audits.flatMap((a) => a.audit.lostReferencedLater.map((r) => r.value)))];
  if (own) {
    const refetched = extended.flatMap((a) => a.lostRefetchedLater!.map((r) => (typeof r === 'string' ? r : r.value)));
    const survival: Record<string, Survival> = {};
    for (const a of extended) for (const [kind, s] of Object.entries(a.survival!)) add(survival, kind, s.evicted, s.kept);
    return { lostNeeded, lostRefetched: [...new Set(refetched)], survival, source: 'audit' };
  }
  const refetched = new Set<string>();
  const survival: Record<string, Survival> = {};
  for (const { audit, callIndex } of audits) {
    for (const v of later.refetched(audit.lost, callIndex + 1)) refetched.add(v);
    for (const v of audit.kept) add(survival, groupOf(audit, v), 1, 1);
    for (const v of audit.lost) add(survival, groupOf(audit, v), 1, 0);
  }
  return { lostNeeded, lostRefetched: [...refetched], survival, source: 'derived' };
}

const groupOf = (audit: SummaryAudit, value: string) => KIND_GROUP[audit.kinds[value] ?? 'number'] ?? 'identifiers';

function add(into: Record<string, Survival>, kind: string, evicted: number, kept: number) {
  const s = (into[kind] ??= { evicted: 0, kept: 0 });
  s.evicted += evicted;
  s.kept += kept;
}
