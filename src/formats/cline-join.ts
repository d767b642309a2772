// Joins the files of one Cline / Roo Code task folder into one session: the API history gives the items and
// one call per assistant message; the panel's `api_req_started` messages give each call that has no metrics of
// its own its usage, in order; its condense and truncation events become compactions placed at the call they
// came before.
import type { CompactionEvent, Item, Session } from '../model/types';
import { promptTokens } from '../model/usage';
import { MESSAGE_REF, readAlone } from './cline';

function part(s: Session): string | null {
  const v = s.format === 'cline' ? s.meta['clinePart'] : undefined;
  return typeof v === 'string' ? v : null;
}

const task = (s: Session) => String(s.meta['clineTask'] ?? '');

/** The session of `want` that goes with `api`: same task folder, else the only one loaded beside the only API history. */
function partnerOf(api: Session, candidates: Session[], apis: number): Session | undefined {
  return candidates.find((c) => task(c) === task(api) && task(c) !== '') ?? (apis === 1 && candidates.length === 1 ? candidates[0] : undefined);
}

/**
 * Which call (0-based) a compaction came before. With message times in the API history: the first call answered
 * after it. Else by the panel's order of requests: the first request started after it.
 */
function callBefore(c: CompactionEvent, api: Session, ui: Session): number {
  const at = c.timestamp ? Date.parse(c.timestamp) : NaN;
  if (Number.isNaN(at)) return api.responses.length;
  const timed = api.responses.length > 0 && api.responses.every((r) => r.timestamp);
  const times = (timed ? api.responses : ui.responses).map((r) => (r.timestamp ? Date.parse(r.timestamp) : NaN));
  const k = times.findIndex((t) => t > at);
  return k < 0 ? api.responses.length : k;
}

/** Moves items to just before `before` (or to the end), keeping their order: where the model first saw them. */
function moveBefore(items: Item[], moved: Item[], before: Item | undefined): Item[] {
  const ids = new Set(moved.map((it) => it.id));
  const rest = items.filter((it) => !ids.has(it.id));
  const at = before ? rest.indexOf(before) : -1;
  return at < 0 ? [...rest, ...moved] : [...rest.slice(0, at), ...moved, ...rest.slice(at)];
}

/** Items by the API message they stand for (`meta.message`): the history's own, or the panel's (cline.ts). */
function itemsByMessage(items: readonly Item[]): Map<number, Item[]> {
  const out = new Map<number, Item[]>();
  for (const it of items) {
    const m = it.meta?.['message'];
    if (typeof m === 'number') out.set(m, [...(out.get(m) ?? []), it]);
  }
  return out;
}

