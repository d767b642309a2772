// Precision and recall of the audit on hand-labelled rows (src/audit/__fixtures__/labelled-audit.jsonl, sources in
// labelled-sessions.json and the fixture README). Each row is one identifier (or one summary sentence) with the
// short context it came from, labelled by a person before the engine's answer was looked at. The engine is run on
// each row's context and its answer compared with the label. Sessions were split into a dev half (the rules were
// written looking at it) and a test half (only scored).
import { targetKey, type CallTarget } from '../refetch/call-target';
import { auditSummary, type AuditInput, type TextMeta } from './audit-summary';
import type { IdentifierKind } from './identifiers';
import { inventedInstructions } from './invented-instructions';
import type { ScopeText } from './project-scope';

/**
 * The session's half: `dev` and `test` are the sessions the rules were written on (the test half has been seen since
 * session 40); `holdout` rows come from sessions no rule was written on, labelled apart and scored blind (`holdout2`:
 * a second such set, labelled in session 41 while the first was opened to rule writers; `holdout3`, `holdout4` and
 * `holdout5` the third, fourth and fifth, labelled in sessions 42, 43 and 44; `holdout6` the sixth, labelled in session 46; `holdout7` and `holdout8` the seventh and eighth, labelled in session 47; `holdout9` the ninth, labelled in session 48; `holdout10` the tenth, labelled in session 49; `holdout11` the eleventh, labelled in session 50; `holdout12` the twelfth, labelled in session 51; `holdout13` the thirteenth, labelled in session 51; `holdout14` the fourteenth, labelled in session 52, the first from Claude Code folders committed outside Entire; `holdout15` the fifteenth, labelled in session 52 from the same source; `holdout16` the sixteenth, labelled in session 52 from the same source; `holdout17` the seventeenth, labelled in session 52 from the same source; `holdout18` the eighteenth, labelled in session 52 from the same source; `holdout19` the nineteenth, labelled in session 53 from the same source; `holdout20` the twentieth, labelled in session 53 from the same source; `holdout21` the twenty-first, labelled in session 53 from the same source).
 */
export type Split = 'dev' | 'test' | 'holdout' | 'holdout2' | 'holdout3' | 'holdout4' | 'holdout5' | 'holdout6' | 'holdout7' | 'holdout8' | 'holdout9' | 'holdout10' | 'holdout11' | 'holdout12' | 'holdout13' | 'holdout14' | 'holdout15' | 'holdout16' | 'holdout17' | 'holdout18' | 'holdout19' | 'holdout20' | 'holdout21';
export type LostLabel = 'referenced' | 'refetched' | 'none';

export interface LabelledTarget {
  tool: string;
  /** Absent when it is the file. */
  target?: string;
  file?: string | null;
  writes?: boolean;
  kind: CallTarget['kind'];
}

export interface LabelledText {
  /** A tool call that repeats a fetch the compaction removed (the session showed it; the row holds one evicted item). */
  repeats?: boolean;
  role?: string;
  kind?: string;
  target?: LabelledTarget;
  /** Line of the session file the item came from. */
  line?: number;
  /**
   * The harness wrote this user-role item (a task notification, a Skill's injected text, a reminder): `text` is an
   * excerpt that may have lost the opening tag or the record's `isMeta` flag that tell it (bench/labelled-harness-flags.ts).
   */
  harness?: boolean;
  /** Added from the real session file by bench/labelled-later-evidence.ts (the candidate excerpt lacked it). */
  fromFile?: boolean;
  /** The user's `/clear`: the model saw nothing from before it, so no later item from here on tells what a summary lost. */
  clears?: boolean;
  text: string;
}

interface RowBase {
  id: string;
  split: Split;
  session: string;
  compaction: number;
  /** Why the labeller chose the label. */
  why: string;
}

export interface LostRow extends RowBase {
  list: 'lost';
  value: string;
  kind: IdentifierKind;
  /** What a careful person says: used later without a re-fetch, recovered by one, or not needed; null: cannot be told. */
  label: LostLabel | null;
  evicted: LabelledText;
  later: LabelledText[];
  /** `file`: `later` was completed from the real session file (bench/labelled-later-evidence.ts); its added items say `fromFile`. */
  laterFrom?: 'file';
  /** The summary's lines holding the identifier's bare form, when any. */
  summary?: string;
  /** Lines of the session that declare, import or alias the name. */
  defined?: string[];
  /** Tool-call arguments and listing lines of the session that show the path. */
  exists?: { kind: string; text: string }[];
  /**
   * Lines holding the identifier in what the compaction kept verbatim beside its summary (an OpenHands
   * condensation's recent events, what a microcompaction did not clear).
   */
  kept?: string[];
  /** `restored`: `kept` holds lines of a file Claude Code restored beside the summary (bench/labelled-restored-kept.ts). */
  keptFrom?: 'restored';
  /**
   * Lines holding the identifier in the instruction files the project's repository held when the session ran (its
   * CLAUDE.md and imports: bench/labelled-instruction-lines.ts), which the harness put in every request unrecorded.
   */
  instructions?: { path: string; lines: string[] }[];
}

