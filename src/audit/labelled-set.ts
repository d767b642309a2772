// Precision and recall of the audit on hand-labelled rows (src/audit/__fixtures__/labelled-audit.jsonl): each row
// is one identifier with the short context it came from, marked right or wrong by a person. The engine is run on
// each row's context; its verdict is compared with the label.
import { auditSummary } from './audit-summary';
import type { IdentifierKind } from './identifiers';

export type Verdict = 'lost-needed' | 'invented';

interface Context {
  role?: string;
  kind?: string;
  text: string;
  /** Fetch key (tool and target) of the call whose result this is. */
  call?: string;
}

export interface LabelledRow {
  value: string;
  kind: IdentifierKind;
  verdict: Verdict;
  /** Is the verdict right for this identifier in its session? */
  label: boolean;
  why: string;
  from: { repo: string; path: string };
  sessionDays: string[];
  /** Summary text (invented rows; lost rows from sessions whose summary is short); absent: the identifier is lost. */
  summary?: string | null;
  evicted: Context | null;
  later?: Context[];
}

/** Does the engine give the row's verdict on the row's context? */
export function engineSays(row: LabelledRow): boolean {
  const audit = auditSummary({
    summary: row.summary ?? '',
    sources: row.evicted ? [row.evicted.text] : [],
    sourceCalls: row.evicted ? [row.evicted.call ?? null] : [],
    later: (row.later ?? []).map((l, i) => ({ id: `later-${i}`, text: l.text, role: l.role, kind: l.kind, ...(l.call ? { call: l.call } : {}) })),
    sessionDays: row.sessionDays,
  });
  return row.verdict === 'invented' ? audit.invented.includes(row.value) : audit.lostReferencedLater.some((r) => r.value === row.value);
}

export interface Score {
  rows: number;
  truePositives: number;
  falsePositives: number;
  falseNegatives: number;
  /** Of the rows the engine flags, the share labelled right (1 when it flags none). */
  precision: number;
  /** Of the rows labelled right, the share the engine flags (1 when none is). */
  recall: number;
}

export function score(rows: readonly LabelledRow[], verdict: Verdict): Score {
  let tp = 0;
  let fp = 0;
  let fn = 0;
  let n = 0;
  for (const row of rows) {
    if (row.verdict !== verdict) continue;
    n++;
    const said = engineSays(row);
    if (said && row.label) tp++;
    else if (said) fp++;
    else if (row.label) fn++;
  }
  return { rows: n, truePositives: tp, falsePositives: fp, falseNegatives: fn, precision: tp + fp === 0 ? 1 : tp / (tp + fp), recall: tp + fn === 0 ? 1 : tp / (tp + fn) };
}
