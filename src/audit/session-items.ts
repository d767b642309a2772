// A session's items, read once for all its compactions. Each compaction asks, for each identifier its summary
// lost, for the first later item that mentions it or asks for one of its kind, and, for each identifier its
// summary wrote, whether an evicted or context item backs it. Asked compaction by compaction over fresh
// copies of the items, that re-read every text once per compaction: quadratic in a session with thousands of
// compactions. Here every per-item result (lowercased text, identifiers, questions) is computed at most once,
// and the items that may hold an identifier come from one key index over the session (key-index.ts,
// mention-keys.ts).
import type { Identifier } from './identifiers';
import { KeyIndex, type Posting } from './key-index';
import { outerKeysOf } from './later-index';
import { mentionKeys, type MentionKeys } from './mention-keys';
import { mentionText } from './later-use';
import { containsPathTail, foundIn, haystack, referencedIn, searchSlack, type Haystack } from './normalize';
import { askedAs, asksAgain, asksFor, questions } from './questions';
import { lowerBound } from '../model/sorted';

function has(sorted: readonly number[], x: number): boolean {
  const i = lowerBound(sorted, x);
  return i < sorted.length && sorted[i] === x;
}

/** What look-ups of one identifier (by kind and value) need: its keys, and their postings once indexed. */
interface Entry {
  keys: MentionKeys;
  /** Each group's postings, rarest first once `sorted`. */
  lists: Readonly<Posting>[][] | null;
  sorted: boolean;
  /** For each group, `searchSlack` of its rarest key. */
  slack: number[] | null;
  /**
   * The items checked so far, as item + 1 where `foundIn` held and -(item + 1) where it did not: compactions ask
   * again for identifiers lost again. Mostly one or two, so a short list (at most 32 are kept).
   */
  found: number[] | null;
}

/** Does item i hold every key of a group (its postings, rarest first, `lists[0]` already holding it)? */
function inRest(lists: readonly Readonly<Posting>[], i: number): boolean {
  for (let k = 1; k < lists.length; k++) if (!has(lists[k]!.items, i)) return false;
  return true;
}

export class SessionItems {
  private readonly hays: (Haystack | undefined)[] = [];
  /** Each text in lower case, as `prepare` indexed it. */
  private readonly lowers: (string | undefined)[] = [];
  private index: KeyIndex | null = null;
  private readonly entries = new Map<string, Entry>();
  // A plain map: it lives as long as the audit, and a large WeakMap costs the garbage collector more.
  private readonly byObject = new Map<Identifier, Entry>();
  /** Items (ascending) with a question that asks for identifiers `askedAs` names alike. */
  private readonly askers = new Map<string, number[]>();
  private questioners: { item: number; questions: string[] }[] | null = null;

  /**
   * `texts[i]` and `roles[i]` are item i's audit text and role; `cwd` resolves relative paths (see `referencedIn`);
   * `said[i]` is what questions are read in (a harness-framed reply's own words, `saidText`), by default the text.
   */
  constructor(
    private readonly texts: readonly string[],
    private readonly roles: readonly (string | undefined)[],
    private readonly cwd: string | null = null,
    private readonly said: readonly string[] = texts,
  ) {}

  hay(i: number): Haystack {
    if (this.hays[i]) return this.hays[i];
    const text = mentionText(this.texts[i]!);
    // The index lowercased every text already (`prepare`): a haystack of the same text reads that copy.
    return (this.hays[i] = haystack(text, { cwd: this.cwd }, text === this.texts[i] ? this.lowers[i] : undefined));
  }

  /**
   * `mentionKeys(id)` with only the outermost keys of each part (`pool_conn.ts`, not `conn.ts` and `ts`), once
   * per value and kind: an item holding the longer key holds the shorter ones too, and the index need not list
   * every item with a common word.
   */
  keys(id: Identifier): MentionKeys {
    return this.entry(id).keys;
  }

  private entry(id: Identifier): Entry {
    // Each identifier object is asked for several times (kept or lost, keys, look-up): remember it by object.
    const known = this.byObject.get(id);
    if (known) return known;
    const memo = `${id.kind}\u0000${id.value}`;
    let entry = this.entries.get(memo);
    if (!entry) {
      const keys = mentionKeys(id, outerKeysOf);
      entry = { keys, lists: null, sorted: false, slack: null, found: null };
      this.entries.set(memo, entry);
    }
    this.byObject.set(id, entry);
    return entry;
  }

