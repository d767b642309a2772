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

function blocksOf(v: JsonObject): JsonObject[] {
  const message = obj(v, 'message');
  const content = message ? arr(message, 'content') : undefined;
  return (content ?? []).filter(isObject);
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
 */
export function abandonedLines(records: TreeRecord[]): Set<number> {
  const byUuid = new Map<string, JsonObject>();
  for (const r of records) {
    const uuid = str(r.value, 'uuid');
    if (uuid !== undefined && !byUuid.has(uuid)) byUuid.set(uuid, r.value);
  }
  const convs = records.filter((r) => isConversationRecord(r.value) && str(r.value, 'uuid') !== undefined);
  const lineOf = new Map<string, number>();
  for (const r of convs) if (!lineOf.has(str(r.value, 'uuid')!)) lineOf.set(str(r.value, 'uuid')!, r.line);

  // Nearest conversation ancestor, walking through progress/system links.
  const parent = new Map<string, string | null>();
  for (const r of convs) {
    const uuid = str(r.value, 'uuid')!;
    if (parent.has(uuid)) continue;
    let p = str(r.value, 'parentUuid');
    const seen = new Set<string>([uuid]);
    let found: string | null = null;
    while (p !== undefined && !seen.has(p)) {
      seen.add(p);
      const rec = byUuid.get(p);
      if (!rec) break;
      if (isConversationRecord(rec)) {
        found = p;
        break;
      }
      p = str(rec, 'parentUuid');
    }
    parent.set(uuid, found);
  }

  const rootOf = (uuid: string): string => {
    let cur = uuid;
    const seen = new Set<string>();
    for (let p = parent.get(cur); p && !seen.has(p); p = parent.get(cur)) {
      seen.add(cur);
      cur = p;
    }
    return cur;
  };
  const trees = new Map<string, TreeRecord[]>();
  for (const r of convs) {
    const uuid = str(r.value, 'uuid')!;
    if (lineOf.get(uuid) !== r.line) continue; // duplicate uuid: the caller reports it
    const root = rootOf(uuid);
    const list = trees.get(root) ?? [];
    list.push(r);
    trees.set(root, list);
  }

  const abandoned = new Set<number>();
  for (const members of trees.values()) {
    const kept = new Set<string>();
    const responseIds = new Set<string>();
    const toolUseIds = new Set<string>();
    const keep = (v: JsonObject) => {
      kept.add(str(v, 'uuid')!);
      const mid = get(v, 'type') === 'assistant' ? messageId(v) : undefined;
      if (mid) responseIds.add(mid);
      for (const b of blocksOf(v)) {
        const id = str(b, 'id');
        if (id && (get(b, 'type') === 'tool_use' || get(b, 'type') === 'server_tool_use')) toolUseIds.add(id);
      }
    };
    const seen = new Set<string>();
    for (let cur: string | null | undefined = str(members[members.length - 1]!.value, 'uuid'); cur && !seen.has(cur); cur = parent.get(cur)) {
      seen.add(cur);
      const rec = byUuid.get(cur);
      if (rec) keep(rec);
    }
    const belongs = (v: JsonObject): boolean => {
      if (get(v, 'type') === 'system') return true;
      if (get(v, 'isMeta') === true) return true;
      if (get(v, 'type') === 'assistant') {
        const mid = messageId(v);
        return mid !== undefined && responseIds.has(mid);
      }
      return blocksOf(v).some((b) => get(b, 'type') === 'tool_result' && toolUseIds.has(String(get(b, 'tool_use_id'))));
    };
    for (let changed = true; changed; ) {
      changed = false;
      for (const r of members) {
        const uuid = str(r.value, 'uuid')!;
        if (kept.has(uuid)) continue;
        const p = parent.get(uuid);
        if (p && kept.has(p) && belongs(r.value)) {
          keep(r.value);
          changed = true;
        }
      }
    }
    for (const r of members) if (!kept.has(str(r.value, 'uuid')!)) abandoned.add(r.line);
  }
  return abandoned;
}
