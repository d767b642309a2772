// The built-in summarizer: no network, deterministic, extractive. It fills the course schema from the
// slice itself — Decisions from assistant sentences with a decision verb, Entities from the identifiers
// the audit extracts, Facts from tool results and user statements that carry identifiers, Open Items from
// unanswered questions and TODO-like sentences — folds a prior summary's bullets in, and stays within
// 200 words. Everything it writes is copied from its sources, so it cannot invent a fact. Asked for a reasoning
// or backtracking summary (iterated summarization), it writes one in that style instead (offline-reasoning-summary.ts).
import { parseSummaryCard } from '../analysis/summary-card';
import { distinctIdentifiers, extractIdentifiers, renderForAudit, type Identifier, type IdentifierKind } from '../audit';
import { wordCount } from '../lints/summary-schema';
import { classifyText, SCHEMA_HEADER } from '../model/markers';
import type { Item } from '../model/types';
import { reasoningSummary } from './offline-reasoning-summary';
import { clipWords, sentencesOf } from './sentences';
import type { SummarizeRequest, SummarizeResult, Summarizer } from './summarizer';

export { clipWords, sentencesOf };

export const OFFLINE_MAX_WORDS = 200;

const SECTIONS = ['Decisions', 'Entities', 'Facts', 'Open Items'] as const;
type Section = (typeof SECTIONS)[number];

const DECISION_VERB =
  /\b(?:decid(?:e|ed|es|ing)|chose|chosen|choose|going to|we'll|i'll|will|plan(?:ned)? to|switch(?:ed|ing)? to|opt(?:ed)? for|settled on|agreed|confirm(?:ed)?|approved?|creat(?:e|ed)|set up|fixed|changed|updated|replaced|migrated|moved|renamed|added|removed|deleted|deployed|rolled back|reverted|use|using)\b/i;
// A user's instruction or choice: "Yes, go ahead.", "Don't touch pool_size", "Use that title."
const USER_DIRECTIVE =
  /^(?:(?:yes|ok(?:ay)?|sure|perfect|great|nice|good|fine|right)[,.!]?\s+)*(?:please\s+)?(?:don't|do not|never|always|must|use|go ahead|let's|let us|keep|leave|skip|make sure|switch|add|remove|open|ask|stop|prefer)\b/i;
const TODO_LIKE = /\b(?:TODO|FIXME|need(?:s)? to|still (?:need|have to|missing)|pending|next step|remaining|not yet|follow[- ]up|outstanding|blocked (?:on|by)|to be done)\b/i;

const MAX_ENTRY_WORDS = 30;

const hasIdentifier = (s: string) => extractIdentifiers(s).length > 0;

/** Leaf values of a JSON text as `key: value`, or null when the text is no JSON object or array. */
function jsonLeaves(text: string): string[] | null {
  const t = text.trim();
  if (!(t.startsWith('{') || t.startsWith('['))) return null;
  let value: unknown;
  try {
    value = JSON.parse(t);
  } catch {
    return null;
  }
  const out: string[] = [];
  const walk = (v: unknown, key: string) => {
    if (out.length >= 50) return;
    if (Array.isArray(v)) v.forEach((x) => walk(x, key));
    else if (v !== null && typeof v === 'object') for (const [k, x] of Object.entries(v)) walk(x, k);
    else if (v !== null && v !== undefined) out.push(key ? `${key}: ${String(v)}` : String(v));
  };
  walk(value, '');
  return out;
}

/** Facts a tool result establishes: its identifier-bearing fields or lines, named after the tool. */
function toolFacts(it: Item): string[] {
  const name = it.name ?? 'tool';
  const leaves = jsonLeaves(it.text);
  const parts = leaves
    ? leaves.filter((l) => hasIdentifier(l) || /: (?:true|false)$/.test(l)).slice(0, 6)
    : sentencesOf(it.text).filter(hasIdentifier).slice(0, 2).map((s) => clipWords(s, 20));
  if (parts.length === 0) return [];
  // `name → …`, not `name: …`: a snake_case tool name before a colon and a number reads as a setting.
  return [clipWords(`${name} → ${parts.join(', ')}`, MAX_ENTRY_WORDS)];
}

