// What the cache compares: each call's prompt as a list of units (tool schemas, then items), each
// with a content hash and a token count computed once and reused across calls.
import type { CallContext } from '../analysis/context-types';
import type { Item } from '../model/types';

/** One comparable piece of a prompt: the tool schemas or one item. */
export interface PromptUnit {
  /** Item id, or `@tools` for the tool schemas. */
  id: string;
  /** The item, null for the tool schemas. */
  item: Item | null;
  text: string;
  /** A breakpoint on it asks for the 1-hour cache (`meta.cacheTtl`). */
  oneHour?: boolean;
}

export const TOOLS_UNIT_ID = '@tools';

/** `role:kind[:name][#callId]` + newline. The header is part of the serialization that gets counted. */
export function itemHeader(item: Item): string {
  return `${item.role}:${item.kind}${item.name ? `:${item.name}` : ''}${item.callId ? `#${item.callId}` : ''}\n`;
}

/** The canonical serialization of an item: header + text. Tokens are counted on this. */
export function serializeItem(item: Item): string {
  return itemHeader(item) + item.text;
}

/** The units of a call in prompt order: tool schemas first (Anthropic and OpenAI put them before messages). */
export function unitsOf(call: CallContext): PromptUnit[] {
  const units: PromptUnit[] = [];
  if (call.tools != null && call.tools !== '') units.push({ id: TOOLS_UNIT_ID, item: null, text: call.tools });
  for (const e of call.entries) units.push(unitOf(e.item));
  return units;
}

// One unit per item object: a replayed transcript sends the same items call after call.
const units = new WeakMap<Item, PromptUnit>();
export function unitOf(item: Item): PromptUnit {
  let u = units.get(item);
  if (!u) units.set(item, (u = { id: item.id, item, text: item.text, oneHour: item.meta?.['cacheTtl'] === '1h' }));
  return u;
}

/** Everything about a unit except its text that goes on the wire: role, kind, name, call id. */
export function headerOf(u: PromptUnit): string {
  return u.item ? itemHeader(u.item) : 'tools\n';
}

export function serializeUnit(u: PromptUnit): string {
  return headerOf(u) + u.text;
}

/** The two halves of a cyrb53 state as `mixInto` leaves them (int32). */
const halves = new Int32Array(2);

/** Feeds a string to the cyrb53 state in `halves`: a loop of its own, so the optimizing compiler sees only int32s. */
function mixInto(s: string): void {
  let h1 = halves[0]!;
  let h2 = halves[1]!;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  halves[0] = h1;
  halves[1] = h2;
}

/**
 * cyrb53 over header then text, without building the concatenated string. The loop and the 53-bit result are
 * worked out apart: in one function the optimized code bailed out at the result on every call ("lost precision",
 * ~840 deoptimizations on four 3 MB sessions), back to the interpreter for each unit's loop.
 */
export function hashUnit(header: string, text: string): number {
  halves[0] = 0xdeadbeef;
  halves[1] = 0x41c6ce57;
  mixInto(header);
  mixInto(text);
  return finish(halves[0]!, halves[1]!);
}

function finish(a: number, b: number): number {
  const h1 = Math.imul(a ^ (a >>> 16), 2246822507) ^ Math.imul(b ^ (b >>> 13), 3266489909);
  const h2 = Math.imul(b ^ (b >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

export interface UnitDigest {
  hash: number;
  /** Length of header + text, a cheap second check before comparing strings. */
  length: number;
  /** count(serializeUnit(unit)). */
  tokens: number;
}

/**
 * Digests per item object and token counts per distinct content, so a request log whose calls
 * repeat the same items hashes and counts each content once.
 */
export class DigestCache {
  private readonly byItem = new WeakMap<Item, UnitDigest>();
  private readonly byTools = new Map<string, UnitDigest>();
  /** Tokens by content, keyed by hash; a second length under one hash goes to `byHashAndLength`. */
  private readonly tokensByHash = new Map<number, { length: number; tokens: number }>();
  private readonly byHashAndLength = new Map<string, number>();
  constructor(private readonly count: (text: string) => number) {}

  /**
   * Digest of a unit. `alignedUnit` is the unit at the same position in the previous call, with its
   * digest: when its content is the same, its digest is reused without hashing again.
   */
  digest(u: PromptUnit, alignedUnit?: PromptUnit, alignedDigest?: UnitDigest): UnitDigest {
    // Consecutive calls mostly repeat the previous prompt in place: one string comparison, no hashing.
    if (alignedUnit && alignedDigest && sameContent(alignedUnit, u)) return alignedDigest;
    const cached = u.item ? this.byItem.get(u.item) : this.byTools.get(u.text);
    if (cached) return cached;
    const header = headerOf(u);
    const hash = hashUnit(header, u.text);
    const length = header.length + u.text.length;
    // Equal hash and length are the same content (a number key: a string key per unit cost a long session more
    // than the hashing).
    const known = this.tokensByHash.get(hash);
    let tokens = known === undefined ? undefined : known.length === length ? known.tokens : this.byHashAndLength.get(`${hash}:${length}`);
    if (tokens === undefined) {
      // Header and text apart: the text's count is the one every other pass already asked the (memoized) counter
      // for, so a session's text is tokenized once. The header ends in a newline, so the sum is the whole's count
      // for a word counter, and at most a token off for a BPE one.
      tokens = this.countText(header) + this.countText(u.text);
      if (known === undefined) this.tokensByHash.set(hash, { length, tokens });
      else this.byHashAndLength.set(`${hash}:${length}`, tokens);
    }
    const d = { hash, length, tokens };
    if (u.item) this.byItem.set(u.item, d);
    else this.byTools.set(u.text, d);
    return d;
  }

  countText(text: string): number {
    return this.count(text);
  }
}

/** Same header and text; string comparison stops at the first difference. */
export function sameContent(a: PromptUnit, b: PromptUnit): boolean {
  if (a.text !== b.text) return false;
  const x = a.item;
  const y = b.item;
  if (x === y) return true;
  return !!x && !!y && x.role === y.role && x.kind === y.kind && (x.name ?? '') === (y.name ?? '') && (x.callId ?? '') === (y.callId ?? '');
}

/** Same unit: hashes first (cheap, cached), strings only to rule out a collision. */
export function sameUnit(a: PromptUnit, da: UnitDigest, b: PromptUnit, db: UnitDigest): boolean {
  // A digest object is only ever shared by units with the same content (same item, reused when aligned, or same tools text).
  if (da === db) return true;
  return da.hash === db.hash && da.length === db.length && sameContent(a, b);
}
