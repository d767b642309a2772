// Pure helpers between the app's store and the share engine: what a link, a bundle or the library
// gets from the app's state. Each picks its fields one by one, so nothing else the store holds (an
// endpoint API key, settings) can reach a link, a bundle or IndexedDB.
import type { RuleSettings } from '../../src/lints/rules';
import { annotationToJson, CACHE_RULE_CHOICES, LIMITS, type Annotation, type BundleFile, type BundleInput, type CacheRuleChoice, type LeftView, type ShareInput, type ViewState } from '../../src/share';

/** The part of the store a view state is read from. */
export interface ViewSource {
  callIndex: number;
  selectedItemId: string | null;
  panel: string;
  rule: string;
  leftView: string;
}

const PANEL_ID = /^[a-z][a-z0-9-]*$/;
// eslint-disable-next-line no-control-regex
const PLAIN = /^[^\u0000-\u001f\u007f]+$/;

/**
 * The view state of the store (0-based call) as a share ViewState (1-based turn). `calls` clamps the
 * turn to the session; values the link schema would refuse (an over-long item id, an odd panel id)
 * fall back to a neutral value rather than failing the whole link.
 */
export function viewFromStore(s: ViewSource, calls?: number): ViewState {
  const last = calls && calls > 0 ? calls : Number.POSITIVE_INFINITY;
  const turn = Math.min(Math.max(1, Math.floor(s.callIndex) + 1), last);
  const item = s.selectedItemId !== null && s.selectedItemId.length <= LIMITS.idChars && PLAIN.test(s.selectedItemId) ? s.selectedItemId : null;
  return {
    turn: Number.isFinite(turn) ? turn : 1,
    item,
    panel: PANEL_ID.test(s.panel) && s.panel.length <= LIMITS.panelChars ? s.panel : 'budget',
    rule: (CACHE_RULE_CHOICES as readonly string[]).includes(s.rule) ? (s.rule as CacheRuleChoice) : 'auto',
    leftView: (s.leftView === 'transcript' ? 'transcript' : 'context') as LeftView,
  };
}

/** What a loaded session contributes to a link. */
export interface ShareSessionSource {
  hash: string;
  sourceUrls?: readonly string[];
}

/** The lint rule settings travel in a link (they hold no secret); the endpoint settings never do. */
export function shareInputFor(session: ShareSessionSource, view: ViewState, annotations: readonly Annotation[], lintRules?: RuleSettings): ShareInput {
  return {
    sessionHash: session.hash,
    sourceUrls: (session.sourceUrls ?? []).filter(isHttpUrl),
    view: { turn: view.turn, item: view.item, panel: view.panel, rule: view.rule, leftView: view.leftView },
    annotations: annotations.map(annotationToJson),
    ...(lintRules && Object.keys(lintRules.rules).length > 0 ? { lintRules } : {}),
  };
}

/** What a bundle export gets: the files' names and bytes, the notes and the view, nothing else. */
export function bundleInputFor(files: readonly BundleFile[], view: ViewState, annotations: readonly Annotation[], createdAt: string): BundleInput {
  return {
    files: files.map((f) => ({ name: f.name, bytes: f.bytes })),
    view: { turn: view.turn, item: view.item, panel: view.panel, rule: view.rule, leftView: view.leftView },
    annotations: annotations.map(annotationToJson),
    createdAt,
  };
}

export function isHttpUrl(u: string): boolean {
  try {
    const p = new URL(u).protocol;
    return p === 'http:' || p === 'https:';
  } catch {
    return false;
  }
}

/** Absolute http(s) URLs for `?src` and demo paths, so a teammate's app fetches the same thing. */
export function absoluteUrls(urls: readonly string[], base: string): string[] {
  const out: string[] = [];
  for (const u of urls) {
    try {
      const abs = new URL(u, base).href;
      if (isHttpUrl(abs)) out.push(abs);
    } catch {
      // not a URL: it cannot travel in a link
    }
  }
  return out;
}

/** The file name `fetchSources` gives a URL's download (the last path segment). */
export function nameFromUrl(url: string, base: string, i = 0): string {
  try {
    return decodeURIComponent(new URL(url, base).pathname.split('/').pop() || `source-${i + 1}`);
  } catch {
    return `source-${i + 1}`;
  }
}

/** The link's base: this page without its query (`?src`, `?turn`) or fragment. */
export function shareBase(href: string): string {
  const u = new URL(href);
  return `${u.origin}${u.pathname}`;
}

/**
 * Picks, in order, the entries of `pool` named by `names`, each at most once (the same name twice
 * means two files). Returns null when a name has no file left: the session cannot be rebuilt.
 */
export function pickByName<T extends { name: string }>(names: readonly string[], pool: readonly T[]): T[] | null {
  const left = [...pool];
  const out: T[] = [];
  for (const n of names) {
    const i = left.findIndex((f) => f.name === n);
    if (i < 0) return null;
    out.push(left[i]!);
    left.splice(i, 1);
  }
  return out;
}

export interface MergeResult {
  list: Annotation[];
  /** Annotations of `incoming` that were new. */
  added: number;
}

/**
 * Merges annotations from a link or bundle into the ones kept for the same session. Nothing is
 * replaced or lost on either side: one already present (same target, note and tags) is skipped; any
 * other is added, under a fresh id when its id is taken (two people both have an `a1`).
 */
export function mergeAnnotations(existing: readonly Annotation[], incoming: readonly Annotation[]): MergeResult {
  const list = existing.map(annotationToJson);
  const seen = new Set(list.map(contentKey));
  const ids = new Set(list.map((a) => a.id));
  let added = 0;
  for (const raw of incoming) {
    const a = annotationToJson(raw);
    const key = contentKey(a);
    if (seen.has(key)) continue;
    if (ids.has(a.id)) a.id = freshId(ids);
    ids.add(a.id);
    seen.add(key);
    list.push(a);
    added++;
  }
  return { list, added };
}

function contentKey(a: Annotation): string {
  return JSON.stringify([a.target, a.note, [...a.tags].map((t) => t.toLowerCase()).sort()]);
}

function freshId(ids: ReadonlySet<string>): string {
  let max = 0;
  for (const id of ids) {
    const m = /^a(\d+)$/.exec(id);
    if (m) max = Math.max(max, Number(m[1]));
  }
  return `a${max + 1}`;
}

/** Calls the link's view mentions, for the banner: "call 5, 2 notes". */
export function describeShare(view: ViewState, notes: number): string {
  return `call ${view.turn}${notes ? `, ${notes} note${notes === 1 ? '' : 's'}` : ''}`;
}
