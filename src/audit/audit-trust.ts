// How far the audit's lists hold on sessions no rule was written on: the labelled set's hold-out rows from
// repositories nobody studied (src/audit/__fixtures__/README.md, docs/audit.md). labelled-set.test.ts checks these
// against its score, so the panel and the CLI never state a figure the set does not measure.
export const AUDIT_HOLDOUT = {
  /** The rows measured: every hold-out's rows from repositories no rule was written looking at (neverStudiedRows). */
  pool: 'never-studied repositories',
  sessions: 70,
  projects: 50,
  /**
   * Of the identifiers the audit of the whole session (what the app and `check` show) listed as lost and needed later
   * or lost then fetched again, how many, and how many were: `npx tsx bench/labelled-on-sessions.ts --pool` checks
   * these against the real sessions (it needs their files, so `npm test` cannot).
   */
  neededFlags: 208,
  neededRight: 149,
  /** The same per list (a flag right when its identifier was needed in either reading): used without a fetch, fetched again. */
  referencedFlags: 77,
  referencedRight: 42,
  refetchedFlags: 131,
  refetchedRight: 107,
  /** The same scored on each row's excerpt (labelled-set.ts), which `npm test` checks: it misses later items the excerpt cut. */
  rowNeededFlags: 235,
  rowNeededRight: 157,
  /**
   * Of the identifiers the session audit listed as invented on the pool's labelled invented rows, how many, and how many
   * were invented: `npx tsx bench/labelled-on-sessions.ts --pool` checks these against the real sessions.
   */
  inventedFlags: 25,
  inventedRight: 5,
  /** The same scored on each row's excerpt (labelled-set.ts), which `npm test` checks. */
  rowInventedFlags: 59,
  rowInventedRight: 12,
  /**
   * The invented-instruction list, judged flag by flag (bench/flag-judgements.json) on the half of those sessions no
   * instruction rule was written looking at: how many flags it still lists there, and how many are right.
   * `npx tsx bench/flag-judgements.ts` checks these (it needs the sessions' files).
   */
  instructionSessions: 59,
  instructionFlags: 45,
  instructionRight: 6,
  /**
   * The same lists when each session's audit reads the instruction files its project's repository held when it ran
   * (CLAUDE.md and its imports: `Session.instructionFiles`, as `--instructions` or a dropped CLAUDE.md gives them):
   * `npx tsx bench/labelled-on-sessions.ts --pool --instructions` checks these.
   */
  withInstructions: {
    neededFlags: 200,
    neededRight: 149,
    referencedFlags: 76,
    referencedRight: 42,
    refetchedFlags: 124,
    refetchedRight: 107,
    inventedFlags: 25,
    inventedRight: 5,
  },
} as const;

/** The pool's figures for the audit as the user ran it: with the project's instruction files read, or without. */
type Figures = { [K in keyof typeof AUDIT_HOLDOUT.withInstructions]: number };
const figuresFor = (instructions: boolean): Figures => (instructions ? AUDIT_HOLDOUT.withInstructions : AUDIT_HOLDOUT);

const pct = (right: number, n: number): string => `${Math.round((right / n) * 100)}%`;

/** One sentence a user reads beside the lists: what they are worth on sessions labelled apart from the rules. */
export function auditTrustNote(opts: { instructions?: boolean } = {}): string {
  const h = { ...AUDIT_HOLDOUT, ...figuresFor(!!opts.instructions) };
  return (
    `The summary audit, measured on ${h.sessions} sessions of ${h.projects} projects no rule was written looking at` +
    `${opts.instructions ? ", each read with its project's CLAUDE.md as this one was" : ''}: ` +
    `of the identifiers it listed as lost, then fetched again, ${pct(h.refetchedRight, h.refetchedFlags)} were needed ` +
    `(${h.refetchedRight} of ${h.refetchedFlags}); of those it listed as needed later without a fetch, ` +
    `${pct(h.referencedRight, h.referencedFlags)} (${h.referencedRight} of ${h.referencedFlags}), the agent often having ` +
    `the rest from context the file does not record; ${h.inventedRight} of ${h.inventedFlags} it listed as invented were; ` +
    `of the invented instructions it listed on ${h.instructionSessions} other sessions, judged one by one, ` +
    `${h.instructionRight} of ${h.instructionFlags} were. Treat these lists as leads to check.`
  );
}

/** How often one list's flags were right on sessions no rule was written on, in a few words for the list's heading. */
export function auditListTrust(list: 'lostReferencedLater' | 'lostRefetchedLater' | 'invented' | 'inventedInstructions', opts: { instructions?: boolean } = {}): string {
  // The instruction list was judged flag by flag, on sessions read without their instruction files.
  if (list === 'inventedInstructions') return `${pct(AUDIT_HOLDOUT.instructionRight, AUDIT_HOLDOUT.instructionFlags)} invented on unseen sessions (${AUDIT_HOLDOUT.instructionRight} of ${AUDIT_HOLDOUT.instructionFlags})`;
  const h = figuresFor(!!opts.instructions);
  const [right, flags, what] =
    list === 'lostReferencedLater'
      ? [h.referencedRight, h.referencedFlags, 'needed']
      : list === 'lostRefetchedLater'
        ? [h.refetchedRight, h.refetchedFlags, 'needed']
        : [h.inventedRight, h.inventedFlags, 'invented'];
  return `${pct(right, flags)} ${what} on unseen sessions (${right} of ${flags})`;
}

/**
 * The 95% Wilson score interval of a share measured as `right` of `n`: how far a figure read off n labelled rows can
 * sit from the rate it estimates. The two scorers of the same labels must agree within it.
 */
export function wilsonInterval(right: number, n: number, z = 1.96): [number, number] {
  if (n === 0) return [0, 1];
  const p = right / n;
  const d = 1 + (z * z) / n;
  const mid = (p + (z * z) / (2 * n)) / d;
  const half = (z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n))) / d;
  return [Math.max(0, mid - half), Math.min(1, mid + half)];
}
