// Claude Code writes a session as a tree (`parentUuid`); this finds the records on abandoned branches.
import { echoesCommand, isCommandCaveatText } from '../model/harness-messages';
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

/**
 * The user's `/clear`: the model sees nothing of what came before. Claude Code 1.0 kept writing the same file after
 * it, each `/clear` hanging off one local-command caveat record it wrote again with the same uuid, so the
 * conversations between clears are siblings in the tree, not retries of one another (oneopane/CLAUDE-commands,
 * 1.0.31); from about 1.0.5x a `/clear` starts a new file.
 */
export function isClearCommand(v: JsonObject): boolean {
  if (get(v, 'type') !== 'user') return false;
  const message = obj(v, 'message');
  const content = message ? get(message, 'content') : undefined;
  if (typeof content === 'string') return echoesCommand(content, 'clear');
  return Array.isArray(content) && content.some((b) => isObject(b) && typeof get(b, 'text') === 'string' && echoesCommand(String(get(b, 'text')), 'clear'));
}

/** Claude Code's note that local commands follow, which it writes before their echoes. */
function isCommandCaveat(v: JsonObject): boolean {
  if (get(v, 'type') !== 'user' || get(v, 'isMeta') !== true) return false;
  const message = obj(v, 'message');
  const content = message ? get(message, 'content') : undefined;
  const text = typeof content === 'string' ? content : Array.isArray(content) && isObject(content[0]) ? get(content[0], 'text') : undefined;
  return typeof text === 'string' && isCommandCaveatText(text);
}

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
 * Each record's uuid named by the position of the first record that carries it (`canon`; -1 without a uuid).
 *
 * Claude Code 1.0 wrote one local-command caveat record again, same uuid and timestamp, into each conversation it
 * began in the file after a `/clear` (under that conversation's new sessionId, its parent that conversation's last
 * record or none), and hung the conversation's commands off that copy (francojc/dotfiles, 1.0.21: six sessionIds,
 * five copies). So a uuid is first looked up among the records of the asking record's own sessionId: each copy is a
 * record of its own conversation, not a duplicate of the first.
 */
export interface RecordUuids {
  /** The first record of each uuid, whatever its sessionId. */
  first: Map<string, number>;
  canon: Int32Array;
  /** The position of the record `parentUuid` names for record i: its own conversation's first, else the first; -1: none. */
  parentOf(i: number, parentUuid: string): number;
}

const sessionKey = (v: JsonObject, uuid: string): string => `${str(v, 'sessionId') ?? ''}\u0000${uuid}`;

