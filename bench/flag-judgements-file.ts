// The flags of the audit judged by hand on unlabelled sessions (flag-judgements.json, its `about` says how they were
// chosen and split), as the scripts read them: bench/flag-judgements.ts scores them, bench/labelled-instructions.ts
// finds each session's instruction files. Half B is score-only: a script reads its flags' causes for no rule.
import { readFileSync } from 'node:fs';

export const LISTS = ['lostReferencedLater', 'lostRefetchedLater', 'invented', 'inventedInstructions'] as const;
export type JudgedList = (typeof LISTS)[number];

export interface Judged {
  session: string;
  compaction: number;
  list: JudgedList;
  value: string;
  right: boolean;
  class?: string;
  why: string;
}

/** A judged session: its file at `ref` (a ref of the mirror: HEAD, or Entire's checkpoints branch) of `repo`. */
export interface JudgedSession {
  repo: string;
  ref: string;
  path: string;
  half: 'A' | 'B';
  /** The lists judged on that session (session 47's sessions leave the instruction list out); absent, all. */
  lists?: string[];
  judgedIn?: number;
}

export interface Judgements {
  sessions: Record<string, JudgedSession>;
  flags: Judged[];
}

export function flagJudgements(): Judgements {
  return JSON.parse(readFileSync(new URL('./flag-judgements.json', import.meta.url), 'utf8')) as Judgements;
}
