// Bundles: one JSON file carrying a session's files (transcript, logs), its annotations and the view,
// to drag in whole. Format, version 1 (what users are told of it: docs/security.md):
//   {"compactionInspectorBundle": 1,
//    "createdAt": "2025-03-01T10:20:30.000Z",
//    "sessionHash": "<sessionHash() of the files below>",
//    "view": {…ViewState},
//    "annotations": [ …Annotation ],
//    "files": [{"name": "run.jsonl", "encoding": "utf8", "data": "…text…"},
//              {"name": "x.bin",     "encoding": "base64", "data": "…standard base64…"}]}
// The version key comes first so a file can be recognised from its first bytes. A file is stored as
// utf8 when its bytes are valid UTF-8 (BOM kept), else as base64, so bytes (and so the hash) survive.
import type { InputFile } from '../load/loader';
import { annotationToJson, readAnnotations, type Annotation } from './annotations';
import { decodeBase64, encodeBase64 } from './base64';
import { sessionHash, SHA256_HEX } from './content-hash';
import { BUNDLE_LIMITS, type BundleLimits } from './limits';
import { isObject } from '../model/narrow';
import { fail, field, list, oneOf, record, string, timestamp, validate, type Result } from './schema';
import { upgrade, versionProblem, type VersionedFormat } from './versioned';
import { readViewState, type ViewState } from './view-state';

export const BUNDLE_VERSION = 1;
export const BUNDLE_KEY = 'compactionInspectorBundle';
export const BUNDLE_FORMAT: VersionedFormat = { label: 'bundle', current: BUNDLE_VERSION, upgraders: {} };

export type BundleFile = InputFile;

export interface BundleInput {
  files: readonly BundleFile[];
  annotations: readonly Annotation[];
  view: ViewState;
  /** ISO 8601, e.g. new Date().toISOString(). */
  createdAt: string;
}

export interface Bundle {
  files: BundleFile[];
  annotations: Annotation[];
  view: ViewState;
  /** As written in the bundle (checked against the files; see DecodedBundle.warnings). */
  sessionHash: string;
  createdAt: string;
}

export interface DecodedBundle {
  value: Bundle;
  /** Format version the bundle was written in (before upgrading). */
  version: number;
  /** Things worth showing that do not stop the bundle from opening (e.g. files edited after export). */
  warnings: string[];
}

export interface BundleOptions {
  limits?: Partial<BundleLimits>;
  format?: VersionedFormat;
}

/**
 * The bundle's JSON text. Computes the session hash from the files, so it always matches what is
 * inside (after redaction, too). Only the typed fields are written.
 */
export async function encodeBundle(input: BundleInput, opts: BundleOptions = {}): Promise<Result<string>> {
  const limits = { ...BUNDLE_LIMITS, ...opts.limits };
  const format = opts.format ?? BUNDLE_FORMAT;
  const checked = validate(() => {
    if (input.files.length === 0) fail('files', 'a bundle needs at least one file');
    if (input.files.length > limits.files) fail('files', `${input.files.length} files is over the limit of ${limits.files}`);
    let total = 0;
    input.files.forEach((f, i) => {
      readFileName(f.name, `files[${i}].name`, limits);
      if (f.bytes.length > limits.fileBytes) fail(`files[${i}]`, `"${f.name}" has ${f.bytes.length} bytes, over the ${limits.fileBytes}-byte limit per file`);
      total += f.bytes.length;
    });
    if (total > limits.totalBytes) fail('files', `${total} bytes in all is over the ${limits.totalBytes}-byte limit`);
    return {
      createdAt: timestamp(input.createdAt, 'createdAt'),
      view: readViewState(pickView(input.view), 'view'),
      annotations: readAnnotations(input.annotations.map(annotationToJson), 'annotations'),
    };
  });
  if (!checked.ok) return { ok: false, error: `Cannot export this bundle: ${checked.error}.` };
  let hash: string;
  try {
    hash = await sessionHash(input.files);
  } catch (e) {
    return { ok: false, error: `Cannot export this bundle: hashing failed (${e instanceof Error ? e.message : String(e)}).` };
  }
  const files = input.files.map((f) => {
    const text = utf8OrNull(f.bytes);
    return text === null ? { name: f.name, encoding: 'base64', data: encodeBase64(f.bytes) } : { name: f.name, encoding: 'utf8', data: text };
  });
  // Key order matters: the version key first (sniffing), the bulky files last.
  const doc = { [BUNDLE_KEY]: format.current, createdAt: checked.value.createdAt, sessionHash: hash, view: checked.value.view, annotations: checked.value.annotations, files };
  try {
    return { ok: true, value: JSON.stringify(doc) };
  } catch (e) {
    return { ok: false, error: `Cannot export this bundle: ${e instanceof Error ? e.message : String(e)}.` };
  }
}

