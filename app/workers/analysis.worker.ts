// Runs the whole analysis of a session off the main thread: contexts, token counts, cache, audits, lints.
// A first pass uses cheap estimates so the views appear at once; the exact pass replaces it, and the cache
// prefix, lints and summary audits follow: a first view does not wait for them.
import * as Comlink from 'comlink';
import { getTokenPool } from '../data/token-pool';
import type { DeferredPart } from '../../src/analysis/analyze-session';
import { auditContexts } from '../../src/analysis/audit-contexts';
import { auditOffThread, warmAuditWorker } from '../data/audit-offload';
import { buildAnalysisView, type AnalysisView } from '../../src/analysis/analysis-view';
import { sessionContexts, type SessionContexts } from '../../src/analysis/session-analysis';
import type { CompactionAudit } from '../../src/audit';
import { trimAudit, type ShownAudit } from '../../src/audit/trim-audit';
import type { ProviderRule } from '../../src/cache';
import type { PriceOverrides } from '../../src/cost/prices';
import type { InstructionFile, Session } from '../../src/model/types';
import { countedTexts, prefixPartTexts } from '../../src/analysis/counted-texts';
import { forgetStatic, pack, park, type PackedResult } from '../data/analysis-wire';
import { createTokenCounter, estimateTokens, pickEncoding, TokenMemo, type EncodingChoice, type EncodingName, type TokenCounter } from '../../src/tokens';
import { installFetchedRankTables } from './fetched-rank-tables';

installFetchedRankTables();

/** Values of each audit list the page gets (the CLI and corpus mode read them all). */
const AUDIT_LIST_LIMIT = 500;

export interface AnalysisResult {
  view: AnalysisView;
  encoding: EncodingChoice;
  exact: boolean;
}

export interface CountProgress {
  done: number;
  total: number;
}

// Counts are memoized by content for the worker's lifetime: re-running with another provider rule is cheap.
const counters = new Map<EncodingName, Promise<TokenCounter>>();
const memos = new Map<EncodingName, TokenMemo>();
/** The memo the last exact count filled (the pool's, or this worker's own). */
const counted = new Map<EncodingName, TokenMemo>();
/** Memos the token pool fills: a text they lack is counted by the pool too. */
const pooled = new WeakSet<TokenMemo>();

/**
 * A view counted from the memo the exact count filled. Any text it lacks (the count takes in prefixPartTexts, so
 * seldom one) is counted by the pool and the view built again: this worker loading a rank table of its own to count
 * them took a few hundred ms of CPU at the drop and ~10 MB. Without the pool, this worker's own counter answers.
 */
async function countedView(memo: TokenMemo, encoding: EncodingName, build: (count: (text: string) => number) => AnalysisView): Promise<AnalysisView> {
  if (pooled.has(memo)) {
    const missed = new Set<string>();
    const known = (t: string) => {
      const c = memo.lookup(t);
      if (c) return c.tokens;
      missed.add(t);
      return 0;
    };
    let view = build(known);
    if (missed.size === 0) return view;
    await getTokenPool().count([...missed], { encoding });
    missed.clear();
    view = build(known);
    if (missed.size === 0) return view;
  }
  const counter = await counterFor(encoding);
  return build((t) => memo.count(t, (x) => counter.count(x)).tokens);
}

function counterFor(encoding: EncodingName): Promise<TokenCounter> {
  let c = counters.get(encoding);
  if (!c) {
    c = createTokenCounter(encoding);
    counters.set(encoding, c);
  }
  return c;
}

function memoFor(encoding: EncodingName): TokenMemo {
  let m = memos.get(encoding);
  if (!m) {
    m = new TokenMemo();
    memos.set(encoding, m);
  }
  return m;
}

const sessions = new Map<string, Session>();
// Contexts and audits do not depend on the token counts: worked out once per session.
const contexts = new Map<string, SessionContexts>();
const audits = new Map<string, Promise<CompactionAudit[]>>();

/**
 * The audit of the first session a load sends, started in the audit worker as soon as that session's estimate view is
 * worked out (the audit needs the session's texts, not its counts), with when it started. Started with the exact
 * count instead, it ended ~0.3–0.5 s after the counts on the real 3 MB sample, and the summary audit panel waited
 * that long after them; now it runs while the page draws the context view and the pool counts. Null: it failed, and
 * the session is audited here when asked.
 */
const earlyAudits = new WeakMap<Session, { t0: number; rows: Promise<CompactionAudit[] | null> }>();