export function recordUuids(records: readonly TreeRecord[]): RecordUuids {
  const first = new Map<string, number>();
  // Only uuids carried under more than one sessionId need the second look-up: most files have none.
  let inSession: Map<string, number> | null = null;
  const canon = new Int32Array(records.length).fill(-1);
  for (let i = 0; i < records.length; i++) {
    const v = records[i]!.value;
    const uuid = str(v, 'uuid');
    if (uuid === undefined) continue;
    const known = first.get(uuid);
    if (known === undefined) first.set(uuid, (canon[i] = i));
    else if (str(records[known]!.value, 'sessionId') === str(v, 'sessionId')) canon[i] = known;
    else {
      inSession ??= new Map();
      const key = sessionKey(v, uuid);
      const own = inSession.get(key);
      if (own === undefined) inSession.set(key, (canon[i] = i));
      else canon[i] = own;
    }
  }
  const parentOf = (i: number, parentUuid: string): number => {
    const any = first.get(parentUuid);
    if (any === undefined || !inSession) return any ?? -1;
    const v = records[i]!.value;
    if (str(records[any]!.value, 'sessionId') === str(v, 'sessionId')) return any;
    return inSession.get(sessionKey(v, parentUuid)) ?? any;
  };
  return { first, canon, parentOf };
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
 * quadratic (74 s for 30k records). Each uuid is looked up once, by the first record that carries it;
 * after that the walks run on record positions (parents, nearest conversation record, roots, children,
 * kept marks in typed arrays), memoized as they are found, and the stitching is a worklist woken by the
 * ids it waits for. A parent cycle (only in a damaged file) makes one tree, rooted at the first cycle
 * member reached.
 */
export function abandonedLines(records: TreeRecord[], uuids: RecordUuids = recordUuids(records)): Set<number> {
  const n = records.length;
  const { canon } = uuids;
  const conv = new Uint8Array(n);
  for (let i = 0; i < n; i++) if (isConversationRecord(records[i]!.value)) conv[i] = 1;
  // The first record carrying each record's parentUuid: -1 when it has none or the file does not hold it.
  const link = new Int32Array(n).fill(-1);
  for (let i = 0; i < n; i++) {
    const from = str(records[i]!.value, 'parentUuid');
    // A `/clear` starts a conversation of its own, as a compact boundary does.
    if (from !== undefined && !isClearCommand(records[i]!.value)) link[i] = uuids.parentOf(i, from);
  }
  // Claude Code 1.0 hung every local command of a conversation off one caveat record, whenever it was typed: a
  // `/model` before the work, the `/compact` echo after its summary, another `/model` later (oneopane/CLAUDE-commands,
  // 1.0.31). Those echoes are not retries of one another, and what follows each is the conversation going on: each
  // starts a tree of its own, as a `/clear` does. That caveat is a root, or written again under its uuid; later
  // versions write a caveat of its own, chained, before each command, and its children stay as they were.
  const echoes = new Int32Array(n);
  for (let i = 0; i < n; i++) if (link[i]! >= 0) echoes[link[i]!]!++;
  let rewritten: Set<string> | null = null;
  const sharedCaveat = (p: number): boolean => {
    const v = records[p]!.value;
    if (!isCommandCaveat(v)) return false;
    if (get(v, 'parentUuid') == null) return true;
    if (!rewritten) {
      rewritten = new Set();
      for (let i = 0; i < n; i++) {
        const uuid = str(records[i]!.value, 'uuid');
        if (uuid !== undefined && uuids.first.get(uuid) !== i) rewritten.add(uuid);
      }
    }
    return rewritten.has(String(get(v, 'uuid')));
  };
  for (let i = 0; i < n; i++) {
    const p = link[i]!;
    if (p >= 0 && echoes[p]! > 1 && sharedCaveat(p)) link[i] = -1;
  }
  // Progress records hang off the call or turn they report on and may be written long after: a subagent's once it
  // ends, a hook's beside the turn. Claude Code then chains the next record onto the last of them, though the
  // conversation went on meanwhile (Viniciuscarvalho/FitToday, 2.1.72: 126 records after the Agent results, then 212
  // progress records stamped at the call, then the user's next message, whose reported prompt holds those 126; a
  // `/context` echo and the user's next message each hung off a hook's progress record, in checkpoints of 2.1.x). A
  // conversation record whose parent is reached only through progress records follows the conversation record
  // written last before it.
  relinkAfterProgress(records, link, conv, canon);
  // The first conversation record of each uuid (a member); a duplicate is reported by the caller. By the uuid's
  // canon: `member` marks uuids that have one, `parent` is the uuid it hangs off (-1: a root), itself a member's.
  const members: number[] = [];
  const parent = new Int32Array(n).fill(-1);
  const member = new Uint8Array(n);
  const nearest = nearestConversation(link, conv);
  const stamp = new Int32Array(n);
  let walk = 0;
  for (let i = 0; i < n; i++) {
    const c = canon[i]!;
    if (c < 0 || member[c] || !conv[i]) continue;
    // A uuid shared with an earlier link record (a damaged file) makes the walk depend on where it
    // started: walk that record on its own, unmemoized, stopping at the record's own uuid.
    let found: number;
    if (c === i) found = nearest(link[i]!);
    else {
      found = -1;
      stamp[c] = ++walk;
      for (let p = link[i]!; p >= 0 && stamp[p] !== walk; p = link[p]!) {
        stamp[p] = walk;
        if (conv[p]) {
          found = p;
          break;
        }
      }
    }
    // A chain of links that leads back to the record itself gives it no parent.
    parent[c] = found === c ? -1 : found;
    member[c] = 1;
    members.push(i);
  }

  // Indexed loops over the records here and below: this runs once per session, mostly before the optimizing compiler
  // has the function, and the unoptimized code of `for…of` allocates a result object per element (~3 MB at 30k).
  const rootOf = memoizedRoots(parent, n);
  const trees = new Map<number, number[]>();
  for (let k = 0; k < members.length; k++) {
    const m = members[k]!;
    const root = rootOf(canon[m]!);
    const list = trees.get(root);
    if (list) list.push(m);
    else trees.set(root, [m]);
  }

  // A member's children (members), as ranges of one array: a member's parent is a member of its tree.
  const childStart = new Int32Array(n + 1);
  for (let k = 0; k < members.length; k++) {
    const p = parent[canon[members[k]!]!]!;
    if (p >= 0) childStart[p + 1]!++;
  }
  for (let i = 0; i < n; i++) childStart[i + 1]! += childStart[i]!;
  const childList = new Int32Array(childStart[n]!);
  const fill = childStart.slice(0, n);
  for (let k = 0; k < members.length; k++) {
    const m = members[k]!;
    const p = parent[canon[m]!]!;
    if (p >= 0) childList[fill[p]!++] = m;
  }

  const abandoned = new Set<number>();
  const keptIn = new Int32Array(n);
  let treeNo = 0;
  for (const tree of trees.values()) {
    treeNo++;
    keepTree(records, tree, { canon, parent, childStart, childList, keptIn }, treeNo);
    for (let k = 0; k < tree.length; k++) if (keptIn[canon[tree[k]!]!] !== treeNo) abandoned.add(records[tree[k]!]!.line);
  }
  return abandoned;
}

function relinkAfterProgress(records: readonly TreeRecord[], link: Int32Array, conv: Uint8Array, canon: Int32Array): void {
  const n = records.length;
  // Per link record: 0 not walked, 1 its links up to a conversation record pass a progress record, 2 they do not.
  const via = new Uint8Array(n);
  const onPath = new Int32Array(n);
  let walk = 0;
  const path: number[] = [];
  const passesProgress = (from: number): boolean => {
    walk++;
    path.length = 0;
    let found = 2;
    for (let p = from; p >= 0 && !conv[p] && onPath[p] !== walk; p = link[p]!) {
      if (via[p]) {
        found = via[p]!;
        break;
      }
      onPath[p] = walk;
      path.push(p);
      if (get(records[p]!.value, 'type') === 'progress') {
        found = 1;
        break;
      }
    }
    for (let k = 0; k < path.length; k++) via[path[k]!] = found;
    return found === 1;
  };
  let last = -1;
  for (let i = 0; i < n; i++) {
    if (!conv[i]) continue;
    const p = link[i]!;
    // A uuid an earlier link record carried too (a damaged file) names that record: it is neither moved nor followed.
    const c = canon[i]! >= 0 ? canon[i]! : i;
    if (!conv[c]) continue;
    if (p >= 0 && !conv[p] && last >= 0 && passesProgress(p)) link[i] = last;
    last = c;
  }
}

/**
 * The nearest conversation record at or above a record position, walking through progress/system links;
 * memoized per link, so a link shared by many records (or a long run of links) is walked once. -1: none.
 */
function nearestConversation(link: Int32Array, conv: Uint8Array): (from: number) => number {
  const n = link.length;
  // -2: not walked yet.
  const memo = new Int32Array(n).fill(-2);
  const onPath = new Int32Array(n);
  let walk = 0;
  const links: number[] = [];
  return (from) => {
    // Most records hang off a conversation record, or off a link walked before: answered without a walk.
    if (from < 0) return -1;
    if (conv[from]) return from;
    if (memo[from] !== -2) return memo[from]!;
    walk++;
    links.length = 0;
    let found = -1;
    for (let p = from; p >= 0 && onPath[p] !== walk; ) {
      if (conv[p]) {
        found = p;
        break;
      }
      if (memo[p] !== -2) {
        found = memo[p]!;
        break;
      }
      links.push(p);
      onPath[p] = walk;
      p = link[p]!;
    }
    for (let k = 0; k < links.length; k++) memo[links[k]!] = found;
    return found;
  };
}

/** The root of each member's tree; every member on a walked path learns its root at once. */
function memoizedRoots(parent: Int32Array, n: number): (m: number) => number {
  const roots = new Int32Array(n).fill(-1);
  const onPath = new Int32Array(n);
  let walk = 0;
  const path: number[] = [];
  return (m) => {
    // Records come after their parents: most find their parent's root at once.
    if (roots[m] !== -1) return roots[m]!;
    const p = parent[m]!;
    if (p < 0) return (roots[m] = m);
    if (roots[p] !== -1) return (roots[m] = roots[p]!);
    walk++;
    path.length = 0;
    let root = m;
    for (let cur = m; ; ) {
      if (roots[cur] !== -1) {
        root = roots[cur]!;
        break;
      }
      path.push(cur);
      onPath[cur] = walk;
      const up = parent[cur]!;
      if (up < 0) {
        root = cur;
        break;
      }
      if (onPath[up] === walk) {
        root = up;
        break;
      }
      cur = up;
    }
    for (let k = 0; k < path.length; k++) roots[path[k]!] = root;
    return root;
  };
}

interface TreeIndex {
  canon: Int32Array;
  parent: Int32Array;
  childStart: Int32Array;
  childList: Int32Array;
  /** The tree number that keeps each uuid (by canon). */
  keptIn: Int32Array;
}

/**
 * Marks the uuids one tree keeps: the path to its last record, then every record that hangs off a kept
 * record and belongs with it (a sibling part of a kept response, the result of a kept tool call,
 * system and meta records). A record waits, keyed by the response or tool call id it needs, until
 * that id is kept.
 */
function keepTree(records: TreeRecord[], tree: number[], ix: TreeIndex, treeNo: number): void {
  const { canon, parent, childStart, childList, keptIn } = ix;
  const responseIds = new Set<string>();
  const toolUseIds = new Set<string>();
  const waitingForResponse = new Map<string, number[]>();
  const waitingForToolUse = new Map<string, number[]>();
  const queue: number[] = [];
  const wait = (waiting: Map<string, number[]>, key: string, i: number) => {
    const list = waiting.get(key);
    if (list) list.push(i);
    else waiting.set(key, [i]);
  };
  const wake = (waiting: Map<string, number[]>, key: string) => {
    const list = waiting.get(key);
    if (!list) return;
    waiting.delete(key);
    for (const i of list) queue.push(i);
  };
  const keep = (i: number) => {
    const c = canon[i]!;
    if (keptIn[c] === treeNo) return;
    keptIn[c] = treeNo;
    const v = records[i]!.value;
    const mid = get(v, 'type') === 'assistant' ? messageId(v) : undefined;
    if (mid && !responseIds.has(mid)) {
      responseIds.add(mid);
      wake(waitingForResponse, mid);
    }
    const blocks = contentOf(v);
    for (let k = 0; k < blocks.length; k++) {
      const b = blocks[k];
      if (!isObject(b)) continue;
      const id = str(b, 'id');
      if (id && !toolUseIds.has(id)) {
        const type = get(b, 'type');
        if (type === 'tool_use' || type === 'server_tool_use') {
          toolUseIds.add(id);
          wake(waitingForToolUse, id);
        }
      }
    }
    // Children hang off the uuid's member, the first record carrying it.
    for (let k = childStart[c]!; k < childStart[c + 1]!; k++) queue.push(childList[k]!);
  };
  // A child of a kept record: kept if it belongs now, else it waits for the id that would make it belong.
  const consider = (i: number) => {
    if (keptIn[canon[i]!] === treeNo) return;
    const v = records[i]!.value;
    const type = get(v, 'type');
    if (type === 'system' || get(v, 'isMeta') === true) return keep(i);
    if (type === 'assistant') {
      const mid = messageId(v);
      if (mid === undefined) return;
      return responseIds.has(mid) ? keep(i) : wait(waitingForResponse, mid, i);
    }
    let resultIds: string[] | null = null;
    const blocks = contentOf(v);
    for (let k = 0; k < blocks.length; k++) {
      const b = blocks[k];
      if (!isObject(b) || get(b, 'type') !== 'tool_result') continue;
      const id = String(get(b, 'tool_use_id'));
      if (toolUseIds.has(id)) return keep(i);
      (resultIds ??= []).push(id);
    }
    for (const id of resultIds ?? []) wait(waitingForToolUse, id, i);
  };

  // The path from the last member up: each uuid's first record is the one read (for the last member, a link
  // record that came first with its uuid in a damaged file).
  const seen = new Set<number>();
  for (let cur = canon[tree[tree.length - 1]!]!; cur >= 0 && !seen.has(cur); cur = parent[cur]!) {
    seen.add(cur);
    keep(cur);
  }
  for (let i = 0; i < queue.length; i++) consider(queue[i]!);
}
