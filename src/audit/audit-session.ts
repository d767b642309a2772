// Runs the summary audit over every compaction of a loaded session: the evicted items are the sources,
// the summary (or marker) stands in for them, the items after it are "later".
import type { CompactionEvent, Item, Session } from '../model/types';
import {
  commandsOf,
  distinctOf,
  isOthersWords,
  isReference,
  isUserWords,
  keptAndLost,
  ownIdentifiers,
  unbacked,
  unescapeArguments,
  type AuditInput,
  type LaterReference,
  type RefetchedReference,
  type SummaryAudit,
  type TextMeta,
} from './audit-summary';
import { callTarget, targetKey, type CallTarget } from '../refetch/call-target';
import { daysOf, isNoise, type NoiseContext } from './noise';
import type { Identifier, IdentifierKind } from './identifiers';
import { SessionItems } from './session-items';
import { SupportCheck, supportKeys } from './session-support';
import { maxOf } from '../model/arrays';
import { definesNameMemo, ProjectScope, SCOPE_WORDS } from './project-scope';
import { relevance } from './relevance';
import { classifyLaterUse, functionName, isAgentReport, isExampleDataIn, onlyInCommitMessage, onlyInWrittenTree, opensFileNamed, otherDefinitionAt, takenAsArgument, takesValue, type LaterWalk } from './later-use';
import { isCompactCommand, isHarnessItem, saidText } from '../model/harness-messages';
import { judgeUserClaims, MessageReadings, userWordsRead, type ReadText } from './invented-instructions';
import { survivalKindOf, survivalOf } from './survival';
import { isPlaceholderFile } from './invented-backing';
import { askedAlike } from './questions';
import { foldSpellings } from './spellings';
import { ListingIndex, listedPaths, reprintsWhole } from './listed-paths';
import { foundIn, haystack, type Haystack } from './normalize';
import { loadedByHarness, shownBySubagent, shownToExistLater, type LaterSight } from './shown-later';
import { instructionContext, instructionUnits, isRecordedInstructions } from './instruction-files';
import { hiddenByRedaction, redactedExtensions } from './redacted';
import { SourceTexts } from './instructions';
import { namedInEveryRequest } from './loaded-instructions';
import { unrecordedRestoreOf } from './unrecorded-restore';

/** One row per audited compaction; `compaction` is the event's 0-based index in the session. */
export interface CompactionAudit extends SummaryAudit {
  compaction: number;
  compactionId: string;
  /** The files Claude Code attached again beside the summary (`besideSummary`): what they hold is not counted lost. */
  restored?: { itemId: string; file: string; kind: 'file' | 'plan' }[];
  /**
   * The Claude Code version, when it is one that read files into the context again after this compaction without
   * recording which (2.1.88 or before, `restoresUnrecorded`): what they held may be listed lost.
   */
  restoredUnrecorded?: string;
}

/**
 * A tool call reads as `name(arguments)`, so its function name is one of the slice's identifiers. A file Claude Code
 * attaches (one @-mentioned, or read again after a compaction) reaches the model as a Read of its path with the body
 * as the result, and a plan with its path: the path is context as much as the text (claude-code-attachments.ts).
 */
