// The first hold-out (split `holdout`) became seen in session 41: it was split by session, before any miss was
// looked at, into a part whose misses rules were written on and a part that is only scored (docs/audit.md). The
// scored part is the one that still says how the rules generalise, until a new blind hold-out replaces it.

/** Sessions of the first hold-out that rules were written looking at (all three repositories). */
export const HOLDOUT_STUDY: ReadonlySet<string> = new Set([
  'pupmcp-35dd7d02',
  'cipherbox-2095544c',
  'sword-livecd-27841a08',
  'sword-backups-e4b9598d',
  'sword-backups-33b0306f',
  'sword-claude-86490a22',
]);

// The second hold-out (split `holdout2`, blind until session 42) was split the same way in session 42, by session and
// before any of its misses was read: five sessions of three repositories to study, four to score only. Every
// repository but one has sessions on both sides; jeevanpillay/dual sits wholly in the score part, so one project no
// rule writer read stays scored.

/** Sessions of the second hold-out that rules were written looking at. */
export const HOLDOUT2_STUDY: ReadonlySet<string> = new Set([
  'fittoday-180c622b',
  'medgemma-7d735052',
  'chkit-92354ed8',
  'chkit-bb4f4bed',
  'chkit-5f45db97',
]);

// The third hold-out (split `holdout3`, blind until session 43) was split in session 43 BY REPOSITORY, before any of
// its misses was read: hold-out 2's score part shared repositories with its study part and scored far better than
// projects nobody had read (95% against 67%), so here no repository lends rules to the part that scores them.
// Studied: Beep206/CyberVPN (5 sessions) and JanDeDobbeleer/oh-my-posh (1); scored only:
// Safecast/safecast-map-MCP (3) and PackmindHub/context-evaluator (2). The parts hold 180 and 213 lost rows, 9 and 18
// of them needed, and the score part most of the "referenced" labels (10 of 12), the list furthest from the goal.

/** Sessions of the third hold-out that rules were written looking at: all of two repositories. */
export const HOLDOUT3_STUDY: ReadonlySet<string> = new Set([
  'cybervpn-c94aadce',
  'cybervpn-c569f4dd',
  'cybervpn-3399979a',
  'cybervpn-74a46b67',
  'cybervpn-cdd85d16',
  'omp-6c0a282a',
]);

// The fourth hold-out (split `holdout4`, blind until session 44) was split in session 44 BY REPOSITORY, from the
// repository list and row counts only, before any row's verdict was read. Studied: Lightprotocol/light-protocol (Rust,
// 4 sessions, 131 rows), punt-labs/langlearn-tts (Python, 1, 29) and ebridges/wakil (Python, 2, 11): 171 rows.
// Scored only: roo-oliv/monodreams (C#, 3, 134), nakamura-shuta/tij (Rust, 2, 98) and steadyfall/wwbm-webapp
// (Python, 1, 1): 233 rows. Each part keeps a Rust repository; the C# one stays unread.

/** Sessions of the fourth hold-out that rules were written looking at: all of three repositories. */
export const HOLDOUT4_STUDY: ReadonlySet<string> = new Set([
  'lp-345198a8',
  'lp-a3ba6276',
  'lp-e2e1621a',
  'lp-3ad45457',
  'langlearn-e16d7f5a',
  'wakil-0062da63',
  'wakil-5bea7345',
]);

// The never-studied pool itself (below) was split in session 45 BY REPOSITORY, from its repository list and lost-row
// counts only, before any of its rows' verdicts was read (issue 30: the session audit found fewer of its needed rows
// than the row excerpts did, and the cause had to be studied somewhere). Rule: of every way to cut the pool's
// repositories in two, the one whose lost-row counts are closest (335 against 341 of 676); the side holding the
// repository that sorts first by the sha256 of its owner/name (nakamura-shuta/tij) is studied, and a repository with no
// lost row (steadyfall/wwbm-webapp) stays in the score part. Studied: Safecast/safecast-map-MCP (Go, 3 sessions, 120
// rows), nakamura-shuta/tij (Rust, 2, 95), roo-oliv/monodreams (C#, 3, 120). Scored only: port-experimental/port-cli
// (Go, 6, 203), PackmindHub/context-evaluator (TypeScript, 2, 93), jeevanpillay/dual (Rust, 1, 45) and
// steadyfall/wwbm-webapp (Python, 1, 0). Each part keeps a Go and a Rust repository.

/** Sessions of the never-studied pool that rules were written looking at (session 45): all of three repositories. */
const POOL_STUDY_45 = [
  'safecast-4df2f39a',
  'safecast-0852daa6',
  'safecast-ba492de5',
  'tij-19512375',
  'tij-7bdbcc35',
  'monodreams-0f7de2e3',
  'monodreams-d9b49d30',
  'monodreams-469e58d2',
];

