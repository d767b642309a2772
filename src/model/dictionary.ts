// Plain objects used as dictionaries of keys that come from the input (record types, roles, argument names).
// Reads see own properties only and writes define own properties, so `constructor`, `toString` or `__proto__`
// are keys like any other: a read never returns Object.prototype's function, a write never sets a prototype.
// New code keyed by input data uses a Map; these are for the dictionaries the model keeps as plain objects
// (Session.skipped, Item.meta), which cross workers and JSON as they are.

/** The key's own value, undefined when the dictionary has no such own key. */
export function own<T>(dict: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(dict, key) ? dict[key] : undefined;
}

/** Sets an own property, also for `__proto__` (a plain assignment would replace the prototype). */
export function setOwn<T>(dict: Record<string, T>, key: string, value: T): void {
  // Only `__proto__` has a setter on the prototype; every other inherited property is writable data, which an
  // assignment shadows with an own one. An assignment costs a fraction of a definition (the audit sets thousands).
  if (key !== '__proto__') dict[key] = value;
  else Object.defineProperty(dict, key, { value, writable: true, enumerable: true, configurable: true });
}

/** Adds one to the count under `key`. */
export function countKey(counts: Record<string, number>, key: string): void {
  setOwn(counts, key, (own(counts, key) ?? 0) + 1);
}
