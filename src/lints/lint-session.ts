// Structural problems in compacted contexts, each naming the item it concerns.
import type { CallContext } from '../analysis/context-types';
import type { Removal } from '../analysis/replay';
import { classifyText } from '../model/markers';
import type { CompactionEvent, Item, Session } from '../model/types';
import type { Lint } from './lint-types';
import { hasHeader, MAX_SUMMARY_TOKENS, MAX_SUMMARY_WORDS, SCHEMA_SECTIONS, sectionsPresent, wordCount } from './summary-schema';

export interface LintInput {
  format: Session['format'];
  items: readonly Item[];
  calls: readonly CallContext[];
  compactions: readonly CompactionEvent[];
  removals: ReadonlyMap<string, Removal>;
  /** Token counter for the 512-token cap; an estimate is fine. */
  count(text: string): number;
}

const isSummary = (it: Item) => it.kind === 'summary';
const isMarker = (it: Item) => it.kind === 'omission' && (it.omission?.target === 'turns' || classifyText(it.text) === 'marker');
const isRecap = (it: Item) => isSummary(it) || isMarker(it);

/** Normalized text for finding what a user said inside later tool arguments. */
const norm = (s: string) => s.toLowerCase().replace(/\\"/g, '"').replace(/\s+/g, ' ');

function sharesSpan(a: string, b: string, normOf: (s: string) => string, min = 16): boolean {
  const x = normOf(a);
  const y = normOf(b);
  if (x.length < min || y.length < min) return false;
  for (let i = 0; i + min <= y.length; i += 4) if (x.includes(y.slice(i, i + min))) return true;
  return false;
}

export function lintSession(input: LintInput): Lint[] {
  const lints: Lint[] = [];
  const seen = new Set<string>();
  const add = (l: Lint) => {
    const key = `${l.rule}:${l.itemId}`;
    if (seen.has(key)) return;
    seen.add(key);
    lints.push(l);
  };

  // Rules about summaries themselves.
  const summaries = input.items.filter(isSummary);
  for (const s of summaries) {
    const sections = sectionsPresent(s.text);
    if (hasHeader(s.text)) {
      const missing = SCHEMA_SECTIONS.filter((n) => !sections.includes(n));
      if (missing.length) add({ rule: 'summary-section-missing', itemId: s.id, callIndex: null, message: `summary lacks the ${missing.join(', ')} section${missing.length > 1 ? 's' : ''} of the schema` });
    } else if (sections.length >= 2) {
      add({ rule: 'summary-header-missing', itemId: s.id, callIndex: null, message: 'summary uses the schema sections but not the "## Conversation Summary" header that downstream code detects it by' });
    }
    const words = wordCount(s.text);
    const tokens = input.count(s.text);
    if (words > MAX_SUMMARY_WORDS || tokens > MAX_SUMMARY_TOKENS) {
      add({ rule: 'summary-too-long', itemId: s.id, callIndex: null, message: `summary has ${words} words and about ${tokens} tokens (limits: ${MAX_SUMMARY_WORDS} words, ${MAX_SUMMARY_TOKENS} tokens)` });
    }
  }
  input.items.forEach((it, i) => {
    if (!isSummary(it)) return;
    let j = i + 1;
    while (j < input.items.length && input.items[j]!.kind === 'compaction') j++;
    const next = input.items[j];
    if (isSummary(it) && next && isSummary(next)) add({ rule: 'consecutive-summaries', itemId: next.id, callIndex: null, message: `summary follows summary ${it.id} with no step between them` });
  });
  for (const c of input.compactions) {
    if (c.log?.fallback) add({ rule: 'fallback-marker', itemId: c.summaryId ?? c.atItemId ?? c.id, callIndex: null, message: `compaction #${c.index + 1} fell back to the static marker; ${c.log.lostIdentifiers.length} identifiers lost` });
  }

  // Rules about what each call was sent.
  const norms = new Map<string, string>();
  const normOf = (t: string) => {
    let n = norms.get(t);
    if (n === undefined) {
      n = norm(t);
      norms.set(t, n);
    }
    return n;
  };
  let before: Item[] = [];
  input.calls.forEach((call, ci) => {
    const items = call.entries.map((e) => e.item);
    const ids = new Set(items.map((it) => it.id));
    // The causal-order check of an item reads only the items before it: where this context starts like the
    // previous one, the previous call already checked it (and a lint is added once per item anyway).
    let same = 0;
    while (same < items.length && same < before.length && items[same] === before[same]) same++;
    before = items;
    items.forEach((it, i) => {
      if (isRecap(it) && it.role === 'system' && i > 0) {
        add({ rule: 'recap-system-role', itemId: it.id, callIndex: ci, message: 'recap inserted with role system after the first message; role validators drop it, so insert it as assistant' });
      }
      if (isMarker(it)) add({ rule: 'fallback-marker', itemId: it.id, callIndex: ci, message: 'the static marker stands where a summary should be: the evicted turns are gone without a trace' });
      // Omitting or masking an observation while keeping its call is deliberate, not a split pair.
      const removal = it.pairId ? input.removals.get(it.pairId) : undefined;
      if ((it.kind === 'tool_call' || it.kind === 'tool_result') && it.pairId && !ids.has(it.pairId) && removal && removal.label !== 'omitted' && removal.label !== 'masked') {
        add({ rule: 'tool-pair-split', itemId: it.id, callIndex: ci, message: `${it.kind === 'tool_call' ? 'tool call' : 'tool result'} ${it.name ? `(${it.name}) ` : ''}kept while its pair ${it.pairId} was evicted` });
      }
      if (it.role === 'user' && it.kind === 'message' && i >= same && !seen.has(`causal-order:${it.id}`)) {
        const earlierCall = items.slice(0, i).reverse().find((p) => p.kind === 'tool_call' && sharesSpan(p.text, it.text, normOf));
        if (earlierCall) add({ rule: 'causal-order', itemId: it.id, callIndex: ci, message: `user message placed after the tool call ${earlierCall.id} (${earlierCall.name ?? 'tool'}) that uses what it says` });
      }
    });
    const stacked = items.filter(isSummary);
    // Iterated summarization feeds every earlier summary on purpose; elsewhere they should be folded.
    if (stacked.length > 1 && input.format !== 'reasoning-trace') add({ rule: 'stacked-summaries', itemId: stacked[1]!.id, callIndex: ci, message: `${stacked.length} summaries stacked in one context; fold the prior summary into one` });
  });

  // A recap at the same position with new text on consecutive calls breaks the cache every turn.
  let run = 0;
  for (let ci = 1; ci < input.calls.length; ci++) {
    const prev = input.calls[ci - 1]!.entries.map((e) => e.item);
    const cur = input.calls[ci]!.entries.map((e) => e.item);
    const pos = cur.findIndex(isRecap);
    const changed = pos >= 0 && prev[pos] !== undefined && isRecap(prev[pos]!) && prev[pos]!.text !== cur[pos]!.text;
    run = changed ? run + 1 : 0;
    if (run >= 2) add({ rule: 'recap-regenerated', itemId: cur[pos]!.id, callIndex: ci, message: `the recap at position ${pos + 1} is rewritten on every call; the cached prefix breaks there each turn` });
  }
  return lints;
}