  /** Each group's postings, rarest first (after `prepare`). */
  private lists(entry: Entry): Readonly<Posting>[][] | null {
    const index = this.index;
    if (!entry.keys || !index || entry.keys.some((g) => g.length === 0)) return null;
    entry.lists ??= entry.keys.map((group) => group.map((key) => index.posting(key)));
    if (!entry.sorted) {
      for (const lists of entry.lists) if (lists.length > 1) lists.sort((a, b) => a.items.length - b.items.length);
      entry.sorted = true;
    }
    return entry.lists;
  }

  /**
   * Indexes every item for the keys of these identifiers and for the other keys; look-ups may then only ask for
   * those. Without it, look-ups read every item.
   */
  prepare(ids: Iterable<Identifier>, keys: Iterable<string> = []): void {
    const index = new KeyIndex(keys);
    // Each identifier's postings come straight from the index, without looking its keys up again.
    for (const id of ids) {
      const entry = this.entry(id);
      if (entry.keys && !entry.lists) entry.lists = entry.keys.map((group) => group.map((key) => index.want(key)));
    }
    for (let i = 0; i < this.texts.length; i++) index.add(i, this.texts[i]!, (this.lowers[i] = this.texts[i]!.toLowerCase()));
    this.index = index;
  }

  /** Item i's text in lower case (as `prepare` made it). */
  lower(i: number): string {
    return (this.lowers[i] ??= this.texts[i]!.toLowerCase());
  }

  /** Does item i hold `key` (one `prepare` indexed)? */
  holdsKey(i: number, key: string): boolean {
    return this.index !== null && has(this.index.posting(key).items, i);
  }

  /** Items in [from, to) holding every key of one of the groups, ascending within each group; every item when null. */
  private *candidates(groups: MentionKeys, from = 0, to = this.texts.length): Generator<number> {
    to = Math.min(to, this.texts.length);
    if (!groups || !this.index || groups.some((g) => g.length === 0)) {
      for (let i = Math.max(0, from); i < to; i++) yield i;
      return;
    }
    for (const group of groups) {
      const lists = group.map((key) => this.index!.posting(key)).sort((a, b) => a.items.length - b.items.length);
      const items = lists[0]!.items;
      for (let j = lowerBound(items, from); j < items.length && items[j]! < to; j++) if (inRest(lists, items[j]!)) yield items[j]!;
    }
  }

  /**
   * The first item from `from` on, not `skip`ped, that refers to `id` (as `referencedIn` reads it); -1 if none. With
   * `tail` (a relative path written from a folder below the working directory, `ProjectScope.writtenBelow`), a longer
   * path ending with it refers to it too. An identifier is asked with the same `tail` every time.
   */
  firstMention(id: Identifier, from: number, skip: (i: number) => boolean, tail = false): number {
    const entry = this.entry(id);
    const groups = this.lists(entry);
    const refers = (hay: Haystack, start: number) => referencedIn(id, hay, start, this.cwd) || (tail && foundIn(id, hay, start) && containsPathTail(hay.text, id.value, this.cwd));
    if (!groups) {
      for (let i = Math.max(0, from); i < this.texts.length; i++) if (!skip(i) && refers(this.hay(i), 0)) return i;
      return -1;
    }
    // Walk the groups' candidates together in item order, so the first match ends the walk.
    const at = groups.map((lists) => lowerBound(lists[0]!.items, from));
    for (;;) {
      let next = Infinity;
      let by = -1;
      for (let g = 0; g < groups.length; g++) {
        const lists = groups[g]!;
        const rarest = lists[0]!.items;
        let j = at[g]!;
        while (j < rarest.length && !inRest(lists, rarest[j]!)) j++;
        at[g] = j;
        if (j < rarest.length && rarest[j]! < next) {
          next = rarest[j]!;
          by = g;
        }
      }
      if (next === Infinity) return -1;
      // The rarest key's place in the item tells where the identifier may start.
      const slack = (entry.slack ??= groups.map((lists) => searchSlack(id, lists[0]!.key)))[by]!;
      const start = slack < 0 ? 0 : Math.max(0, groups[by]![0]!.offsets[at[by]!]! - slack);
      for (let g = 0; g < groups.length; g++) if (groups[g]![0]!.items[at[g]!] === next) at[g]!++;
      if (skip(next)) continue;
      const seen = entry.found?.find((f) => f === next + 1 || f === -(next + 1));
      const found = seen !== undefined ? seen > 0 : refers(this.hay(next), start);
      if (seen === undefined && (entry.found?.length ?? 0) < 32) (entry.found ??= []).push(found ? next + 1 : -(next + 1));
      if (found) return next;
    }
  }

