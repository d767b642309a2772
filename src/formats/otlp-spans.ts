// OTLP JSON traces, as the OpenTelemetry file exporter and the collector's fileexporter write them: an
// ExportTraceServiceRequest `{resourceSpans: [{resource, scopeSpans: [{scope, spans: [...]}]}]}` per document or
// per line. Attribute values are AnyValue objects (`{stringValue}`, `{intValue: "42"}`, `{arrayValue: {values}}`,
// `{kvlistValue: {values: [{key, value}]}}`, …); ids are hex; times are nanoseconds since the epoch, as strings.
// The protobuf field names are accepted too (`resource_spans`, `scope_spans`, `start_time_unix_nano`), as some
// exporters print them, and `instrumentationLibrarySpans` from OTLP before 0.15.
import type { Document } from '../load/document';
import { recordsOf } from '../load/document';
import { arr, get, isObject, str, type JsonObject } from '../model/narrow';
import type { ParseContext } from './adapter';

/** A decoded attribute value: AnyValue without its wrapper. */
export type AttrValue = string | number | boolean | null | AttrValue[] | { readonly [key: string]: AttrValue };

export type Attributes = ReadonlyMap<string, AttrValue>;

export interface OtlpEvent {
  name: string;
  timeNs: bigint;
  attributes: Attributes;
  /** Where the event is, for messages about it. */
  path: (string | number)[];
}

export interface OtlpSpan {
  traceId: string;
  spanId: string;
  /** Null for a root span. */
  parentSpanId: string | null;
  name: string;
  /** SpanKind: 1 internal, 2 server, 3 client, 4 producer, 5 consumer (0 unspecified). */
  kind: number;
  startNs: bigint;
  endNs: bigint;
  attributes: Attributes;
  events: OtlpEvent[];
  resource: Attributes;
  scope: string | null;
  /** JSONL line of the document the span is in (null in a single JSON document). */
  line: number | null;
  /** Path of the span inside its document: `resourceSpans[0].scopeSpans[1].spans[4]`. */
  path: (string | number)[];
  /** The attribute's own path, for messages that name the field. */
  attributePath(key: string): (string | number)[];
}

/** Either spelling of a field: the JSON mapping's lowerCamelCase or the proto's snake_case. */
function field(o: JsonObject, camel: string, snake: string): unknown {
  const v = get(o, camel);
  return v !== undefined ? v : get(o, snake);
}

function list(o: JsonObject, camel: string, snake: string): unknown[] | undefined {
  const v = field(o, camel, snake);
  return Array.isArray(v) ? v : undefined;
}

/** The resourceSpans of one ExportTraceServiceRequest, or undefined for another shape. */
export function resourceSpansOf(v: unknown): unknown[] | undefined {
  return isObject(v) ? list(v, 'resourceSpans', 'resource_spans') : undefined;
}

/** Decodes an AnyValue. Unknown wrappers come back as null rather than failing the span. */
export function anyValue(v: unknown): AttrValue {
  if (!isObject(v)) return null;
  if (get(v, 'stringValue') !== undefined || get(v, 'string_value') !== undefined) {
    const s = field(v, 'stringValue', 'string_value');
    return typeof s === 'string' ? s : null;
  }
  const int = field(v, 'intValue', 'int_value');
  if (int !== undefined) {
    const n = typeof int === 'string' ? Number(int) : int;
    return typeof n === 'number' && Number.isFinite(n) ? n : null;
  }
  const dbl = field(v, 'doubleValue', 'double_value');
  if (dbl !== undefined) {
    const n = typeof dbl === 'string' ? Number(dbl) : dbl;
    return typeof n === 'number' && Number.isFinite(n) ? n : null;
  }
  const b = field(v, 'boolValue', 'bool_value');
  if (typeof b === 'boolean') return b;
  const array = field(v, 'arrayValue', 'array_value');
  if (isObject(array)) return (arr(array, 'values') ?? []).map(anyValue);
  const kv = field(v, 'kvlistValue', 'kvlist_value');
  if (isObject(kv)) {
    const out: Record<string, AttrValue> = Object.create(null) as Record<string, AttrValue>;
    for (const e of arr(kv, 'values') ?? []) if (isObject(e) && typeof get(e, 'key') === 'string') out[get(e, 'key') as string] = anyValue(get(e, 'value'));
    return out;
  }
  const bytes = field(v, 'bytesValue', 'bytes_value');
  if (typeof bytes === 'string') return bytes;
  return null;
}

/** `attributes: [{key, value}]` as a map, with each key's index for messages that name it. */
function attributesOf(list: unknown[] | undefined): { attrs: Map<string, AttrValue>; index: Map<string, number> } {
  const attrs = new Map<string, AttrValue>();
  const index = new Map<string, number>();
  (list ?? []).forEach((e, i) => {
    if (!isObject(e)) return;
    const key = get(e, 'key');
    if (typeof key !== 'string') return;
    attrs.set(key, anyValue(get(e, 'value')));
    index.set(key, i);
  });
  return { attrs, index };
}

/** Nanoseconds as the JSON mapping writes them: a decimal string (or a number from lenient writers). */
function nanos(v: unknown): bigint | null {
  if (typeof v === 'string' && /^\d+$/.test(v)) return BigInt(v);
  if (typeof v === 'number' && Number.isFinite(v) && v >= 0) return BigInt(Math.round(v));
  return null;
}

