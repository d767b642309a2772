// Checks one summary against the slice it replaced: which identifiers it kept, which it lost, which lost ones a
// later turn still needed — used again without a re-fetch (`lostReferencedLater`, the course's referenced_later
// quality gate) or recovered only by fetching again (`lostRefetchedLater`, the re-fetch tax, see later-use.ts) —,
// which identifiers it invented, which instruction-like sentences it grew, which claims about the user no user
// message backs (invented-instructions.ts), and what share of each kind of thing survived (survival.ts).
import { extractIdentifiers, type Identifier, type IdentifierKind } from './identifiers';
import { stripHarnessText } from './harness-text';
import { findInstructionLike, type SourceTexts } from './instructions';
import { askedAlike, asksAgain, asksFor, questions } from './questions';
import { KeyIndex } from './key-index';
import type { MentionKeys } from './mention-keys';
import { isHarnessItem, saidText, teammateWordsOf, userWordsOf } from '../model/harness-messages';
import type { FormatId, InstructionFile, Item } from '../model/types';
import { isNoise, isWellKnownHost, type NoiseContext } from './noise';
import { canonicalKey, canonicalUnit, containsPathTail, dateSupported, foundIn, haystack, isOrigin, referencedIn, containsToken, type Haystack } from './normalize';
import { setOwn } from '../model/dictionary';
import { targetKey, type CallTarget } from '../refetch/call-target';
import { definesName, ProjectScope, type ScopeText } from './project-scope';
import { relevance, type Occurrence } from './relevance';
import { listedPaths, listsFile, reprintsWhole, type Listed } from './listed-paths';
import { classifyLaterUse, functionName, isAgentReport, isExampleDataIn, mentionText, onlyInCommitMessage, onlyInWrittenTree, opensFileNamed, otherDefinitionAt, takenAsArgument, takesValue, type LaterWalk } from './later-use';
import { judgeUserClaims, userWordsRead, type InventedInstruction, type ReadText } from './invented-instructions';
import { survivalOf, type Survival } from './survival';
import { foldSpellings } from './spellings';
import { isProjectSpecifier, moduleStem, resolvesTo, specifierStem } from './module-files';
import { hiddenByRedaction, redactedExtensions } from './redacted';
import { namedInEveryRequest } from './loaded-instructions';
import { instructionContext, instructionUnits, isRecordedInstructions } from './instruction-files';
import { loadedByHarness, shownToExistLater, toldByHarnessIn, type LaterSight } from './shown-later';
import { arithmeticDerived, assignedThroughName, daySpanDerived, fileListBacked, foldersElided, hashPrefixBacked, isPlaceholderFile, measureInCode, measureRounded, namedAfterType, piecesBacked, plannedInMadeFolder, quotedValuesListed, respelledInQuote, scaledCountBacked, sizeFromListing, wordsNamed } from './invented-backing';

/** Role, kind and fetch of a text, when known: a tool result's fetch tells a file read from a command's output. */
export interface TextMeta {
  role?: string;
  kind?: string;
  target?: CallTarget | null;
  /** The item's small facts: the harness flags that tell its writing from a person's (model/harness-messages.ts). */
  meta?: Item['meta'];
  /** The tool's name, of a call or of the result of one: an answer tells its question by its call (invented-instructions.ts). */
  name?: string;
}

export interface AuditInput {
  /** The summary or fallback marker that stands in for the evicted slice. */
  summary: string;
  /** Texts of the evicted items (render a tool call as `name(arguments)` so its function name counts). */
  sources: string[];
  /** Role, kind and fetch of each source, when known (see `project`). */
  sourceMeta?: (TextMeta | null)[];
  /**
   * Items after the compaction, in order, whose mentions make a lost identifier needed later. A question that
   * names an identifier's kind ("Which port again?") also counts, when `role` is `user` or not given. `call` is
   * the fetch key of the call a tool result answers (or that a tool call makes); `target` that fetch; `callId` the
   * id of the call a tool result answers.
   */
  later: { id: string; text: string; role?: string; kind?: string; call?: string; target?: CallTarget | null; callId?: string; meta?: Item['meta']; isError?: boolean }[];
  /**
   * For each source, the fetch key (tool and target, see refetch/call-target.ts) of the call whose result it is. A
   * later call with the same key repeats the fetch.
   */
  sourceCalls?: (string | null)[];
  /** Fetch keys of other removed fetches, beyond the sources' own (when only part of the slice is given). */
  removedFetches?: string[];
  /**
   * Texts the summarizer could also draw on without them being evicted (system prompt, head, a prior
   * summary that stays). They back identifiers and sentences against the invented/instruction checks,
   * but are not audited for kept/lost.
   */
  context?: string[];
  contextMeta?: (TextMeta | null)[];
  /**
   * Texts the model still sees verbatim after the compaction, beside the summary: an OpenHands condensation's
   * head and the events after its forgotten range, what a microcompaction did not clear, a preserved segment.
   * An identifier they hold was not lost, whatever the summary says.
   */
  keptVerbatim?: string[];
  /** `YYYY-MM-DD` of the days the session ran: its own dates are not reported (see noise.ts). */
  sessionDays?: readonly string[];
  /**
   * What the project is: its working directory, and texts that declare its names or show its files (besides the
   * sources, later items and context). Given, the audit leaves out lost calls the project does not own and
   * files outside it (relevance.ts); not given, it judges identifiers by their values alone.
   */
  project?: { cwd: string | null; texts?: ScopeText[] };
  /** The user's messages the summarizer read, for invented instructions; by default the sources' and context's. */
  userMessages?: string[];
  /**
   * Texts that stand in for user messages the transcript lacks (the earlier summaries of a transcript cut from a
   * longer session): a claim about the user they back is not counted as invented.
   */
  standIns?: string[];
  /** Do not judge invented identifiers or instructions: the summary covers turns the transcript does not hold. */
  unverifiable?: boolean;
  /**
   * The instruction files the harness put in every request unrecorded (`Session.instructionFiles`): what they hold is
   * neither lost nor invented, and their instructions are the user's (instruction-files.ts).
   */
  instructionFiles?: readonly InstructionFile[];
  /** The session's format: Claude Code's CLAUDE.md paths are in every request (loaded-instructions.ts). */
  format?: FormatId;
}