/** Which identifiers a later turn most likely dereferences first; numbers and measurements last. */
const KIND_RANK: Record<IdentifierKind, number> = {
  'host-port': 0,
  url: 0,
  email: 0,
  path: 1,
  ticket: 1,
  'order-id': 1,
  uuid: 2,
  hash: 2,
  version: 2,
  host: 3,
  date: 3,
  function: 4,
  port: 5,
  quantity: 6,
  number: 7,
};

/**
 * Identifiers by rank, then by first appearance. A host or port already inside a listed `host:port` is
 * left out (the audit finds it there), and so are fragments of serialized data (`start_line":54`).
 */
function rankEntities(ids: Identifier[]): string[] {
  const hostPorts = ids.filter((id) => id.kind === 'host-port').map((id) => id.value.toLowerCase());
  return ids
    .filter((id) => !/["'{}]/.test(id.value))
    .filter((id) => !(id.kind === 'host' && hostPorts.some((hp) => hp.startsWith(`${id.value.toLowerCase()}:`))))
    .filter((id) => !(id.kind === 'port' && hostPorts.some((hp) => hp.endsWith(`:${id.value}`))))
    .map((id, order) => ({ id, order }))
    .sort((a, b) => KIND_RANK[a.id.kind] - KIND_RANK[b.id.kind] || a.order - b.order)
    .map(({ id }) => id.value);
}

interface Candidates {
  Decisions: string[];
  Entities: string[];
  Facts: string[];
  'Open Items': string[];
}

function fromSlice(slice: readonly Item[]): Candidates {
  const c: Candidates = { Decisions: [], Entities: [], Facts: [], 'Open Items': [] };
  const content = slice.filter((it) => it.kind !== 'compaction' && it.kind !== 'omission' && it.text.trim() !== '');
  const toolNames = new Set(content.filter((it) => it.kind === 'tool_call' && it.name).map((it) => it.name!));

  c.Entities = rankEntities(distinctIdentifiers(content.map(renderForAudit)).filter((id) => !toolNames.has(id.value.replace(/\(\)$/, ''))));

  content.forEach((it, i) => {
    const later = content.slice(i + 1);
    if (it.kind === 'tool_result' || it.role === 'tool' || it.role === 'environment') {
      c.Facts.push(...toolFacts(it));
      return;
    }
    if (it.kind !== 'message') return;
    for (const s of sentencesOf(it.text)) {
      const question = s.endsWith('?');
      if (it.role === 'assistant') {
        // A question to the user nobody answered in the slice is still open.
        if (question && !later.some((x) => x.role === 'user' && x.kind === 'message')) c['Open Items'].push(clipWords(s, MAX_ENTRY_WORDS));
        else if (!question && DECISION_VERB.test(s) && wordCount(s) >= 4 && !s.endsWith(':')) c.Decisions.push(clipWords(s, MAX_ENTRY_WORDS));
      } else if (it.role === 'user') {
        if (question && !later.some((x) => x.role === 'assistant' && x.kind === 'message')) c['Open Items'].push(clipWords(s, MAX_ENTRY_WORDS));
        else if (!question && USER_DIRECTIVE.test(s)) c.Decisions.push(clipWords(`User: ${s}`, MAX_ENTRY_WORDS));
        else if (!question && hasIdentifier(s)) c.Facts.push(clipWords(s, MAX_ENTRY_WORDS));
      }
      if (!question && TODO_LIKE.test(s)) c['Open Items'].push(clipWords(s, MAX_ENTRY_WORDS));
    }
  });
  return c;
}

const isNone = (s: string) => /^(?:none|n\/a|-|—)\.?$/i.test(s.trim());

/** The bullets of a prior summary, by section; a summary in another style gives its sentences as facts. */
function fromPrior(prior: string): Candidates {
  const c: Candidates = { Decisions: [], Entities: [], Facts: [], 'Open Items': [] };
  if (classifyText(prior) === 'marker') return c;
  const card = parseSummaryCard(prior);
  if (card.style === 'schema') {
    for (const section of card.sections) {
      const name: Section = (SECTIONS as readonly string[]).includes(section.name) ? (section.name as Section) : 'Facts';
      for (const line of section.lines) {
        const parts = name === 'Entities' ? line.split(/,\s+|;\s+/) : line.split(/;\s+/);
        c[name].push(...parts.map((p) => p.trim()).filter((p) => p !== '' && !isNone(p)));
      }
    }
    return c;
  }
  c.Facts.push(...sentencesOf(prior).map((s) => clipWords(s, MAX_ENTRY_WORDS)));
  c.Entities.push(...rankEntities(distinctIdentifiers([prior])));
  return c;
}

/** Prior entries and new ones taken in turn, duplicates (case-insensitive) dropped. */
function merge(prior: string[], fresh: string[]): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  const add = (s: string) => {
    const key = s.toLowerCase().replace(/\s+/g, ' ');
    if (seen.has(key)) return;
    seen.add(key);
    out.push(s);
  };
  for (let i = 0; i < Math.max(prior.length, fresh.length); i++) {
    if (i < prior.length) add(prior[i]!);
    if (i < fresh.length) add(fresh[i]!);
  }
  return out;
}

function render(chosen: Record<Section, string[]>): string {
  const line = (s: Section) => {
    const entries = chosen[s];
    return `- **${s}:** ${entries.length === 0 ? 'none' : entries.join(s === 'Entities' ? ', ' : '; ')}`;
  };
  return [SCHEMA_HEADER, ...SECTIONS.map(line)].join('\n');
}

/** Per round, entities are short and load-bearing: take several for each sentence of the other sections. */
const PER_ROUND: Record<Section, number> = { Decisions: 1, Entities: 4, Facts: 1, 'Open Items': 1 };
const ROUND_ORDER: Section[] = ['Entities', 'Facts', 'Decisions', 'Open Items'];

/** The schema summary of `slice`, with `prior` folded in, at most `maxWords` words. */
export function offlineSummary(slice: readonly Item[], prior: string | null, maxWords = OFFLINE_MAX_WORDS): string {
  const fresh = fromSlice(slice);
  const old = prior ? fromPrior(prior) : { Decisions: [], Entities: [], Facts: [], 'Open Items': [] };
  // An earlier open question is settled or stale once the slice holds a further exchange.
  const exchanged = slice.some((it) => it.role === 'user' && it.kind === 'message') && slice.some((it) => it.role === 'assistant' && it.kind === 'message');
  if (exchanged) old['Open Items'] = old['Open Items'].filter((q) => !q.trimEnd().endsWith('?'));
  const pool: Record<Section, string[]> = {
    Decisions: merge(old.Decisions, fresh.Decisions),
    Entities: merge(old.Entities, fresh.Entities),
    Facts: merge(old.Facts, fresh.Facts),
    'Open Items': merge(old['Open Items'], fresh['Open Items']),
  };
  const chosen: Record<Section, string[]> = { Decisions: [], Entities: [], Facts: [], 'Open Items': [] };
  const next: Record<Section, number> = { Decisions: 0, Entities: 0, Facts: 0, 'Open Items': 0 };
  let words = wordCount(render(chosen));
  let progress = true;
  while (progress) {
    progress = false;
    for (const s of ROUND_ORDER) {
      for (let n = 0; n < PER_ROUND[s] && next[s] < pool[s].length; n++) {
        const entry = pool[s][next[s]++]!;
        // The first entry replaces "none": count the words the line really gains.
        const gain = wordCount(entry) - (chosen[s].length === 0 ? wordCount('none') : 0);
        if (words + gain > maxWords) continue;
        chosen[s].push(entry);
        words += gain;
        progress = true;
      }
      if (next[s] < pool[s].length) progress = true;
    }
    if (ROUND_ORDER.every((s) => next[s] >= pool[s].length)) break;
  }
  return render(chosen);
}

export const offlineSummarizer: Summarizer = {
  name: 'offline',
  async summarize(req: SummarizeRequest): Promise<SummarizeResult> {
    if (req.signal?.aborted) return { ok: false, failure: 'cancelled', reason: 'cancelled' };
    // An iterated-summarization attempt gets a reasoning-style summary; the course schema is for conversations.
    const style = req.style ?? 'course';
    const text = style === 'course' ? offlineSummary(req.slice, req.priorSummary) : reasoningSummary(req.slice, style);
    req.onText?.(text);
    return { ok: true, text, model: null };
  },
};
