// `serve`'s session table as the user sees it (issue 33 item 5): a folder of 1,000 generated sessions served by
// `serve` (in its own process, serve-child.ts) to the built app in headless Chromium. A first visit waits until every
// row is measured (the server keeps the figures in its per-file index); then each second visit is a new server over
// that index and a fresh page (its own context: nothing cached in the browser), timed from navigation start to the
// table listing every session, and to every measured cell (calls, compactions, hit rate) filled. Budget: under 1 s.
// Alone: `BENCH_ONLY=serve npm run bench`.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { writeServeSessions } from '../serve-listing';
import { watchServeTable, type ServeWatch } from './page-probes';

/** Second visits measured; the row gives their medians. */
const SERVE_RUNS = Math.max(1, Number(process.env['BENCH_SERVE_RUNS'] ?? 5));
const SESSIONS = 1000;

/** Where a second visit's time went, on the page's clock (ms from navigation start); medians over the runs. */
export interface ServePhases {
  /** The page's HTML received. */
  html: number | null;
  /** The app's scripts run (DOMContentLoaded ends after the module scripts). */
  scripts: number | null;
  /** The app's first render (the "Listing…" line). */
  appShown: number | null;
  /** `/api/sessions` asked and answered. */
  listingAsked: number | null;
  listingAnswered: number | null;
  listingBytes: number | null;
  /** Main-thread tasks over 50 ms up to the filled table, summed, and the longest. */
  longTasksMs: number;
  longestTaskMs: number;
}

export interface ServeVisit {
  listedMs: number | null;
  filledMs: number | null;
  rows: number;
  /** Glances the page asked the server for (0 when the listing brought every row's figures). */
  glanceRequests: number;
  phases: ServePhases;
}

export interface ServePageMeasure {
  sessions: number;
  bytes: number;
  first: ServeVisit;
  /** Medians of the second visits. */
  listedMs: number | null;
  filledMs: number | null;
  runs: ServeVisit[];
  /** The median run's phases (by filledMs). */
  phases: ServePhases;
  error: string | null;
}

const log = (line: string) => console.log(`  [serve] ${line}`);

function median(xs: (number | null)[]): number | null {
  const v = xs.filter((x): x is number => x !== null).sort((a, b) => a - b);
  if (v.length < xs.length / 2 || v.length === 0) return null;
  return v[Math.floor((v.length - 1) / 2)]!;
}

