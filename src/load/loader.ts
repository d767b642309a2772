// File bytes → sessions: decode, parse the document, detect the format, adapt, pair tool calls, join.
import { createContext, detect } from '../formats';
import { pairToolCalls } from '../model/pairing';
import type { ParseIssue, Session } from '../model/types';
import { decodeBytes } from './decode';
import { describeUnknown } from './describe-unknown';
import { parseDocument } from './document';
import { joinSessions } from './join';
import { pushAll } from '../model/arrays';

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
  const decoded = decodeBytes(file.bytes);
  if (!decoded.ok) return { sessions: [], issues: [{ file: file.name, line: null, field: null, message: decoded.message, severity: 'error' }] };
  return loadText(file.name, decoded.text, decoded.warnings);
}

export function loadText(name: string, text: string, warnings: string[] = []): LoadResult {
  const issues: ParseIssue[] = warnings.map((message) => ({ file: name, line: null, field: null, message, severity: 'warning' as const }));
  const parsed = parseDocument(name, text);
  if (!parsed.ok) return { sessions: [], issues: [...issues, parsed.issue] };
  pushAll(issues, parsed.issues);
  const adapter = detect(parsed.doc);
  if (!adapter) return { sessions: [], issues: [...issues, describeUnknown(parsed.doc)] };
  const ctx = createContext(parsed.doc);
  let sessions: Session[];
  try {
    sessions = adapter.parse(parsed.doc, ctx);
  } catch (e) {
    // Adapters report problems as values; a throw is a bug, but it must not lose other files.
    ctx.error({}, `${adapter.label} parser failed: ${e instanceof Error ? e.message : String(e)}`);
    sessions = [];
  }
  pushAll(issues, ctx.issues);
  for (const s of sessions) {
    pairToolCalls(s.items);
    pushAll(s.issues, issues);
  }
  return { sessions, issues };
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
  return { sessions: joinSessions(sessions), issues };
}
