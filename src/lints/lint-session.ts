// Structural problems in compacted contexts, each naming the item it concerns.
import type { ContextTimeline } from '../analysis/context-timeline';
import type { CallContext } from '../analysis/context-types';
import { isInferredCompaction } from '../analysis/request-contexts';
import type { Removal } from '../analysis/replay';
import { reportedPromptTokens } from '../cache/reported';
import { classifyText } from '../model/markers';
import { thousands } from '../model/thousands';
import type { CompactionEvent, FormatId, Item, Session } from '../model/types';
import { isFramedReply, userWordsOf } from '../model/harness-messages';
import type { Lint } from './lint-types';
import { entriesWalk, norm, timelineWalk, type ContextWalk } from './context-walk';
import { slicesOf } from './quoted-span';
import { judgesStyle, ruleRuns, summaryStyle, thresholdFor, type RuleSettings } from './rules';
import { hasHeader, MAX_SUMMARY_TOKENS, SCHEMA_SECTIONS, sectionsPresent, wordCount } from './summary-schema';

export interface LintInput {
  format: Session['format'];
  items: readonly Item[];
  calls: readonly CallContext[];
  compactions: readonly CompactionEvent[];
  removals: ReadonlyMap<string, Removal>;
  /** The calls' contexts as spans, when a replay made them: read with a cursor instead of each call's list. */
  timeline?: ContextTimeline | null;
  /** Each call's usage sums several requests (Codex exec reports a turn's): prompts cannot be compared call to call. */
  usagePerTurn?: boolean;
  /** Token counter for the course schema's 512-token cap; an estimate is fine. */
  count(text: string): number;
  /** What the user muted or tuned (see rules.ts); the defaults when absent. */
  rules?: RuleSettings;
  /**
   * Return every candidate before the rule settings judge it (see `applyLintRules`), so a view can apply other
   * settings without running the lints again.
   */
  candidates?: boolean;
}

// Claude Code 2.x clears old tool results in what it sends ("[Old tool result content cleared]") and records the
// originals (services/compact/microCompact.ts; anthropics/claude-code#57788).
const MICROCOMPACT = ' (Claude Code\'s microcompact clears old tool results so, and keeps the originals in the file)';

const isSummary = (it: Item) => it.kind === 'summary';
const isMarker = (it: Item) => it.kind === 'omission' && (it.omission?.target === 'turns' || classifyText(it.text) === 'marker');
const isRecap = (it: Item) => isSummary(it) || isMarker(it);