/** `serve` over `sessions`, its index kept in `cache`; resolves with its address once it prints it. */
function startServe(sessions: string, dist: string, cache: string): Promise<{ url: string; child: ChildProcess }> {
  const script = fileURLToPath(new URL('./serve-child.ts', import.meta.url));
  const child = spawn(process.execPath, ['--import', 'tsx', script, sessions, dist, cache], { stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    const timer = setTimeout(() => reject(new Error(`serve did not print its address in 120 s: ${out}${err}`)), 120_000);
    child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]+/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({ url: m[0], child });
      }
    });
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${out}${err}`)));
  });
}

/** Stops a server started above and waits for it (it writes its index as it closes); its last line. */
function stopServe(child: ChildProcess): Promise<string> {
  return new Promise((resolve) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    child.once('exit', () => resolve(out.trim().split('\n').at(-1) ?? ''));
    child.kill('SIGTERM');
  });
}

async function phasesOf(page: Page, until: number | null): Promise<ServePhases> {
  return page.evaluate((end) => {
    const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined;
    const listing = (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).find((r) => r.name.includes('/api/sessions'));
    const tasks = ((window as unknown as { __longTasks?: { start: number; duration: number }[] }).__longTasks ?? []).filter((t) => end === null || t.start < end);
    const r = (x: number | undefined) => (x === undefined ? null : Math.round(x));
    return {
      html: r(nav?.responseEnd),
      scripts: r(nav?.domContentLoadedEventEnd),
      appShown: r((window as unknown as { __serve: ServeWatch }).__serve.appShown ?? undefined),
      listingAsked: r(listing?.startTime),
      listingAnswered: r(listing?.responseEnd),
      listingBytes: listing ? listing.decodedBodySize : null,
      longTasksMs: Math.round(tasks.reduce((n, t) => n + t.duration, 0)),
      longestTaskMs: Math.round(Math.max(0, ...tasks.map((t) => t.duration))),
    };
  }, until);
}

/** One visit in a fresh context: from navigation start to the table listed and to every measured cell filled. */
async function visit(browser: Browser, url: string, timeoutMs: number, initScripts: readonly (string | (() => void))[]): Promise<ServeVisit> {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  try {
    for (const s of initScripts) await context.addInitScript(s);
    await context.addInitScript(watchServeTable, SESSIONS);
    let glanceRequests = 0;
    context.on('request', (r) => {
      if (r.url().includes('/api/glance')) glanceRequests++;
    });
    const page = await context.newPage();
    await page.goto(url, { waitUntil: 'commit' });
    await page
      .waitForFunction(() => (window as unknown as { __serve?: ServeWatch }).__serve?.filled != null, undefined, { timeout: timeoutMs, polling: 250 })
      .catch(() => undefined);
    const watch = await page.evaluate(() => (window as unknown as { __serve: ServeWatch }).__serve);
    const r = (x: number | null) => (x === null ? null : Math.round(x));
    return { listedMs: r(watch.listed), filledMs: r(watch.filled), rows: watch.rows, glanceRequests, phases: await phasesOf(page, watch.filled) };
  } finally {
    await context.close();
  }
}

/**
 * The measure, on `dist` (a build of the app) in `browser`. `initScripts` run in each page before the app (the
 * long-task recorder, and the name shim tsx's compiled functions need); `timeoutS` bounds a second visit, the first (every row measured) gets 20 times that.
 */
export async function measureServePage(browser: Browser, dist: string, opts: { timeoutS: number; initScripts?: readonly (string | (() => void))[] }): Promise<ServePageMeasure> {
  const dir = mkdtempSync(join(tmpdir(), 'serve-page-bench-'));
  const sessions = join(dir, 'projects');
  const cache = join(dir, 'cache');
  const init = opts.initScripts ?? [];
  let error: string | null = null;
  try {
    const bytes = writeServeSessions(sessions, SESSIONS);
    log(`${SESSIONS} sessions, ${(bytes / 1e6).toFixed(0)} MB, written; first visit (every row measured by the server)`);
    const firstServer = await startServe(sessions, dist, cache);
    let first: ServeVisit;
    try {
      first = await visit(browser, firstServer.url, opts.timeoutS * 20_000, init);
    } finally {
      log(`first server closed (${await stopServe(firstServer.child)})`);
    }
    log(`first visit: listed at ${first.listedMs ?? 'not in time'} ms, every row measured at ${first.filledMs ?? 'not in time'} ms (${first.glanceRequests} glances asked)`);
    if (first.filledMs === null) error = 'the first visit did not measure every row in time';
    const runs: ServeVisit[] = [];
    for (let i = 0; i < SERVE_RUNS && !error; i++) {
      const srv = await startServe(sessions, dist, cache);
      let v: ServeVisit;
      try {
        v = await visit(browser, srv.url, opts.timeoutS * 1000, init);
      } finally {
        const stats = await stopServe(srv.child);
        log(`second visit ${i + 1} of ${SERVE_RUNS}: server ${stats}`);
      }
      const p = v.phases;
      log(
        `second visit ${i + 1} of ${SERVE_RUNS}: listed ${v.listedMs ?? 'not in time'} ms, filled ${v.filledMs ?? 'not in time'} ms (${v.rows} rows, ${v.glanceRequests} glances asked); ` +
          `HTML ${p.html} ms, scripts run ${p.scripts} ms, app shown ${p.appShown} ms, /api/sessions ${p.listingAsked}–${p.listingAnswered} ms (${((p.listingBytes ?? 0) / 1e3).toFixed(0)} kB), long tasks ${p.longTasksMs} ms (longest ${p.longestTaskMs} ms)`,
      );
      runs.push(v);
    }
    const filledMs = median(runs.map((r) => r.filledMs));
    const byFilled = [...runs].sort((a, b) => (a.filledMs ?? Infinity) - (b.filledMs ?? Infinity));
    const mid = byFilled[Math.floor((byFilled.length - 1) / 2)] ?? first;
    return { sessions: SESSIONS, bytes, first, listedMs: median(runs.map((r) => r.listedMs)), filledMs, runs, phases: mid.phases, error };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
