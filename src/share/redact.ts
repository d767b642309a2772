// Secret redaction before sharing or exporting: API keys, tokens, emails and strings the user names
// are replaced by stable placeholders such as `[REDACTED_EMAIL_1]`. One Redactor is used for a whole
// bundle, so the same secret gets the same placeholder in every file and note (a reader can still
// see that two mentions are the same address). Placeholders have no `len=` part, so the loader's
// redactionHint does not mistake them for an exporter's redaction marker: they stay ordinary text.
//
// The patterns aim at shapes real secrets have (fixed prefixes, JWT structure, `Bearer`, secret-named
// assignments with a digit in the value) so ordinary text such as `db-prod-1:5432`, `FRE-512`,
// `max_tokens: 4096` or `process.env.OPENAI_API_KEY` is left alone. Matching runs on the raw file
// text, and no pattern matches a quote or backslash, so JSON files stay valid JSON.
import { annotationToJson, type Annotation } from './annotations';
import type { InputFile } from '../load/loader';

export type SecretKind = 'api-key' | 'token' | 'secret' | 'email' | 'custom';
export const SECRET_KINDS: readonly SecretKind[] = ['api-key', 'token', 'secret', 'email', 'custom'];

export interface RedactOptions {
  /** Email addresses. Default true. */
  emails?: boolean;
  /** Provider API keys (OpenAI, Anthropic, AWS, Google, Hugging Face, Stripe). Default true. */
  apiKeys?: boolean;
  /** Tokens and credentials (GitHub, Slack, Bearer, JWT, secret-named assignments, URL credentials). Default true. */
  tokens?: boolean;
  /** Exact strings to hide (names, hosts, ids). Trimmed; ones shorter than 3 characters are ignored. */
  custom?: readonly string[];
}

export interface Replacement {
  kind: SecretKind;
  /** Which pattern matched: 'openai', 'anthropic', 'aws', 'github', 'bearer', 'jwt', 'email', 'custom', … */
  rule: string;
  original: string;
  replacement: string;
  /** Offset of `original` in the input text. */
  index: number;
}

export interface Redaction {
  text: string;
  replacements: Replacement[];
}

export interface Redactor {
  redact(text: string): Redaction;
  /** original → placeholder, across every text redacted so far. */
  readonly placeholders: ReadonlyMap<string, string>;
}

export const MIN_CUSTOM_CHARS = 3;

interface Rule {
  kind: SecretKind;
  rule: string;
  re: RegExp;
  /** Capture group holding the secret (0: the whole match). Needs the `d` flag when > 0. */
  group: number;
  option: 'apiKeys' | 'tokens' | 'emails';
  /** Wins ties when two matches start at the same place. */
  priority: number;
}

