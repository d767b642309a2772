// Joins the files of one Cline / Roo Code task folder into one session: the API history gives the items and
// one call per assistant message; the panel's `api_req_started` messages give each call that has no metrics of
// its own its usage, in order (by time where the two differ in number, cline-pairing.ts; requests whose messages
// the history lost are read back from the panel, cline-deleted.ts); its condense and truncation events become
// compactions placed at the call they came before.
import type { CompactionEvent, Item, ParseIssue, Session } from '../model/types';
import { promptTokens } from '../model/usage';
import { MESSAGE_REF, readAlone } from './cline';
import { deletedBy, reinstate } from './cline-deleted';
import { pairByTime, timeOf } from './cline-pairing';
import { maxOf } from '../model/arrays';

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
 * When each call (0-based) was answered, to place compactions by: with message times in the API history, its answer;
 * else by the panel's order of requests, when its request started.
 */
function callTimes(api: Session, ui: Session): number[] {
  const timed = api.responses.length > 0 && api.responses.every((r) => r.timestamp);
  if (!timed) return ui.responses.map(timeOf);
  // A call read back from the panel is timed by its request: its answer is its last reply item.
  const byId = new Map(api.items.map((it) => [it.id, it]));
  return api.responses.map((r) => maxOf([timeOf(r), ...r.itemIds.map((id) => timeOf(byId.get(id) ?? {}))].filter((t) => !Number.isNaN(t))));
}