/**
 * Reads a bundle from its text or bytes. Untrusted: never throws (the promise never rejects); every
 * problem is `{ok:false, error}`. A sessionHash that does not match the files is a warning, not an error.
 */
export async function decodeBundle(input: string | Uint8Array, opts: BundleOptions = {}): Promise<Result<DecodedBundle>> {
  const limits = { ...BUNDLE_LIMITS, ...opts.limits };
  const format = opts.format ?? BUNDLE_FORMAT;
  const parsed = validate((): Result<{ bundle: Bundle; version: number }> => {
    // Base64 is 4/3 of the bytes; JSON escaping adds more; the rest is annotations and keys.
    const maxChars = Math.ceil(limits.totalBytes * 1.5) + 16 * 1024 * 1024;
    if (input.length > maxChars) return { ok: false, error: `This bundle is too large (${input.length} ${typeof input === 'string' ? 'characters' : 'bytes'}; the limit is ${maxChars}).` };
    let text: string;
    if (typeof input === 'string') text = input;
    else {
      const t = utf8OrNull(input, false);
      if (t === null) return { ok: false, error: 'This is not a bundle: the file is not UTF-8 text.' };
      text = t;
    }
    let doc: unknown;
    try {
      doc = JSON.parse(text);
    } catch (e) {
      return { ok: false, error: `This bundle is damaged: it is not valid JSON (${e instanceof Error ? e.message : String(e)}).` };
    }
    if (!isBundle(doc)) return { ok: false, error: `This is not a Compaction Inspector bundle: it has no "${BUNDLE_KEY}" version field.` };
    const version = isObject(doc) ? field(doc, BUNDLE_KEY) : undefined;
    const problem = versionProblem(format, version);
    if (problem !== null || typeof version !== 'number') return { ok: false, error: problem ?? 'no version' };
    const up = upgrade(format, version, doc);
    if (!up.ok) return up;
    const read = validate(() => readBundleJson(up.value, limits));
    if (!read.ok) return { ok: false, error: `This bundle is invalid: ${read.error}.` };
    return { ok: true, value: { bundle: read.value, version } };
  });
  const res = parsed.ok ? parsed.value : { ok: false as const, error: `This bundle could not be read: ${parsed.error}` };
  if (!res.ok) return res;
  const warnings: string[] = [];
  try {
    const actual = await sessionHash(res.value.bundle.files);
    if (actual !== res.value.bundle.sessionHash) {
      warnings.push(`The files in this bundle do not match its recorded hash (recorded ${res.value.bundle.sessionHash.slice(0, 12)}…, files ${actual.slice(0, 12)}…): they were changed after export. Annotations may not line up.`);
    }
  } catch (e) {
    warnings.push(`The bundle's hash could not be checked (${e instanceof Error ? e.message : String(e)}).`);
  }
  return { ok: true, value: { value: res.value.bundle, version: res.value.version, warnings } };
}

/** Whether a parsed JSON value is a bundle (of any version): an object with the bundle version key. */
export function isBundle(doc: unknown): boolean {
  return isObject(doc) && field(doc, BUNDLE_KEY) !== undefined;
}

