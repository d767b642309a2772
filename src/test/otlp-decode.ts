// Reads OTLP JSON with OpenTelemetry's own protobuf definitions (the ExportTraceServiceRequest message that
// @opentelemetry/otlp-transformer generates from opentelemetry-proto), the way a collector does: the JSON mapping
// writes trace and span ids as hex where protobuf's JSON wants base64, so ids are turned into bytes first. A field
// the message does not have (a misspelled key, a wrong nesting) does not survive the trip, so comparing what comes
// back with what went in checks our encoding field by field.
import { createRequire } from 'node:module';

interface ProtoMessage {
  fromObject(o: unknown): unknown;
  encode(m: unknown): { finish(): Uint8Array };
  decode(b: Uint8Array): unknown;
  toObject(m: unknown, opts: Record<string, unknown>): unknown;
  verify(m: unknown): string | null;
}

const require = createRequire(import.meta.url);
const root = require('@opentelemetry/otlp-transformer/build/src/generated/root.js') as { opentelemetry: { proto: { collector: { trace: { v1: { ExportTraceServiceRequest: ProtoMessage } } } } } };
const Request = root.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;

const ID_KEYS = new Set(['traceId', 'spanId', 'parentSpanId']);

function mapIds(v: unknown, f: (s: string) => string): unknown {
  if (Array.isArray(v)) return v.map((x) => mapIds(x, f));
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, ID_KEYS.has(k) && typeof x === 'string' ? f(x) : mapIds(x, f)]));
  return v;
}

const hexToBase64 = (hex: string) => Buffer.from(hex, 'hex').toString('base64');
const base64ToHex = (b64: string) => Buffer.from(b64, 'base64').toString('hex');

/** The request as protobuf reads it back after a binary round trip, ids in hex again; throws when it does not verify. */
export function decodeOtlpJson(json: unknown): unknown {
  const message = Request.fromObject(mapIds(json, hexToBase64));
  const problem = Request.verify(message);
  if (problem) throw new Error(`not an ExportTraceServiceRequest: ${problem}`);
  const bytes = Request.encode(message).finish();
  const back = Request.toObject(Request.decode(bytes), { longs: String, enums: Number, bytes: String, defaults: false, arrays: false });
  return mapIds(back, base64ToHex);
}

/** Our JSON with numbers where protobuf returns decimal strings (int64 values and times), for comparing. */
export function withLongsAsStrings(json: unknown): unknown {
  if (Array.isArray(json)) return json.map(withLongsAsStrings);
  if (json && typeof json === 'object') {
    return Object.fromEntries(
      Object.entries(json).map(([k, v]) => [k, (k === 'intValue' || k.endsWith('UnixNano')) && typeof v === 'number' ? String(v) : withLongsAsStrings(v)]),
    );
  }
  return json;
}
