// Claude Code session JSONL (~/.claude/projects/<project>/<session>.jsonl and its agent-*.jsonl sidechains).
import { recordsOf, type Document } from '../load/document';
import { get, isObject, numAt, obj, str, type JsonObject } from '../model/narrow';
import type { ModelResponse, Session, Sidechain, Usage } from '../model/types';
import { emptySession, idFromFile, type FormatAdapter, type ParseContext } from './adapter';
import { anthropicUsage } from './anthropic';
import { ClaudeCodeCompactions } from './claude-code-compaction';
import { recordItems } from './claude-code-items';
import { isAgentProgress, nestedContext, progressTranscripts, SubagentLinks } from './claude-code-subagents';
import { abandonedLines, isClearCommand, recordUuids, type TreeRecord } from './claude-code-tree';
import { OffBranchResponses } from './claude-code-off-branch';
import { queuedCommandOrigin, queuedCommandText, queuedDeliveries, queuedItem } from './claude-code-queue';
import { attachmentItem, attachmentText, carriedByUserRecord } from './claude-code-attachments';
import { own, setOwn } from '../model/dictionary';
import { pushAll } from '../model/arrays';
import { promptTokens } from '../model/usage';

/**
 * Record types Claude Code writes; only `user`, `assistant` and two `system` subtypes carry conversation. The rest is
 * the harness's state or notes to the person. The second row is what 2.1.92–2.1.232 write besides (public sessions
 * probed): up to a third of a session's records, which read as unknown made it look less like Claude Code.
 */
const KNOWN_TYPES = new Set([
  ...['user', 'assistant', 'system', 'summary', 'progress', 'file-history-snapshot', 'queue-operation', 'custom-title', 'attachment'],
  ...['last-prompt', 'permission-mode', 'mode', 'ai-title', 'agent-name', 'bridge-session', 'file-history-delta', 'pr-link'],
]);
const CHAINED_TYPES = new Set(['user', 'assistant', 'system', 'progress', 'attachment']);

/** Session facts read from the first record that has each. */
const META_FIELDS = ['cwd', 'gitBranch', 'version', 'slug'] as const;

function usageOf(message: JsonObject): Usage | null {
  return anthropicUsage(get(message, 'usage'));
}

/** The context a response reported: its whole prompt and what it wrote. */
const contextOf = (u: Usage): number => (promptTokens(u) ?? 0) + (u.output ?? 0);