export interface LaterReference {
  value: string;
  /** The item that refers to it: a later user message or tool call (never a harness notice, never output). */
  itemId: string;
  /** `mention`: the later item contains the identifier; `question`: it asks for one of its kind ("Which port again?"). */
  via: 'mention' | 'question';
  /** The file's other spellings the slice held (its bare name, its absolute path), listed as this one row. */
  spellings?: string[];
}

/** A lost identifier that came back only because a later call fetched it again or printed it afresh. */
export interface RefetchedReference {
  value: string;
  /** The tool call that fetched it again (or, when that call is not loaded, the result that brought it back). */
  itemId: string;
  /** `refetch`: the call repeats a fetch the compaction removed; `reprint`: another call's fresh output printed it. */
  via: 'refetch' | 'reprint';
  /** The later user message or tool call that then used it; null when the repeated fetch itself names it. */
  usedIn: string | null;
  /** The file's other spellings the slice held, listed as this one row. */
  spellings?: string[];
}

export interface SummaryAudit {
  /** Identifiers of the evicted slice the summary still contains (values as first written in the sources). */
  kept: string[];
  /** Identifiers of the evicted slice the summary does not contain. */
  lost: string[];
  /** Lost identifiers a later user message or tool call used without fetching them again; one per value. */
  lostReferencedLater: LaterReference[];
  /** Lost identifiers that came back only through a re-fetch or fresh output, then were needed; one per value. */
  lostRefetchedLater: RefetchedReference[];
  /** Identifiers in the summary that none of its sources back (values as written; harness framing left out). */
  invented: string[];
  /** Instruction-like sentences of the summary that no source contains (harness framing left out). */
  instructionLike: string[];
  /** Sentences that claim what the user asked, wanted or decided, which no user message says. */
  inventedInstructions: InventedInstruction[];
  /**
   * Such claims the list cannot judge (invented-instructions.ts `judgeUserClaims`): written in another language than
   * the user's messages, so no message can hold their words. Absent when there are none.
   */
  instructionsNotJudged?: string[];
  /**
   * The summarizer read turns the file does not hold (a file cut from a longer session, or a session that went on in
   * another file and was compacted there): no value or instruction of the summary is judged invented. Absent otherwise.
   */
  readUnheldTurns?: true;
  /** Per kind of thing, how many the compaction evicted and how many the summary kept. */
  survival: Survival;
  /** Kind of every value listed above. */
  kinds: Record<string, IdentifierKind>;
}

/**
 * Identifiers of several texts, one per canonical key, in order of first appearance; `cwd`, the session's working
 * directory, reads a path under it whole when its name holds a space (identifiers.ts `spacedPaths`).
 */
export function distinctIdentifiers(texts: string[], cwd: string | null = null): Identifier[] {
  return distinctOf(texts.map((text) => extractIdentifiers(text, { cwd })));
}

/** One identifier per canonical key, in order of first appearance, from each text's identifiers in order. */
export function distinctOf(perText: Identifier[][]): Identifier[] {
  const seen = new Set<string>();
  const out: Identifier[] = [];
  for (const ids of perText) {
    for (const id of ids) {
      const key = canonicalKey(id);
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(id);
    }
  }
  return out;
}

export interface AuditOptions {
  /** Kept for callers of the earlier look-up tuning; the audit now scans the later items directly. */
  indexAboveLost?: number;
}

/** A summary as `onlyInOtherPaths` reads it: lower case, forward slashes. */
const slashedLower = (summary: string): string => summary.replace(/\\/g, '/').toLowerCase();

/** A path's file name with its extension (`checkout_live.ex`), or null for a folder or a name without one. */
function fileNameOf(path: string): string | null {
  const base = path.replace(/[\\/]+$/, '').split(/[\\/]/).pop() ?? '';
  return /^[^.].*\.[A-Za-z0-9]{1,10}$/.test(base) && base !== path ? base : null;
}

/**
 * Does the summary name the file `path` by its name: the name standing alone (`checkout_live.ex`), or ending a path
 * that `path` ends with too — not another file's path with the same name (`app/page.tsx` for `app/services/page.tsx`)?
 */
function namesFile(summary: Haystack, name: string, path: string): boolean {
  if (!containsToken(summary.text, name)) return false;
  const target = path.replace(/\\/g, '/').toLowerCase();
  const text = summary.lower;
  const needle = name.toLowerCase();
  for (let at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + 1)) {
    let start = at;
    while (start > 0 && /[\w.@+~\-\\/:]/.test(text[start - 1]!)) start--;
    const written = text.slice(start, at + needle.length).replace(/\\/g, '/').replace(/^[./]+(?=[\w])/, '');
    if (!written.includes('/') || target.endsWith(written) || written.endsWith(target)) return true;
  }
  return false;
}

