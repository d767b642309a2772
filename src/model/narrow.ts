// Narrowing helpers for untrusted JSON: input arrives as `unknown` and is checked, never cast.

export type JsonObject = { readonly [key: string]: unknown };

export function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Own property only, so `__proto__` / `constructor` keys in input never reach the prototype chain. */
export function get(obj: JsonObject, key: string): unknown {
  return Object.prototype.hasOwnProperty.call(obj, key) ? obj[key] : undefined;
}

export function str(obj: JsonObject, key: string): string | undefined {
  const v = get(obj, key);
  return typeof v === 'string' ? v : undefined;
}

export function num(obj: JsonObject, key: string): number | undefined {
  const v = get(obj, key);
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

export function bool(obj: JsonObject, key: string): boolean | undefined {
  const v = get(obj, key);
  return typeof v === 'boolean' ? v : undefined;
}

export function arr(obj: JsonObject, key: string): unknown[] | undefined {
  const v = get(obj, key);
  return Array.isArray(v) ? v : undefined;
}

export function obj(o: JsonObject, key: string): JsonObject | undefined {
  const v = get(o, key);
  return isObject(v) ? v : undefined;
}

/** Reads a nested path such as `message.usage.input_tokens`. */
export function path(o: unknown, dotted: string): unknown {
  let cur: unknown = o;
  for (const key of dotted.split('.')) {
    if (!isObject(cur)) return undefined;
    cur = get(cur, key);
  }
  return cur;
}

export function numAt(o: unknown, dotted: string): number | null {
  const v = path(o, dotted);
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}

export function strAt(o: unknown, dotted: string): string | null {
  const v = path(o, dotted);
  return typeof v === 'string' ? v : null;
}

/** Stringifies tool arguments/outputs that may be objects, keeping strings as they are. */
export function asText(v: unknown): string {
  if (typeof v === 'string') return v;
  if (v === undefined || v === null) return '';
  try {
    return JSON.stringify(v);
  } catch {
    return String(v);
  }
}
