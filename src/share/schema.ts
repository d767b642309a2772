// Strict readers for untrusted JSON (decoded links, bundles): every field is narrowed, never cast.
// A reader throws `Invalid` deep inside a schema; `validate` turns it into a value at the edge,
// so the public decoders never throw and the first problem comes back with the path where it was found.
import { isObject, get, type JsonObject } from '../model/narrow';

export type Result<T> = { ok: true; value: T } | { ok: false; error: string };

export class Invalid extends Error {
  constructor(
    readonly at: string,
    readonly reason: string,
  ) {
    super(at ? `${at}: ${reason}` : reason);
  }
}

/** Runs a schema reader; any failure, expected or not, becomes `{ok:false}`. */
export function validate<T>(read: () => T): Result<T> {
  try {
    return { ok: true, value: read() };
  } catch (e) {
    if (e instanceof Invalid) return { ok: false, error: e.message };
    // A reader bug or an engine limit (e.g. stack depth) must still not escape a decoder.
    return { ok: false, error: `unreadable: ${e instanceof Error ? e.message : String(e)}` };
  }
}

export function fail(at: string, reason: string): never {
  throw new Invalid(at, reason);
}

/** Keys that would reach prototypes if some later code merged the object naively. */
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/** An object without prototype-reaching keys (any other keys allowed). */
export function plainObject(v: unknown, at: string): JsonObject {
  if (!isObject(v)) return fail(at, `expected an object, got ${typeName(v)}`);
  for (const key of Object.keys(v)) if (FORBIDDEN_KEYS.has(key)) fail(at, `forbidden key "${key}"`);
  return v;
}

/** An object with only the `allowed` keys (own keys; forbidden keys named as such). */
export function record(v: unknown, at: string, allowed: readonly string[]): JsonObject {
  const o = plainObject(v, at);
  for (const key of Object.keys(o)) if (!allowed.includes(key)) fail(at, `unknown field "${clip(key)}"`);
  return o;
}

export interface StringRule {
  max: number;
  min?: number;
  /** Letters, digits and punctuation only: no control characters (ids, tags, names). */
  plain?: boolean;
  pattern?: RegExp;
  /** What the pattern means, for the message. */
  patternName?: string;
}

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

export function string(v: unknown, at: string, rule: StringRule): string {
  if (typeof v !== 'string') return fail(at, `expected a string, got ${typeName(v)}`);
  if (v.length > rule.max) fail(at, `string of ${v.length} characters is over the ${rule.max}-character limit`);
  if (v.length < (rule.min ?? 0)) fail(at, rule.min === 1 ? 'must not be empty' : `must have at least ${rule.min} characters`);
  if (rule.plain && CONTROL.test(v)) fail(at, 'must not contain control characters');
  if (rule.pattern && !rule.pattern.test(v)) fail(at, `is not ${rule.patternName ?? `in the form ${rule.pattern.source}`}`);
  return v;
}

export function integer(v: unknown, at: string, min: number, max: number): number {
  if (typeof v !== 'number' || !Number.isInteger(v)) return fail(at, `expected an integer, got ${typeName(v)}`);
  if (v < min || v > max) fail(at, `${v} is outside ${min}..${max}`);
  return v;
}

export function oneOf<T extends string>(v: unknown, at: string, values: readonly T[]): T {
  const found = values.find((x) => x === v);
  if (found === undefined) fail(at, `expected one of ${values.map((x) => `"${x}"`).join(', ')}, got ${typeof v === 'string' ? `"${clip(v)}"` : typeName(v)}`);
  return found;
}

/** An array of at most `max` entries, each read by `item`. */
export function list<T>(v: unknown, at: string, max: number, item: (x: unknown, at: string) => T): T[] {
  if (!Array.isArray(v)) return fail(at, `expected an array, got ${typeName(v)}`);
  if (v.length > max) fail(at, `${v.length} entries is over the limit of ${max}`);
  return v.map((x, i) => item(x, `${at}[${i}]`));
}

export function field(o: JsonObject, key: string): unknown {
  return get(o, key);
}

/** ISO 8601 date-time with a zone, e.g. `2025-03-01T10:20:30.000Z`. */
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

export function timestamp(v: unknown, at: string): string {
  const s = string(v, at, { max: 40, pattern: ISO, patternName: 'an ISO 8601 date-time such as 2025-03-01T10:20:30Z' });
  if (!Number.isFinite(Date.parse(s))) fail(at, 'is not a real date');
  return s;
}

export function typeName(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'number' && !Number.isFinite(v)) return String(v);
  return typeof v === 'object' ? 'an object' : typeof v === 'string' ? 'a string' : typeof v;
}

function clip(s: string): string {
  return s.length > 40 ? `${s.slice(0, 40)}…` : s;
}