/** Which call (0-based) a compaction came before: the first answered (or started) after it. */
function callBefore(c: CompactionEvent, times: readonly number[], calls: number): number {
  const at = timeOf(c);
  if (Number.isNaN(at)) return calls;
  const k = times.findIndex((t) => t > at);
  return k < 0 ? calls : k;
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

/** Adds a join's warning to the session and to the load's issues. */
function warn(s: Session, found: ParseIssue[] | undefined, file: string, message: string): void {
  const issue: ParseIssue = { file, line: null, field: null, message, severity: 'warning' };
  s.issues.push(issue);
  found?.push(issue);
}

/**
 * The history's summaries Roo's condense of 2025 wrote (`isSummary`, no `condenseId`), by the condense that wrote
 * them: each condense deleted the summary before it, so the ones left are the last condenses'.
 */
function summariesOfDeletingCondenses(api: Session, ui: Session): Map<string, Item[]> {
  const tagged = new Set(api.items.map((it) => it.meta?.['condenseId']).filter((id) => id !== undefined));
  const condenses = ui.compactions.filter((c) => c.trigger === 'condense_context' && !tagged.has(c.id));
  const byMessage = new Map<number, Item[]>();
  for (const it of api.items) {
    const m = it.meta?.['message'];
    if (it.kind === 'summary' && it.meta?.['condenseId'] === undefined && typeof m === 'number') byMessage.set(m, [...(byMessage.get(m) ?? []), it]);
  }
  const summaries = [...byMessage.values()];
  const out = new Map<string, Item[]>();
  const n = Math.min(summaries.length, condenses.length);
  for (let k = 1; k <= n; k++) out.set(condenses[condenses.length - k]!.id, summaries[summaries.length - k]!);
  return out;
}

function attachUi(api: Session, ui: Session, found: ParseIssue[] | undefined): void {
  const file = ui.files[0] ?? '';
  const messages = api.responses.length;
  const differ = messages !== ui.responses.length;
  const paired = differ ? pairByTime(api.responses, ui.responses) : null;
  const requestOf = paired ?? api.responses.map((_, k) => (k < ui.responses.length ? k : null));
  api.responses.forEach((r, k) => {
    const j = requestOf[k];
    if (j === null || j === undefined) return;
    const u = ui.responses[j]!;
    // A message's own metrics (Cline 3.x) are its call's figures; the panel's come in request order. Where the
    // metrics mix cache writes and reads, the panel's request splits them: taken when its prompt is the same.
    const splits = r.usage && r.usage.cacheRead === null && r.usage.cacheWrite === null && u.usage && promptTokens(u.usage) === promptTokens(r.usage);
    r.usage = splits ? u.usage : (r.usage ?? u.usage);
    r.model = r.model ?? u.model;
    if (!r.timestamp && u.timestamp) r.timestamp = u.timestamp;
  });
  // Deleted-range references name the history's own messages: read before the panel's items join them.
  const byMessage = itemsByMessage(api.items);
  let groups = new Map<string, string>();
  let used: Record<string, number> = {};
  if (paired) {
    const taken = new Set(paired);
    const unanswered = ui.responses.map((_, j) => j).filter((j) => !taken.has(j));
    const orphans = paired.filter((j) => j === null).length;
    ({ groups, used } = reinstate(api, ui, unanswered));
    const parts = [
      unanswered.length > 0 ? `${unanswered.length} answered by messages the history no longer holds (a condense deleted them), read from what the panel shows` : '',
      orphans > 0 ? `${orphans} assistant message${orphans === 1 ? '' : 's'} with no api_req_started in the panel, so no usage` : '',
    ].filter(Boolean);
    warn(api, found, file, `${ui.responses.length} api_req_started for ${messages} assistant messages, paired by time: ${parts.join('; ')}`);
  } else if (differ) {
    warn(api, found, file, `${ui.responses.length} api_req_started for ${messages} assistant messages: usage attached in order to the first ${Math.min(messages, ui.responses.length)}`);
  }
  api.model = api.model ?? ui.responses.find((r) => r.model)?.model ?? null;
  const deletingSummary = summariesOfDeletingCondenses(api, ui);
  const panelSummaries = new Map(ui.items.filter((it) => it.kind === 'summary').map((it) => [it.id, it]));
  const usedSummaries = new Set<string>();
  // Call times do not move as the loop below reorders items.
  const times = callTimes(api, ui);
  for (const c of ui.compactions) {
    const k = callBefore(c, times, api.responses.length);
    const firstOfCall = api.responses[k] ? api.items.find((it) => it.id === api.responses[k]!.itemIds[0]) : undefined;
    const tagged = (key: string) => api.items.filter((it) => it.meta?.[key] === c.id);
    // The summary (or truncation marker) by its id, else one a condense that deleted messages wrote, else (once the
    // history lost it to a later condense) the panel's; a truncation's: the next marker the history holds.
    let stand = [...tagged('condenseId'), ...tagged('truncationId')];
    let deleting = false;
    if (stand.length === 0 && c.trigger === 'condense_context') {
      const panel = paired && c.summaryId ? panelSummaries.get(c.summaryId) : undefined;
      stand = deletingSummary.get(c.id) ?? (panel ? [panel] : []);
      if (panel && stand[0] === panel) groups.set(panel.id, `summary:${c.id}`);
      deleting = stand.length > 0;
    } else if (stand.length === 0 && c.trigger === 'sliding_window_truncation') {
      const next = api.items.find((it) => it.kind === 'omission' && !usedSummaries.has(it.id));
      const msg = next?.meta?.['message'];
      stand = typeof msg === 'number' ? (byMessage.get(msg) ?? []) : [];
    }
    const gone = new Set(api.compactions.flatMap((e) => e.replacedIds));
    const replaced = c.replacedIds.some((id) => id.startsWith(MESSAGE_REF))
      ? c.replacedIds.flatMap((id) => byMessage.get(Number(id.slice(MESSAGE_REF.length))) ?? [])
      : c.trigger === 'sliding_window_truncation'
        ? tagged('truncationParent')
        : deleting
          ? deletedBy(api.items, firstOfCall, new Set([...gone, ...stand.map((it) => it.id)]), groups)
          : tagged('condenseParent');
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
  const skipped = [...Object.entries(ui.skipped), ...Object.entries(readAlone.get(ui) ?? {}).map(([key, n]): [string, number] => [key, n - (used[key] ?? 0)])];
  for (const [key, count] of skipped) if (count > 0) api.skipped[key] = (api.skipped[key] ?? 0) + count;
  if (ui.meta['cost'] !== undefined) api.meta['cost'] = ui.meta['cost'];
}

function merge(api: Session, other: Session): void {
  api.files.push(...other.files);
  api.issues.push(...other.issues);
}

/**
 * Joins each task's API history with its panel messages and metadata; what has no partner stays as it is. What the
 * join finds goes to each session's issues and to `found`, the load's.
 */
export function joinClineTasks(sessions: Session[], found?: ParseIssue[]): Session[] {
  const apis = sessions.filter((s) => part(s) === 'api');
  const uis = sessions.filter((s) => part(s) === 'ui');
  const metas = sessions.filter((s) => part(s) === 'meta');
  const joined = new Set<Session>();
  for (const api of apis) {
    const ui = partnerOf(api, uis.filter((u) => !joined.has(u)), apis.length);
    delete api.meta['clinePart'];
    if (ui) {
      merge(api, ui);
      attachUi(api, ui, found);
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
    warn(lone, found, lone.files[0] ?? '', message);
  }
  return sessions.filter((s) => !joined.has(s));
}