function auditEarly(session: Session): void {
  if (session.compactions.length === 0) return;
  // ONE_PASS_CHARS is a bound on the counted texts; the items' texts are most of them and cost nothing to add up.
  let chars = 0;
  for (const it of session.items) chars += it.text.length;
  if (chars >= ONE_PASS_CHARS) return;
  const rows = auditOffThread(session);
  rows.catch(() => undefined);
  earlyAudits.set(session, { t0: performance.now(), rows });
}

/**
 * Starts the session's audit in the audit worker once its exact count starts, or takes the one started as the
 * session arrived (see audit-offload.ts). Not for a session without compactions (nothing to audit), nor one too big
 * to copy twice; those are audited here when asked.
 */
function auditAway(key: string, session: Session, chars: number): void {
  const early = earlyAudits.get(session);
  earlyAudits.delete(session);
  if (audits.has(key) || session.compactions.length === 0 || (!early && chars >= ONE_PASS_CHARS)) return;
  const t0 = early?.t0 ?? performance.now();
  const rows = (early?.rows ?? auditOffThread(session))
    .then((away) => {
      if (!away) return auditHere(key, session);
      mark('analysis:audits', t0, { key, compactions: away.length, worker: 'audit', early: early !== undefined });
      return away;
    })
    .catch((e: unknown) => {
      // Not kept: the panel's retry asks again.
      audits.delete(key);
      throw e;
    });
  // Until the panel asks, a failure has nobody to report to.
  rows.catch(() => undefined);
  audits.set(key, rows);
}

function auditHere(key: string, session: Session): CompactionAudit[] {
  const t0 = performance.now();
  const rows = auditContexts(session, contextsOf(key, session));
  mark('analysis:audits', t0, { key, compactions: rows.length });
  return rows;
}

/**
 * The audit of `session` read with the user's instruction files: in the audit worker (its own copy of the session
 * with them), or here, on the contexts already worked out, when that worker is missing or the session too big to copy.
 */
async function auditWith(key: string, session: Session, instructionFiles: readonly InstructionFile[]): Promise<CompactionAudit[]> {
  const t0 = performance.now();
  const withFiles: Session = { ...session, instructionFiles };
  let chars = 0;
  for (const it of session.items) chars += it.text.length;
  const away = chars < ONE_PASS_CHARS ? await auditOffThread(withFiles) : null;
  const rows = away ?? auditContexts(withFiles, contextsOf(key, session));
  mark('analysis:audits', t0, { key, compactions: rows.length, instructionFiles: instructionFiles.length, ...(away ? { worker: 'audit' } : {}) });
  return rows;
}

function contextsOf(key: string, session: Session): SessionContexts {
  let c = contexts.get(key);
  if (!c) {
    c = earlyContexts.get(session) ?? sessionContexts(session);
    contexts.set(key, c);
  }
  return c;
}

/** The first views go without the slow parts; the last one adds the cache prefix and lints (audits come on their own). */
const DEFER: Record<AnalysisPhase, DeferredPart[]> = { estimate: ['cache', 'lints', 'audits'], exact: ['cache', 'lints', 'audits'], complete: ['audits'] };

export type AnalysisPhase = 'estimate' | 'exact' | 'complete';

/**
 * Below this much text the exact phase works out the cache prefix and lints too (a fraction of the count's time),
 * and no 'complete' phase follows; above it they come in a phase of their own, so exact counts show first.
 */
const ONE_PASS_CHARS = 16_000_000;

/** A performance measure from `start` to now (read by `npm run bench` through the worker's timeline); returns now. */
function mark(name: string, start: number, detail: Record<string, unknown>): number {
  const end = performance.now();
  performance.measure(name, { start, end, detail });
  return end;
}

const warmed = new Set<EncodingName>();
function warmPool(encoding: EncodingName): void {
  if (warmed.has(encoding)) return;
  warmed.add(encoding);
  try {
    const t0 = performance.now();
    // Its end, beside the exact count's, tells the bench whether a first count waited on the rank table.
    getTokenPool()
      .count([' '], { encoding })
      .then(() => mark('analysis:pool-warm', t0, { encoding, endsAt: Math.round(performance.now()) }))
      .catch(() => undefined);
  } catch {
    // no nested workers: the exact pass counts here
  }
}

/**
 * The estimate view of the first session a load sends, worked out as it arrives, under the default rule and
 * prices: the page asks for it only once it has the load's result itself (~30 ms later on a 3 MB session).
 */
const earlyViews = new WeakMap<Session, AnalysisView>();
const earlyContexts = new WeakMap<Session, SessionContexts>();

