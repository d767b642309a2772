// Reference implementation of the common prefix, kept deliberately plain to check the fast one
// (prefix.ts) against and to measure it by.
//
// `count` only returns a number, so there are no token ids to compare. Instead this serializes both
// whole prompts, walks them character by character to the first difference, and counts the tokens
// of what precedes it. Item boundaries are token boundaries in every chat template (special tokens
// separate messages), so the common prefix is counted item by item: every item wholly before the
// difference, plus the shared start of the item it falls in. Nothing is cached or hashed; every call
// re-serializes and re-counts everything — that is the cost the fast version avoids.
import type { CallContext } from '../analysis/context-types';
import { headerOf, serializeUnit, unitsOf, type PromptUnit } from './item-hash';

export interface NaivePrefix {
  /** Tokens of the common prefix (no unseen prefix, no rounding). */
  prefixTokens: number;
  /** Unit position (tool schemas first, then entries) of the first difference; null when `previous` is a prefix of `current`. */
  unitIndex: number | null;
  /** Character offset of the first difference inside that unit's serialization (header + text). */
  serialOffset: number | null;
}

interface Flat {
  text: string;
  /** starts[j] = offset where unit j begins; a final entry = total length. */
  starts: number[];
  /** isBoundary[i] = 1 when a unit begins (or the prompt ends) at offset i. */
  isBoundary: Uint8Array;
  units: PromptUnit[];
}

function flatten(call: CallContext): Flat {
  const units = unitsOf(call);
  const parts = units.map(serializeUnit);
  const starts: number[] = [];
  let at = 0;
  for (const p of parts) {
    starts.push(at);
    at += p.length;
  }
  starts.push(at);
  const isBoundary = new Uint8Array(at + 1);
  for (const s of starts) isBoundary[s] = 1;
  return { text: parts.join(''), starts, isBoundary, units };
}

/** Common prefix of two calls' prompts, the slow and obvious way. */
export function naivePrefix(previous: CallContext, current: CallContext, count: (text: string) => number): NaivePrefix {
  const a = flatten(previous);
  const b = flatten(current);
  // A difference is a different character, or a unit ending in one prompt where it goes on in the other.
  let i = 0;
  const n = Math.min(a.text.length, b.text.length);
  while (i < n && a.isBoundary[i] === b.isBoundary[i] && a.text.charCodeAt(i) === b.text.charCodeAt(i)) i++;
  const diverged = !(i === a.text.length && b.isBoundary[i] === 1);

  // Units wholly before i: every unit end below i, and one ending at i when it ends there in both.
  // (Serializations are never empty, so offset 0 is never an end.)
  let k = 0;
  while (k + 1 < a.starts.length && a.starts[k + 1]! < i) k++;
  if (i > 0 && a.isBoundary[i] === 1 && b.isBoundary[i] === 1) k++;
  if (!diverged) k = a.starts.length - 1;

  let tokens = 0;
  // A whole unit counts as its header plus its text, as the fast version counts it.
  for (let j = 0; j < k; j++) tokens += count(headerOf(b.units[j]!)) + count(b.units[j]!.text);
  const unitsB = b.starts.length - 1;
  if (diverged && k < unitsB && i > b.starts[k]!) tokens += count(b.text.slice(b.starts[k]!, i));
  return { prefixTokens: tokens, unitIndex: diverged ? k : null, serialOffset: diverged ? i - a.starts[k]! : null };
}
