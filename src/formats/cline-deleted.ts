// What a Roo Code API history no longer holds. Roo's condense of 2025 (src/core/condense/index.ts,
// summarizeConversation) rewrote the history as [first, summary (isSummary, ts = keepMessages[0].ts),
// ...keepMessages], keepMessages the last N_MESSAGES_TO_KEEP = 3: the messages in between were deleted, and with
// them the assistant messages of the calls that came before. The panel still holds those requests, their usage and
// what it showed of them: the calls are read back from it, as a panel read alone reads every call.
import type { Item, ModelResponse, Session } from '../model/types';
import { panelKind, sentBy } from './cline';
import { lowerBound } from '../model/sorted';
import { timeOf } from './cline-pairing';

const N_MESSAGES_TO_KEEP = 3;

/** The items read back from the panel, and the message each stands for (`sent:` or `reply:` and the request id). */
export interface Reinstated {
  groups: Map<string, string>;
  /** Reply items taken from the panel, per kind of panel message: no longer skipped. */
  used: Record<string, number>;
}

/**
 * Puts back the panel's requests that no assistant message answers (indices into `ui.responses`): each a call whose
 * output is the reply the panel shows, after the text it sent unless an API message sent it (one timestamped from its
 * start to the next request's). Their items go among the history's by time, and so do the calls.
 */
export function reinstate(api: Session, ui: Session, unanswered: readonly number[]): Reinstated {
  const groups = new Map<string, string>();
  const used: Record<string, number> = {};
  const uiItems = new Map(ui.items.map((it) => [it.id, it]));
  const sentTimes = api.items.filter((it) => it.role !== 'assistant').map(timeOf).sort((a, b) => a - b);
  // Whether the history holds a message sent from `from` until before `to`.
  const sentBetween = (from: number, to: number) => {
    const k = lowerBound(sentTimes, from);
    return k < sentTimes.length && sentTimes[k]! < to;
  };
  const starts = ui.responses.map(timeOf);
  const added: Item[] = [];
  const calls: ModelResponse[] = [];
  for (const j of unanswered) {
    const r = ui.responses[j]!;
    const from = starts[j]!;
    const to = starts[j + 1] ?? Infinity;
    const held = sentBetween(from, to);
    const sent = held ? [] : (sentBy.get(r) ?? []);
    const reply = r.itemIds.map((id) => uiItems.get(id)).filter((it): it is Item => it !== undefined);
    for (const it of sent) groups.set(it.id, `sent:${r.id}`);
    for (const it of reply) {
      groups.set(it.id, `reply:${r.id}`);
      const kind = panelKind.get(it);
      if (kind) used[kind] = (used[kind] ?? 0) + 1;
    }
    added.push(...sent, ...reply);
    calls.push({ ...r, itemIds: reply.map((it) => it.id) });
  }
  // Both lists are in time order: a panel item goes before the first history item written after it.
  const merged: Item[] = [];
  let p = 0;
  for (const it of api.items) {
    const t = timeOf(it);
    while (p < added.length && timeOf(added[p]!) < t) merged.push(added[p++]!);
    merged.push(it);
  }
  merged.push(...added.slice(p));
  api.items = merged;
  // A request starts after the message answering the one before, so the history's calls (timed by their message) and
  // the panel's (by their request) fall in call order.
  const all = [...api.responses, ...calls].sort((a, b) => timeOf(a) - timeOf(b));
  api.responses = all.map((r, index) => ({ ...r, index }));
  return { groups, used };
}

/**
 * What a condense that deleted messages replaced, seen from the call it came before: every message the context held
 * but the first and the last three (a message: an API message, or a panel request or reply read back).
 */
export function deletedBy(items: readonly Item[], before: Item | undefined, skip: ReadonlySet<string>, groups: ReadonlyMap<string, string>): Item[] {
  const end = before ? items.indexOf(before) : items.length;
  const held = items.slice(0, end < 0 ? items.length : end).filter((it) => !skip.has(it.id));
  const groupOf = (it: Item) => groups.get(it.id) ?? (typeof it.meta?.['message'] === 'number' ? `m${it.meta['message']}` : it.id);
  const order = [...new Set(held.map(groupOf))];
  const kept = new Set([order[0], ...order.slice(-N_MESSAGES_TO_KEEP)]);
  return held.filter((it) => !kept.has(groupOf(it)));
}