export function renderForAudit(item: Item): string {
  if (item.kind === 'tool_call' && item.name) return `${item.name}(${item.text})`;
  // A result that is JSON encoded once more (an MCP server's `{\"files\": [\"src/a.ts\"]}`) writes its quote marks
  // escaped: read as quote marks, a path stands between them as in any JSON. A backslash before a quote is no path's.
  if (item.kind === 'tool_result') return item.text.includes('\\"') ? item.text.replace(/\\"/g, '"') : item.text;
  const path = item.meta?.['attachment'] ? item.meta['path'] : undefined;
  if (typeof path !== 'string') return item.text;
  if (item.meta?.['attachment'] === 'file') return `Read(${JSON.stringify({ file_path: path })})\n${item.text}`;
  return item.text.includes(path) ? item.text : `${path}\n${item.text}`;
}

/** For each item, the fetch it makes (a tool call) or answers (a tool result, through its paired call); else null. */
export function fetchTargets(items: readonly Item[]): (CallTarget | null)[] {
  const byId = new Map(items.map((it) => [it.id, it]));
  return items.map((it) => {
    if (it.kind === 'tool_call') return callTarget(it);
    if (it.kind !== 'tool_result' || !it.pairId) return null;
    const call = byId.get(it.pairId);
    return call ? callTarget(call) : null;
  });
}

/**
 * Role, kind, fetch and harness flags of each item, by item, as the audit reads them; for an audit of items outside
 * a recorded compaction (a replay's, compaction/rerun.ts), so both are read alike.
 */
export function fetchMetaOf(items: readonly Item[]): (item: Item) => TextMeta {
  const targets = fetchTargets(items);
  const byItem = new Map(items.map((it, i) => [it, targets[i] ?? null]));
  const byId = new Map(items.map((it, i) => [it.id, targets[i] ?? null]));
  return (it) => ({ role: it.role, kind: it.kind, target: byItem.get(it) ?? byId.get(it.id) ?? null, ...(it.meta ? { meta: it.meta } : {}), ...(it.name ? { name: it.name } : {}) });
}

/**
 * Of the items a compaction left in the context, the texts the model still sees verbatim beside the summary: all but
 * the system prompt (its names are conventions and examples, not the session's facts) and placeholders in place of
 * cleared content (the caller leaves out what the compaction replaced).
 */
export function keptVerbatimOf(items: readonly Item[]): string[] {
  return items.filter((it) => it.role !== 'system').map(renderForAudit);
}

/** An item after the compaction as the audit reads it: its text, who wrote it, what it fetched and what it answers. */
export function laterEntry(i: Item, target: CallTarget | null, call: string | null = null): AuditInput['later'][number] {
  return {
    id: i.id,
    text: renderForAudit(i),
    role: i.role,
    kind: i.kind,
    ...(call ? { call } : {}),
    target,
    ...(i.kind === 'tool_result' && i.pairId ? { callId: i.pairId } : {}),
    ...(i.meta ? { meta: i.meta } : {}),
    ...(i.isError ? { isError: true } : {}),
  };
}

/** The session's working directory, when its format records one. */
export const cwdOf = (session: Pick<Session, 'meta'>): string | null => (typeof session.meta['cwd'] === 'string' ? session.meta['cwd'] : null);

/** The file starts mid-conversation: its first summary covers turns it does not hold (see claude-code.ts). */
const startsMid = (session: Session): boolean => session.meta['startsMidConversation'] === true;

/**
 * In a file that starts mid-conversation, the summaries up to the first that replaced the earlier turns were written
 * reading turns the file does not hold: a microcompaction before it clears tool results but leaves those turns in
 * context, so the first real summary still covers them. So was a summary whose boundary says so (a session continued
 * in another file, claude-code-compaction.ts). Nothing such a summary says can be shown invented.
 */
const readsUnheldTurns = (session: Session, event: Pick<CompactionEvent, 'index' | 'coversUnheldTurns'>): boolean => {
  if (event.coversUnheldTurns) return true;
  if (!startsMid(session)) return false;
  const first = session.compactions.findIndex((c) => c.summaryId !== null);
  return first < 0 || event.index <= first;
};

/**
 * Audit input for one compaction, or null when the event records no evicted items (a compaction-log line
 * without ids carries its own kept/lost lists instead) or its summary is opaque.
 */
export function auditInputFor(session: Session, event: CompactionEvent): AuditInput | null {
  // An encrypted summary cannot be read: auditing it would count every identifier as lost.
  if (event.replacedIds.length === 0 || event.opaque) return null;
  const replaced = new Set(event.replacedIds);
  const position = new Map(session.items.map((item, i) => [item.id, i]));
  const summaryItem = event.summaryId ? session.items.find((i) => i.id === event.summaryId) : undefined;
  const summary = summaryItem?.text ?? event.log?.summary ?? '';
  // The compaction takes effect at its summary or boundary record, else right after the last evicted item.
  const anchors = [event.summaryId, event.atItemId].map((id) => (id ? position.get(id) : undefined)).filter((i) => i !== undefined);
  const at = anchors.length > 0 ? maxOf(anchors) : maxOf(event.replacedIds.map((id) => position.get(id) ?? -1));
  const [from, to] = sinceClear(session.items, at);
  const isContent = (item: Item) => item.kind !== 'compaction' && item.id !== event.summaryId && !replaced.has(item.id);
  const targets = fetchTargets(session.items);
  const targetOf = new Map(session.items.map((it, i) => [it, targets[i] ?? null]));
  const keyOf = (it: Item): string | null => (it.kind === 'tool_result' && targetOf.get(it) ? targetKey(targetOf.get(it)!) : null);
  const metaOf = (it: Item): TextMeta => ({ role: it.role, kind: it.kind, target: targetOf.get(it) ?? null, ...(it.meta ? { meta: it.meta } : {}), ...(it.name ? { name: it.name } : {}) });
  const evicted = session.items.filter((i) => replaced.has(i.id));
  const beside = besideSummary(session.items, event.summaryId ? position.get(event.summaryId) : undefined);
  // The summarizer also read `/compact`'s instructions, written after the summary.
  const contextItems = [...session.items.slice(from, at + 1).filter(isContent), ...beside.instructions.map((i) => session.items[i]!)];
  const stillSeen = keptVerbatimBy(session, event);
  const mid = startsMid(session);
  return {
    summary,
    sources: evicted.map(renderForAudit),
    sourceMeta: evicted.map(metaOf),
    sourceCalls: evicted.map(keyOf),
    later: session.items
      .slice(at + 1, to)
      .filter(isContent)
      .map((i) => laterEntry(i, targetOf.get(i) ?? null, keyOf(i))),
    // Head, system prompt and the verbatim-kept items: the summarizer saw them too.
    context: contextItems.map(renderForAudit),
    contextMeta: contextItems.map(metaOf),
    keptVerbatim: keptVerbatimOf([...contextItems.filter((i) => stillSeen(i.id)), ...beside.kept.map((i) => session.items[i]!)]),
    sessionDays: [...daysOf(session.items.map((i) => i.timestamp))],
    project: { cwd: cwdOf(session) },
    // Only the harness whose unrecorded context the audit reads by format (loaded-instructions.ts).
    ...(session.format === 'claude-code' ? { format: session.format } : {}),
    ...(session.instructionFiles && session.instructionFiles.length > 0 ? { instructionFiles: session.instructionFiles } : {}),
    // A transcript cut from a longer session: its earlier summaries stand in for the user messages it lacks.
    ...(mid ? { standIns: earlierSummaries(session, event) } : {}),
    ...(readsUnheldTurns(session, event) ? { unverifiable: true } : {}),
  };
}

// Compactions that take out only what they list: an OpenHands condensation (its forgotten range) and a Claude Code
// microcompaction (the tool results it clears). What they do not list stays in the context. Other kinds record what
// they keep in ways that differ by format (a summary in place of earlier turns, a truncation marker, a log), so
// nothing of theirs is taken as still seen.
const REMOVES_ONLY_WHAT_IT_LISTS = new Set<CompactionEvent['kind']>(['condensation', 'microcompact']);

/**
 * Is an item before the compaction still in the context verbatim after it (the system prompt aside, whose names are
 * conventions and examples, not the session's facts)? Only for a compaction that takes out only what it lists, when
 * neither it nor an earlier compaction listed the item.
 */
function keptVerbatimBy(session: Session, event: CompactionEvent): (id: string) => boolean {
  if (!REMOVES_ONLY_WHAT_IT_LISTS.has(event.kind)) return () => false;
  const gone = new Set(session.compactions.filter((e) => e.index <= event.index).flatMap((e) => e.replacedIds));
  return (id) => !gone.has(id);
}

/** The summaries of the compactions before this one. */
function earlierSummaries(session: Session, event: CompactionEvent): string[] {
  const byId = new Map(session.items.map((it) => [it.id, it]));
  return session.compactions
    .filter((e) => e.index < event.index)
    .map((e) => (e.summaryId ? byId.get(e.summaryId)?.text : undefined) ?? e.log?.summary ?? '')
    .filter(Boolean);
}

/**
 * Tool names are in the schema the model is sent every call, so a summary cannot lose them;
 * counting `read_file()` as lost or needed later only buries the facts that matter.
 */
export function withoutToolNames(audit: SummaryAudit, tools: ReadonlySet<string>): SummaryAudit {
  const isTool = (v: string) => tools.has(v.replace(/\(\)$/, ''));
  const survival = structuredClone(audit.survival);
  for (const [list, kept] of [
    [audit.kept, true],
    [audit.lost, false],
  ] as const) {
    for (const v of list) {
      const kind = audit.kinds[v];
      if (!kind || !isTool(v)) continue;
      const row = survival[survivalKindOf(kind)];
      row.evicted--;
      if (kept) row.kept--;
    }
  }
  return {
    ...audit,
    kept: audit.kept.filter((v) => !isTool(v)),
    lost: audit.lost.filter((v) => !isTool(v)),
    lostReferencedLater: audit.lostReferencedLater.filter((r) => !isTool(r.value)),
    lostRefetchedLater: audit.lostRefetchedLater.filter((r) => !isTool(r.value)),
    invented: audit.invented.filter((v) => !isTool(v)),
    survival,
  };
}

/** For each tool result, the key of the fetch that produced it (see call-target.ts); null for other items. */
export function fetchKeys(items: readonly Item[]): (string | null)[] {
  return fetchTargets(items).map((t, i) => (items[i]!.kind === 'tool_result' && t ? targetKey(t) : null));
}

/** Where one compaction sits among the session's items. */
interface Placement {
  event: CompactionEvent;
  /** Positions of the evicted items, ascending. */
  sources: number[];
  /** The position the compaction takes effect at: later items come after it, context items up to it. */
  at: number;
  summary: string;
  /** Not a content item of this compaction (a compaction record, its summary, an evicted item). */
  skip: (i: number) => boolean;
  /** Is the item (by id) still in the context verbatim after the compaction (see `keptVerbatimBy`)? */
  keeps: (id: string) => boolean;
  /** Positions of what the harness attached beside the summary, the files among them, and `/compact`'s echo (`besideSummary`). */
  kept: number[];
  restored: number[];
  instructions: number[];
}

/**
 * What Claude Code writes beside a summary, before the model's first reply or the person's next message:
 * - `kept`: every attachment there (claude-code-attachments.ts). Claude Code sends each as context of the next call:
 *   the files the agent last read (`file`, as a Read of the path; its post-compact file restoration, recorded from
 *   about 2.1.92), the plan (`plan_file_reference`: its path and text), the names of files too large to read again
 *   (`compact_file_reference`), the skills used before (`invoked_skills`), a SessionStart hook's output. What they
 *   hold is in the context the compaction left, as what a microcompaction did not clear is: not lost.
 * - `restored`: of those, the ones that put a file's text back (`file`, `plan_file_reference`), named on the audit.
 * - `instructions`: a manual `/compact`'s echo, whose arguments were the summarizer's instructions.
 * Another command ends the run.
 */
function besideSummary(items: readonly Item[], summaryAt: number | undefined): { kept: number[]; restored: number[]; instructions: number[] } {
  const kept: number[] = [];
  const restored: number[] = [];
  const instructions: number[] = [];
  if (summaryAt === undefined) return { kept, restored, instructions };
  for (let i = summaryAt + 1; i < items.length; i++) {
    const it = items[i]!;
    if (it.role === 'assistant') break;
    const attachment = it.role === 'user' && it.kind === 'message' ? it.meta?.['attachment'] : undefined;
    if (typeof attachment === 'string') {
      kept.push(i);
      if (RESTORES_TEXT.has(attachment)) restored.push(i);
    } else if (isCompactCommand(it.text)) instructions.push(i);
    else if (it.kind !== 'compaction' && (!isHarnessItem(it) || it.text.includes('<command-name>'))) break;
  }
  return { kept, restored, instructions };
}

/** Attachments that put a file's text back in the context (claude-code-attachments.ts). */
const RESTORES_TEXT = new Set(['file', 'plan_file_reference']);

/** The file an attachment names, as the harness shows it (the label's path), else as it reads it. */
const attachedFile = (item: Item): string => item.name?.split(' · ')[1] ?? String(item.meta?.['path'] ?? '');

/** `auditInputFor`'s reading of a compaction, as positions in the session's items. */
/**
 * The stretch of items the context held around a compaction at `at`: from the user's last `/clear` before it to the
 * next one (claude-code-tree.ts `isClearCommand`). The summarizer read nothing before the first, and nothing after
 * the second can show what the summary lost: the model had forgotten it all by then.
 */
export function sinceClear(items: readonly Item[], at: number): [number, number] {
  let from = 0;
  let to = items.length;
  for (let i = 0; i < items.length; i++) {
    if (items[i]!.meta?.['clearsContext'] !== true) continue;
    if (i <= at) from = i;
    else {
      to = i;
      break;
    }
  }
  return [from, to];
}

function placements(session: Session): Placement[] {
  const items = session.items;
  const last = new Map<string, number>();
  const first = new Map<string, number>();
  const all = new Map<string, number[]>();
  items.forEach((item, i) => {
    last.set(item.id, i);
    if (!first.has(item.id)) first.set(item.id, i);
    const list = all.get(item.id);
    if (list) list.push(i);
    else all.set(item.id, [i]);
  });
  const out: Placement[] = [];
  for (const event of session.compactions) {
    if (event.replacedIds.length === 0 || event.opaque) continue;
    const replaced = new Set(event.replacedIds);
    const summaryAt = event.summaryId ? first.get(event.summaryId) : undefined;
    const summary = (summaryAt !== undefined ? items[summaryAt]!.text : undefined) ?? event.log?.summary ?? '';
    let at = -Infinity;
    for (const id of [event.summaryId, event.atItemId]) {
      const p = id ? last.get(id) : undefined;
      if (p !== undefined) at = Math.max(at, p);
    }
    if (at === -Infinity) for (const id of event.replacedIds) at = Math.max(at, last.get(id) ?? -1);
    const sources = [...new Set([...replaced].flatMap((id) => all.get(id) ?? []))].sort((a, b) => a - b);
    const summaryId = event.summaryId;
    const [from, to] = sinceClear(items, at);
    const skip = (i: number) => {
      const item = items[i]!;
      return i < from || i >= to || item.kind === 'compaction' || item.id === summaryId || replaced.has(item.id);
    };
    out.push({ event, sources, at, summary, skip, keeps: keptVerbatimBy(session, event), ...besideSummary(items, summaryAt) });
  }
  return out;
}

/**
 * The audit of every compaction in the session that records its evicted items, in order: for each,
 * `auditSummary(auditInputFor(session, event))` without the tool names, computed with the work shared
 * across compactions (each item's identifiers, questions and key postings are found once per session, the
 * project's scope is read once).
 */
export function auditSession(session: Session): CompactionAudit[] {
  // Nothing to audit without a compaction that replaced something readable: the indexes below cost the whole session.
  if (!session.compactions.some((c) => c.replacedIds.length > 0 && !c.opaque)) return [];
  const items = session.items;
  const tools = new Set(items.filter((i) => i.kind === 'tool_call' && i.name).map((i) => i.name!));
  // A tool call's arguments as the model wrote them (JSON's escapes read back), as `auditSummary` reads them.
  const texts = items.map((it) => (it.kind === 'tool_call' ? unescapeArguments(renderForAudit(it)) : renderForAudit(it)));
  const cwd = cwdOf(session);
  // The subagents' tool outputs, read once for every compaction that asks (`shownBySubagent`).
  let subagentOutputs: Haystack[] | undefined;
  const shared = new SessionItems(
    texts,
    items.map((i) => i.role),
    cwd,
    items.map((it, i) => (it.kind === 'tool_call' ? texts[i]! : saidText({ role: it.role, kind: it.kind, text: texts[i]!, meta: it.meta }))),
  );
  const placed = placements(session);
  const noise: NoiseContext = { sessionDays: daysOf(items.map((i) => i.timestamp)) };
  const targets = fetchTargets(items);
  // Harness notices in the user's turn refer to nothing the summary should have kept (see harness-messages.ts).
  // The agent's own prose and thinking repeat what it still knew: only a user message, a tool call's arguments
  // or a tool result is a later reference (see `isReference`).
  const notReference = items.map((item, i) => !isReference(item, texts[i]!));
  // A record the harness flags `isMeta` in the user's turn (a slash command's expanded text, which the harness fills
  // with the output of the commands it names, `git status` and `git diff` for /commit; a Skill's text) shows what it
  // prints afresh, as a tool's output does: a later call that then takes a value it printed fetched it again. Not an
  // attachment (a file the harness loads beside the turn): the labelled rows read a call after one as a use (h4md2-009).
  // So does a background agent's report (`isAgentReport`).
  const harnessOutput = items.map(
    (it, i) => it.role === 'user' && it.kind === 'message' && ((it.meta?.['isMeta'] === true && it.meta['attachment'] === undefined) || isAgentReport(texts[i]!)),
  );
  const userWords = items.map((item, i) => isUserWords(item, texts[i]!));
  const othersWords = items.map((item, i) => userWords[i]! || isOthersWords(item, texts[i]!));
  const position = new Map<string, number>();
  items.forEach((it, i) => position.set(it.id, i));
  // Tool calls that open a file, by the file's name less its extensions: an id may name the file (later-use.ts).
  const fileCalls = new Map<string, number[]>();
  items.forEach((it, i) => {
    const file = it.kind === 'tool_call' ? targets[i]?.file : null;
    if (!file) return;
    const stem = file.slice(Math.max(file.lastIndexOf('/'), file.lastIndexOf('\\')) + 1).split('.')[0]!;
    fileCalls.set(stem, [...(fileCalls.get(stem) ?? []), i]);
  });
  // A later item as shown-later.ts reads it: who wrote it, whether it (or its result) failed, what its call writes.
  const sightAt = (i: number): LaterSight => {
    const it = items[i]!;
    const pair = it.pairId !== undefined ? position.get(it.pairId) : undefined;
    const failed = it.kind === 'tool_result' ? !!it.isError : it.kind === 'tool_call' && pair !== undefined ? !!items[pair]!.isError : false;
    return { kind: it.kind, othersWords: othersWords[i]!, target: targets[i] ?? null, failed, answersWrite: it.kind === 'tool_result' && pair !== undefined && !!targets[pair]?.writes };
  };
  const earliest = (a: number, b: number) => (a < 0 ? b : b < 0 ? a : Math.min(a, b));
  // The files each later listing prints as entries of the folder it lists (listed-paths.ts), read once per session.
  let listings: ListingIndex | undefined;
  const listingsOf = (): ListingIndex => {
    if (listings) return listings;
    listings = new ListingIndex();
    items.forEach((it, i) => {
      const t = targets[i];
      if (it.kind === 'tool_result' && !it.isError && t?.kind === 'command') listings!.add(i, listedPaths(t.target, texts[i]!, cwd));
    });
    return listings;
  };
  /** The first tool result from `from` on, not `skip`ped, that lists the path `id` as an entry of a folder; -1 when none. */
  const firstListing = (id: Identifier, from: number, skip: (i: number) => boolean): number => (id.kind === 'path' ? listingsOf().first(id.value, cwd, from, skip) : -1);
  const firstFileCall = (id: Identifier, from: number, skip: (i: number) => boolean): number =>
    fileCalls.get(id.value)?.find((i) => i >= from && !skip(i) && opensFileNamed(id, targets[i])) ?? -1;
  const mid = startsMid(session);
  // The CLAUDE.md, AGENTS.md or GEMINI.md files the user supplied: in every request, unrecorded (instruction-files.ts).
  const instructionFiles = instructionContext(session.instructionFiles, cwd);
  const inEveryRequest = namedInEveryRequest(() => items.map((it) => it.text), session.format, cwd, typeof session.meta['slug'] === 'string' ? session.meta['slug'] : null);
  // Kept and lost first: the key index needs the keys of every lost identifier and every summary identifier.
  const keys = (id: Identifier) => shared.keys(id);
  const split = placed.map((p) => {
    const kinds: Record<string, IdentifierKind> = {};
    // A placeholder file name (`file.txt`, `foo.py`) stands for any file: no summary loses it (invented-backing.ts).
    const sourceIds = distinctOf(p.sources.map((i) => shared.hay(i).ids)).filter((id) => !isNoise(id, noise) && !isPlaceholderFile(id));
    return { kinds, ...keptAndLost(p.summary, sourceIds, kinds, keys), own: ownIdentifiers(p.summary, cwd) };
  });
  function* summaryKeys(): Generator<string> {
    for (const { own } of split) for (const id of own) for (const group of supportKeys(id, keys(id))) yield* group;
  }
  // The index also lists the items holding the words the project scope's patterns need, so its gates search no text.
  function* indexKeys(): Generator<string> {
    yield* summaryKeys();
    yield* SCOPE_WORDS;
  }
  shared.prepare(
    split.flatMap((s) => s.lost),
    indexKeys(),
  );
  // Each code text's declarations as the scope reads them, for the walk's questions about lost functions below.
  const declared = new Map<string, Set<string>>();
  // Compaction records and summaries declare nothing and show no file (project-scope.ts reads tool items only).
  const scope = new ProjectScope(
    items.flatMap((it, i) =>
      it.kind === 'compaction' ? [] : [{ text: texts[i]!, role: it.role, kind: it.kind, target: targets[i] ?? null, holds: (word: string) => shared.holdsKey(i, word) }],
    ),
    cwd,
    declared,
  );
  // Each text read back as written and lowercased, as the invented-backing checks read what the summarizer read: the
  // index's lower case of a text without a backslash (which `unescapeArguments` leaves as it is).
  const looseTexts: (string | undefined)[] = [];
  const looseAt = (i: number): string => (looseTexts[i] ??= texts[i]!.includes('\\') ? unescapeArguments(texts[i]!).toLowerCase() : shared.lower(i));
  // Each text's declarations, read once for every lost function the walk asks about (the scope's reading of them).
  const defines = definesNameMemo(declared);
  // The texts as the instruction check reads them, and the messages as the claims check does, read once for every summary.
  const sourceTexts = new SourceTexts();
  const messageReadings = new MessageReadings();

  return placed.map((p, k) => {
    const { kinds, kept } = split[k]!;
    // What the model still sees verbatim beside the summary holds it: not lost (see `withoutStillSeen`).
    // The system prompt's names are conventions and examples ("tags look like v2.14.3"), not the session's facts.
    const beside = new Set(p.kept);
    const stillSeen = (i: number) => beside.has(i) || (i <= p.at && !p.skip(i) && items[i]!.role !== 'system' && p.keeps(items[i]!.id));
    const anyStillSeen = beside.size > 0 || contextPositions(p).some((i) => items[i]!.role !== 'system' && p.keeps(items[i]!.id));
    const seenTo = beside.size > 0 ? Math.max(p.at, ...p.kept) + 1 : p.at + 1;
    const seen = anyStillSeen ? split[k]!.lost.filter((id) => shared.indicesHolding(id, stillSeen, 0, seenTo).length === 0) : split[k]!.lost;
    // What an instruction file holds was in every request, beside the summary too.
    // So was what the harness names in every request unrecorded (loaded-instructions.ts).
    const lost = seen.filter((id) => !inEveryRequest(id) && !instructionFiles?.holds(id));
    const unverifiable = readsUnheldTurns(session, p.event);
    const lostReferencedLater: LaterReference[] = [];
    const lostRefetchedLater: RefetchedReference[] = [];
    const evicted = new Set(p.sources);
    // Fetches this compaction removed: a later call with the same tool and target fetches again.
    const evictedFetches = new Set(p.sources.flatMap((s) => (targets[s] && !targets[s]!.writes ? [targetKey(targets[s]!)] : [])));
    const base = (i: number) => p.skip(i) || (notReference[i]! && !harnessOutput[i]);
    const kindOf = (i: number): 'call' | 'result' | 'message' =>
      items[i]!.kind === 'tool_call' ? 'call' : items[i]!.kind === 'tool_result' || harnessOutput[i] ? 'result' : 'message';
    const pickable = askedAlike(lost);
    const question = (id: Identifier, from: number) => (pickable(id) ? shared.firstQuestion(id, from, base) : -1);
    for (const id of lost) {
      const tail = id.kind === 'path' && scope.writtenBelow(id.value);
      // Most lost identifiers never come back: find that out before reading where the slice held them.
      if (shared.firstMention(id, p.at + 1, base, tail) < 0 && question(id, p.at + 1) < 0 && firstFileCall(id, p.at + 1, base) < 0) continue;
      const held = p.sources.length === 0 ? [] : shared.indicesHolding(id, (i) => evicted.has(i), p.sources[0]!, p.sources[p.sources.length - 1]! + 1);
      const r = relevance(
        id,
        held.map((i) => ({ text: texts[i]!, role: items[i]!.role, kind: items[i]!.kind, target: targets[i] ?? null })),
        scope,
      );
      if (r === 'irrelevant') continue;
      // Past a later file that declares its own function of this name, the name no longer says which one it is.
      let cut = -1;
      if (id.kind === 'function') {
        const files = new Set(held.flatMap((i) => (targets[i]?.file ? [targets[i]!.file!] : [])));
        // Only a definition the slice read in a known file ties the name to that file.
        const declared = held.some((i) => !!targets[i]?.file && defines(texts[i]!, functionName(id.value)));
        // Without one there is no cut (`otherDefinitionAt`): the later items holding the name are not looked up.
        if (declared) {
          // Only a later item in another file that declares the name can be the cut: those are looked up alone, so
          // `foundIn` reads no other later item (otherDefinitionAt's first such item in `holding` is the same one).
          const name = functionName(id.value);
          const heldFiles = new Set([...files].map((f) => f.replace(/\\/g, '/')));
          const elsewhere = (i: number) => !!targets[i]?.file && !heldFiles.has(targets[i]!.file!.replace(/\\/g, '/')) && defines(texts[i]!, name);
          // Whether the item is another file that declares the name is asked first: the scope has read every code
          // text's declarations already (`declared`), and most items holding one of the name's keys are not.
          const holding = shared.indicesHolding(id, (i) => i > p.at && !base(i) && elsewhere(i), p.at + 1);
          const byAgent = held.length > 0 && held.every((i) => !!targets[i]?.writes);
          const k = otherDefinitionAt(id, declared, files, (j) => ({ file: targets[holding[j]!]?.file, text: texts[holding[j]!]! }), 0, holding.length, (f) => byAgent && scope.wrote(f), defines);
          cut = k >= 0 ? holding[k]! : -1;
        }
      }
      const inTest = (i: number) => isExampleDataIn(id, targets[i]?.file) || (items[i]!.kind === 'tool_call' && (onlyInWrittenTree(id, targets[i], texts[i]!) || onlyInCommitMessage(id, targets[i], cwd)));
      // Output that shows a function's or class's declaration (a re-read of `class WFCConfig:`) printed it again, though
      // not in the call form a use needs.
      const firstDeclaringResult = (from: number, skip: (i: number) => boolean): number => {
        if (id.kind !== 'function') return -1;
        const name = functionName(id.value);
        // Whether an item declares the name is asked before whether it holds the id: the declarations are read already.
        return shared.firstHolding(id, (j) => items[j]!.kind === 'tool_result' && !skip(j) && defines(texts[j]!, name), from);
      };
      const walk: LaterWalk = {
        first: (from, accept) => {
          const skip = (i: number) => base(i) || !accept(i) || inTest(i);
          const at = earliest(earliest(shared.firstMention(id, Math.max(from, p.at + 1), skip, tail), firstFileCall(id, Math.max(from, p.at + 1), skip)), firstDeclaringResult(Math.max(from, p.at + 1), skip));
          return cut >= 0 && at >= cut ? -1 : at;
        },
        question: (from) => question(id, Math.max(from, p.at + 1)),
        kind: kindOf,
        repeats: (i) => items[i]!.kind === 'tool_call' && !!targets[i] && !targets[i]!.writes && evictedFetches.has(targetKey(targets[i]!)),
        callOf: (i) => {
          const pair = items[i]!.kind === 'tool_result' && items[i]!.pairId ? position.get(items[i]!.pairId!) : undefined;
          return pair !== undefined && pair > p.at && !base(pair) ? pair : -1;
        },
        // As the slice audit reads it: mentions in the text with harness notices blanked, pins and settings as written.
        exactArg: (i) => takesValue(id, targets[i], shared.hay(i).text, cwd, texts[i]!),
        listed: (from) => firstListing(id, Math.max(from, p.at + 1), base),
        printsWhole: (i) => id.kind === 'path' && items[i]!.kind === 'tool_result' && reprintsWhole(texts[i]!, id.value, targets[i], cwd),
      };
      const use = classifyLaterUse(walk, p.at + 1, r === 'exact-path', r === 'argument');
      if (!use) continue;
      if (use.list === 'referenced') lostReferencedLater.push({ value: id.value, itemId: items[use.at]!.id, via: use.via });
      else
        lostRefetchedLater.push({ value: id.value, itemId: items[use.at]!.id, via: use.via, usedIn: use.usedAt === null ? null : items[use.usedAt]!.id });
    }
    // What the summarizer read: the evicted items, then the content items up to the compaction.
    const instructions = new Set(p.instructions);
    const read = (i: number) => evicted.has(i) || (i <= p.at && !p.skip(i)) || instructions.has(i);
    let supportItems: number[] | undefined;
    const supportAt = () => {
      if (supportItems) return supportItems;
      supportItems = [...p.sources];
      for (let i = 0; i <= p.at && i < items.length; i++) if (!p.skip(i)) supportItems.push(i);
      supportItems.push(...p.instructions);
      return supportItems;
    };
    let supportTexts: string[] | undefined;
    const support = () => {
      if (supportTexts) return supportTexts;
      supportTexts = supportAt().map((i) => texts[i]!);
      if (instructionFiles) supportTexts.push(...instructionFiles.texts);
      return supportTexts;
    };
    const readEnd = Math.max(p.at + 1, p.sources.length > 0 ? p.sources[p.sources.length - 1]! + 1 : 0, ...p.instructions.map((i) => i + 1));
    const check = new SupportCheck({ items: shared, has: read, texts: support, end: readEnd });
    const backs = instructionFiles ? (id: Identifier) => check.backs(id) || instructionFiles.backs(id) : (id: Identifier) => check.backs(id);
    // The same texts read back and lowercased, each made once for every compaction that read it (`looseAt`).
    const looseSupport = () => [...supportAt().map(looseAt), ...(instructionFiles?.texts ?? []).map((t) => unescapeArguments(t).toLowerCase())];
    const checked = unbacked(p.summary, support, kinds, backs, noise, cwd, looseSupport, { ownIds: split[k]!.own, sourceTexts });
    // What the transcript cannot show the summarizer read (the system prompt, CLAUDE.md, git status): a thing the
    // session later shows to exist, or a file the harness loads unrecorded, is not shown invented (shown-later.ts).
    let redacted: Set<string> | undefined;
    const invented = unverifiable
      ? []
      : checked.invented.filter((v) => {
          const id: Identifier = { value: v, kind: kinds[v] ?? 'path', index: 0 };
          if (loadedByHarness(id, typeof session.meta['slug'] === 'string' ? session.meta['slug'] : null)) return false;
          if (hiddenByRedaction(id, (redacted ??= redactedExtensions(support())))) return false;
          function* holding(): Generator<number> {
            for (let i = p.at + 1; i < items.length; i++) if (!p.skip(i) && foundIn(id, shared.hay(i))) yield i;
          }
          if (shownBySubagent(id, (subagentOutputs ??= subagentToolOutputs(session).map((t) => haystack(t, { cwd }))), (h) => foundIn(id, h))) return false;
          return !shownToExistLater(id, holding(), sightAt, (i) => takenAsArgument(id, targets[i] ? (targets[i]!.file ?? targets[i]!.target) : texts[i]!, cwd));
        });
    // The user's messages the summarizer read, in the session's order: only looked for when the summary claims one.
    const heard = () => userWordsRead([...p.sources, ...contextPositions(p), ...p.instructions].sort((a, b) => a - b).map(readTextAt));
    let userRead: ReturnType<typeof heard> | undefined;
    const claimed =
      !unverifiable
        ? judgeUserClaims(
            p.summary,
            () => (userRead ??= heard()).said,
            // An instruction file's instruction is the user's, as Claude Code frames it (instruction-files.ts).
            () => [...(mid ? earlierSummaries(session, p.event) : []), ...(instructionFiles?.standIns() ?? []), ...recordedInstructions(p)],
            // The harness's words in the user's turn, read by the summarizer as the user's (quotes only).
            () => (userRead ??= heard()).harness,
            messageReadings,
          )
        : { invented: [], notJudged: [] };
    const evictedMessages = p.sources.filter((i) => userWords[i]!).map((i) => texts[i]!);
    const commands = commandsOf(p.sources.map((i): TextMeta => ({ kind: items[i]!.kind, target: targets[i] ?? null })));
    // One row per file, whatever spellings the slice used (spellings.ts).
    const files = foldSpellings({ kept, lost: lost.map((i) => i.value), lostReferencedLater, lostRefetchedLater, kinds }, cwd, (itemId) => position.get(itemId) ?? Number.MAX_SAFE_INTEGER);
    const audit: SummaryAudit = {
      ...files,
      invented,
      instructionLike: checked.instructionLike,
      inventedInstructions: claimed.invented,
      ...(claimed.notJudged.length > 0 ? { instructionsNotJudged: claimed.notJudged } : {}),
      ...(unverifiable ? { readUnheldTurns: true as const } : {}),
      survival: survivalOf(files.kept, files.lost, files.kinds, p.summary, commands, evictedMessages),
    };
    const restoredFiles = p.restored.map((i) => ({ itemId: items[i]!.id, file: attachedFile(items[i]!), kind: items[i]!.meta?.['attachment'] === 'plan_file_reference' ? ('plan' as const) : ('file' as const) }));
    return { compaction: p.event.index, compactionId: p.event.id, ...withoutToolNames(audit, tools), ...(restoredFiles.length > 0 ? { restored: restoredFiles } : {}), ...unrecordedRestoreOf(session, p.event, p.restored.length > 0) };
  });

  /** Item `i` as the instruction check reads it (invented-instructions.ts `userWordsRead`), with the call a result answers. */
  function readTextAt(i: number): ReadText {
    const item = items[i]!;
    const call = item.kind === 'tool_result' && item.pairId !== undefined ? position.get(item.pairId) : undefined;
    return {
      text: texts[i]!,
      role: item.role,
      kind: item.kind,
      ...(item.meta ? { meta: item.meta } : {}),
      ...(item.name ? { name: item.name } : {}),
      ...(item.isError ? { isError: true } : {}),
      ...(call !== undefined ? { call: { ...(items[call]!.name ? { name: items[call]!.name } : {}), text: items[call]!.text } } : {}),
    };
  }

  /** The instructions of the CLAUDE.md and rule files Claude Code recorded that the summarizer read (instruction-files.ts). */
  function recordedInstructions(p: Placement): string[] {
    return [...p.sources, ...contextPositions(p), ...p.instructions].filter((i) => isRecordedInstructions(items[i]!.meta)).flatMap((i) => instructionUnits(texts[i]!));
  }

  /** The content items up to the compaction that were not evicted, ascending. */
  function contextPositions(p: Placement): number[] {
    const out: number[] = [];
    for (let i = 0; i <= p.at && i < items.length; i++) if (!p.skip(i)) out.push(i);
    return out;
  }
}

/** The texts of a session's subagents' tool results that did not fail and answer no write (`shownBySubagent`). */
function subagentToolOutputs(session: Session): string[] {
  const out: string[] = [];
  for (const sc of session.sidechains) {
    if (sc.purpose !== 'subagent') continue;
    const targets = fetchTargets(sc.items);
    sc.items.forEach((it, i) => {
      if (it.kind === 'tool_result' && !it.isError && !targets[i]?.writes) out.push(it.text);
    });
  }
  return out;
}
