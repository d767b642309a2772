// Notes and tags a user pins to an item, a call, a range of calls or a run of items. Pure list
// operations (the store keeps the list; these return a new one) plus the strict schema reader used
// by links and bundles. Calls are 1-based, as in ViewState.
import { LIMITS } from './limits';
import { fail, field, integer, list, oneOf, plainObject, record, string, timestamp, validate, type Result } from './schema';

export type AnnotationTarget =
  | { kind: 'item'; itemId: string }
  | { kind: 'call'; call: number }
  | { kind: 'range'; fromCall: number; toCall: number }
  | { kind: 'item-range'; fromItemId: string; toItemId: string };

export type TargetKind = AnnotationTarget['kind'];
export const TARGET_KINDS: readonly TargetKind[] = ['item', 'call', 'range', 'item-range'];

export interface Annotation {
  id: string;
  target: AnnotationTarget;
  note: string;
  /** Free text such as "lost fact" or "good summary"; trimmed, unique ignoring case. */
  tags: string[];
  author?: string;
  /** ISO 8601 date-times. */
  createdAt: string;
  updatedAt: string;
}

export interface AnnotationDraft {
  target: AnnotationTarget;
  note: string;
  tags?: readonly string[];
  author?: string;
}

export interface AnnotationPatch {
  target?: AnnotationTarget;
  note?: string;
  tags?: readonly string[];
  /** `null` removes the author. */
  author?: string | null;
}

/** Suggested tags for the editor; users may type any other. */
export const SUGGESTED_TAGS: readonly string[] = ['lost fact', 'good summary', 'bad summary', 'cache break', 'question'];

/**
 * Trimmed, inner whitespace collapsed, empty ones dropped, duplicates (ignoring case) dropped, first
 * spelling kept; clipped to the link limits (LIMITS.tags tags of LIMITS.tagChars characters) so a
 * shared note never fails on its tags.
 */
export function normalizeTags(tags: readonly string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const raw of tags) {
    if (out.length >= LIMITS.tags) break;
    // eslint-disable-next-line no-control-regex
    const t = raw.replace(/[\s\u0000-\u001f\u007f-\u009f]+/g, ' ').trim().slice(0, LIMITS.tagChars).trim();
    const key = t.toLowerCase();
    if (!t || seen.has(key)) continue;
    seen.add(key);
    out.push(t);
  }
  return out;
}

/** Ranges are stored in order; a backwards range (selected bottom-up) is flipped. */
export function normalizeTarget(t: AnnotationTarget): AnnotationTarget {
  switch (t.kind) {
    case 'item':
      return { kind: 'item', itemId: t.itemId };
    case 'call':
      return { kind: 'call', call: t.call };
    case 'range':
      return t.fromCall <= t.toCall ? { kind: 'range', fromCall: t.fromCall, toCall: t.toCall } : { kind: 'range', fromCall: t.toCall, toCall: t.fromCall };
    case 'item-range':
      return { kind: 'item-range', fromItemId: t.fromItemId, toItemId: t.toItemId };
  }
}

/** `a<N+1>` where N is the highest `a<number>` id in the list, so ids never repeat after deletes. */
export function nextAnnotationId(list: readonly Annotation[]): string {
  let max = 0;
  for (const a of list) {
    const m = /^a(\d+)$/.exec(a.id);
    if (m) max = Math.max(max, Number(m[1]));
  }
  return `a${max + 1}`;
}

export interface Clock {
  /** ISO 8601 now, e.g. `new Date().toISOString()`. */
  now: string;
  /** Id to use; defaults to `nextAnnotationId(list)`. */
  id?: string;
}

export function addAnnotation(list: readonly Annotation[], draft: AnnotationDraft, clock: Clock): Annotation[] {
  const a: Annotation = {
    id: clock.id ?? nextAnnotationId(list),
    target: normalizeTarget(draft.target),
    note: draft.note,
    tags: normalizeTags(draft.tags ?? []),
    createdAt: clock.now,
    updatedAt: clock.now,
  };
  const author = draft.author?.trim();
  if (author) a.author = author;
  return [...list, a];
}