function attachUi(api: Session, ui: Session): void {
  const n = Math.min(api.responses.length, ui.responses.length);
  for (let k = 0; k < n; k++) {
    const r = api.responses[k]!;
    const u = ui.responses[k]!;
    // A message's own metrics (Cline 3.x) are its call's figures; the panel's come in request order. Where the
    // metrics mix cache writes and reads, the panel's request splits them: taken when its prompt is the same.
    const splits = r.usage && r.usage.cacheRead === null && r.usage.cacheWrite === null && u.usage && promptTokens(u.usage) === promptTokens(r.usage);
    r.usage = splits ? u.usage : (r.usage ?? u.usage);
    r.model = r.model ?? u.model;
    if (!r.timestamp && u.timestamp) r.timestamp = u.timestamp;
  }
  if (api.responses.length !== ui.responses.length) {
    api.issues.push({
      file: ui.files[0] ?? '',
      line: null,
      field: null,
      message: `${ui.responses.length} api_req_started for ${api.responses.length} assistant messages: usage attached in order to the first ${n}`,
      severity: 'warning',
    });
  }
  api.model = api.model ?? ui.responses.find((r) => r.model)?.model ?? null;
  const byMessage = itemsByMessage(api.items);
  const usedSummaries = new Set<string>();
  for (const c of ui.compactions) {
    const k = callBefore(c, api, ui);
    const firstOfCall = api.responses[k] ? api.items.find((it) => it.id === api.responses[k]!.itemIds[0]) : undefined;
    const tagged = (key: string) => api.items.filter((it) => it.meta?.[key] === c.id);
    const replaced = c.replacedIds.some((id) => id.startsWith(MESSAGE_REF))
      ? c.replacedIds.flatMap((id) => byMessage.get(Number(id.slice(MESSAGE_REF.length))) ?? [])
      : c.trigger === 'sliding_window_truncation' ? tagged('truncationParent') : tagged('condenseParent');
    // The summary (or truncation marker) by its id, else the next one the history holds (a destructive condense).
    let stand = [...tagged('condenseId'), ...tagged('truncationId')];
    if (stand.length === 0 && c.trigger !== 'conversationHistoryDeletedRange') {
      const kind = c.trigger === 'sliding_window_truncation' ? 'omission' : 'summary';
      const next = api.items.find((it) => it.kind === kind && !usedSummaries.has(it.id));
      const msg = next?.meta?.['message'];
      stand = typeof msg === 'number' ? (byMessage.get(msg) ?? []) : [];
    }
    for (const it of stand) usedSummaries.add(it.id);
    const summary = stand.find((it) => it.kind === 'summary' || it.kind === 'omission') ?? stand[0];
    if (stand.length > 0) api.items = moveBefore(api.items, stand, firstOfCall);
    const anchor = summary ?? (firstOfCall ? api.items[api.items.indexOf(firstOfCall) - 1] : api.items.at(-1));
    api.compactions.push({
      ...c,
      index: api.compactions.length,
      replacedIds: replaced.map((it) => it.id),
      summaryId: summary?.id ?? null,
      atItemId: anchor?.id ?? null,
    });
  }
  for (const [key, count] of [...Object.entries(ui.skipped), ...Object.entries(readAlone.get(ui) ?? {})]) api.skipped[key] = (api.skipped[key] ?? 0) + count;
  if (ui.meta['cost'] !== undefined) api.meta['cost'] = ui.meta['cost'];
}

function merge(api: Session, other: Session): void {
  api.files.push(...other.files);
  api.issues.push(...other.issues);
}

/** Joins each task's API history with its panel messages and metadata; what has no partner stays as it is. */
export function joinClineTasks(sessions: Session[]): Session[] {
  const apis = sessions.filter((s) => part(s) === 'api');
  const uis = sessions.filter((s) => part(s) === 'ui');
  const metas = sessions.filter((s) => part(s) === 'meta');
  const joined = new Set<Session>();
  for (const api of apis) {
    const ui = partnerOf(api, uis.filter((u) => !joined.has(u)), apis.length);
    delete api.meta['clinePart'];
    if (ui) {
      merge(api, ui);
      attachUi(api, ui);
      joined.add(ui);
    }
    const meta = partnerOf(api, metas.filter((m) => !joined.has(m)), apis.length);
    if (meta) {
      if (meta.model) api.model = meta.model;
      if (meta.meta['filesInContext'] !== undefined) api.meta['filesInContext'] = meta.meta['filesInContext'];
      merge(api, meta);
      joined.add(meta);
    }
  }
  for (const lone of [...uis, ...metas]) {
    if (joined.has(lone)) continue;
    const ui = part(lone) === 'ui';
    // Alone, a deleted range names the panel's items that stand for those API messages (their `meta.message`).
    if (ui) {
      const byMessage = itemsByMessage(lone.items);
      for (const c of lone.compactions)
        c.replacedIds = c.replacedIds.flatMap((id) => (id.startsWith(MESSAGE_REF) ? (byMessage.get(Number(id.slice(MESSAGE_REF.length))) ?? []).map((it) => it.id) : [id]));
    }
    const message = ui
      ? 'panel messages alone: each call is read from what the panel shows (its request, reasoning, text and tools); load api_conversation_history.json from the same task folder for the messages exactly as sent'
      : 'task metadata alone: load api_conversation_history.json from the same task folder to see what each call was sent';
    lone.issues.push({ file: lone.files[0] ?? '', line: null, field: null, message, severity: 'warning' });
  }
  return sessions.filter((s) => !joined.has(s));
}
