// A JSONL corpus: one whole trajectory per line, in any format the app reads from a single JSON document
// (OpenAI chat, Responses, Anthropic messages, ATIF, SWE-agent and mini-swe-agent, tau-bench results, OpenHands
// event lists, an Inspect sample, the research styles …), as RL pipelines and batch jobs dump them. Each line is
// sniffed with the format registry on its own and goes through the ordinary loader, named `file.jsonl#L12`, so a
// corpus line parses exactly as the same trajectory saved as its own file would.
import { detectWithRival, idFromFile, type Detection, type FormatAdapter } from '../formats';
import { parseDocument, type Document } from '../load/document';
import { loadDocument, type LoadResult } from '../load/loader';
import { isObject, get } from '../model/narrow';
import type { FormatId, ParseIssue } from '../model/types';
import { corpusLineName } from './corpus-line-name';

export { corpusLineName, parseCorpusLineName } from './corpus-line-name';

/** Formats whose one JSON document is one whole trajectory (or a list of them), so a JSONL of them is a corpus. */
export const TRAJECTORY_FORMATS: ReadonlySet<FormatId> = new Set<FormatId>([
  'self-sum',
  'agent-omit',
  'sharegpt',
  'reasoning-trace',
  'swe-agent',
  'mini-swe-agent',
  'atif',
  'openai-chat',
  'openai-responses',
  'anthropic',
  'tau-bench',
  'inspect',
  'openhands',
  'openhands-sdk',
  'livekit',
  'gemini-cli',
  'cline',
]);

/** Formats whose single record is one event of a trajectory: only a list of them is a whole one. */
const LIST_ONLY: ReadonlySet<FormatId> = new Set<FormatId>(['openhands', 'openhands-sdk']);

/** What one line holds, by content alone. */
export type LineSniff =
  | { kind: 'trajectory'; adapter: FormatAdapter; doc: Document; detection: Detection }
  /** One record of a log that spans lines (a Claude Code or Codex record, a request, one event). */
  | { kind: 'record'; adapter: FormatAdapter; doc: Document; detection: Detection }
  | { kind: 'unrecognized'; doc: Document }
  | { kind: 'invalid'; issue: ParseIssue };

/** Sniffs one line with the format registry. `name` is what a parse error names. */
export function sniffCorpusLine(text: string, name = 'line'): LineSniff {
  const parsed = parseDocument(name, text);
  if (!parsed.ok) return { kind: 'invalid', issue: parsed.issue };
  const doc = parsed.doc;
  if (doc.kind !== 'json') return { kind: 'invalid', issue: { file: name, line: null, field: null, message: 'expected one JSON value on the line', severity: 'error' } };
  const detection = detectWithRival(doc);
  if (!detection) return { kind: 'unrecognized', doc };
  const { adapter } = detection;
  const whole = TRAJECTORY_FORMATS.has(adapter.id) && (!LIST_ONLY.has(adapter.id) || Array.isArray(doc.value));
  return { kind: whole ? 'trajectory' : 'record', adapter, doc, detection };
}

/** The messages of a line's trajectory container, for the request-log check. */
function messagesOf(value: unknown): unknown[] | null {
  if (Array.isArray(value)) return value;
  if (!isObject(value)) return null;
  // Chat and Anthropic bodies, research conversations, Responses request bodies.
  const m = get(value, 'messages') ?? get(value, 'conversations') ?? get(value, 'input');
  return Array.isArray(m) ? m : null;
}

/**
 * A request log written as bare request bodies also has one conversation per line, but each line repeats the
 * previous one and adds to it (a first call may hold the user's message alone). Trajectories of a corpus are
 * independent.
 */
export function looksLikeGrowingRequests(first: unknown, second: unknown): boolean {
  const a = messagesOf(first);
  const b = messagesOf(second);
  if (!a || !b || b.length <= a.length || a.length < 1) return false;
  return a.every((m, i) => JSON.stringify(m) === JSON.stringify(b[i]));
}

