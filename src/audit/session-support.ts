// Is an identifier a summary wrote backed by what the summarizer read? `auditSummary` reads the evicted texts
// and the context texts joined with blank lines, so that a host in one item and its port in another still
// back `host:port`. On a long session that joined text is tens of megabytes per compaction; here the same
// answer comes from the session's items one by one, through the key index:
// - a look-up by text (a token, a URL, a number) finds a needle that never holds a blank line, and the
//   joined text reads an item's edges as the item's own start and end: the joined text holds it exactly
//   when one item does;
// - a look-up through the text's own identifiers (dates, quantities, phone numbers) reads the joined text's
//   identifiers, which are the items' identifiers unless a pattern matches across a join (`mayMatchAcross`);
//   when one might, the joined text is read as before;
// - `host:port` may be backed by its host in one item and its port in another, and a setting's words
//   (`pool` | `size: 20`) may run across a join: those look at the joined text when no single item backs them.
import type { Identifier } from './identifiers';
import { mayMatchAcross } from './identifiers';
import { digitKey } from './key-index';
import { isPhone, keysOf } from './later-index';
import type { MentionKeys } from './mention-keys';
import { containsNumber, containsToken, dateSupported, foundIn, haystack, parseDate, type Haystack } from './normalize';
import type { SessionItems } from './session-items';

/** What one compaction's summarizer read: the evicted items, then the context items, in order. */
export interface Support {
  items: SessionItems;
  /** Is item i one of the texts read (evicted or context)? */
  has(i: number): boolean;
  /** Every item `has` holds lies before this one (the session's length when not known). */
  end?: number;
  /** The texts read, evicted then context. */
  texts(): string[];
}

const SETTING = /^([a-z][a-z0-9]*(?:_[a-z0-9]+)+)["']?\s*[:=]?\s*([\d,.]+)$/;

function hostPort(v: string): { host: string; port: string } {
  const cut = v.lastIndexOf(':');
  return { host: v.slice(0, cut), port: v.slice(cut + 1) };
}

const hostKeys = (host: string): MentionKeys => {
  const keys = keysOf(host.toLowerCase());
  return keys.length > 0 ? [keys] : null;
};

/** Every key group `backedBy` may look items up by, for the session's key index. */
export function supportKeys(id: Identifier, keys: MentionKeys): string[][] {
  const out = [...(keys ?? [])];
  if (id.kind === 'date') {
    const year = parseDate(id.value)?.year;
    if (year !== undefined && year !== null) out.push([digitKey(String(year))]);
  }
  if (id.kind === 'host-port') {
    const { host, port } = hostPort(id.value);
    out.push(...(hostKeys(host) ?? []), [digitKey(port)]);
  }
  return out;
}

/**
 * `auditSummary`'s answer for an identifier of the summary: is it a date that `dateSupported` finds in the
 * joined texts, or an identifier `foundIn` finds there?
 */
export class SupportCheck {
  private joinedHay: Haystack | null = null;
  private seamless: boolean | null = null;

  constructor(private readonly support: Support) {}

  private joined(): Haystack {
    return (this.joinedHay ??= haystack(this.support.texts().join('\n\n')));
  }

  /** Are the joined texts' identifiers exactly the items' identifiers? */
  private itemsHoldJoinedIds(): boolean {
    return (this.seamless ??= !mayMatchAcross(this.support.texts()));
  }

  private any(keys: MentionKeys, test: (hay: Haystack) => boolean): boolean {
    return this.support.items.some(keys, (i) => this.support.has(i), test, 0, this.support.end);
  }

  backs(id: Identifier): boolean {
    const { items } = this.support;
    const keys = items.keys(id);
    const v = id.value;
    switch (id.kind) {
      case 'date': {
        const d = parseDate(v);
        if (!d || !this.itemsHoldJoinedIds()) return dateSupported(v, [this.joined()]);
        // Only items with a date on that day, or the year, can decide; the others add nothing.
        return dateSupported(v, items.holding(supportKeys(id, keys), (i) => this.support.has(i), 0, this.support.end));
      }
      case 'host-port': {
        const { host, port } = hostPort(v);
        const lowerHost = host.toLowerCase();
        return (
          this.any(keys, (h) => containsToken(h.lower, v.toLowerCase())) ||
          (this.any(hostKeys(host), (h) => containsToken(h.lower, lowerHost)) && this.any([[digitKey(port)]], (h) => containsNumber(h.text, port)))
        );
      }
      case 'quantity': {
        if (!this.itemsHoldJoinedIds()) return foundIn(id, this.joined());
        if (this.any(keys, (h) => foundIn(id, h))) return true;
        return SETTING.test(v) && foundIn(id, this.joined());
      }
      case 'number':
        // A phone number is also matched through the texts' own numbers.
        if (isPhone(v) && !this.itemsHoldJoinedIds()) return foundIn(id, this.joined());
        return this.any(keys, (h) => foundIn(id, h));
      default:
        return this.any(keys, (h) => foundIn(id, h));
    }
  }
}
