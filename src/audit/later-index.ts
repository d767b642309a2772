// Which later items could mention a lost identifier? On a long session the audit asks this for thousands of
// identifiers against thousands of later items; scanning every later text for each identifier made the audit
// of a 100 MB Claude Code session run for hours. This index of the words in the later items answers with the
// few items that hold every word the identifier's match rule needs; only those are checked with `foundIn`.
//
// Exactness: a "word" is a maximal run of [a-z0-9] in the lowercased text (also with thousands separators
// removed, as number look-ups read it); a "pair" is two words and the one character between them. For each kind, `requiredWords` lists only runs that every match of
// `foundIn` must show as whole words: runs inside the needle sit between its own separators, and runs at an
// edge count only where the rule checks that edge's boundary (a run the rule may find glued to other letters,
// like the first run of a URL or of a `v`-prefixed version, is left out). An item without one of those words
// cannot match, so the first matching candidate is the first matching item.
import type { Identifier } from './identifiers';
import { normalizeNumber, quantityKey, parseDate, withoutThousands } from './normalize';

const isWordChar = (c: number): boolean => (c >= 97 && c <= 122) || (c >= 48 && c <= 57);

/**
 * The keys of a lowercased text: its words (runs of [a-z0-9]), and each run of two or three words joined by the
 * one character between them (`pool_conn`, `db/pool_conn`), which narrows common words down to where they
 * stand together. `skipFirst` leaves out the first word and every pair or triple holding it.
 */
export function keysOf(lower: string, skipFirst = false): string[] {
  const keys: string[] = [];
  // The previous word, and the start of the word before it while the two are joined by one character.
  let prevStart = -1;
  let prevEnd = -1;
  let pairStart = -1;
  let first = true;
  const n = lower.length;
  let i = 0;
  while (i < n) {
    if (!isWordChar(lower.charCodeAt(i))) {
      i++;
      continue;
    }
    const start = i;
    while (i < n && isWordChar(lower.charCodeAt(i))) i++;
    if (first && skipFirst) {
      first = false;
      continue;
    }
    first = false;
    keys.push(lower.slice(start, i));
    if (prevEnd >= 0 && start === prevEnd + 1) {
      keys.push(lower.slice(prevStart, i));
      if (pairStart >= 0) keys.push(lower.slice(pairStart, i));
      pairStart = prevStart;
    } else pairStart = -1;
    prevStart = start;
    prevEnd = i;
  }
  return keys;
}

/**
 * The outermost of `keysOf`'s keys: in each run of words joined by single characters, its triples (or its pair,
 * or its word), which hold all its shorter keys. Some of `keysOf(lower, skipFirst)`, so an item holding them
 * holds every key they hold.
 */
export function outerKeysOf(lower: string, skipFirst = false): string[] {
  const keys: string[] = [];
  // The current run: where its words start, and where its last word ended.
  let starts: number[] = [];
  let end = -1;
  const close = () => {
    const m = starts.length;
    if (m >= 3) for (let k = 0; k + 2 < m; k++) keys.push(lower.slice(starts[k]!, k + 3 < m ? starts[k + 3]! - 1 : end));
    else if (m > 0) keys.push(lower.slice(starts[0]!, end));
  };
  let first = true;
  const n = lower.length;
  let i = 0;
  while (i < n) {
    if (!isWordChar(lower.charCodeAt(i))) {
      i++;
      continue;
    }
    const start = i;
    while (i < n && isWordChar(lower.charCodeAt(i))) i++;
    if (first && skipFirst) {
      first = false;
      continue;
    }
    first = false;
    if (end >= 0 && start === end + 1) starts.push(start);
    else {
      close();
      starts = [start];
    }
    end = i;
  }
  close();
  return keys;
}

export const isPhone = (value: string): boolean => /[\s()-]/.test(value.replace(/^\+/, '')) && value.replace(/\D/g, '').length >= 10;

/**
 * The keys every text that `foundIn` matches `id` in must contain (words and joined pairs of a part of the
 * needle whose runs the rule bounds); null when the rule guarantees none, and every item must be checked.
 * `read` gives the keys of that part (`outerKeysOf` for only the outermost ones).
 */