/** The list with annotation `id` changed; the same list when there is no such id. */
export function editAnnotation(list: readonly Annotation[], id: string, patch: AnnotationPatch, now: string): Annotation[] {
  if (!list.some((a) => a.id === id)) return [...list];
  return list.map((a) => {
    if (a.id !== id) return a;
    const next: Annotation = {
      ...a,
      target: patch.target ? normalizeTarget(patch.target) : a.target,
      note: patch.note ?? a.note,
      tags: patch.tags ? normalizeTags(patch.tags) : a.tags,
      updatedAt: now,
    };
    if (patch.author === null || (typeof patch.author === 'string' && !patch.author.trim())) delete next.author;
    else if (typeof patch.author === 'string') next.author = patch.author.trim();
    return next;
  });
}

export function deleteAnnotation(list: readonly Annotation[], id: string): Annotation[] {
  return list.filter((a) => a.id !== id);
}

/**
 * Where a target sits in the session, for ordering: calls and ranges by their (first) call; item
 * targets through `position`, which the app supplies (e.g. the first call holding the item), since
 * the engine's item order lives in the session, not here. Unplaced targets go last.
 */
export function targetAnchor(t: AnnotationTarget, position?: (itemId: string) => number | undefined): number | undefined {
  switch (t.kind) {
    case 'call':
      return t.call;
    case 'range':
      return Math.min(t.fromCall, t.toCall);
    case 'item':
      return position?.(t.itemId);
    case 'item-range':
      return position?.(t.fromItemId);
  }
}

/** Session order (see `targetAnchor`), then creation time, then id: a stable order for the panel. */
export function sortAnnotations(list: readonly Annotation[], position?: (itemId: string) => number | undefined): Annotation[] {
  const keyed = list.map((a) => ({ a, anchor: targetAnchor(a.target, position) }));
  keyed.sort((x, y) => {
    const ax = x.anchor ?? Number.POSITIVE_INFINITY;
    const ay = y.anchor ?? Number.POSITIVE_INFINITY;
    if (ax !== ay) return ax < ay ? -1 : 1;
    if (x.a.createdAt !== y.a.createdAt) return x.a.createdAt < y.a.createdAt ? -1 : 1;
    return x.a.id < y.a.id ? -1 : x.a.id > y.a.id ? 1 : 0;
  });
  return keyed.map((k) => k.a);
}

/** Annotations whose target touches call `call` (1-based): the call itself or a range around it. */
export function annotationsOnCall(list: readonly Annotation[], call: number): Annotation[] {
  return list.filter((a) => (a.target.kind === 'call' && a.target.call === call) || (a.target.kind === 'range' && a.target.fromCall <= call && call <= a.target.toCall));
}

/** Annotations that name item `itemId`, alone or as an end of an item run. */
export function annotationsOnItem(list: readonly Annotation[], itemId: string): Annotation[] {
  return list.filter((a) => (a.target.kind === 'item' && a.target.itemId === itemId) || (a.target.kind === 'item-range' && (a.target.fromItemId === itemId || a.target.toItemId === itemId)));
}

/** Every tag in use, most used first, for the tag picker. */
export function tagsInUse(list: readonly Annotation[]): string[] {
  const counts = new Map<string, { tag: string; n: number }>();
  for (const a of list) {
    for (const t of a.tags) {
      const k = t.toLowerCase();
      const c = counts.get(k);
      if (c) c.n++;
      else counts.set(k, { tag: t, n: 1 });
    }
  }
  return [...counts.values()].sort((x, y) => y.n - x.n || x.tag.localeCompare(y.tag)).map((c) => c.tag);
}

/**
 * One line naming the target: "Item m3", "Call 4", "Calls 4–7", "Items m3–m9". `label` may give an
 * item a friendlier name (e.g. "m3 (user)").
 */