// Lookbehinds like (?<![\w-]) make each pattern start only at the beginning of a run, which keeps the
// scan linear on long base64 blobs.
const RULES: readonly Rule[] = [
  { kind: 'api-key', rule: 'anthropic', option: 'apiKeys', priority: 5, group: 0, re: /(?<![\w-])sk-ant-[A-Za-z0-9_-]{20,}/g },
  { kind: 'api-key', rule: 'openai', option: 'apiKeys', priority: 4, group: 0, re: /(?<![\w-])sk-(?!ant-)(?=[A-Za-z0-9_-]*\d)[A-Za-z0-9_-]{20,}/g },
  { kind: 'api-key', rule: 'aws', option: 'apiKeys', priority: 4, group: 0, re: /(?<![A-Za-z0-9])(?:AKIA|ASIA)[0-9A-Z]{16}(?![A-Za-z0-9])/g },
  { kind: 'api-key', rule: 'google', option: 'apiKeys', priority: 4, group: 0, re: /(?<![\w-])AIza[0-9A-Za-z_-]{35}(?![\w-])/g },
  { kind: 'api-key', rule: 'huggingface', option: 'apiKeys', priority: 4, group: 0, re: /(?<![\w-])hf_[A-Za-z0-9]{30,}(?![\w-])/g },
  { kind: 'api-key', rule: 'stripe', option: 'apiKeys', priority: 4, group: 0, re: /(?<![\w-])[sr]k_(?:live|test)_[A-Za-z0-9]{16,}(?![\w-])/g },
  { kind: 'token', rule: 'github', option: 'tokens', priority: 4, group: 0, re: /(?<![\w-])(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{30,})(?![\w-])/g },
  { kind: 'token', rule: 'slack', option: 'tokens', priority: 4, group: 0, re: /(?<![\w-])xox[abposr]-(?=[A-Za-z0-9-]*\d)[A-Za-z0-9-]{10,}/g },
  { kind: 'token', rule: 'jwt', option: 'tokens', priority: 4, group: 0, re: /(?<![\w-])eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g },
  { kind: 'token', rule: 'bearer', option: 'tokens', priority: 3, group: 1, re: /(?<![\w-])[Bb]earer\s+([A-Za-z0-9._~+/-]{16,}=*)/dg },
  {
    kind: 'secret',
    rule: 'assignment',
    option: 'tokens',
    priority: 2,
    group: 1,
    // NAME = value / "name": "value", where NAME says secret and the value looks generated (has a digit).
    re: /(?<![\w-])[\w-]*(?:api[_-]?key|apikey|secret|passw(?:or)?d|access[_-]?token|auth[_-]?token|refresh[_-]?token|session[_-]?token|private[_-]?key)[\w-]*\\?["']?\s*[:=]\s*\\?["']?((?=[A-Za-z0-9_\-+/=.~]*\d)[A-Za-z0-9_\-+/=.~]{8,})/dgi,
  },
  { kind: 'secret', rule: 'url-query', option: 'tokens', priority: 3, group: 1, re: /[?&](?:token|access_token|api_key|apikey|key|sig|signature|x-amz-signature|x-amz-credential|x-goog-signature)=([^&#\s"'\\<>]{8,})/dgi },
  { kind: 'secret', rule: 'url-password', option: 'tokens', priority: 3, group: 1, re: /(?<![a-z0-9+.-])[a-z][a-z0-9+.-]*:\/\/[^/\s:@"'\\]+:([^/\s@"'\\]+)@/dgi },
  { kind: 'email', rule: 'email', option: 'emails', priority: 1, group: 0, re: /(?<![A-Za-z0-9._%+-])[A-Za-z0-9._%+-]+@(?:[A-Za-z0-9-]+\.)+[A-Za-z]{2,}(?![A-Za-z0-9-])/g },
];

const PLACEHOLDER_NAME: Record<SecretKind, string> = { 'api-key': 'API_KEY', token: 'TOKEN', secret: 'SECRET', email: 'EMAIL', custom: 'CUSTOM' };

interface Hit {
  start: number;
  end: number;
  kind: SecretKind;
  rule: string;
  priority: number;
}

export function createRedactor(opts: RedactOptions = {}): Redactor {
  const on = { apiKeys: opts.apiKeys ?? true, tokens: opts.tokens ?? true, emails: opts.emails ?? true };
  const rules = RULES.filter((r) => on[r.option]);
  const customs = customPatterns(opts.custom ?? []);
  const placeholders = new Map<string, string>();
  const counters = new Map<SecretKind, number>();

  const placeholderFor = (kind: SecretKind, original: string): string => {
    const key = `${kind}\u0000${original}`;
    let p = placeholders.get(key);
    if (!p) {
      const n = (counters.get(kind) ?? 0) + 1;
      counters.set(kind, n);
      p = `[REDACTED_${PLACEHOLDER_NAME[kind]}_${n}]`;
      placeholders.set(key, p);
    }
    return p;
  };

  const redact = (text: string): Redaction => {
    const hits: Hit[] = [];
    for (const r of rules) {
      for (const m of text.matchAll(r.re)) {
        const span: readonly [number, number] | undefined = r.group === 0 ? [m.index, m.index + m[0].length] : m.indices?.[r.group];
        if (!span) continue;
        hits.push({ start: span[0], end: span[1], kind: r.kind, rule: r.rule, priority: r.priority });
      }
    }
    for (const re of customs) {
      for (const m of text.matchAll(re)) hits.push({ start: m.index, end: m.index + m[0].length, kind: 'custom', rule: 'custom', priority: 10 });
    }
    hits.sort((a, b) => a.start - b.start || b.priority - a.priority || b.end - a.end);
    const replacements: Replacement[] = [];
    let out = '';
    let last = 0;
    for (const h of hits) {
      if (h.start < last) continue; // overlaps one already taken
      const original = text.slice(h.start, h.end);
      // A custom string written JSON-escaped in the file shares the placeholder of its plain form.
      const canonical = h.kind === 'custom' ? unescapeJson(original) : original;
      const replacement = placeholderFor(h.kind, canonical);
      out += text.slice(last, h.start) + replacement;
      replacements.push({ kind: h.kind, rule: h.rule, original, replacement, index: h.start });
      last = h.end;
    }
    out += text.slice(last);
    return { text: replacements.length ? out : text, replacements };
  };

  return {
    redact,
    get placeholders() {
      const view = new Map<string, string>();
      for (const [k, v] of placeholders) view.set(k.slice(k.indexOf('\u0000') + 1), v);
      return view;
    },
  };
}

/** Redacts one text with a fresh redactor. Use createRedactor to keep placeholders stable across texts. */
export function redactSecrets(text: string, opts: RedactOptions = {}): Redaction {
  return createRedactor(opts).redact(text);
}

/** Notes, tags and authors of annotations through the same redactor as the files. */
export function redactAnnotations(list: readonly Annotation[], redactor: Redactor): Annotation[] {
  return list.map((a) => {
    const out = annotationToJson(a);
    out.note = redactor.redact(a.note).text;
    out.tags = a.tags.map((t) => redactor.redact(t).text);
    if (a.author !== undefined) out.author = redactor.redact(a.author).text;
    return out;
  });
}

export interface Snippet {
  before: string;
  after: string;
}

export interface FileRedaction {
  name: string;
  /** Not UTF-8 text: left as it is. */
  binary: boolean;
  count: number;
  byKind: Record<SecretKind, number>;
  /** The first few changes, in context, on one line each. */
  snippets: Snippet[];
}

export interface RedactionPreview {
  files: FileRedaction[];
  /** Replacements made in all files. */
  total: number;
  /** Different secrets found (each has one placeholder). */
  distinct: number;
}

export interface RedactedFiles {
  files: InputFile[];
  preview: RedactionPreview;
  redactor: Redactor;
}

/** Redacts every text file with one redactor; binary files pass through untouched. */
export function redactFiles(files: readonly InputFile[], opts: RedactOptions = {}, snippetsPerFile = 3): RedactedFiles {
  const redactor = createRedactor(opts);
  const encoder = new TextEncoder();
  const out: InputFile[] = [];
  const previews: FileRedaction[] = [];
  for (const f of files) {
    const byKind = Object.fromEntries(SECRET_KINDS.map((k) => [k, 0])) as Record<SecretKind, number>;
    let text: string;
    try {
      // ignoreBOM keeps a BOM in the text, so an unchanged file keeps its exact bytes.
      text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(f.bytes);
    } catch {
      out.push(f);
      previews.push({ name: f.name, binary: true, count: 0, byKind, snippets: [] });
      continue;
    }
    const r = redactor.redact(text);
    for (const rep of r.replacements) byKind[rep.kind]++;
    out.push(r.replacements.length ? { name: f.name, bytes: encoder.encode(r.text) } : f);
    previews.push({ name: f.name, binary: false, count: r.replacements.length, byKind, snippets: snippetsOf(text, r, snippetsPerFile) });
  }
  return {
    files: out,
    preview: { files: previews, total: previews.reduce((n, p) => n + p.count, 0), distinct: redactor.placeholders.size },
    redactor,
  };
}

/** What redaction would change, per file, for the preview before sharing. */
export function previewRedaction(files: readonly InputFile[], opts: RedactOptions = {}, snippetsPerFile = 3): RedactionPreview {
  return redactFiles(files, opts, snippetsPerFile).preview;
}

// --- internals ---

const CONTEXT = 40;

function snippetsOf(text: string, r: Redaction, max: number): Snippet[] {
  const out: Snippet[] = [];
  let shift = 0; // output offset minus input offset, up to the current replacement
  for (const rep of r.replacements) {
    if (out.length >= max) break;
    const from = Math.max(0, rep.index - CONTEXT);
    const to = rep.index + rep.original.length + CONTEXT;
    const outAt = rep.index + shift;
    out.push({
      before: oneLine(text.slice(from, to), from > 0, to < text.length),
      after: oneLine(r.text.slice(Math.max(0, outAt - CONTEXT), outAt + rep.replacement.length + CONTEXT), from > 0, outAt + rep.replacement.length + CONTEXT < r.text.length),
    });
    shift += rep.replacement.length - rep.original.length;
  }
  return out;
}

function oneLine(s: string, cutStart: boolean, cutEnd: boolean): string {
  // eslint-disable-next-line no-control-regex
  const flat = s.replace(/[\u0000-\u001f\s]+/g, ' ');
  return `${cutStart ? '…' : ''}${flat}${cutEnd ? '…' : ''}`;
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/** Each custom string, and its JSON-escaped form when that differs (quotes, backslashes, newlines in a .json file). */
function customPatterns(custom: readonly string[]): RegExp[] {
  const forms = new Set<string>();
  for (const raw of custom) {
    const s = raw.trim();
    if (s.length < MIN_CUSTOM_CHARS) continue;
    forms.add(s);
    forms.add(JSON.stringify(s).slice(1, -1));
  }
  // Longest first, so "ana.lopez" wins over "ana" when both are chosen.
  return [...forms].sort((a, b) => b.length - a.length).map((s) => new RegExp(escapeRegExp(s), 'g'));
}

function unescapeJson(s: string): string {
  try {
    const v: unknown = JSON.parse(`"${s}"`);
    return typeof v === 'string' ? v : s;
  } catch {
    return s;
  }
}