export interface InventedRow extends RowBase {
  list: 'invented';
  value: string;
  kind: IdentifierKind;
  /** Is the identifier invented (nothing the summarizer read backs it)? null: cannot be told. */
  label: boolean | null;
  /** The summary's line holding it. */
  summary: string;
  /** Lines of what the summarizer read that come closest. */
  support: string[];
}

export interface InstructionRow extends RowBase {
  list: 'instruction';
  sentence: string;
  /** Does the sentence claim the user said something no user message says? null: cannot be told. */
  label: boolean | null;
  /** The summary line holding the sentence, and the heading above it. */
  line: string;
  heading?: string;
  /** For a transcript cut from a longer session: lines of its earlier summaries that bear on the claim. */
  others?: string[];
}

export type LabelledRow = LostRow | InventedRow | InstructionRow;

export interface LabelledSession {
  repo: string;
  path: string;
  commit: string;
  stack: string;
  harness: string;
  split: Split;
  /** The file starts mid-conversation: its first summary covers turns it does not hold. */
  startsMidConversation?: boolean;
  cwd: string | null;
  days: string[];
  /** The user messages before each labelled compaction (by its index), for instruction rows. */
  userMessages: Record<string, string[]>;
}

const targetOf = (t: LabelledTarget | undefined): CallTarget | null =>
  t ? { tool: t.tool, target: t.target ?? t.file ?? '', file: t.file ?? null, writes: t.writes ?? false, kind: t.kind } : null;
// A harness-written item is read as the audit of the whole session reads it: flagged as the harness's (`isMeta`).
const harnessMeta = (t: LabelledText) => (t.harness ? { meta: { isMeta: true } } : {});
const metaOf = (t: LabelledText): TextMeta => ({ role: t.role, kind: t.kind, target: targetOf(t.target), ...harnessMeta(t) });

/** A row's later items before the user's `/clear`, as the session audit reads them (audit-session.ts `sinceClear`). */
const untilClear = (later: readonly LabelledText[]): readonly LabelledText[] => {
  const at = later.findIndex((l) => l.clears);
  return at < 0 ? later : later.slice(0, at);
};

/** The audit's input for a lost row: its evicted item, its later items, and what the session shows of its project. */
export function laterInputOf(row: LostRow, session: LabelledSession): AuditInput {
  const project: ScopeText[] = [...(row.defined ?? []).map((text) => ({ text })), ...(row.exists ?? []).map((e) => ({ text: e.text, kind: e.kind }))];
  return {
    summary: row.summary ?? '',
    sources: [row.evicted.text],
    sourceMeta: [metaOf(row.evicted)],
    removedFetches: row.later.flatMap((l) => (l.repeats && l.target ? [targetKey(targetOf(l.target)!)] : [])),
    later: untilClear(row.later).map((l, i) => ({ id: `later-${i}`, text: l.text, role: l.role, kind: l.kind, target: targetOf(l.target), ...harnessMeta(l) })),
    keptVerbatim: row.kept ?? [],
    ...(row.instructions ? { instructionFiles: row.instructions.map((f) => ({ path: f.path, text: f.lines.join('\n') })) } : {}),
    sessionDays: session.days,
    project: { cwd: session.cwd, texts: project },
    ...(session.harness === 'claude-code' ? { format: 'claude-code' as const } : {}),
  };
}

/** The engine's answer for a lost row: which list, if any, it puts the identifier in. */
export function lostVerdict(row: LostRow, session: LabelledSession): LostLabel {
  const audit = auditSummary(laterInputOf(row, session));
  // A file is one row under its longest spelling; the row's value may be one of its other spellings.
  const names = (r: { value: string; spellings?: string[] }) => r.value === row.value || (r.spellings ?? []).includes(row.value);
  if (audit.lostReferencedLater.some(names)) return 'referenced';
  if (audit.lostRefetchedLater.some(names)) return 'refetched';
  return 'none';
}