export function describeTarget(t: AnnotationTarget, label?: (itemId: string) => string | undefined): string {
  const item = (id: string) => oneLine(label?.(id) ?? id);
  switch (t.kind) {
    case 'item':
      return `Item ${item(t.itemId)}`;
    case 'call':
      return `Call ${t.call}`;
    case 'range':
      return t.fromCall === t.toCall ? `Call ${t.fromCall}` : `Calls ${t.fromCall}–${t.toCall}`;
    case 'item-range':
      return t.fromItemId === t.toItemId ? `Item ${item(t.fromItemId)}` : `Items ${item(t.fromItemId)}–${item(t.toItemId)}`;
  }
}

function oneLine(s: string): string {
  const flat = s.replace(/\s+/g, ' ').trim();
  return flat.length > 60 ? `${flat.slice(0, 60)}…` : flat;
}

// --- schema (untrusted input from links and bundles) ---

const ID = { min: 1, max: LIMITS.idChars, plain: true } as const;

function readTarget(v: unknown, at: string): AnnotationTarget {
  // The kind first, so an unknown kind is named as such rather than as an unknown field.
  const kind = oneOf(field(plainObject(v, at), 'kind'), `${at}.kind`, TARGET_KINDS);
  switch (kind) {
    case 'item': {
      const o = record(v, at, ['kind', 'itemId']);
      return { kind, itemId: string(field(o, 'itemId'), `${at}.itemId`, ID) };
    }
    case 'call': {
      const o = record(v, at, ['kind', 'call']);
      return { kind, call: integer(field(o, 'call'), `${at}.call`, 1, LIMITS.call) };
    }
    case 'range': {
      const o = record(v, at, ['kind', 'fromCall', 'toCall']);
      const fromCall = integer(field(o, 'fromCall'), `${at}.fromCall`, 1, LIMITS.call);
      const toCall = integer(field(o, 'toCall'), `${at}.toCall`, 1, LIMITS.call);
      if (fromCall > toCall) fail(at, `range starts after it ends (${fromCall} > ${toCall})`);
      return { kind, fromCall, toCall };
    }
    case 'item-range': {
      const o = record(v, at, ['kind', 'fromItemId', 'toItemId']);
      return { kind, fromItemId: string(field(o, 'fromItemId'), `${at}.fromItemId`, ID), toItemId: string(field(o, 'toItemId'), `${at}.toItemId`, ID) };
    }
  }
}

export function readAnnotation(v: unknown, at: string): Annotation {
  const o = record(v, at, ['id', 'target', 'note', 'tags', 'author', 'createdAt', 'updatedAt']);
  const a: Annotation = {
    id: string(field(o, 'id'), `${at}.id`, ID),
    target: readTarget(field(o, 'target'), `${at}.target`),
    note: string(field(o, 'note'), `${at}.note`, { max: LIMITS.noteChars }),
    tags: list(field(o, 'tags'), `${at}.tags`, LIMITS.tags, (t, p) => string(t, p, { min: 1, max: LIMITS.tagChars, plain: true })),
    createdAt: timestamp(field(o, 'createdAt'), `${at}.createdAt`),
    updatedAt: timestamp(field(o, 'updatedAt'), `${at}.updatedAt`),
  };
  const author = field(o, 'author');
  if (author !== undefined) a.author = string(author, `${at}.author`, { min: 1, max: LIMITS.authorChars, plain: true });
  return a;
}

/** A list of annotations with unique ids. */
export function readAnnotations(v: unknown, at: string): Annotation[] {
  const out = list(v, at, LIMITS.annotations, readAnnotation);
  const seen = new Set<string>();
  out.forEach((a, i) => {
    if (seen.has(a.id)) fail(`${at}[${i}].id`, `duplicate annotation id "${a.id}"`);
    seen.add(a.id);
  });
  return out;
}

export function parseAnnotations(v: unknown): Result<Annotation[]> {
  return validate(() => readAnnotations(v, 'annotations'));
}

/** The annotation with only its known fields, for writing: nothing else a caller attached rides along. */
export function annotationToJson(a: Annotation): Annotation {
  const out: Annotation = { id: a.id, target: normalizeTarget(a.target), note: a.note, tags: [...a.tags], createdAt: a.createdAt, updatedAt: a.updatedAt };
  if (a.author !== undefined) out.author = a.author;
  return out;
}