/** Builds one session (or sidechain) from its records, in file order. */
function buildSession(records: TreeRecord[], session: Session, ctx: ParseContext): void {
  const uuids = recordUuids(records);
  const abandoned = abandonedLines(records, uuids);
  // Uuids (by canon, see recordUuids) that a chained record carried already.
  const chained = new Uint8Array(records.length);
  let lastContext: number | null = null;
  const compactions = new ClaudeCodeCompactions(session, ctx, { holds: (uuid) => uuids.first.has(uuid), lastContext: () => lastContext });
  const responses = new Map<string, ModelResponse>();
  // Counted here and written to session.skipped once at the end (in first-seen order): a property definition per
  // skipped record (progress, snapshots, hooks: a third of a long session) cost more than the record's reading.
  const skipped = new Map<string, number>();
  const skip = (key: string) => skipped.set(key, (skipped.get(key) ?? 0) + 1);
  const titles: { summary: string; leaf: string | null }[] = [];
  let customTitle: string | null = null;
  // The title Claude Code generates (seen from 2.1.132), written again and again: the last one, where no other is.
  let aiTitle: string | null = null;
  let metaKnown = false;
  // Texts typed while the agent worked that reached the model with no record of their own (claude-code-queue.ts).
  const queued = queuedDeliveries(records);
  const offBranch = new OffBranchResponses(ctx.file);

  for (let ri = 0; ri < records.length; ri++) {
    const { line, value: v } = records[ri]!;
    const due = queued.get(ri);
    if (due) for (const q of due) session.items.push(queuedItem(`queued-L${q.line}`, q.text, ctx.file, q.line, q.timestamp));
    const type = get(v, 'type');
    if (typeof type !== 'string') {
      ctx.error({ line, path: ['type'] }, `record has no string \`type\` (got ${type === undefined ? 'nothing' : JSON.stringify(type)})`);
      continue;
    }
    if (!metaKnown) {
      // Once each is set, no later record changes them.
      metaKnown = true;
      for (let k = 0; k < META_FIELDS.length; k++) {
        const key = META_FIELDS[k]!;
        const value = str(v, key);
        if (value && session.meta[key] === undefined) session.meta[key] = value;
        if (session.meta[key] === undefined) metaKnown = false;
      }
    }
    const uuid = str(v, 'uuid');
    if (uuid !== undefined && CHAINED_TYPES.has(type)) {
      // Claude Code dedupes records by uuid when it reads a session back; so do we.
      const c = uuids.canon[ri]!;
      if (chained[c]) {
        skip('duplicate-uuid');
        continue;
      }
      chained[c] = 1;
    }
    if (abandoned.has(line)) {
      skip('abandoned-branch');
      if (type === 'assistant') offBranch.add(v, line);
      continue;
    }
    if (type === 'user' || type === 'assistant') {
      const items = recordItems(v, line, ctx);
      if (!items) continue;
      const message = obj(v, 'message')!;
      if (type === 'assistant' && get(message, 'model') !== '<synthetic>') {
        // One API response is split over several records sharing message.id: usage is counted once.
        const key = str(message, 'id') ?? uuid ?? `L${line}`;
        let response = responses.get(key);
        if (!response) {
          response = { id: key, index: session.responses.length, itemIds: [], usage: null, model: null, source: { file: ctx.file, line } };
          const ts = str(v, 'timestamp');
          if (ts) response.timestamp = ts;
          // A resumed session is written by a new process under a new session id (or a new version).
          const sid = str(v, 'sessionId');
          if (sid) response.process = `${sid}@${str(v, 'version') ?? ''}`;
          responses.set(key, response);
          session.responses.push(response);
        }
        for (let k = 0; k < items.length; k++) {
          items[k]!.responseId = key;
          response.itemIds.push(items[k]!.id);
        }
        // Streaming writes usage on every part; the last part has the final output count.
        response.usage = usageOf(message) ?? response.usage;
        if (response.usage) lastContext = contextOf(response.usage);
        const model = str(message, 'model');
        if (model) {
          response.model = model;
          session.model = model;
        }
      }
      if (isClearCommand(v)) {
        compactions.clear();
        for (const it of items) it.meta = { ...it.meta, clearsContext: true };
      }
      pushAll(session.items, items);
      compactions.add(uuid, items);
      continue;
    }
    if (type === 'attachment') {
      // A queued message sent mid-turn (Claude Code 2.1.101 and later write this record).
      const text = queuedCommandText(v);
      if (text !== undefined) {
        const item = queuedItem(uuid ?? `L${line}`, text, ctx.file, line, str(v, 'timestamp'), queuedCommandOrigin(v));
        session.items.push(item);
        compactions.add(uuid, [item]);
        continue;
      }
      // Context the harness adds to the turn (files, nested CLAUDE.md, hook output, listings), read where the model
      // read it; attachments whose text does not reach the model, or is not in the file, are counted below.
      const attached = attachmentText(v);
      if (attached && !carriedByUserRecord(records, ri, attached.text)) {
        const item = attachmentItem(uuid ?? `L${line}`, attached, ctx.file, line, str(v, 'timestamp'));
        session.items.push(item);
        compactions.add(uuid, [item]);
        continue;
      }
    }
    if (type === 'system') {
      const subtype = str(v, 'subtype');
      const id = uuid ?? `L${line}`;
      if (subtype === 'compact_boundary' || subtype === 'microcompact_boundary') {
        const item = subtype === 'compact_boundary' ? compactions.boundary(v, line, id) : compactions.microcompact(v, line, id);
        session.items.push(item);
        continue;
      }
      // Notes to the person and the harness's status (turn_duration, stop_hook_summary, away_summary, local_command,
      // bridge_status, informational, api_error: a retry), counted by subtype.
      skip(`system:${subtype ?? 'unknown'}`);
      continue;
    }
    if (type === 'summary') {
      const summary = str(v, 'summary');
      if (summary) titles.push({ summary, leaf: str(v, 'leafUuid') ?? null });
    } else if (type === 'custom-title') {
      customTitle = str(v, 'customTitle') ?? customTitle;
    } else if (type === 'ai-title') {
      aiTitle = str(v, 'aiTitle') ?? aiTitle;
    }
    // A subagent's messages are read into its sidechain, not skipped.
    if (isAgentProgress(v)) continue;
    // progress, file-history-snapshot, queue-operation (its sent texts are read above), titles, the harness's state
    // (KNOWN_TYPES) and unknown types.
    skip(type);
  }
  for (const [key, n] of skipped) setOwn(session.skipped, key, (own(session.skipped, key) ?? 0) + n);
  const billed = offBranch.notIn(responses);
  if (billed.length) session.offBranch = billed;
  // A file whose first message names a parent the file does not hold was cut from a longer session (or continues
  // one): what its first summary says of the earlier turns cannot be checked against them (see audit-session.ts).
  // The first record of the chain may be a system one (a hook's summary, a turn's duration) that names the cut.
  const first = records.find((r) => r.value['type'] === 'user' || r.value['type'] === 'assistant' || (r.value['type'] === 'system' && 'parentUuid' in r.value));
  const parent = first ? str(first.value, 'parentUuid') : undefined;
  if (parent && !uuids.first.has(parent)) session.meta['startsMidConversation'] = true;
  // Old-style `summary` records title a leaf; prefer the one naming a record we kept.
  const kept = titles.filter((t) => t.leaf !== null && compactions.itemsByUuid.has(t.leaf));
  const title = customTitle ?? (kept[kept.length - 1] ?? titles[titles.length - 1])?.summary ?? aiTitle;
  if (title) session.title = title;
}