/** Does the engine call the row's identifier invented? */
export function inventedVerdict(row: InventedRow, session: LabelledSession): boolean {
  const unverifiable = session.startsMidConversation === true && row.compaction === 0;
  const audit = auditSummary({ summary: row.summary, sources: row.support, later: [], sessionDays: session.days, unverifiable, project: { cwd: session.cwd } });
  // Compared without trailing punctuation an older extraction kept (`a.md\``).
  const bare = (v: string) => v.replace(/[`'".,;:]+$/, '');
  return audit.invented.some((v) => bare(v) === bare(row.value));
}

/** Does the engine call the row's sentence an invented instruction? */
export function instructionVerdict(row: InstructionRow, session: LabelledSession): boolean {
  // The first summary of a file cut from a longer session speaks of turns the file does not hold.
  if (session.startsMidConversation && row.compaction === 0) return false;
  const summary = `${row.heading ?? ''}\n${row.line}`;
  const found = inventedInstructions(summary, session.userMessages[String(row.compaction)] ?? [], () => (session.startsMidConversation ? (row.others ?? []) : []));
  const s = row.sentence.replace(/^["“]|["”]$/g, '').trim();
  return found.some((f) => f.sentence.includes(s) || s.includes(f.sentence.replace(/^["“]|["”]$/g, '').trim()));
}

export interface Score {
  /** Rows of this list with a label. */
  rows: number;
  truePositives: number;
  falsePositives: number;
  falseNegatives: number;
  /** Of the rows the engine flags, the share labelled right (1 when it flags none). */
  precision: number;
  /** Of the rows labelled right, the share the engine flags (1 when none is). */
  recall: number;
}

function score(pairs: readonly { said: boolean; right: boolean }[]): Score {
  let tp = 0;
  let fp = 0;
  let fn = 0;
  for (const { said, right } of pairs) {
    if (said && right) tp++;
    else if (said) fp++;
    else if (right) fn++;
  }
  return { rows: pairs.length, truePositives: tp, falsePositives: fp, falseNegatives: fn, precision: tp + fp === 0 ? 1 : tp / (tp + fp), recall: tp + fn === 0 ? 1 : tp / (tp + fn) };
}

export interface SetScores {
  lostReferencedLater: Score;
  lostRefetchedLater: Score;
  /** Recall of "needed later" read either way: a row labelled referenced or refetched that either list holds. */
  neededUnion: Score;
  invented: Score;
  inventedInstructions: Score;
  /** Rows left out because no one can label them (their `why` says why). */
  unlabelled: number;
}

/** Scores of the engine on the rows of one half. */
export function scoreRows(rows: readonly LabelledRow[], sessions: Readonly<Record<string, LabelledSession>>): SetScores {
  const referenced: { said: boolean; right: boolean }[] = [];
  const refetched: { said: boolean; right: boolean }[] = [];
  const union: { said: boolean; right: boolean }[] = [];
  const invented: { said: boolean; right: boolean }[] = [];
  const instructions: { said: boolean; right: boolean }[] = [];
  let unlabelled = 0;
  for (const row of rows) {
    if (row.label === null) {
      unlabelled++;
      continue;
    }
    const session = sessions[row.session]!;
    if (row.list === 'lost') {
      const said = lostVerdict(row, session);
      referenced.push({ said: said === 'referenced', right: row.label === 'referenced' });
      refetched.push({ said: said === 'refetched', right: row.label === 'refetched' });
      union.push({ said: said !== 'none', right: row.label !== 'none' });
    } else if (row.list === 'invented') invented.push({ said: inventedVerdict(row, session), right: row.label });
    else instructions.push({ said: instructionVerdict(row, session), right: row.label });
  }
  return {
    lostReferencedLater: score(referenced),
    lostRefetchedLater: score(refetched),
    neededUnion: score(union),
    invented: score(invented),
    inventedInstructions: score(instructions),
    unlabelled,
  };
}

/** The rows each verdict got wrong, for a labeller's look (dev only). */
export function misses(rows: readonly LabelledRow[], sessions: Readonly<Record<string, LabelledSession>>): { id: string; label: unknown; said: unknown }[] {
  const out: { id: string; label: unknown; said: unknown }[] = [];
  for (const row of rows) {
    if (row.label === null) continue;
    const session = sessions[row.session]!;
    const said = row.list === 'lost' ? lostVerdict(row, session) : row.list === 'invented' ? inventedVerdict(row, session) : instructionVerdict(row, session);
    if (said !== row.label) out.push({ id: row.id, label: row.label, said });
  }
  return out;
}

const pct = (x: number) => `${(x * 100).toFixed(0)}%`;
const scoreLine = (s: Score) => `P ${pct(s.precision)} R ${pct(s.recall)} (tp ${s.truePositives}, fp ${s.falsePositives}, fn ${s.falseNegatives}, ${s.rows} rows)`;

/** A set's scores as the lines the test and the hold-out script print. */
export function scoreTable(name: string, s: SetScores): string {
  return [
    `${name}:`,
    `  lostReferencedLater   ${scoreLine(s.lostReferencedLater)}`,
    `  lostRefetchedLater    ${scoreLine(s.lostRefetchedLater)}`,
    `  needed (either list)  ${scoreLine(s.neededUnion)}`,
    `  invented              ${scoreLine(s.invented)}`,
    `  inventedInstructions  ${scoreLine(s.inventedInstructions)}`,
    `  unlabelled rows       ${s.unlabelled}`,
  ].join('\n');
}
