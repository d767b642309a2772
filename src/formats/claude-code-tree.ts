// Claude Code writes a session as a tree (`parentUuid`); this finds the records on abandoned branches.
import { arr, get, isObject, obj, str, type JsonObject } from '../model/narrow';

export interface TreeRecord {
  line: number;
  value: JsonObject;
}

const BOUNDARIES = new Set(['compact_boundary', 'microcompact_boundary']);

/** Records that carry conversation; progress, hooks and snapshots are only links in the chain. */
export function isConversationRecord(v: JsonObject): boolean {
  const type = get(v, 'type');
  if (type === 'user' || type === 'assistant') return true;
  return type === 'system' && BOUNDARIES.has(String(get(v, 'subtype')));
}

const NO_BLOCKS: readonly unknown[] = [];

/** The message's content array as it is (its blocks are the objects in it): read record after record, so not copied. */
function contentOf(v: JsonObject): readonly unknown[] {
  const message = obj(v, 'message');
  return (message ? arr(message, 'content') : undefined) ?? NO_BLOCKS;
}

function messageId(v: JsonObject): string | undefined {
  const message = obj(v, 'message');
  return message ? str(message, 'id') : undefined;
}

/**
 * Line numbers of conversation records on abandoned branches (edits, retries).
 *
 * Each connected tree of conversation records keeps the path to its last record (in file order).
 * Trees are separate on purpose: a compact boundary starts a new root (`parentUuid: null`) and the
 * records before it are the same session, not an abandoned branch; sidechain files start from
 * parents that live in the main file.
 *
 * Not every fork is a retry: parallel tool calls fan out as siblings sharing `message.id`, their
 * results hang off their own call, and hook context (`isMeta`) attaches beside the chain. Those
 * siblings are stitched back in, the way Claude Code recovers orphaned parallel tool results.
 *
 * Linear in the records: a long session is one chain, so walking to the root from every record was
 * quadratic (74 s for 30k records). Parents and roots are memoized as they are found, and the
 * stitching is a worklist woken by the ids it waits for. A parent cycle (only in a damaged file)
 * makes one tree, rooted at the first cycle member reached.
 */
export function abandonedLines(records: TreeRecord[]): Set<number> {
  const byUuid = new Map<string, JsonObject>();
  const uuids = new Array<string | undefined>(records.length);
  records.forEach((r, i) => {
    const uuid = (uuids[i] = str(r.value, 'uuid'));
    if (uuid !== undefined && !byUuid.has(uuid)) byUuid.set(uuid, r.value);
  });
  // The first conversation record of each uuid; a duplicate is reported by the caller.
  const members: { uuid: string; record: TreeRecord }[] = [];
  const parent = new Map<string, string | null>();
  const convAbove = nearestConversation(byUuid);
  for (let i = 0; i < records.length; i++) {
    const r = records[i]!;
    const uuid = uuids[i];
    if (uuid === undefined || parent.has(uuid) || !isConversationRecord(r.value)) continue;
    const from = str(r.value, 'parentUuid');
    // A uuid shared with an earlier link record (a damaged file) makes the walk depend on where it
    // started: walk that record on its own, unmemoized.
    const found = byUuid.get(uuid) === r.value ? convAbove(from) : walkToConversation(byUuid, from, uuid);
    // A chain of links that leads back to the record itself gives it no parent.
    parent.set(uuid, found === uuid ? null : found);
    members.push({ uuid, record: r });
  }

  const rootOf = memoizedRoots(parent);
  const trees = new Map<string, { uuid: string; record: TreeRecord }[]>();
  for (const m of members) {
    const root = rootOf(m.uuid);
    const list = trees.get(root);
    if (list) list.push(m);
    else trees.set(root, [m]);
  }

  const abandoned = new Set<number>();
  for (const tree of trees.values()) {
    const kept = keptRecords(tree, parent, byUuid);
    for (const m of tree) if (!kept.has(m.uuid)) abandoned.add(m.record.line);
  }
  return abandoned;
}

/**
 * The nearest conversation ancestor above a `parentUuid`, walking through progress/system links;
 * memoized per link, so a link shared by many records (or a long run of links) is walked once.
 */
function nearestConversation(byUuid: Map<string, JsonObject>): (from: string | undefined) => string | null {
  const memo = new Map<string, string | null>();
  return (from) => {
    // Most records hang off a conversation record, or off a link walked before: answered without a walk.
    if (from === undefined) return null;
    const above = byUuid.get(from);
    if (!above) return null;
    if (isConversationRecord(above)) return from;
    const known = memo.get(from);
    if (known !== undefined) return known;
    const links: string[] = [];
    const onPath = new Set<string>();
    let found: string | null = null;
    for (let p: string | undefined = from; p !== undefined && !onPath.has(p); ) {
      const rec = byUuid.get(p);
      if (!rec) break;
      if (isConversationRecord(rec)) {
        found = p;
        break;
      }
      const known = memo.get(p);
      if (known !== undefined) {
        found = known;
        break;
      }
      links.push(p);
      onPath.add(p);
      p = str(rec, 'parentUuid');
    }
    for (const l of links) memo.set(l, found);
    return found;
  };
}