export function lintSession(input: LintInput): Lint[] {
  const lints: Lint[] = [];
  const seen = new Map<string, Lint>();
  const add = (l: Lint) => {
    const key = `${l.rule}:${l.itemId}`;
    const had = seen.get(key);
    if (had) {
      // A stack seen again deeper keeps its largest count: a higher threshold may still be crossed.
      if (l.measure?.stacked !== undefined && (had.measure?.stacked ?? 0) < l.measure.stacked) had.measure = l.measure;
      return;
    }
    seen.set(key, l);
    lints.push(l);
  };

  // Rules about summaries themselves.
  const summaries = input.items.filter(isSummary);
  for (const s of summaries) {
    const sections = sectionsPresent(s.text);
    const header = hasHeader(s.text);
    // Claude Code, Codex and OpenHands write their own summary shapes: the course schema judges only its own
    // (the settings decide, in `applyLintRules`).
    const style = summaryStyle(input.format, header || sections.length >= 2);
    if (header) {
      const missing = SCHEMA_SECTIONS.filter((n) => !sections.includes(n));
      if (missing.length) add({ rule: 'summary-section-missing', itemId: s.id, callIndex: null, message: `summary lacks the ${missing.join(', ')} section${missing.length > 1 ? 's' : ''} of the schema`, measure: { style } });
    } else if (sections.length >= 2) {
      add({ rule: 'summary-header-missing', itemId: s.id, callIndex: null, message: 'summary uses the schema sections but not the "## Conversation Summary" header that downstream code detects it by', measure: { style } });
    }
    add({ rule: 'summary-too-long', itemId: s.id, callIndex: null, message: '', measure: { style, words: wordCount(s.text), tokens: input.count(s.text) } });
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
  // Facts of an item the rules read on every call it is sent: worked out once per item.
  const facts = new Map<Item, number>();
  const RECAP = 1;
  const MARKER = 2;
  const SUMMARY = 4;
  const factsOf = (it: Item) => {
    let f = facts.get(it);
    if (f === undefined) {
      f = (isRecap(it) ? RECAP : 0) | (isMarker(it) ? MARKER : 0) | (isSummary(it) ? SUMMARY : 0);
      facts.set(it, f);
    }
    return f;
  };
  // A tool call or result whose pair was evicted (not omitted or masked on purpose) splits the pair where it is kept.
  const splitIds = new Set(
    input.items
      .filter((it) => {
        const removal = it.pairId ? input.removals.get(it.pairId) : undefined;
        return (it.kind === 'tool_call' || it.kind === 'tool_result') && !!removal && removal.label !== 'omitted' && removal.label !== 'masked';
      })
      .map((it) => it.id),
  );
  // Only what a person wrote can be a cause: a harness's text in the user's turn (task notification, system
  // reminder, Skill instructions, a tool result as user text) is none, and of a harness-framed turn only the
  // wrapped words count (model/harness-messages.ts).
  const words = new Map<Item, string | null>();
  const saidBy = (it: Item): string | null => {
    if (it.role !== 'user' || it.kind !== 'message') return null;
    let w = words.get(it);
    if (w === undefined) words.set(it, (w = userWordsOf(it)));
    return w;
  };
  const walk = input.timeline ? timelineWalk(input.timeline, splitIds, saidBy) : entriesWalk(input.calls, splitIds);
  // An effect before its cause: the message came first as things happened (its timestamp, else its place in the
  // session's record) yet sits after the call in this context. A message written after the call that it quotes is
  // the person answering what they saw, in the order it happened, not an inversion.
  const recorded = new Map(input.items.map((it, i) => [it.id, i]));
  let batched: Set<string> | undefined;
  const byTime = (message: Item, call: Item): boolean => {
    batched ??= batchedTimes(input.items);
    return timeOf(message) !== null && timeOf(call) !== null && !batched.has(call.timestamp!);
  };
  const happenedBefore = (message: Item, call: Item): boolean => {
    if (byTime(message, call)) return timeOf(message)! < timeOf(call)!;
    return (recorded.get(message.id) ?? Infinity) < (recorded.get(call.id) ?? -1);
  };
  let prevRecap: { pos: number; item: Item } | null = null;
  let prevSummaries: number[] = [];
  let run = 0;
  let prevN = 0;
  let prevPrompt: number | null = null;
  const summaryIds = new Set(input.compactions.flatMap((c) => (c.summaryId ? [c.summaryId] : [])));
  input.calls.forEach((call, ci) => {
    // Where this context starts like the previous one, the previous call already checked the items: every
    // rule below but the split pair depends only on the item and what precedes it (a lint is added once per item).
    walk.moveTo(ci);
    const { n, same } = walk;
    // The provider's prompt fell by a quarter or more (and 2,000 tokens) on the same model, with the whole earlier
    // context carried over in the file and no compaction between: something left that the file does not record.
    // Not when a new user turn follows earlier reasoning: providers drop the last turns' reasoning then, and the file
    // cannot size it (encrypted, or summarized while billed whole). Nor when the call itself returned a compaction
    // (server-side): its usage is the compaction's.
    const prompt = input.usagePerTurn ? null : reportedPromptTokens(call);
    const prev = ci > 0 ? input.calls[ci - 1]! : null;
    if (prev && prompt !== null && prevPrompt !== null && same >= prevN && !call.compactionId && call.model === prev.model && n > 0 && !call.output.some((it) => summaryIds.has(it.id))) {
      const fell = prevPrompt - prompt;
      if (fell >= 2000 && fell >= prevPrompt / 4) {
        let newTurn = false;
        for (let k = prevN; k < n && !newTurn; k++) newTurn = walk.itemAt(k).role === 'user' && walk.itemAt(k).kind === 'message';
        let reasoning = false;
        for (let k = 0; k < prevN && newTurn && !reasoning; k++) reasoning = walk.prevItemAt(k)?.kind === 'thinking';
        if (!(newTurn && reasoning)) add({ rule: 'unrecorded-drop', itemId: walk.itemAt(n - 1).id, callIndex: ci, message: `the provider counted ${thousands(prompt)} prompt tokens, ${thousands(fell)} fewer than the call before (${thousands(prevPrompt)}), yet the file keeps the whole earlier context and records no compaction: the harness removed content it did not write down${input.format === 'claude-code' ? MICROCOMPACT : ''}` });
      }
    }
    prevN = n;
    prevPrompt = prompt;
    for (const it of walk.splitHere(ci)) {
      add({ rule: 'tool-pair-split', itemId: it.id, callIndex: ci, message: `${it.kind === 'tool_call' ? 'tool call' : 'tool result'} ${it.name ? `(${it.name}) ` : ''}kept while its pair ${it.pairId} was evicted` });
    }
    for (let i = same; i < n; i++) {
      const it = walk.itemAt(i);
      const f = factsOf(it);
      if (f & RECAP && it.role === 'system' && i > 0) {
        add({ rule: 'recap-system-role', itemId: it.id, callIndex: ci, message: 'recap inserted with role system after the first message; role validators drop it, so insert it as assistant' });
      }
      if (f & MARKER) add({ rule: 'fallback-marker', itemId: it.id, callIndex: ci, message: 'the static marker stands where a summary should be: the evicted turns are gone without a trace' });
      const said = seen.has(`causal-order:${it.id}`) ? null : saidBy(it);
      if (said !== null) {
        // The nearest quoting call first: a message written after it (most are) was written after any earlier one too.
        const nearest = walk.quotingCall(i, said);
        const earlierCall = nearest && happenedBefore(it, nearest) ? firstToQuote(walk, i, said) : undefined;
        if (earlierCall && happenedBefore(it, earlierCall) && !(isFramedReply(it) && lastCallBefore(walk, i) === earlierCall)) add({ rule: 'causal-order', itemId: it.id, callIndex: ci, message: `user message placed after the tool call ${earlierCall.id} (${earlierCall.name ?? 'tool'}) that uses what it says, though ${writtenFirst(it, earlierCall, byTime(it, earlierCall))}` });
      }
    }
    // Summaries in this context: those of the shared prefix are where they were, so only the rest is read again.
    const stacked = prevSummaries.filter((p) => p < same);
    for (let i = same; i < n; i++) if (factsOf(walk.itemAt(i)) & SUMMARY) stacked.push(i);
    prevSummaries = stacked;
    // Iterated summarization feeds every earlier summary on purpose (the rule does not run there); elsewhere they should be folded.
    if (stacked.length > 1) add({ rule: 'stacked-summaries', itemId: walk.itemAt(stacked[1]!).id, callIndex: ci, message: '', measure: { stacked: stacked.length } });

    // A recap at the same position with new text on consecutive calls breaks the cache every turn.
    let recap: { pos: number; item: Item } | null = null;
    if (prevRecap && prevRecap.pos < same) recap = prevRecap;
    else {
      // No recap of the previous context lay in the shared prefix, so none of this one's does.
      for (let i = same; i < n; i++) {
        if (factsOf(walk.itemAt(i)) & RECAP) {
          recap = { pos: i, item: walk.itemAt(i) };
          break;
        }
      }
    }
    if (ci > 0) {
      const pos = recap?.pos ?? -1;
      const old = pos >= 0 ? walk.prevItemAt(pos) : undefined;
      // A recap a recorded compaction rewrote is that compaction (the cache charges it so), not a per-turn rewrite.
      const changed = pos >= 0 && old !== undefined && !!(factsOf(old) & RECAP) && old.text !== recap!.item.text && (!call.compactionId || isInferredCompaction(call.compactionId));
      run = changed ? run + 1 : 0;
      if (run >= 2) add({ rule: 'recap-regenerated', itemId: recap!.item.id, callIndex: ci, message: `the recap at position ${pos + 1} is rewritten on every call; the cached prefix breaks there each turn` });
    }
    prevRecap = recap;
  });
  return input.candidates ? lints : applyLintRules(lints, input.format, input.rules);
}

/** How the message is known to come first: both times, else its place in the record. */
function writtenFirst(message: Item, call: Item, byTime: boolean): string {
  return byTime ? `it was written at ${message.timestamp} and the call made at ${call.timestamp}` : 'the session records it before the call';
}

/**
 * Timestamps that two model responses or more share to the millisecond: written all at once (a resumed or imported
 * session stamps its records with one time), so they tell nothing of the order things happened in. The record's
 * order does.
 */
function batchedTimes(items: readonly Item[]): Set<string> {
  const responseAt = new Map<string, string>();
  const out = new Set<string>();
  for (const it of items) {
    if (it.role !== 'assistant' || !it.timestamp || !it.responseId) continue;
    const seen = responseAt.get(it.timestamp);
    if (seen === undefined) responseAt.set(it.timestamp, it.responseId);
    else if (seen !== it.responseId) out.add(it.timestamp);
  }
  return out;
}

/** The item's time in milliseconds, or null when it has none that parses. */
function timeOf(it: Item): number | null {
  if (!it.timestamp) return null;
  const t = Date.parse(it.timestamp);
  return Number.isNaN(t) ? null : t;
}

/**
 * The nearest tool call before position `i` that is the first item of this context to hold a span of the message. A
 * span the context held before the call (the task's own words, a file the agent read) the call may have taken from
 * there: no sign the model saw the message. Asked only once the walk found a call quoting the message, so it reads
 * the context whole.
 */
function firstToQuote(walk: ContextWalk, i: number, said: string): Item | undefined {
  const spans = new Set(slicesOf(norm(said)).texts);
  let found: Item | undefined;
  for (let k = 0; k < i && spans.size > 0; k++) {
    const p = walk.itemAt(k);
    const text = norm(p.text);
    let first = false;
    for (const t of spans) {
      if (!text.includes(t)) continue;
      spans.delete(t);
      first = true;
    }
    if (first && p.kind === 'tool_call') found = p;
  }
  return found;
}

/** The tool call nearest before position `i` of the walk's context. */
function lastCallBefore(walk: ContextWalk, i: number): Item | undefined {
  for (let j = i - 1; j >= 0; j--) if (walk.itemAt(j).kind === 'tool_call') return walk.itemAt(j);
  return undefined;
}

/**
 * The lints the rule settings keep, from `lintSession`'s candidates: muted rules and rules not meant for the
 * harness go; schema rules judge only the summary styles they are for; the length and stacking rules compare
 * with the threshold in force (the course's 200 words and 512 tokens, one summary per context, or the user's).
 */
export function applyLintRules(candidates: readonly Lint[], format: FormatId, rules?: RuleSettings): Lint[] {
  const out: Lint[] = [];
  for (const l of candidates) {
    if (!ruleRuns(rules, l.rule, format)) continue;
    const style = l.measure?.style ?? 'other';
    if (l.rule === 'summary-section-missing' || l.rule === 'summary-header-missing') {
      if (judgesStyle(rules, l.rule, format, style)) out.push(l);
    } else if (l.rule === 'summary-too-long') {
      const maxWords = thresholdFor(rules, 'summary-too-long', format, style);
      if (maxWords === null) continue;
      const words = l.measure?.words ?? 0;
      // The course schema also caps tokens; a limit set for another style counts words only.
      const maxTokens = style === 'course-schema' ? MAX_SUMMARY_TOKENS : null;
      const tokens = l.measure?.tokens ?? 0;
      if (words <= maxWords && (maxTokens === null || tokens <= maxTokens)) continue;
      const message =
        maxTokens !== null
          ? `summary has ${words} words and about ${tokens} tokens (limits: ${maxWords} words, ${maxTokens} tokens)`
          : `summary has ${words} words (limit: ${maxWords} words)`;
      out.push({ ...l, message });
    } else if (l.rule === 'stacked-summaries') {
      const max = thresholdFor(rules, 'stacked-summaries', format, 'other') ?? 1;
      const n = l.measure?.stacked ?? 0;
      if (n > max) out.push({ ...l, message: `${n} summaries stacked in one context${max > 1 ? ` (limit ${max})` : ''}; fold the prior summary into one` });
    } else out.push(l);
  }
  return out;
}
