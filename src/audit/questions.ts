// A later question that asks for a fact of some kind again ("Which port again?") shows the fact was needed,
// even when the question does not repeat it.
import type { Identifier, IdentifierKind } from './identifiers';

// What a later question names when it asks for an identifier of that kind.
const ASKS_FOR: Partial<Record<IdentifierKind, RegExp>> = {
  'host-port': /\b(?:hosts?|hostnames?|servers?|ports?)\b/i,
  host: /\b(?:hosts?|hostnames?|servers?)\b/i,
  port: /\bports?\b/i,
  path: /\b(?:files?|paths?|director(?:y|ies)|folders?)\b/i,
  url: /\b(?:urls?|links?|endpoints?)\b/i,
  email: /\be-?mails?\b/i,
  ticket: /\b(?:tickets?|issues?|jira)\b/i,
  'order-id': /\b(?:order (?:number|id|no)|order ?#|rma|serial(?: number)?)\b/i,
  uuid: /\b(?:uuids?|guids?)\b/i,
  hash: /\b(?:hash|sha|commit|checksum)\b/i,
  version: /\bversions?\b/i,
  function: /\b(?:functions?|methods?)\b/i,
  date: /\b(?:date|which day|what day)\b/i,
};

/**
 * A question that names only a kind ("which URL was it?") picks out a lost value only when the compaction lost few
 * of that kind: among fifty lost URLs it does not say which one was needed.
 */
export const MAX_ASKED_ALIKE = 3;

/** For each `askedAs` answer, how many of these identifiers share it; `pickable` tells one a kind question can pick. */
export function askedAlike(ids: readonly Identifier[]): (id: Identifier) => boolean {
  const counts = new Map<string, number>();
  for (const id of ids) {
    const as = askedAs(id);
    if (as) counts.set(as, (counts.get(as) ?? 0) + 1);
  }
  return (id) => {
    const as = askedAs(id);
    return as !== null && (counts.get(as) ?? 0) <= MAX_ASKED_ALIKE;
  };
}

const SETTING_NAME = /^([a-z][a-z0-9]*(?:_[a-z0-9]+)+)/;

/** Sentences ending in `?`. Split first: a `[^.!?]*\?` scan is quadratic on long lines without a `?`. */
export const questions = (text: string): string[] =>
  text.includes('?') ? text.split(/(?<=[.!?\n])/).filter((q) => q.trimEnd().endsWith('?')) : [];

/** Only a user asks for a fact again; an assistant's rhetorical question does not count. */
export const asksAgain = (role: string | undefined): boolean => role === undefined || role === 'user';

/**
 * What `asksFor` reads of an identifier: identifiers with the same answer here get the same answer from it
 * (its kind, or a quantity's setting name); null when no question asks for it.
 */
export function askedAs(id: Identifier): string | null {
  if (id.kind === 'quantity') {
    const setting = SETTING_NAME.exec(id.value);
    return setting ? `quantity:${setting[1]}` : null;
  }
  return ASKS_FOR[id.kind] ? id.kind : null;
}

/** Does one of the questions `qs` ask for an identifier like `id` (by kind, or by a setting's name)? */
export function asksFor(id: Identifier, qs: string[]): boolean {
  if (qs.length === 0) return false;
  if (id.kind === 'quantity') {
    const setting = SETTING_NAME.exec(id.value);
    if (!setting) return false;
    const name = new RegExp(`\\b${setting[1]!.split('_').join('[\\s_-]*')}\\b`, 'i');
    return qs.some((q) => name.test(q));
  }
  const re = ASKS_FOR[id.kind];
  return re !== undefined && qs.some((q) => asksWhich(q, re));
}

/**
 * Does the question ask which one a thing of this kind is — "which port again?", "what was the URL?", "where is
 * that file?", "the ticket again?" — rather than something about things of that kind: "how many endpoints have
 * tokens?", "do the files compile?" asks about the work, not for a value the summary dropped.
 */
function asksWhich(q: string, kind: RegExp): boolean {
  const global = new RegExp(kind.source, 'gi');
  for (let m = global.exec(q); m; m = global.exec(q)) {
    // The kind's noun, within four words after an interrogative that asks for identity.
    const before = q.slice(0, m.index).split(/\s+/).filter(Boolean).slice(-5).join(' ');
    if (/\b(?:which|what|where)\b/i.test(before) && !/\bhow\s+(?:many|much)\b/i.test(before)) return true;
    if (/^\W*again\b/i.test(q.slice(m.index + m[0].length))) return true;
  }
  return false;
}
