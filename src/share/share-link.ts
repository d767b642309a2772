// Share links: the view state and annotations of a session, compressed into the URL fragment
// (which browsers never send to a server).
//
// Format, version 1 (what users are told of it: docs/security.md, "Share links"):
//   #ci=1.<payload>
//   payload = base64url, no padding, of raw DEFLATE of the UTF-8 JSON
//     {"sessionHash":"<64 hex>","sourceUrls":["https://…"],"view":{…ViewState},"annotations":[…Annotation]}
//   `sourceUrls` is left out when empty. Version 2 adds `lintRules` (the lint rule settings, src/lints/rules.ts),
//   left out when the defaults stand; a version-1 link reads as one without it. The version is written in clear text before the payload so a
//   newer app's link is recognised (and refused with a clear message) before anything is inflated.
//   Other `&`-separated fragment parameters are ignored.
import { annotationToJson, readAnnotations, type Annotation } from './annotations';
import { decodeBase64, encodeBase64 } from './base64';
import { deflate, inflate } from './compress';
import { SHA256_HEX } from './content-hash';
import { LIMITS } from './limits';
import { fail, field, list, record, string, validate, type Result } from './schema';
import { upgrade, versionProblem, type VersionedFormat } from './versioned';
import { readViewState, type ViewState } from './view-state';
import { parseRuleSettings, type RuleSettings } from '../lints/rules';
import { FORMAT_IDS } from '../model/types';

/** A copy of the settings, rule by rule and field by field: nothing else a caller's object holds reaches the link. */
function withLintRule(settings: RuleSettings): RuleSettings {
  const rules: RuleSettings['rules'] = {};
  for (const [rule, byHarness] of Object.entries(settings.rules)) {
    const out: Record<string, { muted?: boolean; threshold?: number }> = {};
    for (const [harness, v] of Object.entries(byHarness ?? {})) {
      out[harness] = { ...(v.muted !== undefined ? { muted: v.muted } : {}), ...(v.threshold !== undefined ? { threshold: v.threshold } : {}) };
    }
    (rules as Record<string, unknown>)[rule] = out;
  }
  return { version: 1, rules };
}

export const SHARE_LINK_VERSION = 2;
/** Fragment parameter holding the link payload. */
export const SHARE_PARAM = 'ci';

export interface ShareState {
  /** sessionHash() of the files the view was made on. */
  sessionHash: string;
  /** Where the session was loaded from, when it came from URLs (so a teammate's app loads it by itself). */
  sourceUrls: string[];
  view: ViewState;
  annotations: Annotation[];
  /** The sharer's lint rule settings; absent when they kept the defaults. */
  lintRules?: RuleSettings;
}

export interface ShareInput {
  sessionHash: string;
  sourceUrls?: readonly string[];
  view: ViewState;
  annotations: readonly Annotation[];
  lintRules?: RuleSettings;
}

export interface DecodedShare {
  value: ShareState;
  /** Format version the link was written in (before upgrading). */
  version: number;
}

/** Older formats step up through these: a version-1 link is a version-2 link without lint rule settings. */
export const SHARE_LINK_FORMAT: VersionedFormat = { label: 'share link', current: SHARE_LINK_VERSION, upgraders: { 1: (doc) => ({ ok: true, value: doc }) } };

/**
 * The fragment (with its leading `#`) for `input`. Only the typed fields are written: whatever else a
 * caller's object holds (an API key, settings) never reaches the link. The result is validated by the
 * same schema the decoder uses, so an encoded link always decodes; otherwise the error says why.
 */
export function encodeShareFragment(input: ShareInput, format: VersionedFormat = SHARE_LINK_FORMAT): Result<string> {
  return validate(() => {
    const wire = toWire(input);
    readShareJson(wire); // the encoder refuses what the decoder would refuse
    const bytes = new TextEncoder().encode(JSON.stringify(wire));
    return `#${SHARE_PARAM}=${format.current}.${encodeBase64(deflate(bytes), { url: true })}`;
  });
}

/** A full URL: `base` without its own fragment, plus the share fragment. */
export function shareUrl(base: string, fragment: string): string {
  const hash = base.indexOf('#');
  return (hash < 0 ? base : base.slice(0, hash)) + fragment;
}

/** Whether a location hash (or a whole URL) carries a share link, without decoding it. */
export function hasShareFragment(hashOrUrl: string): boolean {
  return findParam(hashOrUrl) !== null;
}

/**
 * Decodes a fragment (`#ci=…`, `ci=…` or a whole URL). Untrusted: never throws; every problem comes
 * back as `{ok:false, error}` with a sentence for the user.
 */
