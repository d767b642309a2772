// The contract every format adapter fulfils: sniff a parsed document, then parse it into sessions.
import { formatPath, lineOf, type Document } from '../load/document';
import type { FormatId, ParseIssue, Session } from '../model/types';

/** Where a problem is: a JSONL line and/or a path inside the JSON value. */
export interface At {
  line?: number | null;
  path?: (string | number)[];
}

export interface ParseContext {
  readonly file: string;
  readonly doc: Document;
  error(at: At, message: string): void;
  warn(at: At, message: string): void;
  readonly issues: ParseIssue[];
}

export interface FormatAdapter {
  id: FormatId;
  label: string;
  /**
   * Confidence in [0, 1] that `doc` is this format, judged from content only (never the file name).
   * Return 0 quickly for documents of another shape; the registry picks the highest score ≥ 0.5.
   */
  sniff(doc: Document): number;
  /**
   * Formats whose container this one reads with more specific content (tags, harness fields): their close
   * score on the same document is expected, not an ambiguity worth a warning.
   */
  refines?: readonly FormatId[];
  /** Parses everything it can; problems go to `ctx`, never thrown. */
  parse(doc: Document, ctx: ParseContext): Session[];
}

export function createContext(doc: Document): ParseContext {
  const issues: ParseIssue[] = [];
  const push = (severity: ParseIssue['severity']) => (at: At, message: string) => {
    const fieldPath = at.path ?? [];
    const line = at.line ?? (fieldPath.length ? lineOf(doc, fieldPath) : null);
    issues.push({ file: doc.file, line, field: fieldPath.length ? formatPath(fieldPath) : null, message, severity });
  };
  return { file: doc.file, doc, issues, error: push('error'), warn: push('warning') };
}

/** A session with every collection empty, for adapters to fill. */
export function emptySession(format: FormatId, file: string, id: string): Session {
  return {
    id,
    format,
    title: file,
    files: [file],
    items: [],
    compactions: [],
    requests: [],
    responses: [],
    sidechains: [],
    model: null,
    contextWindow: null,
    skipped: {},
    issues: [],
    meta: {},
  };
}

/** Session id fallback: the file name without folders or extension. */
export function idFromFile(file: string): string {
  const base = file.split(/[\\/]/).pop() ?? file;
  return base.replace(/(\.traj)?\.(jsonl?|ndjson|txt)$|\.traj$/i, '');
}