function estimateView(session: Session, contexts: SessionContexts, rule: ProviderRule | 'auto', prices: PriceOverrides | undefined): AnalysisView {
  const encoding = pickEncoding(session.model).encoding;
  // The token pool's ranks load once this view is out (the exact phase asks for them): loaded beside it, they
  // slowed the first view by ~100 ms on 2 cores.
  return buildAnalysisView(session, { count: (t) => estimateTokens(t, encoding), rule, prices, ghosts: false, contexts, defer: DEFER.estimate });
}

/** The prices each early view was worked out with (their JSON; empty for none). */
const earlyPrices = new WeakMap<Session, string>();

/**
 * `previewed`: the page shows this session only once its counts are exact (its preview stays until then), so no
 * estimate view is worked out for it; its contexts are, which the exact view reads.
 */
function estimateEarly(session: Session, prices: PriceOverrides | undefined, previewed: boolean): void {
  const t0 = performance.now();
  const c = sessionContexts(session);
  earlyContexts.set(session, c);
  if (previewed) {
    mark('analysis:contexts', t0, { early: true });
    return;
  }
  earlyViews.set(session, estimateView(session, c, 'auto', prices));
  earlyPrices.set(session, pricesKey(prices));
  mark('analysis:estimate-view', t0, { early: true });
}

const pricesKey = (prices: PriceOverrides | undefined) => (prices && Object.keys(prices).length > 0 ? JSON.stringify(prices) : '');

/** Sessions the load worker sent over a port, by id, until the page names the key they go under. */
const arrived = new Map<string, Session>();
const waiting = new Map<string, (s: Session) => void>();

/** Parked parts of the last result of each session, until the page takes them (analysis-wire.ts). */
const parkedParts = new Map<string, ReturnType<typeof park>>();
function parked(packed: PackedResult): PackedResult {
  const parts = park(packed);
  if (parts) parkedParts.set(packed.key, parts);
  return packed;
}

