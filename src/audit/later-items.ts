// A session's items as the "later" items of all its compactions at once. Each compaction asks, for each
// identifier its summary lost, for the first item after it that mentions the identifier or asks for one of
// its kind. Asked compaction by compaction over fresh copies of the later items, that re-read every later
// text once per compaction: quadratic in a session with thousands of compactions. Here every per-item
// result (lowercased text, identifiers, questions) is computed at most once, and the items that may
// mention an identifier come from one key index over the session (see key-index.ts, mention-keys.ts).
import type { Identifier } from './identifiers';
import { KeyIndex } from './key-index';
import { mentionKeys, type MentionKeys } from './mention-keys';
import { foundIn, haystack, type Haystack } from './normalize';
import { askedAs, asksAgain, asksFor, questions } from './questions';

/** First index of `sorted` whose value is at least `x`. */
function lowerBound(sorted: readonly number[], x: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid]! < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function has(sorted: readonly number[], x: number): boolean {
  const i = lowerBound(sorted, x);
  return i < sorted.length && sorted[i] === x;
}

export class LaterItems {
  private readonly hays: (Haystack | undefined)[] = [];
  private index: KeyIndex | null = null;
  private indexedFrom = Infinity;
  private readonly keysOf = new Map<string, MentionKeys>();
  /** Items (ascending) with a question that asks for identifiers `askedAs` names alike. */
  private readonly askers = new Map<string, number[]>();
  private questioners: { item: number; questions: string[] }[] | null = null;

  /** `texts[i]` and `roles[i]` are item i's audit text and role. */
  constructor(
    private readonly texts: readonly string[],
    private readonly roles: readonly (string | undefined)[],
  ) {}

  get length(): number {
    return this.texts.length;
  }

  hay(i: number): Haystack {
    return (this.hays[i] ??= haystack(this.texts[i]!));
  }

  private keys(id: Identifier): MentionKeys {
    const memo = `${id.kind}\u0000${id.value}`;
    let keys = this.keysOf.get(memo);
    if (keys === undefined) {
      keys = mentionKeys(id);
      this.keysOf.set(memo, keys);
    }
    return keys;
  }

  /**
   * Indexes items `from` on for the keys of `ids`; mention look-ups before `from` are not allowed after this.
   * Without it, look-ups read every later item.
   */
  prepare(ids: Iterable<Identifier>, from: number): void {
    const wanted = new Set<string>();
    for (const id of ids) for (const group of this.keys(id) ?? []) for (const key of group) wanted.add(key);
    this.index = new KeyIndex(wanted);
    this.indexedFrom = Math.max(0, from);
    for (let i = this.indexedFrom; i < this.texts.length; i++) this.index.add(i, this.texts[i]!);
  }

  /** The first item from `from` on, not `skip`ped, that mentions `id` (as `foundIn` reads it); -1 if none. */
  firstMention(id: Identifier, from: number, skip: (i: number) => boolean): number {
    const keys = this.index && from >= this.indexedFrom ? this.keys(id) : null;
    if (!keys || !this.index) {
      for (let i = Math.max(0, from); i < this.texts.length; i++) if (!skip(i) && foundIn(id, this.hay(i))) return i;
      return -1;
    }
    let best = -1;
    for (const group of keys) {
      const lists = group.map((k) => this.index!.postings(k)).sort((a, b) => a.length - b.length);
      const rarest = lists[0]!;
      for (let j = lowerBound(rarest, from); j < rarest.length; j++) {
        const i = rarest[j]!;
        if (best >= 0 && i >= best) break;
        if (skip(i) || !lists.every((list, k) => k === 0 || has(list, i))) continue;
        if (foundIn(id, this.hay(i))) {
          best = i;
          break;
        }
      }
    }
    return best;
  }

  /** The first item from `from` on, not `skip`ped, whose user asks for an identifier like `id` again; -1 if none. */
  firstQuestion(id: Identifier, from: number, skip: (i: number) => boolean): number {
    const as = askedAs(id);
    if (as === null) return -1;
    let items = this.askers.get(as);
    if (!items) {
      this.questioners ??= this.texts.flatMap((text, item) => (asksAgain(this.roles[item]) ? [{ item, questions: questions(text) }] : [])).filter((q) => q.questions.length > 0);
      items = this.questioners.filter((q) => asksFor(id, q.questions)).map((q) => q.item);
      this.askers.set(as, items);
    }
    for (let j = lowerBound(items, from); j < items.length; j++) if (!skip(items[j]!)) return items[j]!;
    return -1;
  }
}
