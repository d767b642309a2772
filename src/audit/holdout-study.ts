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

/** The studied part of a split that has one (a hold-out rules were later written on), or undefined. */
export function studyPartOf(split: string): ReadonlySet<string> | undefined {
  return split === 'holdout' ? HOLDOUT_STUDY : split === 'holdout2' ? HOLDOUT2_STUDY : undefined;
}