const api = {
  /** The parts the last result of `key` left out; each is taken once. */
  takeParked(key: string) {
    const parts = parkedParts.get(key);
    parkedParts.delete(key);
    if (!parts) throw new Error(`no parked parts for ${key}`);
    return parts;
  },
  /** Listens on a port the load worker sends sessions to (`{ id, session }` messages). */
  acceptSessions(port: MessagePort, prices?: PriceOverrides): void {
    let first = true;
    port.onmessage = (e: MessageEvent<{ id: string; session: Session; previewed?: boolean }>) => {
      const { id, session, previewed } = e.data;
      const w = waiting.get(id);
      if (w) {
        waiting.delete(id);
        w(session);
      } else arrived.set(id, session);
      if (first) {
        first = false;
        try {
          estimateEarly(session, prices, previewed === true);
        } catch {
          // The page's own request works it out again, and reports what fails.
        }
        // After the estimate view, so its copy to the audit worker does not delay that view. A previewed session
        // (a big file) waits for its count as before: two copies of it at once cost more than they save.
        if (previewed !== true) auditEarly(session);
      }
    };
  },
  /** Files a session the load worker sent under `id` as `key`, waiting for it if it has not arrived yet. */
  async adopt(key: string, id: string): Promise<void> {
    const here = arrived.get(id);
    arrived.delete(id);
    sessions.set(key, here ?? (await new Promise<Session>((resolve) => waiting.set(id, resolve))));
  },
  /** Starts this worker and the token pool's ahead of the first session; none of them loads tokenizer ranks yet. */
  warm(): void {
    try {
      getTokenPool().start();
    } catch {
      // no nested workers: the exact pass counts here
    }
  },
  /**
   * Loads the token pool's ranks for the encoding most sessions use: called when the user points at a control that
   * opens sessions (a picker or a demo is a click away), so the exact count seldom waits for them, and a page that
   * opens nothing never fetches them (~1 MB).
   */
  warmCounting(): void {
    // The audit worker too, while the user picks a file (started at the drop, it competed with the first view); not at
    // page load, where its code counted against the initial JavaScript of a page that may open nothing.
    warmAuditWorker();
    warmPool('o200k_base');
  },
  /** Keeps the session in the worker so later runs (another rule) need not clone it again. */
  setSession(key: string, session: Session): void {
    sessions.set(key, session);
  },
  dropSession(key: string): void {
    sessions.delete(key);
    forgetStatic(key);
    parkedParts.delete(key);
    contexts.delete(key);
    audits.delete(key);
  },
  /**
   * The summary audit of every compaction (it needs no counts): asked for once per session, and once more for each set
   * of instruction files the user adds (only the audit reads them: the session the other figures come from is kept).
   */
  async audits(key: string, instructionFiles?: readonly InstructionFile[]): Promise<ShownAudit[]> {
    const session = sessions.get(key);
    if (!session) throw new Error(`session ${key} is not loaded in the analysis worker`);
    if (instructionFiles?.length) return (await auditWith(key, session, instructionFiles)).map((r) => trimAudit(r, AUDIT_LIST_LIMIT));
    if (!audits.has(key) && earlyAudits.has(session)) auditAway(key, session, 0);
    let rows = audits.get(key);
    if (!rows) {
      rows = Promise.resolve(auditHere(key, session));
      audits.set(key, rows);
    }
    // The page shows the first few hundred of each list: tens of thousands would take long to copy there.
    return (await rows).map((r) => trimAudit(r, AUDIT_LIST_LIMIT));
  },
  async analyze(key: string, rule: ProviderRule | 'auto', phase: AnalysisPhase, onProgress?: (p: CountProgress) => void, prices?: PriceOverrides): Promise<PackedResult> {
    const session = sessions.get(key);
    if (!session) throw new Error(`session ${key} is not loaded in the analysis worker`);
    const encoding = pickEncoding(session.model);
    if (phase === 'estimate') {
      const early = rule === 'auto' && earlyPrices.get(session) === pricesKey(prices) ? earlyViews.get(session) : undefined;
      earlyViews.delete(session);
      if (early) return parked(pack({ view: early, encoding, exact: false }, session, key));
      const t0 = performance.now();
      const view = estimateView(session, contextsOf(key, session), rule, prices);
      mark('analysis:estimate-view', t0, { key });
      return parked(pack({ view, encoding, exact: false }, session, key));
    }
    if (phase === 'complete') {
      // Counted already by the exact phase, the parting texts too: the memo answers every text, and this worker loads
      // no rank table of its own (it did for those few texts: ~150 ms and a second fetch on the 100 MB bench session).
      const memo = counted.get(encoding.encoding) ?? memoFor(encoding.encoding);
      const t0 = performance.now();
      const view = await countedView(memo, encoding.encoding, (count) =>
        buildAnalysisView(session, { count, rule, prices, ghosts: false, contexts: contextsOf(key, session), defer: DEFER.complete }),
      );
      mark('analysis:complete-view', t0, { key });
      return parked(pack({ view, encoding, exact: true }, session, key));
    }
    const t0 = performance.now();
    const texts = countedTexts(session);
    const chars = texts.reduce((n, t) => n + t.length, 0);
    let memo = memoFor(encoding.encoding);
    let tokens = 0;
    try {
      // Exact counts come from the token pool, one worker per spare core; its memo then answers the analysis.
      const pool = getTokenPool();
      const counting = pool.count(texts, { encoding: encoding.encoding, onProgress: (p) => onProgress?.({ done: p.done, total: p.total }) });
      // The audit needs no counts: it runs in its worker while the pool counts (this worker only waits meanwhile), so
      // the summary audit panel no longer waits for the count and then the audit one after the other.
      auditAway(key, session, chars);
      // Looked for while the pool loads its ranks or counts (~50 ms on the 100 MB bench session); a failure leaves
      // them to countedView.
      const parts = prefixPartTexts(contextsOf(key, session), texts);
      const partsCounted = parts.length > 0 ? pool.count(parts, { encoding: encoding.encoding }).catch(() => null) : null;
      const counts = await counting;
      await partsCounted;
      memo = pool.memo(encoding.encoding);
      pooled.add(memo);
      for (const c of counts) tokens += c.tokens;
    } catch {
      // No nested workers here (or the pool died): count in this worker instead.
      const counter = await counterFor(encoding.encoding);
      let last = 0;
      for (let i = 0; i < texts.length; i++) {
        tokens += memo.count(texts[i]!, (x) => counter.count(x)).tokens;
        const now = performance.now();
        if (onProgress && now - last > 100) {
          last = now;
          onProgress({ done: i + 1, total: texts.length });
        }
      }
    }
    onProgress?.({ done: texts.length, total: texts.length });
    const t1 = mark('analysis:exact-count', t0, { key, texts: texts.length, chars, tokens, encoding: encoding.encoding, startsAt: Math.round(t0) });
    counted.set(encoding.encoding, memo);
    const view = await countedView(memo, encoding.encoding, (count) =>
      buildAnalysisView(session, { count, rule, prices, ghosts: false, contexts: contextsOf(key, session), defer: chars < ONE_PASS_CHARS ? DEFER.complete : DEFER.exact }),
    );
    mark('analysis:exact-view', t1, { key });
    return parked(pack({ view, encoding, exact: true }, session, key));
  },
};

export type AnalysisWorkerApi = typeof api;
Comlink.expose(api);
