// How far the audit's lists hold on sessions no rule was written on: the labelled set's blind hold-out
// (src/audit/__fixtures__/README.md, docs/audit.md). labelled-set.test.ts checks these against its score, so the
// panel and the CLI never state a figure the set does not measure.
export const AUDIT_HOLDOUT = {
  /** The rows measured: the newest hold-out that no rule was written looking at. */
  split: 'holdout3',
  sessions: 11,
  /** Of them, sessions whose misses rules were later written on (holdout-study.ts): the figures then partly fit them. */
  studied: 6,
  /** Of the identifiers listed as lost and needed later or lost then fetched again, the share that were. */
  neededPrecision: 0.65,
  /** Listed as invented, and invented. */
  inventedFlags: 8,
  inventedRight: 1,
} as const;

/** One sentence a user reads beside the lists: what they are worth on sessions labelled apart from the rules. */
export function auditTrustNote(): string {
  const h: { sessions: number; studied: number; neededPrecision: number; inventedFlags: number; inventedRight: number } = AUDIT_HOLDOUT;
  const where =
    h.studied === 0
      ? `${h.sessions} sessions its rules were not written on`
      : `${h.sessions} sessions labelled apart from its rules (rules were since written looking at ${h.studied} of them)`;
  return (
    `The summary audit, measured on ${where}: ` +
    `${Math.round(h.neededPrecision * 100)}% of the identifiers it listed as needed later were needed, and ` +
    `${h.inventedRight} of ${h.inventedFlags} it listed as invented were. Treat these lists as leads to check.`
  );
}