/**
 * Whether a file's first bytes look like a bundle, before parsing it all: a JSON object whose first
 * key is the bundle key (as encodeBundle writes it). Give it the first few kilobytes.
 */
export function sniffBundle(head: string | Uint8Array): boolean {
  const text = typeof head === 'string' ? head.slice(0, 4096) : new TextDecoder('utf-8').decode(head.subarray(0, 4096));
  return new RegExp(`^\\uFEFF?\\s*\\{\\s*"${BUNDLE_KEY}"\\s*:`).test(text);
}

/** A download name such as `compaction-inspector-3f9a1c0b2d4e.bundle.json`. */
export function bundleFileName(hash: string): string {
  return `compaction-inspector-${SHA256_HEX.test(hash) ? hash.slice(0, 12) : 'session'}.bundle.json`;
}

// --- internals ---

function pickView(v: ViewState): ViewState {
  return { turn: v.turn, item: v.item, panel: v.panel, rule: v.rule, leftView: v.leftView };
}

/** Text if `bytes` are valid UTF-8, else null. `keepBom` keeps a BOM as U+FEFF so the bytes round-trip. */
function utf8OrNull(bytes: Uint8Array, keepBom = true): string | null {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: keepBom }).decode(bytes);
  } catch {
    return null;
  }
}

function readFileName(v: unknown, at: string, limits: BundleLimits): string {
  return string(v, at, { min: 1, max: limits.fileNameChars, plain: true });
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function readBundleJson(v: unknown, limits: BundleLimits): Bundle {
  const o = record(v, 'bundle', [BUNDLE_KEY, 'createdAt', 'sessionHash', 'view', 'annotations', 'files']);
  const createdAt = timestamp(field(o, 'createdAt'), 'createdAt');
  const hash = string(field(o, 'sessionHash'), 'sessionHash', { max: 64, pattern: SHA256_HEX, patternName: 'a SHA-256 hex digest (64 lowercase hex digits)' });
  const view = readViewState(field(o, 'view'), 'view');
  const annotations = readAnnotations(field(o, 'annotations'), 'annotations');
  let total = 0;
  const encoder = new TextEncoder();
  const files = list(field(o, 'files'), 'files', limits.files, (f, at): BundleFile => {
    const fo = record(f, at, ['name', 'encoding', 'data']);
    const name = readFileName(field(fo, 'name'), `${at}.name`, limits);
    const encoding = oneOf(field(fo, 'encoding'), `${at}.encoding`, ['utf8', 'base64'] as const);
    const data = field(fo, 'data');
    if (typeof data !== 'string') fail(`${at}.data`, 'expected a string');
    const tooBig = (n: number) => fail(`${at}`, `"${name}" has ${n} bytes or more, over the ${limits.fileBytes}-byte limit per file`);
    let bytes: Uint8Array;
    if (encoding === 'utf8') {
      // Each UTF-16 unit is at least one UTF-8 byte: a string longer than the cap is over it.
      if (data.length > limits.fileBytes) tooBig(data.length);
      if (LONE_SURROGATE.test(data)) fail(`${at}.data`, 'holds a lone surrogate (\\ud800-\\udfff escape), which is not text any file had');
      bytes = encoder.encode(data);
    } else {
      if (Math.floor((data.length * 3) / 4) - 2 > limits.fileBytes) tooBig(Math.floor((data.length * 3) / 4) - 2);
      const b = decodeBase64(data);
      if (!b) return fail(`${at}.data`, 'is not valid base64');
      bytes = b;
    }
    if (bytes.length > limits.fileBytes) tooBig(bytes.length);
    total += bytes.length;
    if (total > limits.totalBytes) fail('files', `the files hold more than ${limits.totalBytes} bytes in all, over the limit`);
    return { name, bytes };
  });
  if (files.length === 0) fail('files', 'a bundle needs at least one file');
  return { files, annotations, view, sessionHash: hash, createdAt };
}
