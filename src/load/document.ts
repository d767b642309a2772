// Text → a parsed document: one JSON value, or JSONL records with their line numbers.
import { findNodeAtLocation, parseTree, type Node as JsonNode } from 'jsonc-parser';
import type { ParseIssue } from '../model/types';

export interface JsonlRecord {
  /** 1-based line number in the file. */
  line: number;
  value: unknown;
}

export type Document =
  | { kind: 'json'; file: string; value: unknown; text: string }
  | { kind: 'jsonl'; file: string; records: JsonlRecord[] };

export type DocumentResult = { ok: true; doc: Document; issues: ParseIssue[] } | { ok: false; issue: ParseIssue };

function lineOfOffset(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

function describeJsonError(e: unknown): string {
  const msg = e instanceof Error ? e.message : String(e);
  if (e instanceof RangeError) return 'JSON is nested too deeply to read';
  return msg.replace(/^JSON\.parse: /, '');
}

/** Finds where JSON.parse gave up, using jsonc-parser's error offsets. */
function syntaxErrorLine(text: string): number | null {
  const errors: { offset: number }[] = [];
  try {
    parseTree(text, errors as never, { allowTrailingComma: false, disallowComments: true });
  } catch {
    return null;
  }
  return errors.length ? lineOfOffset(text, errors[0]!.offset) : null;
}

export function parseDocument(file: string, text: string): DocumentResult {
  const trimmed = text.replace(/^\s+/, '');
  if (!trimmed) return { ok: false, issue: { file, line: null, field: null, message: 'the file has no content', severity: 'error' } };
  const first = trimmed[0];
  if (first !== '{' && first !== '[') {
    return {
      ok: false,
      issue: { file, line: lineOfOffset(text, text.length - trimmed.length), field: null, message: `not JSON or JSONL: the text starts with ${JSON.stringify(trimmed.slice(0, 20))}`, severity: 'error' },
    };
  }
  const lines = text.split('\n');
  const nonEmpty = lines.filter((l) => l.trim()).length;
  if (nonEmpty > 1 && isStandaloneJson(lines.find((l) => l.trim())!)) return parseJsonl(file, lines);
  try {
    return { ok: true, doc: { kind: 'json', file, value: JSON.parse(text), text }, issues: [] };
  } catch (e) {
    const line = e instanceof RangeError ? null : syntaxErrorLine(text);
    return { ok: false, issue: { file, line, field: null, message: `invalid JSON: ${describeJsonError(e)}`, severity: 'error' } };
  }
}

function isStandaloneJson(line: string): boolean {
  const t = line.trim();
  if (!t.startsWith('{') || !t.endsWith('}')) return false;
  try {
    JSON.parse(t);
    return true;
  } catch {
    return false;
  }
}

function parseJsonl(file: string, lines: string[]): DocumentResult {
  const records: JsonlRecord[] = [];
  const issues: ParseIssue[] = [];
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i]!;
    if (!raw.trim()) continue;
    try {
      records.push({ line: i + 1, value: JSON.parse(raw) });
    } catch (e) {
      issues.push({ file, line: i + 1, field: null, message: `invalid JSON line skipped: ${describeJsonError(e)}`, severity: 'error' });
    }
  }
  return { ok: true, doc: { kind: 'jsonl', file, records }, issues };
}

/** The records of a document: JSONL lines, or a lone JSON object as line 1. */
export function recordsOf(doc: Document): JsonlRecord[] {
  if (doc.kind === 'jsonl') return doc.records;
  if (typeof doc.value === 'object' && doc.value !== null && !Array.isArray(doc.value)) return [{ line: 1, value: doc.value }];
  return [];
}

const treeCache = new WeakMap<object, JsonNode | undefined>();

/**
 * The 1-based line of a field inside a JSON document, for error messages.
 * Parsed lazily: only files that have problems pay for the position-tracking parse.
 */
export function lineOf(doc: Document, fieldPath: (string | number)[]): number | null {
  if (doc.kind === 'jsonl') return null;
  let root = treeCache.get(doc);
  if (!treeCache.has(doc)) {
    root = parseTree(doc.text);
    treeCache.set(doc, root);
  }
  if (!root) return null;
  let node: JsonNode | undefined;
  for (let n = fieldPath.length; n >= 0 && !node; n--) node = findNodeAtLocation(root, fieldPath.slice(0, n));
  return node ? lineOfOffset(doc.text, node.offset) : null;
}

/** Renders a path as `messages[3].content[0].type`. */
export function formatPath(fieldPath: (string | number)[]): string {
  let out = '';
  for (const p of fieldPath) out += typeof p === 'number' ? `[${p}]` : out ? `.${p}` : p;
  return out;
}
