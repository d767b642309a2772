// Why a call's prompt stopped matching the previous call's: the structural causes, most specific first.
import type { Item } from '../model/types';
import { echoesCommand } from '../model/harness-messages';
import { classifyText } from '../model/markers';
import type { PromptUnit, UnitDigest } from './item-hash';

/**
 * Why a call's cache did not serve the previous prompt, most specific first: the structural causes the content
 * shows, then the model, the lifetime, and what only the provider's figures reveal.
 */
export type CacheBreakCause =
  | 'compaction'
  | 'cleared'
  | 'rolled-back'
  | 'recap-regenerated'
  | 'edited'
  | 'masked'
  | 'tools-changed'
  | 'model-changed'
  | 'thinking-dropped'
  | 'ttl'
  | 'restart'
  | 'gap-unknown'
  | 'unrecorded-removal'
  | 'unrecorded-return'
  | 'unrecorded-prefix'
  | 'provider-miss'
  | 'below-minimum'
  | 'unknown';

export const CACHE_BREAK_CAUSES: readonly CacheBreakCause[] = [
  'compaction',
  'cleared',
  'rolled-back',
  'recap-regenerated',
  'edited',
  'masked',
  'tools-changed',
  'model-changed',
  'thinking-dropped',
  'ttl',
  'restart',
  'gap-unknown',
  'unrecorded-removal',
  'unrecorded-return',
  'unrecorded-prefix',
  'provider-miss',
  'below-minimum',
  'unknown',
];

export interface PromptSide {
  units: readonly PromptUnit[];
  digests: readonly UnitDigest[];
}

export interface CauseInput {
  previous: PromptSide;
  current: PromptSide;
  /** First unit position where the two differ. */
  unitIndex: number;
  /** Compaction recorded (or inferred) between the previous call and this one. */
  compactionId: string | null;
  /** The compaction was inferred from the prompts alone (a request log's), not recorded. */
  compactionInferred?: boolean;
}

/** A recap: a summary item, or text a summary detector recognizes (`## Conversation Summary`, `<summary>`, …). */
export function isSummaryLike(item: Item | null | undefined): boolean {
  return !!item && (item.kind === 'summary' || classifyText(item.text) === 'summary');
}

/** A stand-in for removed items: an omission/compaction item or the static truncation marker. */
export function isMarkerLike(item: Item | null | undefined): boolean {
  return !!item && (item.kind === 'omission' || item.kind === 'compaction' || classifyText(item.text) === 'marker');
}

// Placeholders harnesses write over old tool output: Claude Code's "[Old tool result content cleared]",
// OpenHands' "<MASKED>", Agent-Omit's "<omitted_tool_response_N>", "(123 lines omitted)" and the like.
const PLACEHOLDER = [
  /^\s*\[[^\]\n]{0,200}\b(cleared|omitted|removed|elided|masked|truncated|hidden)\b[^\]\n]{0,200}\]\s*$/i,
  /^\s*\([^)\n]{0,200}\b(cleared|omitted|removed|elided|masked|truncated|hidden)\b[^)\n]{0,200}\)\s*$/i,
  /^\s*<\/?(masked|omitted[\w-]*)\b[^>\n]{0,200}>\s*$/i,
];

/** A tool result whose content was cleared in place: an omission set on it, or a placeholder text. */
export function isMaskedResult(item: Item | null | undefined): boolean {
  if (!item || item.kind !== 'tool_result') return false;
  return item.omission !== undefined || PLACEHOLDER.some((re) => re.test(item.text));
}

/**
 * An item that says the tool list changed between two calls: Claude Code's `/mcp` local command (servers
 * connected or disconnected), or an item an adapter marks `meta.toolsChanged` (OpenHands' SystemPromptUpdateEvent).
 */
export function isToolsChange(item: Item | null | undefined): boolean {
  if (!item) return false;
  if (item.meta?.['toolsChanged'] === true) return true;
  // The OpenHands SDK reader keeps the update's own reason (`tools_changed`).
  const update = item.meta?.['systemPromptUpdate'];
  if (typeof update === 'string' && /tool/i.test(update)) return true;
  return item.role === 'user' && item.kind === 'message' && echoesCommand(item.text, 'mcp');
}

/** A human turn: a user message (not a tool result, not a harness record) that the model is asked to answer. */
export function isHumanTurn(item: Item | null | undefined): boolean {
  return !!item && item.kind === 'message' && item.role === 'user';
}