/** Every span of a document, in document order, with its resource and scope. */
export function spansOf(doc: Document, ctx: ParseContext): OtlpSpan[] {
  const out: OtlpSpan[] = [];
  for (const rec of recordsOf(doc)) {
    const line = doc.kind === 'jsonl' ? rec.line : null;
    const at = (path: (string | number)[]) => (line === null ? { path } : { line, path });
    const resourceSpans = resourceSpansOf(rec.value);
    if (!resourceSpans) {
      ctx.error(at([]), 'expected an OTLP trace export: an object with `resourceSpans`');
      continue;
    }
    resourceSpans.forEach((rs, ri) => {
      if (!isObject(rs)) return;
      const resourceObj = get(rs, 'resource');
      const resource = attributesOf(isObject(resourceObj) ? arr(resourceObj, 'attributes') : undefined).attrs;
      const scopeKey = get(rs, 'scopeSpans') !== undefined ? 'scopeSpans' : get(rs, 'scope_spans') !== undefined ? 'scope_spans' : 'instrumentationLibrarySpans';
      (arr(rs, scopeKey) ?? []).forEach((ss, si) => {
        if (!isObject(ss)) return;
        const scopeObj = field(ss, 'scope', 'instrumentationLibrary');
        const scope = isObject(scopeObj) ? (str(scopeObj, 'name') ?? null) : null;
        (arr(ss, 'spans') ?? []).forEach((sp, k) => {
          const path = ['resourceSpans', ri, scopeKey, si, 'spans', k];
          if (!isObject(sp)) {
            ctx.error(at(path), 'expected a span object');
            return;
          }
          const span = readSpan(sp, path, line, resource, scope, ctx);
          if (span) out.push(span);
        });
      });
    });
  }
  return out;
}

function readSpan(sp: JsonObject, path: (string | number)[], line: number | null, resource: Attributes, scope: string | null, ctx: ParseContext): OtlpSpan | null {
  const at = (p: (string | number)[]) => (line === null ? { path: [...path, ...p] } : { line, path: [...path, ...p] });
  const traceId = field(sp, 'traceId', 'trace_id');
  const spanId = field(sp, 'spanId', 'span_id');
  if (typeof traceId !== 'string' || typeof spanId !== 'string' || !traceId || !spanId) {
    ctx.error(at([typeof traceId !== 'string' || !traceId ? 'traceId' : 'spanId']), 'a span needs a traceId and a spanId (hex strings); the span is left out');
    return null;
  }
  const start = nanos(field(sp, 'startTimeUnixNano', 'start_time_unix_nano'));
  if (start === null) ctx.warn(at(['startTimeUnixNano']), 'the span has no start time; it is ordered as written');
  const end = nanos(field(sp, 'endTimeUnixNano', 'end_time_unix_nano'));
  const parent = field(sp, 'parentSpanId', 'parent_span_id');
  const { attrs, index } = attributesOf(arr(sp, 'attributes'));
  const events: OtlpEvent[] = (arr(sp, 'events') ?? []).flatMap((e, i) => {
    if (!isObject(e)) return [];
    return [{ name: str(e, 'name') ?? '', timeNs: nanos(field(e, 'timeUnixNano', 'time_unix_nano')) ?? start ?? 0n, attributes: attributesOf(arr(e, 'attributes')).attrs, path: [...path, 'events', i] }];
  });
  const kind = get(sp, 'kind');
  return {
    traceId,
    spanId,
    parentSpanId: typeof parent === 'string' && parent && !/^0+$/.test(parent) ? parent : null,
    name: str(sp, 'name') ?? '',
    kind: typeof kind === 'number' ? kind : SPAN_KINDS[typeof kind === 'string' ? kind : ''] ?? 0,
    startNs: start ?? 0n,
    endNs: end ?? start ?? 0n,
    attributes: attrs,
    events,
    resource,
    scope,
    line,
    path,
    attributePath: (key) => (index.has(key) ? [...path, 'attributes', index.get(key)!, 'value'] : [...path, 'attributes']),
  };
}

/** Span kinds as the proto's enum names, which some exporters print instead of numbers. */
const SPAN_KINDS: Record<string, number> = {
  SPAN_KIND_INTERNAL: 1,
  SPAN_KIND_SERVER: 2,
  SPAN_KIND_CLIENT: 3,
  SPAN_KIND_PRODUCER: 4,
  SPAN_KIND_CONSUMER: 5,
};

/** A span's time as an ISO timestamp (millisecond precision), or undefined when it has none. */
export function isoOf(ns: bigint): string | undefined {
  if (ns <= 0n) return undefined;
  const ms = Number(ns / 1_000_000n);
  const d = new Date(ms);
  return Number.isNaN(d.getTime()) ? undefined : d.toISOString();
}

/** Attribute helpers: a string, a finite number (numeric strings accepted), a JSON value. */
export function attrStr(attrs: Attributes, key: string): string | null {
  const v = attrs.get(key);
  return typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : null;
}

export function attrNum(attrs: Attributes, key: string): number | null {
  const v = attrs.get(key);
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
  return null;
}

/** The first of several attribute names that is present, as a number. */
export function firstNum(attrs: Attributes, keys: readonly string[]): number | null {
  for (const k of keys) {
    const v = attrNum(attrs, k);
    if (v !== null) return v;
  }
  return null;
}
