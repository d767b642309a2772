// A JSONL corpus: one whole trajectory per line (Self-Sum, Agent-Omit, ShareGPT/AgentGym, reasoning traces),
// as RL pipelines dump their rollouts. Each line goes through the ordinary loader on its own, named
// `file.jsonl#L12`, so a corpus line parses exactly as the same trajectory saved as its own file would.
import { detect } from '../formats';
import { parseDocument } from '../load/document';
import { loadText, type LoadResult } from '../load/loader';
import { isObject, get } from '../model/narrow';
import type { FormatId, ParseIssue } from '../model/types';

/** Formats whose one document is one whole trajectory, so a JSONL of them is a corpus. */
export const TRAJECTORY_FORMATS: ReadonlySet<FormatId> = new Set<FormatId>(['self-sum', 'agent-omit', 'sharegpt', 'reasoning-trace', 'swe-agent', 'mini-swe-agent', 'atif']);

/** The synthetic file name of a corpus line: what its items' `source.file` and its issues name. */
export function corpusLineName(file: string, line: number): string {
  return `${file}#L${line}`;
}

/** `file.jsonl#L12` → {file, line}; null for an ordinary name. */
export function parseCorpusLineName(name: string): { file: string; line: number } | null {
  const m = /^(.*)#L(\d+)$/.exec(name);
  return m ? { file: m[1]!, line: Number(m[2]) } : null;
}

function lineValue(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The messages of a line's trajectory container, for the request-log check. */
function messagesOf(value: unknown): unknown[] | null {
  if (Array.isArray(value)) return value;
  if (!isObject(value)) return null;
  const m = get(value, 'messages') ?? get(value, 'conversations');
  return Array.isArray(m) ? m : null;
}

/**
 * A request log of a tagged agent also has one tagged conversation per line, but each line repeats the
 * previous one and adds to it. Trajectories of a corpus are independent.
 */
export function looksLikeGrowingRequests(first: unknown, second: unknown): boolean {
  const a = messagesOf(first);
  const b = messagesOf(second);
  if (!a || !b || b.length <= a.length || a.length < 2) return false;
  return a.every((m, i) => JSON.stringify(m) === JSON.stringify(b[i]));
}

/**
 * Decides from the first two non-empty lines whether a JSONL file is a corpus of trajectories: the first line
 * alone is a trajectory the loader recognizes, and the lines are not one growing request log.
 */
export function isTrajectoryJsonl(firstLine: string, secondLine: string | null): boolean {
  if (secondLine === null) return false;
  const t = firstLine.trim();
  if (!(t.startsWith('{') || t.startsWith('[')) || !(t.endsWith('}') || t.endsWith(']'))) return false;
  const parsed = parseDocument('line', t);
  if (!parsed.ok || parsed.doc.kind !== 'json') return false;
  const adapter = detect(parsed.doc);
  if (!adapter || !TRAJECTORY_FORMATS.has(adapter.id)) return false;
  return !looksLikeGrowingRequests(parsed.doc.value, lineValue(secondLine));
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
 * Loads one corpus line. Issues name the corpus file and the line, as a JSONL record's would; items keep the
 * synthetic `file.jsonl#L12` name so the inspector shows where they came from.
 */
export function loadCorpusLine(file: string, line: number, text: string): LoadResult {
  const name = corpusLineName(file, line);
  const r = loadText(name, text);
  const relocate = (i: ParseIssue): ParseIssue => (i.file === name ? { ...i, file, line } : i);
  const issues = r.issues.map(relocate);
  for (const s of r.sessions) s.issues = s.issues.map(relocate);
  return { sessions: r.sessions, issues };
}