/** The host names the slice's URLs, `host:port`s, `user@host`s and hosts name, lowercased. */
function hostsOf(ids: readonly Identifier[]): Set<string> {
  const out = new Set<string>();
  for (const id of ids) {
    const v = id.value.toLowerCase();
    const host =
      id.kind === 'url' ? /^[a-z][\w+.-]*:\/\/(?:[^/@\s]*@)?([^/:?#\s]+)/.exec(v)?.[1] : id.kind === 'host-port' ? v.slice(0, v.lastIndexOf(':')) : id.kind === 'host' ? v : id.kind === 'email' || /^[\w.-]+@[\w.-]+$/.test(v) ? v.slice(v.indexOf('@') + 1) : undefined;
    if (host && host.includes('.')) out.add(host);
  }
  return out;
}

/**
 * Does the summary write `path`'s last two segments only inside longer paths that part from it — another folder at
 * the same depth (`MonoDreams/dialogue/docs/premises.md` for `rendering-text/docs/premises.md`)? `foundIn` keeps a
 * path under its last two segments because a summary drops the checkout prefix; a summary that writes a different
 * prefix names another file of that name, and this one is lost. A path of two segments or fewer is left to `foundIn`.
 * `text` is the summary in lower case with forward slashes (`slashedLower`), made once for all its paths.
 */
function onlyInOtherPaths(text: string, path: string): boolean {
  const target = path.replace(/\\/g, '/').replace(/^[./]+(?=[\w])/, '').toLowerCase();
  const last = target.lastIndexOf('/');
  const second = last > 0 ? target.lastIndexOf('/', last - 1) : -1;
  if (second < 0) return false;
  const tail = target.slice(second + 1);
  let seen = false;
  for (let at = text.indexOf(tail); at >= 0; at = text.indexOf(tail, at + 1)) {
    const after = text.slice(at + tail.length, at + tail.length + 2);
    if (/^(?:[\w/]|[.-]\w)/.test(after) || /[\w.-]/.test(text[at - 1] ?? '')) continue;
    seen = true;
    let start = at;
    while (start > 0 && /[\w.@+~\-/]/.test(text[start - 1]!)) start--;
    const written = text.slice(start, at + tail.length).replace(/^[./]+(?=[\w])/, '');
    if (target.endsWith(written) || written.endsWith(`/${target}`) || written === target || underHome(target, written)) return false;
  }
  return seen;
}

/** A home folder as an absolute path starts with it: `/Users/<name>`, `/home/<name>`, `/root` (the leading `/` may be cut). */
const HOME_DIR = /^\/?(?:users\/[^/]+|home\/[^/]+|root)(?=\/)/i;

/**
 * Is `written` (`~/dev/praxis`) the same path as `target` (`/users/tslater/dev/praxis`, lowercased) written from the
 * home folder? `~/` stands for the user's home folder, whatever its name: what follows it, under a home folder, is the path.
 */
export function underHome(target: string, written: string): boolean {
  if (!written.startsWith('~/')) return false;
  const home = HOME_DIR.exec(target);
  return home !== null && target.slice(home[0].length) === written.slice(1);
}

/**
 * Which identifiers of the evicted slice the summary kept and which it lost; `kinds` gets the kind of each.
 * With `keysOf` (see mention-keys.ts), an identifier whose keys the summary lacks is lost without a look.
 * A path is also kept when the summary names its file (`checkout_live.ex` for `lib/app/checkout_live.ex`).
 */
/** Drops from `lost` what a text the compaction kept verbatim still holds: the model never stopped seeing it. */
export function withoutStillSeen<T extends { lost: Identifier[] }>(split: T, keptVerbatim: readonly Haystack[]): T {
  if (keptVerbatim.length === 0) return split;
  return { ...split, lost: split.lost.filter((id) => !keptVerbatim.some((hay) => foundIn(id, hay))) };
}

/**
 * Does the summary name the release a version of zeros after its major stands for by that major (`v13` for `v13.0`,
 * also inside a name: `claude-wrapper-v13.sh`)? `v13.0` and `v13` are one release; `v13.2` is not `v13`.
 */
function namesReleaseLine(summary: string, version: string): boolean {
  const major = /^v?(\d+)(?:\.0)+$/i.exec(version)?.[1];
  return major !== undefined && new RegExp(`(?<![\\w.])v${major}(?![\\w]|\\.\\d)`, 'i').test(summary);
}

/**
 * Does the summary name the server a URL that is only an origin stands for by its host and port
 * (`assistant.example.org` for `https://assistant.example.org`, `localhost:3333` for `http://localhost:3333`)?
 */
function namesOriginHost(lowerSummary: string, url: string): boolean {
  if (!isOrigin(url)) return false;
  const hostPort = url.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '').replace(/\/+$/, '').toLowerCase();
  // A bare host names one server only with a dot in it (`localhost` alone names any).
  if (!hostPort.includes(':') && !hostPort.includes('.')) return false;
  if (containsToken(lowerSummary, hostPort)) return true;
  // A service's subdomain named by its site (`nostr.band` for `wss://relay.nostr.band`), unless the site is one
  // everyone's services share (`github.com` names no one API of it).
  const site = /^[^.:]+\.([^.:]+\.[^.:]+)$/.exec(hostPort)?.[1];
  return site !== undefined && !isWellKnownHost(site) && containsToken(lowerSummary, site);
}

export function keptAndLost(
  summary: string,
  sourceIds: Identifier[],
  kinds: Record<string, IdentifierKind>,
  keysOf?: (id: Identifier) => MentionKeys,
): { kept: string[]; lost: Identifier[] } {
  const summaryHay = haystack(summary);
  let slashed: string | undefined;
  const idKeys = keysOf ? sourceIds.map((id) => keysOf(id)) : null;
  const summaryHolds = idKeys ? keysHeldBy(summary, idKeys) : null;
  const kept: string[] = [];
  const lost: Identifier[] = [];
  const hosts = hostsOf(sourceIds);
  sourceIds.forEach((id, k) => {
    setOwn(kinds, id.value, id.kind);
    const keys = idKeys?.[k] ?? null;
    const mayHold = !keys || !summaryHolds || keys.some((group) => group.every(summaryHolds));
    const fileName = id.kind === 'path' ? fileNameOf(id.value) : null;
    // A file named after a host the slice reaches (`sites-enabled/example.org`): the name alone says the host.
    const name = fileName !== null && !hosts.has(fileName.toLowerCase()) ? fileName : null;
    // A sentence capitalises its first word: a bare file name whose one capital is its first letter (`Vamp.md says …`)
    // is the file the summary writes in lower case (`notes/vamp.md`).
    const lowered = id.kind === 'path' && /^[A-Z][^A-Z\\/]*\.[A-Za-z0-9]{1,10}$/.test(id.value) ? { ...id, value: id.value.charAt(0).toLowerCase() + id.value.slice(1) } : null;
    const held =
      (mayHold && foundIn(id, summaryHay) && (id.kind !== 'path' || !onlyInOtherPaths((slashed ??= slashedLower(summaryHay.text)), id.value))) ||
      (lowered !== null && foundIn(lowered, summaryHay)) ||
      (id.kind === 'version' && namesReleaseLine(summaryHay.text, id.value)) ||
      (id.kind === 'url' && namesOriginHost(summaryHay.lower, id.value)) ||
      (id.kind === 'path' && keepsModuleFile(summaryHay, id.value)) ||
      ((id.kind === 'url' || id.kind === 'host-port') && keepsLoopbackPort(summaryHay.text, id.value)) ||
      (id.kind === 'path' && underKeptWildcard(summaryHay.text, id.value)) ||
      (id.kind === 'path' && namesPathInFolder(summaryHay.text, id.value)) ||
      ((id.kind === 'ticket' || id.kind === 'order-id') && inIdRange(summaryHay.text, id.value));
    if (held || (name !== null && namesFile(summaryHay, name, id.value))) kept.push(id.value);
    else lost.push(id);
  });
  return { kept, lost };
}

// A range of ids that share a prefix: `PROP-001 through PROP-005`, `TASK-001 to TASK-006`, `T-1–T-4`, `FRE-10..FRE-12`.
const ID_RANGE = /\b([A-Z][A-Z0-9]*)-(\d+)\s*(?:through|thru|to|until|[–—-]|\.\.)\s*(?:\1-)?(\d+)\b/g;

/** Does the text write a range of ids with the value's prefix whose bounds hold its number (`PROP-002` in `PROP-001 through PROP-005`)? */
export function inIdRange(text: string, value: string): boolean {
  const m = /^([A-Z][A-Z0-9]*)-(\d+)$/.exec(value);
  if (!m || !text.includes(m[1]!)) return false;
  const n = Number(m[2]);
  for (const r of text.matchAll(ID_RANGE)) if (r[1] === m[1] && Number(r[2]) <= n && n <= Number(r[3])) return true;
  return false;
}

/**
 * Does the summary keep a loopback address with no path (`http://localhost:3001`, `localhost:3001`) by its port (`port 3001`,
 * `localhost:3001`, `:3001`)? On one machine the port is what tells one server from another; a path beyond it is more.
 */
export function keepsLoopbackPort(text: string, url: string): boolean {
  const m = /^(?:https?:\/\/)?(?:localhost|127\.0\.0\.1|0\.0\.0\.0|\[::1\]):(\d{2,5})\/?$/i.exec(url);
  if (!m || !text.includes(m[1]!)) return false;
  return new RegExp(`(?:\\bport\\s+|(?<![\\w.:])(?:[\\w.-]+)?:)${m[1]}(?!\\d)`, 'i').test(text);
}

/**
 * Does the summary name a folder of two segments or more with a wildcard (`components/ui/*`, `src/hooks/**`) that
 * holds the path, or the file an import specifier names (`@/components/ui/badge`)? It keeps each file in it.
 */
export function underKeptWildcard(text: string, path: string): boolean {
  if (!text.includes('/*')) return false;
  const p = (isProjectSpecifier(path) ? (specifierStem(path) ?? path) : path).replace(/\\/g, '/');
  return wildcardFolders(text).some((dir) => p === dir || p.startsWith(`${dir}/`) || p.includes(`/${dir}/`));
}

// The summary's wildcard folders, read once per summary: the audit asks for every lost path of the same text.
let wildcardsOf: { text: string; dirs: string[] } | null = null;
function wildcardFolders(text: string): string[] {
  if (wildcardsOf?.text !== text) {
    const dirs = [...text.matchAll(/([\w.@~-]+(?:\/[\w.@~-]+)+)\/\*{1,2}(?![\w.])/g)].map((m) => m[1]!.replace(/^(?:\.\/|@\/|~\/)/, ''));
    wildcardsOf = { text, dirs };
  }
  return wildcardsOf.dirs;
}

/**
 * Does the summary name a path inside this folder (`wfc/skills/` in `wfc/skills/wfc-init/SKILL.md`, `.claude/scripts/`
 * in `C:\\…\\.claude\\scripts\\setup.ps1`)? A folder written as one (a trailing slash) of two segments or more is kept
 * by the files the summary lists in it.
 */
export function namesPathInFolder(text: string, folder: string): boolean {
  if (!/[\\/]$/.test(folder)) return false;
  const f = folder.replace(/\\/g, '/').replace(/\/+$/, '').replace(/^\.\//, '');
  if (!f.includes('/') || !text.includes(f.slice(f.lastIndexOf('/') + 1))) return false;
  const escaped = f.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(?:^|[^\\w.-])${escaped}/[^\\s/]`).test(text.replace(/\\/g, '/'));
}

/** Does the summary keep the file an import specifier names (`../hooks/usePageMeta` as `src/hooks/usePageMeta.js`)? */
function keepsModuleFile(summary: Haystack, spec: string): boolean {
  const stem = moduleStem(spec);
  return stem !== null && summary.ids.some((o) => o.kind === 'path' && o.value !== spec && resolvesTo(stem, o.value));
}

/**
 * Which of these identifiers' keys the text holds, as `textKeys(text).has(key)` answers: an index of just those keys
 * over the one text, rather than every word, pair and triple of a long summary cut out and kept in a set.
 */
function keysHeldBy(text: string, idKeys: readonly MentionKeys[]): (key: string) => boolean {
  const index = new KeyIndex();
  for (const groups of idKeys) for (const group of groups ?? []) for (const key of group) index.want(key);
  index.add(0, text);
  return (key) => index.posting(key).items.length > 0;
}

/** The identifiers the summarizer itself wrote: the harness's framing is neither invented nor injected. */
export const ownIdentifiers = (summary: string, cwd: string | null = null): Identifier[] => distinctIdentifiers([stripHarnessText(summary)], cwd);

// A span of time written with a Chinese or Japanese unit after its number (`約3分`, `30秒`, `2小时`): the same measure
// as `3 minutes`, `30 s`, `2 hours` in the summary a summarizer writes in English.
const CJK_TIME_UNITS: Record<string, string> = { s: '秒', min: '分(?:钟|鐘|間)?', h: '(?:時間|小时|小時)', d: '(?:日間?|天)', w: '(?:週間|周)', mo: '(?:か月|ヶ月|カ月|个月|個月)', y: '年間?' };

/** Is the quantity `value` (`3 minutes`) a span of time the text writes with its number and a Chinese or Japanese unit? */
export function timeInCjk(value: string, text: string): boolean {
  const q = /^(\d+(?:\.\d+)?)\s*([a-z]+)$/i.exec(value.trim());
  const unit = q ? canonicalUnit(q[2]!) : null;
  const cjk = unit ? CJK_TIME_UNITS[unit] : undefined;
  return cjk !== undefined && new RegExp(`(?<![\\d.])${escapeRe(q![1]!)}\\s?${cjk}`).test(text);
}

/** Does the text list the path's folder (as a path of its own) and, on a line of its own, the path's file name? */
function listedIn(path: string, lower: string): boolean {
  const cut = path.lastIndexOf('/');
  if (cut <= 0 || cut === path.length - 1) return false;
  const dir = path.slice(0, cut);
  const name = path.slice(cut + 1);
  if (!dir.includes('/') || !new RegExp(`${escapeRe(dir)}/?(?![\\w.-])`).test(lower)) return false;
  return new RegExp(`(?:^|\\n)[\\s|*+•├└│─-]*${escapeRe(name)}/?[ \\t]*(?:\\r?\\n|$)`).test(lower);
}
const escapeRe = (t: string) => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Is `id` backed in `lower` (the lowercased texts the summarizer read, JSON's doubled backslashes read back) under a
 * spelling of its word pieces (`piecesBacked`, invented-backing.ts: the one rule for spellings); or, for a route, as
 * a router's prefix and a route of it (`/api/yunshi` and `"/daily"` back `/api/yunshi/daily`); or, for a range of
 * numbered names (`EVT2-8`), by its first and last name (`EVT2_DATE`, `EVT8_DATE`); or, for a quantity of three
 * digits or more, by its number with another unit (`4096MB` by `--max-old-space-size=4096`); or by the lists,
 * listings and derivations below?
 */
export function backedLoosely(id: Identifier, lower: string, cwd: string | null = null): boolean {
  if (piecesBacked(id, lower, cwd)) return true;
  const escape = (t: string) => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const range = /^([a-z]+)(\d+)-(\d+)$/i.exec(id.value);
  if (range && Number(range[3]) > Number(range[2])) {
    const p = range[1]!.toLowerCase();
    const has = (n: string) => new RegExp(`(?<![a-z0-9])${escape(p)}${n}(?![0-9])`).test(lower);
    if (has(range[2]!) && has(range[3]!)) return true;
  }
  // A version with fewer parts names a release line: `v2` is backed by the `2.4.3` (`@biomejs/biome@2.4.3`) it stands for.
  if (id.kind === 'version') {
    const core = id.value.replace(/^v/i, '');
    if (/^\d+(?:\.\d+)?$/.test(core) && new RegExp(`(?<![\\w.])v?${escape(core)}\\.\\d`).test(lower)) return true;
  }
  if (id.kind === 'quantity') {
    const num = /^(\d[\d,]*(?:\.\d+)?)\s*[a-z]/i.exec(id.value)?.[1]?.replace(/,/g, '');
    if (num && num.replace('.', '').length >= 3 && new RegExp(`(?<![\\d.])${escape(num)}(?![\\d]|\\.\\d)`).test(lower)) return true;
    if (timeInCjk(id.value, lower)) return true;
  }
  // A URL that is only an origin (`http://10.0.0.5:5001`) is backed as its host and port are (`nc 10.0.0.5 5001`).
  const origin = id.kind === 'url' ? /^[a-z][a-z0-9+.-]*:\/\/([^/\s:]+:\d+)\/?$/i.exec(id.value) : null;
  if (origin && foundIn({ kind: 'host-port', value: origin[1]!, index: 0 }, haystack(lower))) return true;
  // Words written with slashes between them (`metric/monitor/time_slice`, `environment/.env`) are a list, not a path:
  // backed when the sources name each word. Not a folder (`x/`), not rooted, no file extension, no code folder first.
  if (id.kind === 'path' && isWordList(id.value) && wordsNamed(id.value.split('/'), lower)) return true;
  if (fileListBacked(id, lower) || measureInCode(id, lower) || namedAfterType(id, lower) || foldersElided(id, lower)) return true;
  if (hashPrefixBacked(id, lower) || measureRounded(id, lower) || scaledCountBacked(id, lower) || assignedThroughName(id, lower)) return true;
  if (alternativesBacked(id, lower) || quotedValuesListed(id, lower)) return true;
  // A file in a folder the sources list (`LS({"path":"/x/hooks"})` and its entry `- setup.sh`) is backed by that listing.
  if (id.kind === 'path' && listedIn(id.value.toLowerCase(), lower)) return true;
  if (id.kind !== 'path' || /\.[a-z0-9]{1,10}$/i.test(id.value)) return false;
  const parts = id.value.toLowerCase().replace(/\/+$/, '').split('/').filter(Boolean);
  for (let k = 1; k < parts.length; k++) {
    const head = parts.slice(0, k).join('/');
    const route = parts.slice(k).join('/');
    if (lower.includes(head) && new RegExp(`["'\`]/${escape(route)}["'\`]`).test(lower)) return true;
  }
  return false;
}

/**
 * Alternatives written with slashes after a shared head (`ButtonStyle.DANGER/SUCCESS/PRIMARY`, `get_user/post/list`):
 * backed when the sources hold the first whole and the head with each other alternative (`ButtonStyle.SUCCESS`).
 */
function alternativesBacked(id: Identifier, lower: string): boolean {
  if (id.kind !== 'path' && id.kind !== 'function') return false;
  const parts = id.value.replace(/\(\)$/, '').toLowerCase().split('/');
  if (parts.length < 2 || parts.some((p) => !/^[\w.:-]+$/.test(p))) return false;
  const head = /^(.*[.:_-])[^.:_-]+$/.exec(parts[0]!)?.[1];
  if (!head || head.length < 3 || parts.slice(1).some((p) => /[.:]/.test(p))) return false;
  const word = (w: string) => new RegExp(`(?<![\\w.-])${escapeRe(w)}(?![\\w-])`).test(lower);
  return word(parts[0]!) && parts.slice(1).every((p) => word(head + p));
}

const CODE_FOLDER = /^(?:src|lib|app|apps|test|tests|spec|docs|config|packages|cmd|internal|pkg|scripts|public|priv|assets|deps|node_modules|vendor)$/i;
/** `a/b/c` of plain words or dot-names (`.env`), none a code folder, no extension, neither rooted nor a folder. */
const isWordList = (v: string): boolean => {
  const parts = v.split('/');
  return parts.length >= 2 && parts.every((p) => /^\.?[A-Za-z][\w-]*$/.test(p)) && !CODE_FOLDER.test(parts[0]!);
};

/**
 * Identifiers and instruction-like sentences the summary wrote that nothing it read backs. `support` gives the
 * evicted texts, then the context texts; it is called only when the summary has something to check. `backs`
 * answers for an identifier as the texts joined with blank lines would (see session-support.ts). `loosely`, when given,
 * gives the same texts each read back (`unescapeArguments`) and lowercased, made once by a caller that reads them for
 * several summaries: joined, they are the joined texts read back and lowercased (no escape spans a blank line).
 * `known` is what a caller that audits several summaries has read already: the summary's `ownIdentifiers`, and the
 * source texts as the instruction check reads them.
 */
export function unbacked(
  summary: string,
  support: () => string[],
  kinds: Record<string, IdentifierKind>,
  backs?: (id: Identifier) => boolean,
  noise: NoiseContext = {},
  cwd: string | null = null,
  loosely?: () => string[],
  known: { ownIds?: readonly Identifier[]; sourceTexts?: SourceTexts } = {},
): { invented: string[]; instructionLike: string[] } {
  const own = stripHarnessText(summary);
  let texts: string[] | undefined;
  const read = () => (texts ??= support());
  // One joined haystack, so a host in one source item and its port in another still back `host:port`.
  let joined: Haystack | undefined;
  const backedByJoined = (id: Identifier) => {
    joined ??= haystack(read().join('\n\n'));
    return id.kind === 'date' ? dateSupported(id.value, [joined]) : foundIn(id, joined);
  };
  // The texts joined and read back as written (`unescapeArguments`), and in lower case: each made once, for the
  // spellings of `backedLoosely` and for what the summary derived (invented-backing.ts), asked only of what is left.
  let rawText: string | undefined;
  let looseText: string | undefined;
  const raw = () => (rawText ??= unescapeArguments(read().join('\n\n')));
  const loose = () => (looseText ??= loosely ? loosely().join('\n\n') : raw().toLowerCase());
  const derived = (id: Identifier) =>
    respelledInQuote(id, own, loose()) ||
    daySpanDerived(id, own, raw(), noise.sessionDays) ||
    sizeFromListing(id, own, raw()) ||
    plannedInMadeFolder(id, raw()) ||
    arithmeticDerived(id, own, loose());
  const invented: string[] = [];
  const toldByHarness = toldByHarnessIn(own);
  for (const id of known.ownIds ?? distinctIdentifiers([own], cwd)) {
    if (isNoise(id, noise) || isPlaceholderFile(id) || toldByHarness(id) || (backs ?? backedByJoined)(id)) continue;
    // A date must be backed as a date (a wrong year is the invention); other values may stand in a longer spelling.
    if (id.kind !== 'date' && backedLoosely(id, loose(), cwd)) continue;
    if (derived(id)) continue;
    invented.push(id.value);
    setOwn(kinds, id.value, id.kind);
  }
  return { invented, instructionLike: findInstructionLike(own, read, known.sourceTexts) };
}

/** A tool call's arguments as the model wrote them: JSON's `\\` and `\"` read back, so paths and quotes match. */
export function unescapeArguments(text: string): string {
  // One pass, so the `\\n` of `C:\\Users\\name` reads back as `\n` of `\name`, not as a line break.
  return text.includes('\\') ? text.replace(/\\(["\\nt])/g, (_, c: string) => (c === 'n' ? '\n' : c === 't' ? '\t' : c)) : text;
}

/** A user message a person wrote (not a harness notice, a teammate's message or a tool result): `userWordsOf`, as the lints read it. */
export const isUserWords = (m: Omit<TextMeta, 'target'>, text: string): boolean =>
  m.role === 'user' && userWordsOf({ role: 'user', kind: m.kind as Item['kind'] | undefined, text, meta: m.meta }) !== null;

/** Words from outside the agent in its user turn: a person's (`isUserWords`) or another agent's of its team (`teammateWordsOf`). */
export const isOthersWords = (m: Omit<TextMeta, 'target'>, text: string): boolean =>
  isUserWords(m, text) || (m.role === 'user' && teammateWordsOf({ role: 'user', kind: m.kind as Item['kind'] | undefined, text, meta: m.meta }).length > 0);

/** The shell commands of tool calls among these texts. */
export function commandsOf(meta: readonly (TextMeta | null | undefined)[]): string[] {
  return meta.flatMap((m) => (m?.kind === 'tool_call' && m.target?.kind === 'command' ? [m.target.target] : []));
}

export function auditSummary(input: AuditInput, _options: AuditOptions = {}): SummaryAudit {
  const kinds: Record<string, IdentifierKind> = {};
  const noise: NoiseContext = { sessionDays: new Set(input.sessionDays ?? []) };
  const sourceMeta = input.sources.map((_, i) => input.sourceMeta?.[i] ?? null);
  const sources = input.sources.map((t, i) => (sourceMeta[i]?.kind === 'tool_call' ? unescapeArguments(t) : t));
  const laterItems = input.later.map((l) => (l.kind === 'tool_call' ? { ...l, text: unescapeArguments(l.text) } : l));
  const context = (input.context ?? []).map((t, i) => (input.contextMeta?.[i]?.kind === 'tool_call' ? unescapeArguments(t) : t));
  // A placeholder file name (`file.txt`, `foo.py`) stands for any file: no summary loses it.
  const cwd = input.project?.cwd ?? null;
  const sourceIds = distinctIdentifiers(sources, cwd).filter((id) => !isNoise(id, noise) && !isPlaceholderFile(id));
  const seen = withoutStillSeen(keptAndLost(input.summary, sourceIds, kinds), (input.keptVerbatim ?? []).map((t) => haystack(t)));
  // What an instruction file holds was in every request, beside the summary too.
  const instructionFiles = instructionContext(input.instructionFiles, cwd);
  // So was what the harness names in every request unrecorded (loaded-instructions.ts).
  const inEveryRequest = namedInEveryRequest(() => [...sources, ...laterItems.map((l) => l.text), ...context], input.format, cwd);
  const { kept, lost: lostIds } = { ...seen, lost: seen.lost.filter((id) => !inEveryRequest(id) && !instructionFiles?.holds(id)) };

  const scope = input.project
    ? new ProjectScope(
        [
          ...sources.map((text, i): ScopeText => ({ text, ...(sourceMeta[i] ?? {}) })),
          ...laterItems.map((l): ScopeText => ({ text: l.text, role: l.role, kind: l.kind, target: l.target ?? null })),
          ...context.map((text, i): ScopeText => ({ text, ...(input.contextMeta?.[i] ?? {}) })),
          ...(input.project.texts ?? []),
        ],
        cwd,
      )
    : null;

  // A background agent's report in the user's turn is fresh output, as in the session audit.
  const report = (l: (typeof laterItems)[number]) => l.role === 'user' && isAgentReport(l.text);
  const later = laterItems.filter((l) => isReference(l, l.text) || report(l));
  const output = later.map(report);
  const hays = later.map((l) => haystack(mentionText(l.text), { cwd }));
  // What a person asks: of a harness-framed reply, its own words, not the tool call the frame repeats (`saidText`).
  const asked = later.map((l, i) => (asksAgain(l.role) && !output[i] ? questions(saidText({ role: 'user', kind: l.kind as Item['kind'] | undefined, text: l.text, meta: l.meta })) : []));
  const evictedFetches = new Set([
    ...input.sources.flatMap((_, i) => {
      const key = input.sourceCalls?.[i] ?? (sourceMeta[i]?.target ? targetKey(sourceMeta[i]!.target!) : null);
      return key && !sourceMeta[i]?.target?.writes ? [key] : [];
    }),
    ...(input.removedFetches ?? []),
  ]);
  const callKey = (i: number) => later[i]!.call ?? (later[i]!.target ? targetKey(later[i]!.target!) : null);
  const laterAt = new Map(later.map((l, i) => [l.id, i]));
  const laterOrder = new Map(laterItems.map((l, i) => [l.id, i]));
  const kindOf = (i: number): 'call' | 'result' | 'message' => (later[i]!.kind === 'tool_call' ? 'call' : later[i]!.kind === 'tool_result' || output[i] ? 'result' : 'message');
  // The files each later command's output lists as entries of a folder (listed-paths.ts), read when first asked.
  const listings: (Listed | null)[] = [];
  const listingAt = (i: number): Listed | null => {
    if (listings[i] === undefined) {
      const l = later[i]!;
      listings[i] = l.kind === 'tool_result' && !l.isError && l.target?.kind === 'command' ? listedPaths(l.target.target, l.text, cwd) : null;
    }
    return listings[i]!;
  };

  const lostReferencedLater: LaterReference[] = [];
  const lostRefetchedLater: RefetchedReference[] = [];
  const pickable = askedAlike(lostIds);
  for (const id of lostIds) {
    let exact = false;
    let argument = false;
    if (scope) {
      const occurrences: Occurrence[] = sources.flatMap((text, i) => (foundIn(id, haystack(text)) ? [{ text, ...(sourceMeta[i] ?? {}) }] : []));
      const r = relevance(id, occurrences, scope);
      if (r === 'irrelevant') continue;
      exact = r === 'exact-path';
      argument = r === 'argument';
    }
    // Past a later file that declares its own function of this name, the name no longer says which one it is.
    const holders = id.kind === 'function' ? sources.flatMap((text, i) => (foundIn(id, haystack(text)) ? [i] : [])) : [];
    const evictedFiles = new Set(holders.flatMap((i) => (sourceMeta[i]?.target?.file ? [sourceMeta[i]!.target!.file!] : [])));
    // Only a definition the slice read in a known file ties the name to that file.
    const declared = holders.some((i) => !!sourceMeta[i]?.target?.file && definesName(sources[i]!, functionName(id.value)));
    const byAgent = holders.length > 0 && holders.every((i) => !!sourceMeta[i]?.target?.writes);
    const cut = otherDefinitionAt(id, declared, evictedFiles, (i) => ({ file: later[i]!.target?.file, text: later[i]!.text }), 0, later.length, (f) => byAgent && !!scope?.wrote(f));
    const end = cut >= 0 ? cut : later.length;
    // A relative path written from a folder below the working directory: a longer path ending with it names it too.
    const tail = id.kind === 'path' && !!scope?.writtenBelow(id.value);
    const inTest = (i: number) =>
      isExampleDataIn(id, later[i]!.target?.file) || (later[i]!.kind === 'tool_call' && (onlyInWrittenTree(id, later[i]!.target, unescapeArguments(later[i]!.text)) || onlyInCommitMessage(id, later[i]!.target, cwd)));
    // Output that shows a function's or class's declaration printed it again, though not in the call form a use needs.
    const showsDeclaration = (i: number) => id.kind === 'function' && kindOf(i) === 'result' && foundIn(id, hays[i]!) && definesName(later[i]!.text, functionName(id.value));
    const walk: LaterWalk = {
      first: (from, accept) => {
        for (let i = Math.max(0, from); i < end; i++) {
          if (accept(i) && !inTest(i) && (referencedIn(id, hays[i]!, 0, cwd) || (tail && foundIn(id, hays[i]!) && containsPathTail(hays[i]!.text, id.value, cwd)) || (kindOf(i) === 'call' && opensFileNamed(id, later[i]!.target)) || showsDeclaration(i))) return i;
        }
        return -1;
      },
      question: (from) => {
        if (!pickable(id)) return -1;
        for (let i = Math.max(0, from); i < later.length; i++) if (asksFor(id, asked[i]!)) return i;
        return -1;
      },
      kind: kindOf,
      repeats: (i) => kindOf(i) === 'call' && !later[i]!.target?.writes && evictedFetches.has(callKey(i) ?? ''),
      callOf: (i) => (later[i]!.callId !== undefined ? (laterAt.get(later[i]!.callId!) ?? -1) : -1),
      // The call's own argument (the file it opens, the command it runs), not content it writes.
      exactArg: (i) => takesValue(id, later[i]!.target, hays[i]!.text, cwd, later[i]!.text),
      listed: (from) => {
        if (id.kind !== 'path') return -1;
        for (let i = Math.max(0, from); i < end; i++) {
          const l = listingAt(i);
          if (l && listsFile(l, id.value, cwd)) return i;
        }
        return -1;
      },
      printsWhole: (i) => id.kind === 'path' && later[i]!.kind === 'tool_result' && reprintsWhole(later[i]!.text, id.value, later[i]!.target, cwd),
    };
    const use = classifyLaterUse(walk, 0, exact, argument);
    if (!use) continue;
    if (use.list === 'referenced') lostReferencedLater.push({ value: id.value, itemId: later[use.at]!.id, via: use.via });
    else lostRefetchedLater.push({ value: id.value, itemId: later[use.at]!.id, via: use.via, usedIn: use.usedAt === null ? null : later[use.usedAt]!.id });
  }

  const checked = unbacked(input.summary, () => [...sources, ...context, ...(instructionFiles?.texts ?? [])], kinds, undefined, noise, cwd);
  // A thing the later items show to exist, or a file the harness loads unrecorded, is not shown invented (shown-later.ts).
  const byId = new Map(laterItems.map((l, i) => [l.id, i]));
  const resultOf = new Map(laterItems.flatMap((l, i) => (l.kind === 'tool_result' && l.callId !== undefined ? [[l.callId, i] as const] : [])));
  const sight = (i: number): LaterSight => {
    const l = laterItems[i]!;
    const call = l.kind === 'tool_result' && l.callId !== undefined ? byId.get(l.callId) : undefined;
    const result = l.kind === 'tool_call' ? resultOf.get(l.id) : undefined;
    const failed = l.kind === 'tool_result' ? !!l.isError : result !== undefined && !!laterItems[result]!.isError;
    return { kind: l.kind, othersWords: isOthersWords(l, l.text), target: l.target ?? null, failed, answersWrite: call !== undefined && !!laterItems[call]!.target?.writes };
  };
  let redacted: Set<string> | undefined;
  const invented = input.unverifiable
    ? []
    : checked.invented.filter((v) => {
        const id: Identifier = { value: v, kind: kinds[v] ?? 'path', index: 0 };
        if (loadedByHarness(id) || hiddenByRedaction(id, (redacted ??= redactedExtensions([...sources, ...context])))) return false;
        const holding = laterItems.flatMap((l, i) => (foundIn(id, haystack(l.text)) ? [i] : []));
        const takes = (i: number) => takenAsArgument(id, laterItems[i]!.target ? (laterItems[i]!.target!.file ?? laterItems[i]!.target!.target) : laterItems[i]!.text, cwd);
        return !shownToExistLater(id, holding, sight, takes);
      });
  const instructionLike = checked.instructionLike;
  // Without the roles of what the summarizer read, no message is known to be the user's: no claim can be checked.
  const rolesKnown = input.userMessages !== undefined || input.sourceMeta !== undefined || input.contextMeta !== undefined;
  // The user's words as the session audit reads them (`userWordsRead`), from the sources, then the context. Without
  // call ids here, a tool result answers the last call of its tool before it (of any tool, when its name is unknown).
  const heard = () => {
    const lastCall = new Map<string, string>();
    let lastName: string | undefined;
    const texts: ReadText[] = [];
    const add = (text: string, m: TextMeta | null | undefined) => {
      if (!m) return;
      // A call reads as `name(arguments)` here (`renderForAudit`): its arguments are what the answer's options are read from.
      if (m.kind === 'tool_call') {
        const args = m.name && text.startsWith(`${m.name}(`) && text.endsWith(')') ? text.slice(m.name.length + 1, -1) : text;
        lastCall.set(m.name ?? '', args);
        lastCall.set('', args);
        if (m.name) lastName = m.name;
      }
      const name = m.name ?? (m.kind === 'tool_result' ? lastName : undefined);
      const call = m.kind === 'tool_result' ? lastCall.get(m.name ?? '') : undefined;
      texts.push({ text, role: m.role, kind: m.kind, ...(m.meta ? { meta: m.meta } : {}), ...(name ? { name } : {}), ...(call !== undefined ? { call: { ...(name ? { name } : {}), text: call } } : {}) });
    };
    sources.forEach((t, i) => add(t, sourceMeta[i]));
    context.forEach((t, i) => add(t, input.contextMeta?.[i]));
    return userWordsRead(texts);
  };
  let read: ReturnType<typeof heard> | undefined;
  const said = () => (input.userMessages ? { said: input.userMessages, harness: [] } : (read ??= heard()));
  const evictedUserMessages = sources.filter((t, i) => sourceMeta[i] && isUserWords(sourceMeta[i]!, t));
  // One row per file, whatever spellings the slice used (spellings.ts).
  const files = foldSpellings(
    { kept, lost: lostIds.map((i) => i.value), lostReferencedLater, lostRefetchedLater, kinds },
    cwd,
    (itemId) => laterOrder.get(itemId) ?? Number.MAX_SAFE_INTEGER,
  );
  // The CLAUDE.md and rule files Claude Code recorded among what the summarizer read: their instructions are the user's.
  const recorded = () => [
    ...sources.filter((_, i) => isRecordedInstructions(sourceMeta[i]?.meta)),
    ...context.filter((_, i) => isRecordedInstructions(input.contextMeta?.[i]?.meta)),
  ].flatMap(instructionUnits);
  const claims = rolesKnown && !input.unverifiable ? judgeUserClaims(input.summary, said().said, () => [...(input.standIns ?? []), ...(instructionFiles?.standIns() ?? []), ...recorded()], () => said().harness) : null;
  return {
    ...files,
    invented,
    instructionLike,
    inventedInstructions: claims?.invented ?? [],
    ...(claims && claims.notJudged.length > 0 ? { instructionsNotJudged: claims.notJudged } : {}),
    ...(input.unverifiable ? { readUnheldTurns: true as const } : {}),
    survival: survivalOf(files.kept, files.lost, files.kinds, input.summary, commandsOf(sourceMeta), evictedUserMessages),
  };
}

/**
 * Can this later item show that a lost identifier was needed? A user message, a tool call's arguments or a tool
 * result can; the agent's own prose and thinking only repeat what it still knew, a later compaction's summary what
 * its summarizer read, and a harness notice in the user's turn (`<task-notification>`, `<system-reminder>`) repeats
 * what the harness knows.
 */
export function isReference(m: Omit<TextMeta, 'target'>, text: string): boolean {
  if (m.role === 'assistant' && (m.kind === 'message' || m.kind === 'thinking')) return false;
  // Another compaction's summary is a summarizer's writing, whatever turn it sits in: it repeats what was still known.
  if (m.kind === 'summary') return false;
  // A text of unknown role is read as the user's; the harness's writing in the user's turn is none (`isHarnessItem`).
  if (asksAgain(m.role) && isHarnessItem({ role: 'user', kind: m.kind as Item['kind'] | undefined, text, meta: m.meta })) return false;
  return true;
}