  /** The first item from `from` on, not `skip`ped, whose user asks for an identifier like `id` again; -1 if none. */
  firstQuestion(id: Identifier, from: number, skip: (i: number) => boolean): number {
    const as = askedAs(id);
    if (as === null) return -1;
    let items = this.askers.get(as);
    if (!items) {
      this.questioners ??= this.texts
        .map((text, item) => ({ item, questions: asksAgain(this.roles[item]) ? questions(this.said[item] ?? text) : [] }))
        .filter((q) => q.questions.length > 0);
      items = this.questioners.filter((q) => asksFor(id, q.questions)).map((q) => q.item);
      this.askers.set(as, items);
    }
    for (let j = lowerBound(items, from); j < items.length; j++) if (!skip(items[j]!)) return items[j]!;
    return -1;
  }

  /**
   * The items `among` the wanted ones that hold `id` (as `foundIn` reads it), ascending: looked up by its keys. Every
   * wanted item lies in [from, to): only that stretch of the key's items is read (a common key's list runs the whole
   * session, and a compaction asks about the items before it, or after it).
   */
  indicesHolding(id: Identifier, among: (i: number) => boolean, from = 0, to = this.texts.length): number[] {
    const groups = this.lists(this.entry(id));
    to = Math.min(to, this.texts.length);
    if (!groups) {
      const out: number[] = [];
      for (let i = Math.max(0, from); i < to; i++) if (among(i) && foundIn(id, this.hay(i))) out.push(i);
      return out;
    }
    // One group's candidates are ascending and distinct already (most identifiers have one); several may share items.
    // As in `firstMention`, the rarest key's place in the item tells where the identifier may start.
    const entry = this.entry(id);
    const slacks = (entry.slack ??= groups.map((lists) => searchSlack(id, lists[0]!.key)));
    const out: number[] = [];
    groups.forEach((lists, g) => {
      const { items, offsets } = lists[0]!;
      const slack = slacks[g]!;
      for (let j = lowerBound(items, from); j < items.length; j++) {
        const i = items[j]!;
        if (i >= to) break;
        if (among(i) && inRest(lists, i) && foundIn(id, this.hay(i), slack < 0 ? 0 : Math.max(0, offsets[j]! - slack))) out.push(i);
      }
    });
    return groups.length === 1 ? out : [...new Set(out)].sort((a, b) => a - b);
  }

  /** The first of `indicesHolding(id, among, from)`, or -1: the look-up ends there, as a walk of later items asks. */
  firstHolding(id: Identifier, among: (i: number) => boolean, from = 0): number {
    const groups = this.lists(this.entry(id));
    if (!groups) {
      for (let i = Math.max(0, from); i < this.texts.length; i++) if (among(i) && foundIn(id, this.hay(i))) return i;
      return -1;
    }
    const entry = this.entry(id);
    const slacks = (entry.slack ??= groups.map((lists) => searchSlack(id, lists[0]!.key)));
    let first = -1;
    groups.forEach((lists, g) => {
      const { items, offsets } = lists[0]!;
      const slack = slacks[g]!;
      for (let j = lowerBound(items, from); j < items.length; j++) {
        const i = items[j]!;
        if (first >= 0 && i >= first) break;
        if (among(i) && inRest(lists, i) && foundIn(id, this.hay(i), slack < 0 ? 0 : Math.max(0, offsets[j]! - slack))) {
          first = i;
          break;
        }
      }
    });
    return first;
  }

  /** Does an item in [from, to) that is `among` the wanted ones, and holds the keys of one of the groups, pass `test`? */
  some(groups: MentionKeys, among: (i: number) => boolean, test: (hay: Haystack) => boolean, from = 0, to = this.texts.length): boolean {
    for (const i of this.candidates(groups, from, to)) if (among(i) && test(this.hay(i))) return true;
    return false;
  }

  /** The items in [from, to) `among` the wanted ones that hold the keys of one of the groups, each once, ascending. */
  holding(groups: MentionKeys, among: (i: number) => boolean, from = 0, to = this.texts.length): Haystack[] {
    const found = new Set<number>();
    for (const i of this.candidates(groups, from, to)) if (among(i)) found.add(i);
    return [...found].sort((a, b) => a - b).map((i) => this.hay(i));
  }
}