export function decodeShareFragment(fragment: string, format: VersionedFormat = SHARE_LINK_FORMAT): Result<DecodedShare> {
  const res = validate((): Result<DecodedShare> => {
    if (typeof fragment !== 'string') return { ok: false, error: 'This is not a share link: expected text.' };
    if (fragment.length > LIMITS.fragmentChars) return { ok: false, error: `This share link is too long (${fragment.length} characters; the limit is ${LIMITS.fragmentChars}).` };
    const param = findParam(fragment);
    if (param === null) return { ok: false, error: `This is not a share link: it has no "#${SHARE_PARAM}=" part.` };
    const m = /^(\d{1,9})\.([A-Za-z0-9_-]*)$/.exec(param);
    if (!m) {
      return /^\d{1,9}\./.test(param)
        ? { ok: false, error: 'This share link is damaged: its data has characters a link never contains (was it edited or cut?).' }
        : { ok: false, error: 'This share link is damaged: it does not start with a version number.' };
    }
    const version = Number(m[1]);
    // A version this app cannot read is refused (with "update the app" for newer ones) before anything is inflated.
    const problem = versionProblem(format, version);
    if (problem !== null) return { ok: false, error: problem };
    const bytes = decodeBase64(m[2]!, { url: true });
    if (!bytes) return { ok: false, error: 'This share link is damaged: its data is not valid base64url (was it cut short?).' };
    const raw = inflate(bytes, LIMITS.linkJsonBytes);
    if (!raw.ok) return { ok: false, error: `This share link is damaged: ${raw.error}.` };
    let json: unknown;
    try {
      json = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(raw.value));
    } catch {
      return { ok: false, error: 'This share link is damaged: its data is not valid JSON.' };
    }
    const up = upgrade(format, version, json);
    if (!up.ok) return up;
    const read = validate(() => readShareJson(up.value));
    if (!read.ok) return { ok: false, error: `This share link is invalid: ${read.error}.` };
    return { ok: true, value: { value: read.value, version } };
  });
  return res.ok ? res.value : { ok: false, error: `This share link could not be read: ${res.error}` };
}

/** About 2,000 characters: above it, chat apps, mail clients and old tools truncate or wrap links. */
export const SHARE_LINK_LONG = 2_000;

/**
 * Advice for a link of `length` characters (the whole URL): 'ok' up to SHARE_LINK_LONG, 'long' above,
 * where the app should suggest a bundle instead. The ~2,000 figure is the classic safe URL length
 * (Internet Explorer's 2,083 cap, still the limit of many link previews, SMS and chat clients that
 * cut or break long lines); browsers themselves accept far longer URLs, so a long link still works
 * when pasted whole.
 */
export function shareLinkAdvice(length: number): 'ok' | 'long' {
  return length > SHARE_LINK_LONG ? 'long' : 'ok';
}

// --- internals ---

function findParam(hashOrUrl: string): string | null {
  const hash = hashOrUrl.indexOf('#');
  const frag = hash >= 0 ? hashOrUrl.slice(hash + 1) : hashOrUrl;
  for (const part of frag.split('&')) {
    if (part.startsWith(`${SHARE_PARAM}=`)) return part.slice(SHARE_PARAM.length + 1);
  }
  return null;
}

/** Field order of the JSON as written: sessionHash, sourceUrls?, view, annotations. */
interface Wire {
  sessionHash: string;
  sourceUrls?: string[];
  view?: ViewState;
  annotations?: Annotation[];
  lintRules?: RuleSettings;
}

/** Picks the known fields, field by field, at every level: JSON.stringify sees nothing else. */
function toWire(input: ShareInput): Wire {
  const v = input.view;
  const wire: Wire = { sessionHash: input.sessionHash };
  if (input.sourceUrls && input.sourceUrls.length > 0) wire.sourceUrls = [...input.sourceUrls];
  wire.view = { turn: v.turn, item: v.item, panel: v.panel, rule: v.rule, leftView: v.leftView };
  wire.annotations = input.annotations.map(annotationToJson);
  if (input.lintRules && Object.keys(input.lintRules.rules).length > 0) wire.lintRules = withLintRule(input.lintRules);
  return wire;
}

const HTTP_URL = /^https?:\/\/[^\s]+$/i;

export function readSourceUrl(v: unknown, at: string): string {
  const s = string(v, at, { min: 1, max: LIMITS.urlChars, plain: true, pattern: HTTP_URL, patternName: 'an http(s) URL' });
  let protocol: string | null = null;
  try {
    protocol = new URL(s).protocol;
  } catch {
    protocol = null;
  }
  if (protocol !== 'http:' && protocol !== 'https:') fail(at, 'is not a valid http(s) URL');
  return s;
}

/** The current-version schema of the link JSON. */
function readShareJson(v: unknown): ShareState {
  const o = record(v, 'link', ['sessionHash', 'sourceUrls', 'view', 'annotations', 'lintRules']);
  const sourceUrls = field(o, 'sourceUrls');
  const rules = field(o, 'lintRules');
  let lintRules: RuleSettings | undefined;
  if (rules !== undefined) {
    const parsed = parseRuleSettings(rules, { formats: FORMAT_IDS });
    if (parsed.problems.length > 0) fail('lintRules', parsed.problems[0]!.replace(/^rule settings: /, ''));
    lintRules = parsed.settings;
  }
  return {
    ...(lintRules ? { lintRules } : {}),
    sessionHash: string(field(o, 'sessionHash'), 'sessionHash', { max: 64, pattern: SHA256_HEX, patternName: 'a SHA-256 hex digest (64 lowercase hex digits)' }),
    sourceUrls: sourceUrls === undefined ? [] : list(sourceUrls, 'sourceUrls', LIMITS.sourceUrls, readSourceUrl),
    view: readViewState(field(o, 'view'), 'view'),
    annotations: readAnnotations(field(o, 'annotations'), 'annotations'),
  };
}