/**
 * The cause of a divergence, tested in this order (the first that fits wins):
 * 0. cleared — this prompt holds a `/clear` echo the previous one did not (Claude Code 1.0 wrote on in the same file
 *    after a /clear): the conversation before it is gone, with no compaction;
 * 0. rolled-back — the user took back turns the previous prompt held (Codex's thread rollback): the prompt goes on
 *    from an earlier point, with no compaction;
 * 0. tools-changed — the tool schemas are what changed, or the item there says so (`meta.toolsChanged`);
 * 1. masked — a tool result at that position now holds a placeholder (or carries `omission`);
 * 2. recap-regenerated — a summary at the same position in both calls, with different text, and no compaction
 *    recorded for this call (none, or one inferred only from the recap's new id with every item after it still
 *    sent): the recap was rewritten in place. A recorded compaction that rewrote only the recap (Claude Code's
 *    back-to-back /compact, which re-sends the same items after it under new ids) is a compaction: its miss is that
 *    compaction's cost, as every compaction's is;
 * 3. compaction — a compaction is recorded for this call, or a summary/marker now stands where other
 *    items were, or items were dropped (the old item is gone and this call continues with a later old item);
 * 4. edited — an item (or the tool schemas) at that position changed;
 * 5. unknown — e.g. this call's prompt simply ends earlier.
 */
export function structuralCause(input: CauseInput): 'cleared' | 'rolled-back' | 'masked' | 'recap-regenerated' | 'compaction' | 'edited' | 'tools-changed' | 'unknown' {
  const { previous, current, unitIndex: k, compactionId, compactionInferred = false } = input;
  if (clearedSince(previous, current)) return 'cleared';
  if (rolledBackSince(previous, current)) return 'rolled-back';
  const oldUnit = previous.units[k];
  const newUnit = current.units[k];
  const oldItem = oldUnit?.item ?? null;
  const newItem = newUnit?.item ?? null;

  // The tool schemas lead a recorded prompt as a unit without an item: they changed, or one side has none.
  if (oldUnit && newUnit && (oldUnit.item === null || newUnit.item === null) && compactionId === null) return 'tools-changed';
  // A harness record that the tool list changed stands where the prompt diverges: the new system prompt an
  // OpenHands SystemPromptUpdateEvent puts in the old one's place carries its tools with it.
  if (isToolsChange(newItem) && compactionId === null) return 'tools-changed';

  if (isMaskedResult(newItem) && oldItem?.kind === 'tool_result' && !isMaskedResult(oldItem)) return 'masked';

  if (isSummaryLike(oldItem) && isSummaryLike(newItem)) {
    if (compactionId === null || (compactionInferred && followersKept(previous, current, k))) return 'recap-regenerated';
    return 'compaction';
  }

  if (compactionId !== null) return 'compaction';
  if ((isSummaryLike(newItem) || isMarkerLike(newItem)) && !sameKind(oldItem, newItem)) return 'compaction';
  if (itemsDropped(previous, current, k)) return 'compaction';

  if (oldUnit && newUnit) return 'edited';
  return 'unknown';
}

/**
 * Does this prompt hold a `/clear` echo (the loader marks it `clearsContext`) that the previous one did not? Looked for
 * from the start: every /clear echoes the same text, so the prompts may match on it and part after it.
 */
function clearedSince(previous: PromptSide, current: PromptSide): boolean {
  const echoes = current.units.filter((u) => u.item?.meta?.['clearsContext'] === true).map((u) => u.id);
  if (echoes.length === 0) return false;
  const before = new Set(previous.units.map((u) => u.id));
  return echoes.some((id) => !before.has(id));
}

/** Did the user take back (`Item.rollsBack`, Codex's thread rollback) items the previous prompt held? */
function rolledBackSince(previous: PromptSide, current: PromptSide): boolean {
  if (!current.units.some((u) => u.item?.rollsBack)) return false;
  const before = new Set(previous.units.map((u) => u.id));
  return current.units.some((u) => !before.has(u.id) && (u.item?.rollsBack ?? []).some((id) => before.has(id)));
}

function sameKind(a: Item | null, b: Item | null): boolean {
  return !!a && !!b && a.kind === b.kind && a.role === b.role;
}

/** Every unit after the old recap is still in this call (by content: a rewritten recap may come with new ids). */
function followersKept(previous: PromptSide, current: PromptSide, k: number): boolean {
  const here = new Set(current.digests.map((d) => `${d.hash}:${d.length}`));
  for (let j = k + 1; j < previous.digests.length; j++) {
    const d = previous.digests[j]!;
    if (!here.has(`${d.hash}:${d.length}`)) return false;
  }
  return true;
}

/** The old unit is gone from this call, and this call continues at `k` with a later old unit. */
function itemsDropped(previous: PromptSide, current: PromptSide, k: number): boolean {
  const gone = previous.digests[k];
  const here = current.digests[k];
  if (!gone || !here) return false;
  if (current.digests.some((d) => d.hash === gone.hash && d.length === gone.length)) return false;
  for (let j = k + 1; j < previous.digests.length; j++) {
    const d = previous.digests[j]!;
    if (d.hash === here.hash && d.length === here.length) return true;
  }
  return false;
}