// Session 59 split the pool again, BY REPOSITORY and by a rule written down before any of its rows was read: a
// repository is studied when the first byte of sha256('pool-split-59:' + owner/name) is below 86 (about a third).
// That took 23 of its 72 repositories with lost rows (37 of 106 sessions, 1,134 of 3,415 lost rows); the other two
// thirds stay the score part. Why again: the pool's errors come from causes the studied sessions did not show, and
// they can only be learned by reading some of them; the rest still measures what was learned.
const POOL_STUDY_59 = [
  'adelie-7f0debad', 'adelie-d8b82001', 'apollo-132cf69f', 'apollo-d97ae08b', 'blackbsd-6f42db94', 'ci-2280f522',
  'ci-3cbc097a', 'concert-6f7a8814', 'concert-7cfd307c', 'cs-1786f353', 'dcr-24819617', 'dcr-dcdf04e4', 'dual-d1c82db5',
  'el-03872e49', 'eq-ef618467', 'hc-95573294', 'lcm-48741139', 'lcm-7c955a97', 'life-60589102', 'life-9457d5a1',
  'mem-063071b3', 'mem-81b5b775', 'om-796f117a', 'owhisper-1b9dd633', 'owhisper-5d9a59a0', 'packmind-8209f1c2',
  'packmind-8ecab05f', 'pl-6ced6c1a', 'prs-004407cd', 'prs-4f089425', 'sc-ad79e67c', 'sc-c8376c74', 'vault-1998fc0b',
  'vault-4ccdac34', 'vc-6ec78367', 'zts-ce8b29a3', 'zts-d2ca0992',
];

/** Sessions of the never-studied pool that rules were written looking at: session 45's and session 59's parts. */
export const HOLDOUT_POOL_STUDY: ReadonlySet<string> = new Set([...POOL_STUDY_45, ...POOL_STUDY_59]);

// The fourteenth hold-out (split `holdout14`, blind until session 52, the first from Claude Code folders people commit
// outside Entire) was split in session 52 BY REPOSITORY, by the pool's rule of session 45 and from its lost-row counts
// only: the cut closest to half is K3RN-LABS/k3rn.labs (3 sessions, 60 lost rows) against Eduardodmb/ClaudeWork (3, 55)
// and Quiago/tripolar-chat (1, 36); the side holding the repository that sorts first by the sha256 of its owner/name
// (quiago/tripolar-chat) is studied. Its blind score on the real sessions had been read first, whole: needed 9 of 21.

/** Sessions of the fourteenth hold-out that rules are written looking at: all of two repositories. */
export const HOLDOUT14_STUDY: ReadonlySet<string> = new Set(['acg-73558073', 'acg-a572bd87', 'ecw-21d5136b', 'tri-e23fc04e']);

/** The studied part of a split that has one (a hold-out rules were later written on), or undefined. */
export function studyPartOf(split: string): ReadonlySet<string> | undefined {
  return split === 'holdout' ? HOLDOUT_STUDY : split === 'holdout2' ? HOLDOUT2_STUDY : split === 'holdout3' ? HOLDOUT3_STUDY : split === 'holdout4' ? HOLDOUT4_STUDY : split === 'holdout14' ? HOLDOUT14_STUDY : undefined;
}

/**
 * Hold-outs labelled (blind, committed before any score) but not yet folded into the never-studied pool. The pool's
 * stated figure (AUDIT_HOLDOUT) is measured on the real session files by the lead (bench/labelled-on-sessions.ts
 * --pool); until that run, a new hold-out's rows stay out of the pool so the panel's sentence and the checks on it
 * keep describing what was measured. Folding one in is removing it from here and moving AUDIT_HOLDOUT with it.
 * `holdout7` and `holdout8` (session 47), `holdout9` (session 48), `holdout10` (session 49), `holdout11` (session 50)
 * and `holdout12` and `holdout13` (session 51) waited here until that run, and are in the pool since; so did
 * `holdout14` (session 52), whose score part (HOLDOUT14_STUDY's other side) is, and `holdout15` to `holdout18`
 * (session 52) and `holdout19` to `holdout21` (session 53), whole.
 */
export const POOL_PENDING: ReadonlySet<string> = new Set<string>();

/**
 * Rows of the hold-outs whose repository no rule was ever written looking at: not in the dev or test half, not in any
 * hold-out's study part. What the panel states is scored on these, pooled over every hold-out, so a newer hold-out
 * adds to the measure instead of replacing it, and a repository leaves it the session anyone studies it.
 */
export function neverStudiedRows<R extends { split: string; session: string }>(rows: readonly R[], repoOf: (session: string) => string): R[] {
  return poolBeforeItsSplit(rows, repoOf).filter((r) => !HOLDOUT_POOL_STUDY.has(r.session) && !poolStudyRepos(rows, repoOf).has(repoOf(r.session)));
}

/**
 * The never-studied pool as it stood before it was split itself (session 45): both its study part
 * (HOLDOUT_POOL_STUDY) and its score part, which neverStudiedRows returns alone.
 */
export function poolBeforeItsSplit<R extends { split: string; session: string }>(rows: readonly R[], repoOf: (session: string) => string): R[] {
  const studied = new Set<string>();
  for (const r of rows) {
    const part = studyPartOf(r.split);
    if (r.split === 'dev' || r.split === 'test' || part?.has(r.session)) studied.add(repoOf(r.session));
  }
  return rows.filter((r) => r.split.startsWith('holdout') && !POOL_PENDING.has(r.split) && !studied.has(repoOf(r.session)));
}

function poolStudyRepos<R extends { session: string }>(rows: readonly R[], repoOf: (session: string) => string): Set<string> {
  return new Set(rows.filter((r) => HOLDOUT_POOL_STUDY.has(r.session)).map((r) => repoOf(r.session)));
}