export function requiredWords(id: Identifier, read: (lower: string, skipFirst?: boolean) => string[] = keysOf): string[] | null {
  const v = id.value;
  const need = (keys: string[]) => (keys.length ? keys : null);
  switch (id.kind) {
    case 'host-port':
      // Both ways of matching need the host as a whole token.
      return need(read(v.slice(0, v.lastIndexOf(':')).toLowerCase()));
    case 'port':
      return need(read(String(Number(v))));
    case 'path': {
      // Every accepted suffix holds at least the last two segments.
      const parts = v.split('/');
      return need(read((parts.length >= 2 ? parts.slice(-2).join('/') : v).toLowerCase()));
    }
    case 'url':
      // No boundary is checked before a URL: its first run may be glued to what precedes it.
      return need(read(v.replace(/\/+$/, '').toLowerCase(), true));
    case 'function': {
      const name = v.replace(/\(\)$/, '');
      return need(read(name.slice(name.lastIndexOf('.') + 1).toLowerCase()));
    }
    case 'version':
      // `1.2` may be written `v1.2`: the first run may carry the `v`.
      return need(read(v.replace(/^v/i, '').toLowerCase(), true));
    case 'number':
      return isPhone(v) ? null : need(read(normalizeNumber(v).toLowerCase()));
    case 'quantity':
      // Matched by canonical key among the item's own identifiers: see `LaterIndex.quantityCandidates`.
      return null;
    case 'date':
      return parseDate(v) ? null : need(read(v.toLowerCase()));
    default:
      return need(read(v.toLowerCase()));
  }
}

/** A quantity written as a setting (`pool_size: 20`) is also matched by a pattern no word rule covers. */
function isSettingQuantity(v: string): boolean {
  return /^([a-z][a-z0-9]*(?:_[a-z0-9]+)+)["']?\s*[:=]?\s*([\d,.]+)$/.test(v);
}

function has(sorted: number[], x: number): boolean {
  let lo = 0;
  let hi = sorted.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const v = sorted[mid]!;
    if (v === x) return true;
    if (v < x) lo = mid + 1;
    else hi = mid - 1;
  }
  return false;
}

export class LaterIndex {
  private readonly postings = new Map<string, number[]>();
  private quantityKeys: Map<string, number[]> | null = null;
  private readonly count: number;

  /** `ids(i)` gives the identifiers of later item i (the haystack's own, extracted once). */
  constructor(
    texts: readonly string[],
    private readonly ids: (i: number) => Identifier[],
  ) {
    this.count = texts.length;
    texts.forEach((text, i) => {
      const lower = text.toLowerCase();
      this.addWords(lower, i);
      if (lower.includes(',')) {
        const plain = withoutThousands(lower);
        if (plain !== lower) this.addWords(plain, i);
      }
    });
  }

  private addWords(lower: string, i: number): void {
    for (const w of keysOf(lower)) {
      const list = this.postings.get(w);
      if (!list) this.postings.set(w, [i]);
      else if (list[list.length - 1] !== i) list.push(i);
    }
  }

  /** Indices of the later items that may mention `id`, ascending; null when every item must be checked. */
  candidates(id: Identifier): number[] | null {
    if (id.kind === 'quantity') return this.quantityCandidates(id);
    const required = requiredWords(id);
    return required ? this.withAll(required) : null;
  }

  private withAll(required: string[]): number[] {
    const lists = required.map((w) => this.postings.get(w) ?? []).sort((a, b) => a.length - b.length);
    // The rarest keys narrow enough; each list is ascending, so membership is a binary search.
    let out = lists[0] ?? [];
    for (const list of lists.slice(1, 4)) {
      if (out.length === 0) break;
      out = out.filter((i) => has(list, i));
    }
    return out;
  }

  /** A quantity matches by canonical key among an item's quantities, or as a whole token (never as a setting pattern here). */
  private quantityCandidates(id: Identifier): number[] | null {
    if (isSettingQuantity(id.value)) return null;
    if (!this.quantityKeys) {
      this.quantityKeys = new Map();
      for (let i = 0; i < this.count; i++) {
        for (const o of this.ids(i)) {
          if (o.kind !== 'quantity') continue;
          const key = quantityKey(o.value);
          const list = this.quantityKeys.get(key);
          if (!list) this.quantityKeys.set(key, [i]);
          else if (list[list.length - 1] !== i) list.push(i);
        }
      }
    }
    const byKey = this.quantityKeys.get(quantityKey(id.value)) ?? [];
    const byWords = this.withAll(keysOf(id.value.toLowerCase()));
    return [...new Set([...byKey, ...byWords])].sort((a, b) => a - b);
  }
}