/** The nearest conversation ancestor, walked link by link; the walk stops at `self` (a cycle). */
function walkToConversation(byUuid: Map<string, JsonObject>, from: string | undefined, self: string): string | null {
  const seen = new Set<string>([self]);
  for (let p = from; p !== undefined && !seen.has(p); ) {
    seen.add(p);
    const rec = byUuid.get(p);
    if (!rec) return null;
    if (isConversationRecord(rec)) return p;
    p = str(rec, 'parentUuid');
  }
  return null;
}

/** The root of each record's tree; every record on a walked path learns its root at once. */
function memoizedRoots(parent: Map<string, string | null>): (uuid: string) => string {
  const roots = new Map<string, string>();
  return (uuid) => {
    // Records come after their parents: most find their parent's root at once.
    const known = roots.get(uuid);
    if (known !== undefined) return known;
    const p = parent.get(uuid);
    if (!p) {
      roots.set(uuid, uuid);
      return uuid;
    }
    const above = roots.get(p);
    if (above !== undefined) {
      roots.set(uuid, above);
      return above;
    }
    const path: string[] = [];
    const onPath = new Set<string>();
    let root = uuid;
    for (let cur = uuid; ; ) {
      const known = roots.get(cur);
      if (known !== undefined) {
        root = known;
        break;
      }
      path.push(cur);
      onPath.add(cur);
      const p = parent.get(cur);
      if (!p) {
        root = cur;
        break;
      }
      if (onPath.has(p)) {
        root = p;
        break;
      }
      cur = p;
    }
    for (const q of path) roots.set(q, root);
    return root;
  };
}

/**
 * The uuids one tree keeps: the path to its last record, then every record that hangs off a kept
 * record and belongs with it (a sibling part of a kept response, the result of a kept tool call,
 * system and meta records). A record waits, keyed by the response or tool call id it needs, until
 * that id is kept.
 */
function keptRecords(tree: { uuid: string; record: TreeRecord }[], parent: Map<string, string | null>, byUuid: Map<string, JsonObject>): Set<string> {
  const children = new Map<string, JsonObject[]>();
  for (const m of tree) {
    const p = parent.get(m.uuid);
    if (!p) continue;
    const list = children.get(p);
    if (list) list.push(m.record.value);
    else children.set(p, [m.record.value]);
  }
  const kept = new Set<string>();
  const responseIds = new Set<string>();
  const toolUseIds = new Set<string>();
  const waitingForResponse = new Map<string, JsonObject[]>();
  const waitingForToolUse = new Map<string, JsonObject[]>();
  const queue: JsonObject[] = [];
  const wait = (waiting: Map<string, JsonObject[]>, key: string, v: JsonObject) => {
    const list = waiting.get(key);
    if (list) list.push(v);
    else waiting.set(key, [v]);
  };
  const wake = (waiting: Map<string, JsonObject[]>, key: string) => {
    const list = waiting.get(key);
    if (!list) return;
    waiting.delete(key);
    for (const v of list) queue.push(v);
  };
  const keep = (v: JsonObject) => {
    const uuid = str(v, 'uuid')!;
    if (kept.has(uuid)) return;
    kept.add(uuid);
    const mid = get(v, 'type') === 'assistant' ? messageId(v) : undefined;
    if (mid && !responseIds.has(mid)) {
      responseIds.add(mid);
      wake(waitingForResponse, mid);
    }
    for (const b of contentOf(v)) {
      if (!isObject(b)) continue;
      const id = str(b, 'id');
      if (id && (get(b, 'type') === 'tool_use' || get(b, 'type') === 'server_tool_use') && !toolUseIds.has(id)) {
        toolUseIds.add(id);
        wake(waitingForToolUse, id);
      }
    }
    for (const c of children.get(uuid) ?? []) queue.push(c);
  };
  // A child of a kept record: kept if it belongs now, else it waits for the id that would make it belong.
  const consider = (v: JsonObject) => {
    if (kept.has(str(v, 'uuid')!)) return;
    if (get(v, 'type') === 'system' || get(v, 'isMeta') === true) return keep(v);
    if (get(v, 'type') === 'assistant') {
      const mid = messageId(v);
      if (mid === undefined) return;
      return responseIds.has(mid) ? keep(v) : wait(waitingForResponse, mid, v);
    }
    let resultIds: string[] | null = null;
    for (const b of contentOf(v)) {
      if (!isObject(b) || get(b, 'type') !== 'tool_result') continue;
      const id = String(get(b, 'tool_use_id'));
      if (toolUseIds.has(id)) return keep(v);
      (resultIds ??= []).push(id);
    }
    for (const id of resultIds ?? []) wait(waitingForToolUse, id, v);
  };

  const seen = new Set<string>();
  for (let cur: string | null | undefined = tree[tree.length - 1]!.uuid; cur && !seen.has(cur); cur = parent.get(cur)) {
    seen.add(cur);
    const rec = byUuid.get(cur);
    if (rec) keep(rec);
  }
  for (let i = 0; i < queue.length; i++) consider(queue[i]!);
  return kept;
}
