// Probe questions for one compaction, generated from what it evicted (after the published probe evaluation of
// compaction: recall, artifact, continuation and decision questions). Each probe names the identifiers and files an
// answer must hold, so it can be scored offline from the summary text, and carries the evicted text it comes from
// for an endpoint to answer and a judge to score.
import { extractIdentifiers, isNoise, type IdentifierKind } from '../audit';
import type { Item } from '../model/types';

export const PROBE_KINDS = ['recall', 'artifact', 'continuation', 'decision'] as const;
export type ProbeKind = (typeof PROBE_KINDS)[number];

export interface ProbeKey {
  value: string;
  /** An identifier's kind, or `word`: a content word of a decision's reason when it names no identifier. */
  kind: IdentifierKind | 'word';
}

export interface Probe {
  /** `recall-1`, `artifact-1`… unique within a compaction. */
  id: string;
  kind: ProbeKind;
  question: string;
  /** What a good answer holds: identifiers and file paths of the evicted content. */
  keys: ProbeKey[];
  /** The evicted text the probe comes from (a line, a list of changed files, the next step, a decision). */
  evidence: string;
  /** Items of the slice (or after it, for the next step) the probe was built from. */
  sourceIds: string[];
}

export interface ProbeInput {
  /** The items the compaction took out, in order. */
  slice: readonly Item[];
  /** The items after the compaction, in order (the next step is the first action among them). */
  later: readonly Item[];
  /** At most this many recall probes (default 3). */
  maxRecall?: number;
}

/** Facts a later turn dereferences, most specific first; bare numbers and dates last. */
const RECALL_KINDS: readonly IdentifierKind[] = ['host-port', 'url', 'email', 'ticket', 'order-id', 'uuid', 'version', 'quantity', 'port', 'host', 'hash', 'date', 'number'];
const EDIT_TOOLS = /(^|[_.-])(edit|multiedit|write|create|apply_patch|patch|str_replace|str_replace_based_edit_tool|notebookedit|insert)($|[_.-])|^(Edit|Write|MultiEdit|NotebookEdit)$/i;
const PATCH_FILE = /\*\*\* (Update|Add|Delete) File: ([^\n]+)/g;
/** The file an edit tool names in its arguments (`file_path`, `path`, `filePath`, `notebook_path`). */
const PATH_ARG = /"(?:file_path|path|filePath|notebook_path|target_file)"\s*:\s*"((?:[^"\\]|\\.)*)"/g;
const DECISION = /\b(because|since|so that|instead of|rather than|decided|decide to|chose|choose|opted|the reason|which is why|in order to)\b/i;
const STOP = new Set(['the', 'and', 'that', 'this', 'with', 'from', 'have', 'will', 'would', 'should', 'there', 'their', 'which', 'about', 'into', 'because', 'since', 'instead', 'rather', 'decided', 'choose', 'chose', 'being', 'these', 'those', 'other', 'where', 'while', 'after', 'before', 'could', 'first', 'again']);

const oneLine = (text: string, max = 200) => {
  const t = text.replace(/\s+/g, ' ').trim();
  return t.length > max ? `${t.slice(0, max - 1)}…` : t;
};

/** The line of `text` around `index`, trimmed to about 160 characters centred on it, cut at spaces. */
function lineAround(text: string, index: number, length: number): string {
  const lineStart = text.lastIndexOf('\n', index - 1) + 1;
  let start = Math.max(lineStart, index - 80);
  if (start > lineStart) start = text.indexOf(' ', start) + 1 || start;
  const endLine = text.indexOf('\n', index + length);
  let end = Math.min(endLine < 0 ? text.length : endLine, index + length + 80);
  if (end < (endLine < 0 ? text.length : endLine)) end = Math.max(index + length, text.lastIndexOf(' ', end));
  return text.slice(Math.min(start, index), end).trim();
}

function recallProbes(slice: readonly Item[], max: number): Probe[] {
  const seen = new Set<string>();
  const lines = new Set<string>();
  const found: { item: Item; value: string; kind: IdentifierKind; line: string; rank: number }[] = [];
  for (const item of slice) {
    if (item.kind !== 'message' && item.kind !== 'tool_result' && item.kind !== 'thinking') continue;
    if (item.role === 'system') continue;
    for (const id of extractIdentifiers(item.text)) {
      const rank = RECALL_KINDS.indexOf(id.kind);
      if (rank < 0 || seen.has(id.value.toLowerCase()) || isNoise(id)) continue;
      if (id.kind === 'number' && id.value.replace(/\D/g, '').length < 3) continue;
      const line = lineAround(item.text, id.index, id.value.length);
      if (!line.includes(id.value)) continue;
      // The line must say something besides the value: a question is a blank in a sentence, not in a bare number
      // or a list of names.
      if (line.replace(id.value, '').replace(/\W+/g, '').length < 8) continue;
      if (extractIdentifiers(line).filter((x) => x.value !== id.value && (x.kind === 'path' || x.kind === 'url' || x.kind === 'function')).length > 0) continue;
      // The same line again with another value (a log repeating itself) asks the same question.
      const shape = line.replace(id.value, '').replace(/\d+/g, '0');
      if (lines.has(shape)) continue;
      lines.add(shape);
      seen.add(id.value.toLowerCase());
      // Facts the user or the agent stated come before those a tool printed; then the more specific kinds.
      found.push({ item, value: id.value, kind: id.kind, line, rank: (item.role === 'user' ? 0 : item.role === 'assistant' ? 100 : 200) + rank });
    }
  }
  found.sort((a, b) => a.rank - b.rank);
  return found.slice(0, max).map((f, i) => ({
    id: `recall-${i + 1}`,
    kind: 'recall',
    question: `Earlier in the conversation: “${oneLine(f.line.replace(f.value, '____'), 220)}”. What goes in the blank?`,
    keys: [{ value: f.value, kind: f.kind }],
    evidence: oneLine(f.line, 240),
    sourceIds: [f.item.id],
  }));
}

