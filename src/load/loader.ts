// File bytes → sessions: decode, parse the document, detect the format, adapt, pair tool calls, join.
import { ambiguityMessage, createContext, detectWithRival, type Detection } from '../formats';
import { pairToolCalls } from '../model/pairing';
import { dropEmptyUsage } from '../model/usage';
import type { ParseIssue, Session } from '../model/types';
import { decodeBytes, isZip } from './decode';
import { describeUnknown } from './describe-unknown';
import { parseDocument, type Document } from './document';
import { readEvalArchive } from './eval-archive';
import { joinSessions } from './join';
import { pushAll } from '../model/arrays';
import { impossibleUsageIssue, unplacedUsageIssue } from '../model/usage-checks';

export interface InputFile {
  name: string;
  bytes: Uint8Array;
}

export interface LoadResult {
  sessions: Session[];
  /** Every problem found, errors and warnings, each naming its file, line and field. */
  issues: ParseIssue[];
}

/** Loads one file. Never throws: a file that cannot be read yields an issue and no session. */
export function loadFile(file: InputFile): LoadResult {
  if (file.bytes.length > 0 && isZip(file.bytes)) return loadArchive(file);
  const decoded = decodeBytes(file.bytes);
  if (!decoded.ok) return { sessions: [], issues: [{ file: file.name, line: null, field: null, message: decoded.message, severity: 'error' }] };
  return parseText(file.name, decoded.text, decoded.warnings);
}

/** One file's text, loaded alone (no other file joins it). */
export function loadText(name: string, text: string, warnings: string[] = []): LoadResult {
  return withPlacedUsage(parseText(name, text, warnings));
}

function parseText(name: string, text: string, warnings: string[]): LoadResult {
  const issues: ParseIssue[] = warnings.map((message) => ({ file: name, line: null, field: null, message, severity: 'warning' as const }));
  const parsed = parseDocument(name, text);
  if (!parsed.ok) return { sessions: [], issues: [...issues, parsed.issue] };
  pushAll(issues, parsed.issues);
  return loadDocument(parsed.doc, issues);
}

/** An Inspect `.eval` zip: its header and samples are read into the value a `.json` log holds. */
function loadArchive(file: InputFile): LoadResult {
  const archive = readEvalArchive(file.name, file.bytes);
  if (!archive.ok) return { sessions: [], issues: [{ file: file.name, line: null, field: null, message: archive.message, severity: 'error' }] };
  // No text: issues inside it name the field (`samples[0].events[3]`), not a line.
  return loadDocument({ kind: 'json', file: file.name, value: archive.value, text: '' }, archive.issues);
}

/**
 * A parsed document to sessions: detect, adapt, pair. For callers that parsed it already (a corpus line), and may
 * have detected its format too: then `detected` saves sniffing it twice.
 */
export function loadDocument(doc: Document, issues: ParseIssue[] = [], detected?: Detection | null): LoadResult {
  const detection = detected === undefined ? detectWithRival(doc) : detected;
  if (!detection) return { sessions: [], issues: [...issues, describeUnknown(doc)] };
  const { adapter } = detection;
  const ctx = createContext(doc);
  // Detection never guesses silently: a close second candidate is named beside the chosen one.
  const ambiguity = ambiguityMessage(detection);
  if (ambiguity) ctx.warn({}, ambiguity);
  let sessions: Session[];
  try {
    sessions = adapter.parse(doc, ctx);
  } catch (e) {
    // Adapters report problems as values; a throw is a bug, but it must not lose other files.
    ctx.error({}, `${adapter.label} parser failed: ${e instanceof Error ? e.message : String(e)}`);
    sessions = [];
  }
  pushAll(issues, ctx.issues);
  // Problems an adapter filed on one session (one task of a multi-task file) stay with it; the file's go to all.
  const own = sessions.flatMap((s) => s.issues);
  for (const s of sessions) {
    dropEmptyUsage(s);
    pairToolCalls(s.items);
    for (const sc of s.sidechains) pairToolCalls(sc.items);
    const usage = impossibleUsageIssue(s);
    if (usage) own.push(usage);
    s.issues = [...issues, ...s.issues, ...(usage ? [usage] : [])];
  }
  return { sessions, issues: [...issues, ...own] };
}

/** Loads several files and joins the ones that belong together. */
export function loadFiles(files: InputFile[]): LoadResult {
  const sessions: Session[] = [];
  const issues: ParseIssue[] = [];
  for (const f of files) {
    const r = loadFile(f);
    sessions.push(...r.sessions);
    pushAll(issues, r.issues);
  }
  return withPlacedUsage({ sessions: joinSessions(sessions, issues), issues });
}

/** Once files are joined (a Cline panel file's calls take their replies from the task's history): usage no call holds. */
function withPlacedUsage(r: LoadResult): LoadResult {
  for (const s of r.sessions) {
    const issue = unplacedUsageIssue(s);
    if (!issue) continue;
    s.issues = [...s.issues, issue];
    r.issues.push(issue);
  }
  return r;
}