function isSidechainRecord(v: JsonObject): boolean {
  return get(v, 'isSidechain') === true;
}

export const claudeCode: FormatAdapter = {
  id: 'claude-code',
  label: 'Claude Code session',
  sniff(doc: Document) {
    const records = recordsOf(doc).slice(0, 50);
    let objects = 0;
    let known = 0;
    let chained = 0;
    for (let k = 0; k < records.length; k++) {
      const v = records[k]!.value;
      if (!isObject(v)) continue;
      objects++;
      const type = get(v, 'type');
      if (typeof type !== 'string' || !KNOWN_TYPES.has(type)) continue;
      const hasTreeKeys = get(v, 'uuid') !== undefined || get(v, 'sessionId') !== undefined || get(v, 'parentUuid') !== undefined;
      // `file-history-delta` names no session, only the snapshot it amends.
      const fileHistory = get(v, 'snapshot') !== undefined || get(v, 'snapshotMessageId') !== undefined;
      if (hasTreeKeys || fileHistory || get(v, 'leafUuid') !== undefined) known++;
      // parentUuid + sessionId on a conversation record is what no other format writes.
      if (CHAINED_TYPES.has(type) && get(v, 'parentUuid') !== undefined && typeof get(v, 'sessionId') === 'string') chained++;
    }
    if (objects === 0 || chained === 0) return 0;
    const ratio = known / objects;
    return ratio >= 0.8 ? 0.95 : ratio >= 0.5 ? 0.7 : 0;
  },
  parse(doc, ctx) {
    const records: TreeRecord[] = [];
    // Indexed loops over the records (see abandonedLines): this runs once, mostly unoptimized.
    const all = recordsOf(doc);
    for (let k = 0; k < all.length; k++) {
      const { line, value } = all[k]!;
      if (isObject(value)) records.push({ line, value });
      else ctx.error({ line }, `expected a JSON object record, got ${Array.isArray(value) ? 'an array' : value === null ? 'null' : typeof value}`);
    }
    const conversation = records.filter((r) => {
      const type = get(r.value, 'type');
      return type === 'user' || type === 'assistant';
    });
    let sessionId: string | undefined;
    for (let k = 0; k < records.length; k++) if ((sessionId = str(records[k]!.value, 'sessionId')) !== undefined) break;
    // A sidechain file (agent-*.jsonl) holds only sidechain records; detected by content, not name.
    const sidechainFile = conversation.length > 0 && conversation.every((r) => isSidechainRecord(r.value));
    if (sidechainFile) {
      const agentId = conversation.map((r) => str(r.value, 'agentId')).find((a) => a !== undefined) ?? null;
      const session = emptySession('claude-code', ctx.file, agentId ? `agent-${agentId}` : idFromFile(ctx.file));
      if (sessionId) session.meta['sidechainOf'] = sessionId;
      if (agentId) session.meta['agentId'] = agentId;
      buildSession(records, session, ctx);
      return [session];
    }
    const session = emptySession('claude-code', ctx.file, sessionId ?? idFromFile(ctx.file));
    // Older versions wrote subagent records into the main file, flagged isSidechain.
    const side = new Map<string, TreeRecord[]>();
    const main: TreeRecord[] = [];
    for (let k = 0; k < records.length; k++) {
      const r = records[k]!;
      if (!isSidechainRecord(r.value)) {
        main.push(r);
        continue;
      }
      const key = str(r.value, 'agentId') ?? 'sidechain';
      const list = side.get(key);
      if (list) list.push(r);
      else side.set(key, [r]);
    }
    buildSession(main, session, ctx);
    const links = new SubagentLinks(main);
    const linked = (sidechain: Sidechain, toolUseId: string | null) => {
      if (sidechain.purpose === 'subagent') links.link(session, sidechain, toolUseId);
      session.sidechains.push(sidechain);
    };
    for (const [agentId, list] of side) {
      const sub = emptySession('claude-code', ctx.file, agentId);
      buildSession(list, sub, ctx);
      linked({ id: agentId, purpose: agentId.startsWith('acompact') ? 'compaction' : 'subagent', file: ctx.file, items: sub.items, compactionId: null, responses: sub.responses }, null);
    }
    // Subagents whose messages came as agent_progress records in this file.
    const progress = progressTranscripts(main);
    for (const [agentId, { toolUseId, records: list }] of progress) {
      if (side.has(agentId)) continue;
      const sub = emptySession('claude-code', ctx.file, agentId);
      buildSession(list, sub, nestedContext(ctx));
      linked({ id: agentId, purpose: 'subagent', file: ctx.file, items: sub.items, compactionId: null, responses: sub.responses }, toolUseId);
    }
    // Subagents known only from their Task result: their sidechain file, when loaded too, fills them in.
    for (const agentId of links.agentIds()) {
      if (side.has(agentId) || progress.has(agentId)) continue;
      linked({ id: agentId, purpose: 'subagent', file: '', items: [], compactionId: null, responses: [] }, null);
    }
    return [session];
  },
};
