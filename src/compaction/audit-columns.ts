// What a run's summary audits say, as the columns a policy comparison shows: identifiers lost and needed later,
// lost and fetched again by a later tool call, and survival by kind. The summary audit (src/audit) is the one
// source: its `lostRefetchedLater` and `survival` (per compaction) are read as they are. An audit without them (one
// written before the audit had them, read back from a cache or a bundle) gets the same columns worked out here from
// what it has — its lost values against later tool results, its identifier kinds — and says so.
import { survivalKindOf, totalSurvival, type SummaryAudit } from '../audit';
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
  /** Per kind of evicted content (the audit's kinds: paths, commands, numbers…): how many there were and how many the summaries kept. */
  survival: Record<string, Survival>;
  /** `audit`: read from the audit's own fields; `derived`: worked out here from kept/lost and later tool results. */
  source: 'audit' | 'derived';
}

/** An audit as it may come back from an older cache: the re-fetch and survival fields possibly absent. */
type StoredAudit = Omit<SummaryAudit, 'lostRefetchedLater' | 'survival'> & Partial<Pick<SummaryAudit, 'lostRefetchedLater' | 'survival'>>;

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
export function auditColumns(audits: readonly { audit: StoredAudit; callIndex: number }[], later: LaterToolText): AuditColumns {
  const lostNeeded = [...new Set(audits.flatMap((a) => a.audit.lostReferencedLater.map((r) => r.value)))];
  const own = audits.every((a) => Array.isArray(a.audit.lostRefetchedLater) && a.audit.survival !== undefined);
  if (own) {
    const survival: Record<string, Survival> = {};
    for (const [kind, s] of Object.entries(totalSurvival(audits.map((a) => a.audit.survival!)))) if (s.evicted > 0) survival[kind] = { evicted: s.evicted, kept: s.kept };
    return { lostNeeded, lostRefetched: [...new Set(audits.flatMap((a) => a.audit.lostRefetchedLater!.map((r) => r.value)))], survival, source: 'audit' };
  }
  const refetched = new Set<string>();
  const survival: Record<string, Survival> = {};
  for (const { audit, callIndex } of audits) {
    for (const v of later.refetched(audit.lost, callIndex + 1)) refetched.add(v);
    for (const v of audit.kept) add(survival, survivalKindOf(audit.kinds[v] ?? 'number'), 1, 1);
    for (const v of audit.lost) add(survival, survivalKindOf(audit.kinds[v] ?? 'number'), 1, 0);
  }
  return { lostNeeded, lostRefetched: [...refetched], survival, source: 'derived' };
}

function add(into: Record<string, Survival>, kind: string, evicted: number, kept: number) {
  const s = (into[kind] ??= { evicted: 0, kept: 0 });
  s.evicted += evicted;
  s.kept += kept;
}