/** Files the slice changed, from edit tool calls (paths in their arguments, or an apply_patch's file headers). */
function changedFiles(slice: readonly Item[]): { path: string; tool: string; id: string }[] {
  const out = new Map<string, { path: string; tool: string; id: string }>();
  for (const it of slice) {
    if (it.kind !== 'tool_call' || !it.name || !EDIT_TOOLS.test(it.name)) continue;
    const fromPatch = [...it.text.matchAll(PATCH_FILE)].map((m) => m[2]!.trim());
    const fromArgs = [...it.text.matchAll(PATH_ARG)].map((m) => m[1]!.replace(/\\(.)/g, '$1'));
    const paths = fromPatch.length ? fromPatch : fromArgs.length ? fromArgs : extractIdentifiers(it.text).filter((id) => id.kind === 'path').map((id) => id.value).slice(0, 1);
    for (const path of paths.slice(0, 3)) if (!out.has(path)) out.set(path, { path, tool: it.name, id: it.id });
  }
  return [...out.values()];
}

function artifactProbe(slice: readonly Item[]): Probe | null {
  const files = changedFiles(slice).slice(0, 8);
  if (files.length === 0) return null;
  return {
    id: 'artifact-1',
    kind: 'artifact',
    question: 'Which files had been changed up to this point, and how?',
    keys: files.map((f) => ({ value: f.path, kind: 'path' })),
    evidence: files.map((f) => `${f.path} (${f.tool})`).join('; '),
    sourceIds: files.map((f) => f.id),
  };
}

function continuationProbe(slice: readonly Item[], later: readonly Item[]): Probe | null {
  const next = later.find((it) => it.kind === 'tool_call' || (it.role === 'assistant' && it.kind === 'message' && it.text.trim() !== ''));
  const lastUser = [...slice].reverse().find((it) => it.role === 'user' && it.kind === 'message' && it.text.trim() !== '');
  const sliceText = slice.map((it) => it.text).join('\n').toLowerCase();
  // Keys the evicted content could supply: identifiers of the next action that it already mentioned.
  const keys: ProbeKey[] = [];
  const seen = new Set<string>();
  for (const src of [next, lastUser]) {
    if (!src) continue;
    for (const id of extractIdentifiers(src.text)) {
      const v = id.value.toLowerCase();
      if (seen.has(v) || !sliceText.includes(v) || (id.kind === 'number' && v.length < 3)) continue;
      seen.add(v);
      keys.push({ value: id.value, kind: id.kind });
    }
  }
  if (keys.length === 0) return null;
  const action = next ? (next.kind === 'tool_call' ? `${next.name ?? 'tool'}(${oneLine(next.text, 120)})` : oneLine(next.text, 160)) : '';
  return {
    id: 'continuation-1',
    kind: 'continuation',
    question: 'What was being worked on, and what was the next step?',
    keys: keys.slice(0, 6),
    evidence: [lastUser ? `last request: ${oneLine(lastUser.text, 160)}` : '', action ? `next action: ${action}` : ''].filter(Boolean).join(' · '),
    sourceIds: [lastUser?.id, next?.id].filter((x): x is string => x !== undefined),
  };
}

function decisionProbes(slice: readonly Item[]): Probe[] {
  for (let i = slice.length - 1; i >= 0; i--) {
    const it = slice[i]!;
    if (it.role !== 'assistant' || (it.kind !== 'message' && it.kind !== 'thinking')) continue;
    const sentences = it.text.split(/(?<=[.!?])\s+|\n+/).filter((s) => DECISION.test(s) && s.length >= 30 && s.length <= 400);
    for (const s of sentences.reverse()) {
      const m = DECISION.exec(s)!;
      const choice = s.slice(0, m.index).trim().replace(/[,;:]$/, '');
      const reason = s.slice(m.index);
      const ids = extractIdentifiers(reason).filter((id) => id.kind !== 'number' || id.value.length >= 3);
      const words = [...new Set(reason.toLowerCase().match(/[a-z][a-z_-]{5,}/g) ?? [])].filter((w) => !STOP.has(w)).slice(0, 4);
      const keys: ProbeKey[] = ids.length ? ids.slice(0, 4).map((id) => ({ value: id.value, kind: id.kind })) : words.map((w): ProbeKey => ({ value: w, kind: 'word' }));
      if (keys.length === 0 || choice.length < 12) continue;
      return [{ id: 'decision-1', kind: 'decision', question: `Why: “${oneLine(choice, 180)}”?`, keys, evidence: oneLine(s, 300), sourceIds: [it.id] }];
    }
  }
  return [];
}

/** Up to six probes: recall (≤ 3), one artifact, one continuation and one decision question, where the slice has them. */
export function generateProbes(input: ProbeInput): Probe[] {
  const slice = input.slice.filter((it) => it.kind !== 'compaction');
  return [...recallProbes(slice, input.maxRecall ?? 3), ...[artifactProbe(slice)].filter((p): p is Probe => p !== null), ...[continuationProbe(slice, input.later)].filter((p): p is Probe => p !== null), ...decisionProbes(slice)];
}
