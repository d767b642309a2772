// Explains why no adapter took a document, pointing at the line and field that would have decided.
import { isObject } from '../model/narrow';
import type { ParseIssue } from '../model/types';
import type { Document } from './document';

function keysOf(v: unknown): string {
  return isObject(v) ? Object.keys(v).slice(0, 8).join(', ') || '(none)' : Array.isArray(v) ? `an array of ${v.length}` : typeof v;
}

export function describeUnknown(doc: Document): ParseIssue {
  const base = { file: doc.file, severity: 'error' as const };
  const hint = 'expected one of the formats in docs/formats.md (Claude Code, Codex, OpenHands, SWE-agent, mini-swe-agent, ATIF, tau-bench, LiveKit, OpenAI, Anthropic, RL trajectories, compaction or request logs)';
  if (doc.kind === 'jsonl') {
    const first = doc.records[0];
    if (!first) return { ...base, line: null, field: null, message: `no readable JSON lines; ${hint}` };
    const type = isObject(first.value) ? first.value['type'] : undefined;
    if (typeof type === 'string') {
      return { ...base, line: first.line, field: 'type', message: `unrecognized format: record type ${JSON.stringify(type)} belongs to no known format; ${hint}` };
    }
    return { ...base, line: first.line, field: null, message: `unrecognized format: the first record has keys ${keysOf(first.value)}; ${hint}` };
  }
  return { ...base, line: 1, field: null, message: `unrecognized format: top-level ${isObject(doc.value) ? `keys ${keysOf(doc.value)}` : keysOf(doc.value)}; ${hint}` };
}