/**
 * Decides from the first two non-empty lines whether a JSONL file is a corpus of trajectories: the first line is
 * a whole trajectory the registry recognizes; the second is not a record of a log that spans lines (a broken or
 * unknown second line is that line's own error, not a reason to read the file another way); and the lines are not
 * one growing request log.
 */
export function isTrajectoryJsonl(firstLine: string, secondLine: string | null): boolean {
  if (secondLine === null) return false;
  const t = firstLine.trim();
  if (!(t.startsWith('{') || t.startsWith('[')) || !(t.endsWith('}') || t.endsWith(']'))) return false;
  const first = sniffCorpusLine(t);
  if (first.kind !== 'trajectory' || first.doc.kind !== 'json') return false;
  const second = sniffCorpusLine(secondLine);
  if (second.kind === 'record') return false;
  return !looksLikeGrowingRequests(first.doc.value, second.kind === 'invalid' ? undefined : second.doc.kind === 'json' ? second.doc.value : undefined);
}

export interface CorpusLine {
  /** 1-based line number in the file. */
  line: number;
  text: string;
}

/** The non-empty lines of a JSONL text, each with its line number. For texts already in memory (tests, paste). */
export function splitCorpusJsonl(text: string): CorpusLine[] {
  const out: CorpusLine[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const t = lines[i]!.replace(/\r$/, '');
    if (t.trim()) out.push({ line: i + 1, text: t });
  }
  return out;
}

/** True when a whole JSONL text is a corpus of trajectories (see isTrajectoryJsonl). */
export function isTrajectoryJsonlText(text: string): boolean {
  const lines = splitCorpusJsonl(text.slice(0, 1 << 24));
  return lines.length >= 2 && isTrajectoryJsonl(lines[0]!.text, lines[1]!.text);
}

/**
 * A 53-bit hash of a line (cyrb53), as 14 hex digits: names a trajectory whose format records no id by what it
 * holds, so the same line gets the same id in whichever partition and at whichever line a batch system puts it.
 */
export function lineHash(text: string): string {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(16).padStart(14, '0');
}

export interface CorpusLineOptions {
  /**
   * Name a trajectory that records no id of its own `file#<hash of the line>` instead of `file#L12`: for standard
   * input, whose line numbers count within one partition of a batch job.
   */
  idByContent?: boolean;
}

/**
 * Loads one corpus line. Issues name the corpus file and the line, as a JSONL record's would; items keep the
 * synthetic `file.jsonl#L12` name so the inspector shows where they came from. A line that holds one record of a
 * log spanning many lines (a Claude Code record, one request, one event) is an error of that line: a corpus line
 * is a whole trajectory.
 */
export function loadCorpusLine(file: string, line: number, text: string, opts: CorpusLineOptions = {}): LoadResult {
  const name = corpusLineName(file, line);
  const relocate = (i: ParseIssue): ParseIssue => (i.file === name ? { ...i, file, line } : i);
  const sniff = sniffCorpusLine(text, name);
  if (sniff.kind === 'invalid') return { sessions: [], issues: [relocate(sniff.issue)] };
  if (sniff.kind === 'record') {
    const message = `this line is one record of a ${sniff.adapter.label} log, not a whole trajectory; a corpus line holds one whole trajectory (give the log's file to corpus as a path instead)`;
    return { sessions: [], issues: [{ file, line, field: null, message, severity: 'error' }] };
  }
  const r = loadDocument(sniff.doc, [], sniff.kind === 'trajectory' ? sniff.detection : null);
  const issues = r.issues.map(relocate);
  // Ids derived from the synthetic name start with it (tau-bench adds `#task-N`); a recorded id is kept.
  const derived = idFromFile(name);
  const renamed = opts.idByContent ? `${idFromFile(file)}#${lineHash(text)}` : null;
  for (const s of r.sessions) {
    s.issues = s.issues.map(relocate);
    if (renamed && s.id.startsWith(derived)) s.id = renamed + s.id.slice(derived.length);
  }
  return { sessions: r.sessions, issues };
}
