// Groups audited identifiers by kind, so a list of 90 lost values reads as "12 paths, 30 percentages, …".
import type { IdentifierKind } from './identifiers';

/** Kinds in the order a reader looks for them: where things live first, plain numbers last. */
export const KIND_ORDER: readonly IdentifierKind[] = [
  'host-port',
  'host',
  'port',
  'url',
  'email',
  'path',
  'ticket',
  'order-id',
  'uuid',
  'hash',
  'version',
  'date',
  'function',
  'quantity',
  'number',
];

export const KIND_LABELS: Record<IdentifierKind, string> = {
  'host-port': 'host:port',
  host: 'hosts',
  port: 'ports',
  url: 'URLs',
  email: 'emails',
  path: 'paths',
  ticket: 'tickets',
  'order-id': 'order ids',
  uuid: 'UUIDs',
  hash: 'hashes',
  version: 'versions',
  date: 'dates',
  function: 'functions',
  quantity: 'quantities',
  number: 'numbers',
};

const KIND_SINGULAR: Record<IdentifierKind, string> = {
  'host-port': 'host:port',
  host: 'host',
  port: 'port',
  url: 'URL',
  email: 'email',
  path: 'path',
  ticket: 'ticket',
  'order-id': 'order id',
  uuid: 'UUID',
  hash: 'hash',
  version: 'version',
  date: 'date',
  function: 'function',
  quantity: 'quantity',
  number: 'number',
};

/** The kind's name for a count: `1 path`, `3 paths`, `2 host:port`. */
export function kindName(kind: IdentifierKind | 'other', count = 1): string {
  if (kind === 'other') return 'other';
  return count === 1 ? KIND_SINGULAR[kind] : KIND_LABELS[kind];
}

export interface KindGroup {
  kind: IdentifierKind | 'other';
  label: string;
  /** Values in the order they were given. */
  values: string[];
}

/** Values grouped by their kind, groups in KIND_ORDER, values of no known kind last under `other`. */
export function groupByKind(values: readonly string[], kinds: Readonly<Record<string, IdentifierKind>>): KindGroup[] {
  const byKind = new Map<IdentifierKind | 'other', string[]>();
  for (const v of values) {
    const k = Object.hasOwn(kinds, v) ? kinds[v]! : 'other';
    const list = byKind.get(k);
    if (list) list.push(v);
    else byKind.set(k, [v]);
  }
  const order: (IdentifierKind | 'other')[] = [...KIND_ORDER, 'other'];
  return order.filter((k) => byKind.has(k)).map((k) => ({ kind: k, label: k === 'other' ? 'other' : KIND_LABELS[k], values: byKind.get(k)! }));
}
