// The browser half of `npm run bench`: builds the app, serves it with `vite preview` on a free port, and
// measures it in headless Chromium driven by Playwright on the generated inputs (a), (b) and (c). Every
// ratio's baseline runs in the same run, in the same browser: the split-and-parse of (a) in the app's own
// page, the tokenizer and cache-prefix baselines in a page built from the engine's modules.
import { copyFileSync, existsSync, linkSync, mkdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import playwrightConfig from '../../playwright.config';
import { AGENT_OMIT_BENCH } from '../generators/agent-omit';
import { CLAUDE_CODE_BENCH } from '../generators/claude-code-session';
import { REQUEST_LOG_BENCH } from '../generators/request-log';
import { APP_OUT, buildAll, startDev, startPreview } from './build';
import { ensureInputs, ensureLargeInputs, ensureLong, ensureTypical, type BenchInput } from './data';
import { readHeap, type HeapReading } from './heap';
import { loadSourceMap, type Resolver } from './source-map';
import { allPanelsFinal, dropFetched, recordLongTasks, splitAndParse, stepWithJ, type DropWatch } from './page-probes';
import { measureServePage, type ServePageMeasure } from './serve-page';

export interface BrowserOptions {
  /** Longest wait for the first view, then again for the exact count, per input, in seconds. */
  timeoutS: number;
  /** `j` presses timed on (c). */
  steps: number;
  /** js-tiktoken baseline over every `stride`-th text of (a). */
  stride: number;
}

export interface LongTask {
  start: number;
  duration: number;
}

export interface OpenMeasure {
  file: string;
  bytes: number;
  /** From the drop to the stepper (the inspector's first view), ms; null when it did not appear in time. */
  firstViewMs: number | null;
  /** From the drop to the whole session shown (after a big file's preview), ms; null when not in time. */
  fullViewMs: number | null;
  /** From the drop to the analysis's first view (a call's context or the transcript, beside the panels). */
  contextViewMs?: number | null;
  /** From the drop to the exact counts shown, ms; null when not in time. */
  exactMs: number | null;
  error: string | null;
  /** Measures the analysis worker recorded (estimate view, exact count, exact view). */
  worker: { name: string; ms: number; detail: Record<string, unknown> | null }[];
  /** Main-thread long tasks from the first view to the exact counts (or the timeout). */
  longTasksCounting: LongTask[];
  /** Main-thread long tasks from the drop to the first view. */
  longTasksLoading: LongTask[];
  heap: HeapReading | null;
  /** Where the time went, when the analysis did not finish: the worker's CPU profile, summarized. */
  profile?: { top: { fn: string; file: string; selfMs: number }[]; sampledMs: number } | null;
}

export interface BrowserBench {
  /** Fraction of the issue's sizes (1 = 100 MB / 500 calls / 20k turns). */
  scale: number;
  chromium: string;
  buildSeconds: number;
  inputs: Record<'a' | 'b' | 'c', { name: string; bytes: number; spec: object; generatedSeconds: number }>;
  initialJs: { files: { file: string; bytes: number; gzip: number }[]; gzipBytes: number; lazyLoaded: string[] };
  a: OpenMeasure & {
    baseline: { decodeMs: number; splitParseMs: number; lines: number } | null;
    tokenizers: { encoding: string; texts: number; chars: number; rows: Record<string, { ms: number; tokens: number }> } | null;
  };
  b: OpenMeasure & {
    unique: { texts: number; chars: number; tokens: number; ms: number } | null;
    /** Count ÷ unique once, for each pair measured (the row reports the median pair's). */
    countRatios?: (number | null)[];
    cachePrefix: { calls: number; avgTokens: number; coldMs: number; fastMs: number; naiveMs: number; agree: boolean } | null;
  };
  c: OpenMeasure & { steps: { times: number[]; first: string | null; last: string | null } | null };
  /** A typical ~3 MB Claude Code session (CLAUDE_CODE_TYPICAL), measured once per run, beside its own split + parse. */
  typical: TypicalMeasure | null;
}

export type TypicalMeasure = OpenMeasure & {
  spec: object;
  baseline: { decodeMs: number; splitParseMs: number; lines: number } | null;
  /** From the drop to every panel opened once and final (nothing loading, no deferred part pending), ms. */
  allPanelsMs: number | null;
  /** When the first panel was clicked (the frame after exact counts appeared), ms from the drop. */
  walkFromMs: number | null;
  /** Each panel's time from its click to final, in the order opened. */
  panels: { name: string; ms: number }[];
  /** Every run's figures; the fields above are their medians (first view, every panel final, split + parse) and the median run's. */
  runs?: { firstViewMs: number | null; exactMs: number | null; allPanelsMs: number | null; splitParseMs: number | null }[];
  /** How long the file was dragged over the page before the drop, ms. */
  dragMs?: number;
  /** The same file dropped with no drag before it (a script's drop): medians of its runs. */
  instant?: TypicalFigures | null;
};

/** One app (built, or the dev server) opening the real sample: medians of its runs and each run's figures. */
export interface RealFigures extends TypicalFigures {
  splitParseMs: number | null;
  perRun: { firstViewMs: number | null; exactMs: number | null; allPanelsMs: number | null; splitParseMs: number | null }[];
  /** The median run's panels and the analysis worker's measures. */
  panels: { name: string; ms: number }[];
  worker: OpenMeasure['worker'];
  error: string | null;
}

/** The real 3 MB Claude Code sample (../shared/samples), in the built app and under the dev server, runs alternated. */
export interface RealMeasure {
  file: string;
  bytes: number;
  lines: number | null;
  dragMs: number;
  built: RealFigures;
  dev: RealFigures | null;
}

/** The long session of realistic shape opened in the built app, at each size: the best of its runs. */
export interface LongAppMeasure {
  records: number;
  bytes: number;
  firstViewMs: number | null;
  fullViewMs: number | null;
  /** From the drop to the whole session's exact view (the cache prefix and lints with it). */
  exactMs: number | null;
  runs: (number | null)[];
  worker: OpenMeasure['worker'];
  error: string | null;
}

export interface TypicalFigures {
  firstViewMs: number | null;
  exactMs: number | null;
  allPanelsMs: number | null;
  runs: number;
}

/** The real session the typical row is shaped like: read where it is, never copied into the repo. */
export const REAL_TYPICAL = fileURLToPath(new URL('../../../shared/samples/claude-code-compacted.jsonl', import.meta.url));

const LAZY = /mermaid|Diagram|cytoscape|katex|o200k_base|cl100k_base/;

function launchArgs(): string[] {
  const args = (playwrightConfig.use?.launchOptions as { args?: string[] } | undefined)?.args;
  return args ?? ['--no-sandbox', '--disable-gpu'];
}

async function withTimeout<T>(p: Promise<T>, ms: number, fallback: T): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const t = new Promise<T>((resolve) => (timer = setTimeout(() => resolve(fallback), ms)));
  try {
    return await Promise.race([p, t]);
  } finally {
    clearTimeout(timer);
  }
}

/** Served from the preview's own origin: the app's CSP lets the page fetch only from itself. */
function publish(input: BenchInput): string {
  const dir = join(APP_OUT, 'bench-data');
  mkdirSync(dir, { recursive: true });
  const target = join(dir, input.name);
  rmSync(target, { force: true });
  try {
    linkSync(input.path, target);
  } catch {
    copyFileSync(input.path, target);
  }
  return `/bench-data/${input.name}`;
}

/** tsx compiles this file with esbuild's keepNames: functions sent to the page call `__name`, so the page needs one. */
const NAME_SHIM = 'globalThis.__name = globalThis.__name || ((f) => f);';

async function newContext(browser: Browser): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  await context.addInitScript(NAME_SHIM);
  return context;
}

async function freshPage(browser: Browser, url: string): Promise<{ context: BrowserContext; page: Page }> {
  const context = await newContext(browser);
  await context.addInitScript(recordLongTasks);
  const page = await context.newPage();
  await page.goto(url, { waitUntil: 'networkidle' });
  return { context, page };
}

/** The JavaScript the app's first page load fetches, gzipped as a server would send it. */
async function measureInitialJs(browser: Browser, url: string): Promise<BrowserBench['initialJs']> {
  const context = await newContext(browser);
  const page = await context.newPage();
  const scripts = new Set<string>();
  context.on('request', (r) => {
    // Rank tables come as JSON: loaded at startup, they would count as initial code.
    const path = new URL(r.url()).pathname;
    if (r.resourceType() === 'script' || path.endsWith('.js') || (path.endsWith('.json') && LAZY.test(path))) scripts.add(path);
  });
  await page.goto(url, { waitUntil: 'networkidle' });
  await page.waitForTimeout(500);
  await context.close();
  const files = [...scripts].map((p) => {
    const bytes = readFileSync(join(APP_OUT, p));
    return { file: p, bytes: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
  });
  return { files, gzipBytes: files.reduce((n, f) => n + f.gzip, 0), lazyLoaded: files.filter((f) => LAZY.test(f.file)).map((f) => f.file) };
}

async function workerMeasures(page: Page): Promise<OpenMeasure['worker']> {
  const worker = page.workers().find((w) => w.url().includes('analysis.worker'));
  if (!worker) return [];
  return withTimeout(
    worker.evaluate(() => performance.getEntriesByType('measure').map((m) => ({ name: m.name, ms: Math.round(m.duration * 10) / 10, detail: ((m as PerformanceMeasure).detail ?? null) as Record<string, unknown> | null }))),
    10_000,
    [],
  );
}

/**
 * Points at "Open files…", as a user choosing a file does, and waits until the token pool has its rank table: the
 * counting rows compare the app's exact count with baselines whose counters are loaded before the clock starts.
 */
async function ranksLoaded(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Open files…' }).hover();
  const until = Date.now() + 30_000;
  while (Date.now() < until) {
    if ((await workerMeasures(page)).some((m) => m.name === 'analysis:pool-warm')) return;
    await page.waitForTimeout(100);
  }
  throw new Error('the token pool did not load its rank table within 30 s of pointing at Open files…');
}

/**
 * When the analysis worker is still busy at the timeout, a short CPU profile of it (through the DevTools
 * protocol, attached to the worker target) says where its time goes.
 */
async function profileWorker(browser: Browser, seconds: number): Promise<OpenMeasure['profile']> {
  const cdp = await browser.newBrowserCDPSession();
  try {
    const { targetInfos } = (await cdp.send('Target.getTargets')) as { targetInfos: { targetId: string; type: string; url: string }[] };
    const target = targetInfos.find((t) => t.type === 'worker' && t.url.includes('analysis.worker'));
    if (!target) return null;
    const { sessionId } = (await cdp.send('Target.attachToTarget', { targetId: target.targetId, flatten: false })) as { sessionId: string };
    let next = 1;
    const pending = new Map<number, (v: unknown) => void>();
    cdp.on('Target.receivedMessageFromTarget', (e: { sessionId?: string; message: string }) => {
      if (e.sessionId !== sessionId) return;
      const m = JSON.parse(e.message) as { id?: number; result?: unknown };
      if (m.id !== undefined) pending.get(m.id)?.(m.result);
    });
    const call = (method: string, params: object = {}) =>
      withTimeout(
        new Promise<unknown>((resolve) => {
          const id = next++;
          pending.set(id, resolve);
          void cdp.send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id, method, params }) });
        }),
        30_000,
        null,
      );
    // The protocol is served between tasks: a worker stuck in one long task answers only when it ends.
    if ((await call('Profiler.enable')) === null) return null;
    await call('Profiler.setSamplingInterval', { interval: 1000 });
    await call('Profiler.start');
    await new Promise((r) => setTimeout(r, seconds * 1000));
    const result = (await call('Profiler.stop')) as { profile?: CpuProfile } | null;
    return result?.profile ? summarize(result.profile) : null;
  } finally {
    await cdp.detach().catch(() => undefined);
  }
}

interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number } }[];
  samples: number[];
  timeDeltas: number[];
}

/** Self time per function, named through the chunks' source maps where the build wrote them. */
function summarize(p: CpuProfile): NonNullable<OpenMeasure['profile']> {
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const maps = new Map<string, Resolver | null>();
  const where = (url: string, line: number, column: number): string => {
    const path = url.startsWith('http') ? new URL(url).pathname : '';
    if (!path.endsWith('.js')) return `${url.replace(/^.*\//, '')}:${line + 1}`;
    if (!maps.has(path)) maps.set(path, loadSourceMap(join(APP_OUT, path)));
    return maps.get(path)?.resolve(line, column) ?? `${path.replace(/^.*\//, '')}:${line + 1}`;
  };
  const self = new Map<string, { fn: string; file: string; selfMs: number }>();
  let total = 0;
  p.samples.forEach((id, i) => {
    const n = byId.get(id);
    const dt = (p.timeDeltas[i] ?? 0) / 1000;
    total += dt;
    if (!n) return;
    const fn = n.callFrame.functionName || '(anonymous)';
    const key = `${fn}@${n.callFrame.url}:${n.callFrame.lineNumber}:${n.callFrame.columnNumber}`;
    const row = self.get(key) ?? { fn, file: n.callFrame.url ? where(n.callFrame.url, n.callFrame.lineNumber, n.callFrame.columnNumber) : '', selfMs: 0 };
    row.selfMs += dt;
    self.set(key, row);
  });
  const top = [...self.values()].sort((a, b) => b.selfMs - a.selfMs).slice(0, 12).map((r) => ({ ...r, selfMs: Math.round(r.selfMs) }));
  return { top, sampledMs: Math.round(total) };
}

async function waitWatch(page: Page, field: 'firstView' | 'exact', timeoutMs: number): Promise<void> {
  await page
    .waitForFunction((f) => {
      const w = (window as unknown as { __drop?: DropWatch }).__drop;
      return !!w && (w[f as 'firstView' | 'exact'] !== null || w.error !== null);
    }, field, { timeout: timeoutMs, polling: 250 })
    .catch(() => undefined);
}

/** Drops one input on a fresh app page and follows it to the first view and the exact counts. */
export async function measureOpen(
  browser: Browser,
  url: string,
  input: BenchInput,
  opts: { timeoutS: number; baseline?: boolean; heap?: boolean; afterFirstView?: (page: Page) => Promise<void>; allPanels?: boolean; ranksFirst?: boolean; dragMs?: number },
): Promise<OpenMeasure & { baseline: Awaited<ReturnType<typeof splitAndParse>> | null; allPanelsMs?: number | null; walkFromMs?: number | null; panels?: { name: string; ms: number }[] }> {
  const dataUrl = publish(input);
  const { context, page } = await freshPage(browser, url);
  let crashed: string | null = null;
  page.on('crash', () => (crashed = 'the page crashed (renderer out of memory?)'));
  let baseline: Awaited<ReturnType<typeof splitAndParse>> | null = null;
  let seen: DropWatch | null = null;
  let tracing = false;
  try {
    baseline = opts.baseline ? await page.evaluate(splitAndParse, dataUrl) : null;
    // Leave nothing of the baseline on the heap the app is measured with.
    const cdp = await context.newCDPSession(page);
    await cdp.send('HeapProfiler.collectGarbage');
    await cdp.detach();
    if (opts.ranksFirst) await ranksLoaded(page);
    const trace = opts.allPanels ? traceFile(input) : null;
    if (trace) {
      await browser.startTracing(page, { path: trace, categories: TRACE_CATEGORIES });
      tracing = true;
    }
    await page.evaluate(dropFetched, { url: dataUrl, name: input.name, dragMs: opts.dragMs ?? 0 });
    await waitWatch(page, 'firstView', opts.timeoutS * 1000);
    let watch = await page.evaluate(() => (window as unknown as { __drop: DropWatch }).__drop);
    seen = watch;
    if (watch.firstView !== null && opts.afterFirstView) await opts.afterFirstView(page);
    // The panel walk waits for exact counts in the page itself: waited for from here, the walk would start up to a
    // poll (250 ms) late, and that wait would be counted as the app's.
    const walk = watch.firstView !== null && opts.allPanels ? page.evaluate(allPanelsFinal, { timeoutMs: opts.timeoutS * 1000 }).catch(() => null) : null;
    if (watch.firstView !== null) await waitWatch(page, 'exact', opts.timeoutS * 1000);
    watch = await withTimeout(
      page.evaluate(() => (window as unknown as { __drop: DropWatch }).__drop),
      30_000,
      watch,
    );
    const finished = watch.exact !== null;
    // Every panel final: opened one after the other once the counts are exact, each waited for.
    const panelsRun = finished && walk ? await withTimeout(walk, opts.timeoutS * 1000 + 5000, null) : null;
    const panelsAt = panelsRun?.at ?? null;
    if (trace) {
      tracing = false;
      await browser.stopTracing();
      log(`trace of this run: ${trace}`);
    }
    const profile = finished ? undefined : await profileWorker(browser, 5).catch(() => null);
    const worker = await workerMeasures(page);
    const tasks = await withTimeout(page.evaluate(() => (window as unknown as { __longTasks: LongTask[] }).__longTasks), 30_000, [] as LongTask[]);
    const viewAt = watch.firstView ?? Infinity;
    const endAt = watch.exact ?? Infinity;
    const heap = opts.heap && finished ? await readHeap(browser, page).catch(() => null) : null;
    const rel = (t: number | null) => (t === null ? null : Math.round(t - watch.t0));
    return {
      file: input.name,
      bytes: input.bytes,
      firstViewMs: rel(watch.firstView),
      fullViewMs: rel(watch.fullView),
      contextViewMs: rel(watch.contextView ?? null),
      exactMs: rel(watch.exact),
      error: watch.error,
      worker,
      longTasksLoading: tasks.filter((t) => t.start >= watch.t0 && t.start < viewAt).map(round),
      longTasksCounting: tasks.filter((t) => t.start >= viewAt && t.start <= endAt).map(round),
      heap,
      ...(opts.allPanels ? { allPanelsMs: panelsAt === null ? null : Math.round(panelsAt - watch.t0), walkFromMs: panelsRun ? Math.round(panelsRun.walkFrom - watch.t0) : null, panels: panelsRun?.panels ?? [] } : {}),
      ...(profile !== undefined ? { profile } : {}),
      baseline: baseline && { decodeMs: Math.round(baseline.decodeMs), splitParseMs: Math.round(baseline.splitParseMs), lines: baseline.lines },
    };
  } catch (e) {
    // A crashed or wedged page still yields a row: what was reached, and why the rest was not.
    return {
      file: input.name,
      bytes: input.bytes,
      firstViewMs: seen?.firstView != null ? Math.round(seen.firstView - seen.t0) : null,
      fullViewMs: seen?.fullView != null ? Math.round(seen.fullView - seen.t0) : null,
      exactMs: seen?.exact != null ? Math.round(seen.exact - seen.t0) : null,
      error: crashed ?? (e instanceof Error ? e.message.split('\n')[0]! : String(e)),
      worker: [],
      longTasksLoading: [],
      longTasksCounting: [],
      heap: null,
      baseline: baseline && { decodeMs: Math.round(baseline.decodeMs), splitParseMs: Math.round(baseline.splitParseMs), lines: baseline.lines },
    };
  } finally {
    // A run that failed mid-walk still ends its trace: the browser allows one at a time.
    if (tracing) await browser.stopTracing().catch(() => undefined);
    await context.close().catch(() => undefined);
  }
}

/**
 * BENCH_TRACE=dir records a Chrome trace of each panel walk there (drop to last panel, every thread of the page and
 * its workers), to open in chrome://tracing or Perfetto: the bench's marks say how long, a trace says what ran.
 */
const TRACE_DIR = process.env.BENCH_TRACE ?? null;
const TRACE_CATEGORIES = (process.env.BENCH_TRACE_CATEGORIES ?? 'devtools.timeline,disabled-by-default-devtools.timeline,v8.execute,blink.user_timing,disabled-by-default-v8.cpu_profiler').split(',');
let traces = 0;
function traceFile(input: BenchInput): string | null {
  if (!TRACE_DIR) return null;
  mkdirSync(TRACE_DIR, { recursive: true });
  return join(TRACE_DIR, `${input.name.replace(/\.[^.]+$/, '')}-${++traces}.json`);
}

const round = (t: LongTask): LongTask => ({ start: Math.round(t.start), duration: Math.round(t.duration) });

/** The baselines page: the engine's modules, no app around them. */
async function engine<T>(browser: Browser, url: string, input: BenchInput, run: (page: Page) => Promise<T>): Promise<T> {
  const dataUrl = publish(input);
  const context = await newContext(browser);
  const page = await context.newPage();
  try {
    await page.goto(`${url}/bench-engine/index.html`);
    await page.waitForSelector('body[data-ready="true"]');
    await page.evaluate(([u, n]) => (window as unknown as { bench: { open(u: string, n: string): Promise<unknown> } }).bench.open(u!, n!), [dataUrl, input.name]);
    return await run(page);
  } finally {
    await context.close();
  }
}

type EngineApi = {
  uniqueOnce(): Promise<NonNullable<BrowserBench['b']['unique']>>;
  tokenizers(stride: number): Promise<NonNullable<BrowserBench['a']['tokenizers']>>;
  cachePrefix(): Promise<NonNullable<BrowserBench['b']['cachePrefix']>>;
};
const api = (page: Page) => ({
  uniqueOnce: () => page.evaluate(() => (window as unknown as { bench: EngineApi }).bench.uniqueOnce()),
  tokenizers: (stride: number) => page.evaluate((s) => (window as unknown as { bench: EngineApi }).bench.tokenizers(s), stride),
  cachePrefix: () => page.evaluate(() => (window as unknown as { bench: EngineApi }).bench.cachePrefix()),
});

function scaled(scale: number) {
  return {
    a: { ...CLAUDE_CODE_BENCH, records: Math.round(CLAUDE_CODE_BENCH.records * scale), bytes: Math.round(CLAUDE_CODE_BENCH.bytes * scale) },
    b: { ...REQUEST_LOG_BENCH, calls: Math.max(8, Math.round(REQUEST_LOG_BENCH.calls * scale)) },
    c: { ...AGENT_OMIT_BENCH, turns: Math.max(8, Math.round(AGENT_OMIT_BENCH.turns * scale)) },
  };
}

const log = (s: string) => console.log(`  [browser] ${s}`);

/** The item with the middle value, a value not measured (null, or not finite) counted as the slowest. */
function medianBy<T>(xs: readonly T[], value: (x: T) => number | null): T {
  const key = (x: T) => {
    const v = value(x);
    return v !== null && Number.isFinite(v) ? v : Infinity;
  };
  return [...xs].sort((a, b) => key(a) - key(b))[(xs.length - 1) >> 1]!;
}

/** The middle value, a run that was not in time (null) counted as the slowest; null if that is the middle. */
function medianOf(xs: readonly (number | null)[]): number | null {
  return medianBy(xs, (x) => x);
}

/** Pairs of (b)'s count and its unique-content baseline per scale; the median pair's ratio is the row. */
const COUNTING_B_RUNS = Math.max(1, Number(process.env.BENCH_COUNTING_B_RUNS ?? 3));

/** The measures at one scale, on an app already built and served. */
async function atScale(browser: Browser, url: string, opts: BrowserOptions, scale: number, build: { buildSeconds: number; initialJs: BrowserBench['initialJs'] }): Promise<BrowserBench> {
  const inputs = ensureInputs(scale === 1 ? {} : scaled(scale));
  log(`scale ${scale}: ${Object.values(inputs).map((i) => `${i.name} ${(i.bytes / 1e6).toFixed(1)} MB${i.generatedSeconds ? ` (generated in ${i.generatedSeconds} s)` : ''}`).join(', ')}`);
  // (a) and (b) give the counting rows: their ranks are loaded first, like the baselines' (see ranksLoaded).
  const openA = await measureOpen(browser, url, inputs.a, { timeoutS: opts.timeoutS, baseline: true, heap: true, ranksFirst: true });
  log(`(a) first view ${openA.firstViewMs ?? 'not in time'} ms, whole session ${openA.fullViewMs ?? 'not in time'} ms, exact ${openA.exactMs ?? 'not in time'} ms${openA.error ? ` (${openA.error})` : ''}`);
  const tokA = await engine(browser, url, inputs.a, (p) => api(p).tokenizers(opts.stride));
  log(`(a) baseline tokenizers: ${JSON.stringify(tokA.rows)}`);

  // Counting (b) is a ratio of two timings taken apart: pairs of them, side by side, and the median pair's.
  const pairs: { openB: Awaited<ReturnType<typeof measureOpen>>; unique: NonNullable<BrowserBench['b']['unique']>; ratio: number }[] = [];
  for (let i = 0; i < COUNTING_B_RUNS; i++) {
    const open = await measureOpen(browser, url, inputs.b, { timeoutS: opts.timeoutS, ranksFirst: true });
    log(`(b) first view ${open.firstViewMs ?? 'not in time'} ms, whole session ${open.fullViewMs ?? 'not in time'} ms, exact ${open.exactMs ?? 'not in time'} ms${open.error ? ` (${open.error})` : ''}`);
    const once = await engine(browser, url, inputs.b, (p) => api(p).uniqueOnce());
    const count = open.worker.filter((w) => w.name === 'analysis:exact-count').at(-1)?.ms;
    pairs.push({ openB: open, unique: once, ratio: count === undefined ? Infinity : count / once.ms });
  }
  const { openB, unique } = medianBy(pairs, (p) => p.ratio);
  if (pairs.length > 1) log(`(b) count against unique once, ${pairs.length} pairs: ${pairs.map((p) => `${Number.isFinite(p.ratio) ? p.ratio.toFixed(2) : '—'}×`).join(', ')}; the median pair is reported`);
  const cachePrefix = await engine(browser, url, inputs.b, (p) => api(p).cachePrefix());
  log(`(b) unique once ${unique.ms} ms; cache prefix first run ${cachePrefix.coldMs} ms, then ${cachePrefix.fastMs} ms vs naive ${cachePrefix.naiveMs} ms`);

  let steps: BrowserBench['c']['steps'] = null;
  const openC = await measureOpen(browser, url, inputs.c, {
    timeoutS: opts.timeoutS,
    afterFirstView: async (page) => {
      steps = await page.evaluate(stepWithJ, { steps: opts.steps, budgetMs: 60_000 });
    },
  });
  log(`(c) first view ${openC.firstViewMs ?? 'not in time'} ms; ${steps ? `${(steps as { times: number[] }).times.length} steps` : 'no steps'}${openC.error ? ` (${openC.error})` : ''}`);

  const pick = (i: BenchInput) => ({ name: i.name, bytes: i.bytes, spec: i.spec, generatedSeconds: i.generatedSeconds });
  const { baseline: _b, ...b } = openB;
  const { baseline: _c, ...c } = openC;
  return {
    typical: null,
    scale,
    chromium: browser.version(),
    ...build,
    inputs: { a: pick(inputs.a), b: pick(inputs.b), c: pick(inputs.c) },
    a: { ...openA, tokenizers: tokA },
    b: { ...b, unique, cachePrefix, countRatios: pairs.map((p) => (Number.isFinite(p.ratio) ? Math.round(p.ratio * 100) / 100 : null)) },
    c: { ...c, steps },
  };
}

/** Runs of the typical row per bench run: one run moved by ±20 % with this 2-core machine's load. */
const TYPICAL_RUNS = Math.max(1, Number(process.env.BENCH_TYPICAL_RUNS ?? 5));
/**
 * How long the typical row's file is dragged over the page before the drop: a hand carries a file in from another
 * window for a few hundred ms, and the app starts loading the ranks 120 ms into a drag (DropZone.tsx).
 */
const TYPICAL_DRAG_MS = 300;
/** Runs of the same file dropped with no drag before it, reported beside the row. */
const TYPICAL_INSTANT_RUNS = Math.max(1, Number(process.env.BENCH_TYPICAL_INSTANT_RUNS ?? 3));


/**
 * The typical-session row: drop → first view and drop → every panel final, beside the same file's split + parse,
 * each the median of TYPICAL_RUNS fresh pages; the details (panels, worker phases) are the median run's.
 */
async function measureTypical(browser: Browser, url: string, opts: BrowserOptions): Promise<TypicalMeasure> {
  const input = ensureTypical();
  /** `n` fresh pages opening `file` after a drag of `dragMs`, each logged. */
  const measureRuns = async (what: string, file: BenchInput, n: number, dragMs: number, baseline = false) => {
    const ms: Awaited<ReturnType<typeof measureOpen>>[] = [];
    for (let i = 0; i < n; i++) {
      const m = await measureOpen(browser, url, file, { timeoutS: opts.timeoutS, baseline, allPanels: true, dragMs });
      log(`(typical) ${what}, run ${i + 1} of ${n}: first view ${m.firstViewMs ?? 'not in time'} ms, exact at ${m.exactMs ?? '?'} ms, all panels final at ${m.allPanelsMs ?? 'not in time'} ms`);
      ms.push(m);
    }
    return ms;
  };
  const all = await measureRuns(`dropped after a ${TYPICAL_DRAG_MS} ms drag`, input, TYPICAL_RUNS, TYPICAL_DRAG_MS, true);
  const figures = async (what: string, file: BenchInput, dragMs: number): Promise<TypicalFigures> => {
    const ms = await measureRuns(what, file, TYPICAL_INSTANT_RUNS, dragMs);
    const out = { firstViewMs: medianOf(ms.map((r) => r.firstViewMs)), exactMs: medianOf(ms.map((r) => r.exactMs)), allPanelsMs: medianOf(ms.map((r) => r.allPanelsMs ?? null)), runs: ms.length };
    log(`(typical) ${what}: first view ${out.firstViewMs ?? 'not in time'} ms, every panel final ${out.allPanelsMs ?? 'not in time'} ms (medians of ${out.runs})`);
    return out;
  };
  const instant = await figures('dropped with no drag', input, 0);
  const runs = all.map((m) => ({ firstViewMs: m.firstViewMs, exactMs: m.exactMs, allPanelsMs: m.allPanelsMs ?? null, splitParseMs: m.baseline?.splitParseMs ?? null }));
  const m = medianBy(all, (r) => r.allPanelsMs ?? null);
  const allPanelsMs = m.allPanelsMs ?? null;
  const firstViewMs = medianOf(runs.map((r) => r.firstViewMs));
  const baseline = m.baseline ? { ...m.baseline, splitParseMs: medianOf(runs.map((r) => r.splitParseMs)) ?? m.baseline.splitParseMs } : null;
  log(`(typical) ${(input.bytes / 1e6).toFixed(1)} MB: first view ${firstViewMs ?? 'not in time'} ms, every panel final ${allPanelsMs ?? 'not in time'} ms, split + parse ${baseline?.splitParseMs ?? '?'} ms (medians of ${TYPICAL_RUNS} runs)${m.error ? ` (${m.error})` : ''}`);
  log(`(typical) the median run: exact counts at ${m.exactMs ?? '?'} ms, first panel clicked at ${m.walkFromMs ?? '?'} ms; per panel: ${(m.panels ?? []).map((p) => `${p.name} ${p.ms} ms`).join(', ')}`);
  log(`(typical) in the analysis worker: ${m.worker.map((w) => `${w.name} ${w.ms} ms${w.detail && ("endsAt" in w.detail || "startsAt" in w.detail) ? ` (${"endsAt" in w.detail ? "ends" : "starts"} at ${String(w.detail["endsAt"] ?? w.detail["startsAt"])} ms)` : ""}${w.detail?.["worker"] === "audit" ? " (in the audit worker)" : ""}`).join(", ")}`);
  return { ...m, firstViewMs, baseline, spec: input.spec, allPanelsMs, walkFromMs: m.walkFromMs ?? null, panels: m.panels ?? [], runs, dragMs: TYPICAL_DRAG_MS, instant };
}

/** Runs of the real sample per app (built and dev server, alternated). */
const REAL_RUNS = Math.max(1, Number(process.env.BENCH_REAL_RUNS ?? 5));

/**
 * The real shared sample, dropped after the typical row's drag into the built app and into the dev server, one
 * after the other (a built run, then a dev run, REAL_RUNS times: the machine's load moves between them, not within
 * a pair), each beside its own split + parse in the same page. Null without ../shared/samples beside the repo.
 */
async function measureReal(browser: Browser, url: string, devUrl: string | null, opts: BrowserOptions): Promise<RealMeasure | null> {
  if (!existsSync(REAL_TYPICAL)) {
    log('(real) no ../shared/samples beside the repo: the real sample is not measured');
    return null;
  }
  const input: BenchInput = { name: 'claude-code-compacted.jsonl', path: REAL_TYPICAL, bytes: statSync(REAL_TYPICAL).size, spec: {}, generatedSeconds: 0 };
  const built: Awaited<ReturnType<typeof measureOpen>>[] = [];
  const dev: Awaited<ReturnType<typeof measureOpen>>[] = [];
  for (let i = 0; i < REAL_RUNS; i++) {
    for (const [where, at, list] of [['built', url, built], ['dev server', devUrl, dev]] as const) {
      if (!at) continue;
      const m = await measureOpen(browser, at, input, { timeoutS: opts.timeoutS, baseline: true, allPanels: true, dragMs: TYPICAL_DRAG_MS });
      log(`(real) ${where}, run ${i + 1} of ${REAL_RUNS}: first view ${m.firstViewMs ?? 'not in time'} ms (split + parse ${m.baseline?.splitParseMs ?? '?'} ms), exact at ${m.exactMs ?? '?'} ms, all panels final at ${m.allPanelsMs ?? 'not in time'} ms`);
      list.push(m);
    }
  }
  const figuresOf = (ms: Awaited<ReturnType<typeof measureOpen>>[]): RealFigures => {
    const median = medianBy(ms, (r) => r.allPanelsMs ?? null);
    return {
      firstViewMs: medianOf(ms.map((r) => r.firstViewMs)),
      exactMs: medianOf(ms.map((r) => r.exactMs)),
      allPanelsMs: medianOf(ms.map((r) => r.allPanelsMs ?? null)),
      splitParseMs: medianOf(ms.map((r) => r.baseline?.splitParseMs ?? null)),
      runs: ms.length,
      perRun: ms.map((r) => ({ firstViewMs: r.firstViewMs, exactMs: r.exactMs, allPanelsMs: r.allPanelsMs ?? null, splitParseMs: r.baseline?.splitParseMs ?? null })),
      panels: median.panels ?? [],
      worker: median.worker,
      error: ms.find((r) => r.error)?.error ?? null,
    };
  };
  const out: RealMeasure = { file: input.name, bytes: input.bytes, lines: built[0]?.baseline?.lines ?? null, dragMs: TYPICAL_DRAG_MS, built: figuresOf(built), dev: dev.length ? figuresOf(dev) : null };
  log(`(real) built: first view ${out.built.firstViewMs ?? '—'} ms, every panel final ${out.built.allPanelsMs ?? '—'} ms; dev server: ${out.dev ? `${out.dev.firstViewMs ?? '—'} ms, ${out.dev.allPanelsMs ?? '—'} ms` : 'not run'} (medians of ${REAL_RUNS})`);
  log(`(real) built, the median run's analysis worker: ${out.built.worker.map((w) => `${w.name} ${w.ms} ms`).join(', ')}`);
  return out;
}

/** Sizes of the long session opened in the app, and runs of each (the best is reported). */
const LONG_SIZES = [10_000, 30_000];
const LONG_RUNS = Math.max(1, Number(process.env.BENCH_LONG_RUNS ?? 2));

/** The long session of realistic shape (CLAUDE_CODE_LONG) dropped into the built app at 10k and 30k records. */
async function measureLongApp(browser: Browser, url: string, opts: BrowserOptions): Promise<LongAppMeasure[]> {
  const files = ensureLong(LONG_SIZES);
  const out: LongAppMeasure[] = [];
  for (const records of LONG_SIZES) {
    const input = files.get(records)!;
    const ms: Awaited<ReturnType<typeof measureOpen>>[] = [];
    for (let i = 0; i < LONG_RUNS; i++) {
      const m = await measureOpen(browser, url, input, { timeoutS: opts.timeoutS });
      log(`(long) ${records.toLocaleString('en-US')} records, run ${i + 1} of ${LONG_RUNS}: first view ${m.firstViewMs ?? 'not in time'} ms, whole session ${m.fullViewMs ?? 'not in time'} ms, exact (cache prefix and lints with it) ${m.exactMs ?? 'not in time'} ms${m.error ? ` (${m.error})` : ''}`);
      ms.push(m);
    }
    const best = [...ms].sort((a, b) => (a.exactMs ?? Infinity) - (b.exactMs ?? Infinity))[0]!;
    out.push({ records, bytes: input.bytes, firstViewMs: best.firstViewMs, fullViewMs: best.fullViewMs, exactMs: best.exactMs, runs: ms.map((m) => m.exactMs), worker: best.worker, error: best.error });
  }
  return out;
}

/** Opening an input that used to freeze the page: the longest main-thread task from the drop to the exact counts. */
export interface LargeMeasure {
  input: 'bundle' | 'one line' | '3,000 compactions';
  file: string;
  bytes: number;
  /** Longest main-thread task from the drop until the exact counts (or the timeout), ms. */
  longestMs: number;
  longTasks: number;
  shownMs: number | null;
  error: string | null;
}

async function measureLarge(browser: Browser, url: string, opts: BrowserOptions): Promise<LargeMeasure[]> {
  const inputs = await ensureLargeInputs();
  const out: LargeMeasure[] = [];
  for (const [label, input] of [['bundle', inputs.bundle], ['one line', inputs.oneLine], ['3,000 compactions', inputs.compactions]] as const) {
    const m = await measureOpen(browser, url, input, { timeoutS: opts.timeoutS });
    const tasks = [...m.longTasksLoading, ...m.longTasksCounting];
    const longest = tasks.reduce((x, t) => Math.max(x, t.duration), 0);
    out.push({ input: label, file: input.name, bytes: input.bytes, longestMs: Math.round(longest), longTasks: tasks.length, shownMs: m.fullViewMs, error: m.error });
    log(`(large) ${label}, ${(input.bytes / 1e6).toFixed(0)} MB: shown at ${m.fullViewMs ?? 'not in time'} ms, longest main-thread task ${Math.round(longest)} ms (${tasks.length} over 50 ms)${m.error ? ` (${m.error})` : ''}`);
  }
  return out;
}

/** Opens the dev server's page until it stays loaded (its dependency optimizer settled), so no measured page pays for it. */
async function warmDev(browser: Browser, url: string): Promise<void> {
  const context = await newContext(browser);
  try {
    const page = await context.newPage();
    await page.goto(url, { waitUntil: 'networkidle', timeout: 180_000 });
    await page.waitForTimeout(3000);
    await page.goto(url, { waitUntil: 'networkidle', timeout: 180_000 });
  } finally {
    await context.close();
  }
}

/** Which parts of the browser half run. */
export interface BrowserParts {
  typical: boolean;
  large: boolean;
  real: boolean;
  long: boolean;
  /** `serve`'s session table on 1,000 sessions (serve-page.ts). */
  serve: boolean;
}

/** One build and one browser for every scale asked for (the issue's sizes first, then smaller ones if any). */
export async function benchBrowser(
  opts: BrowserOptions,
  scales: number[],
  parts: BrowserParts = { typical: true, large: true, real: true, long: true, serve: true },
): Promise<{ results: BrowserBench[]; typical: TypicalMeasure | null; large: LargeMeasure[]; real: RealMeasure | null; long: LongAppMeasure[]; serve: ServePageMeasure | null }> {
  // The baselines page only where a scale's rows need it.
  const { seconds: buildSeconds } = await buildAll({ engine: scales.length > 0 });
  log(`built the app and the baselines page in ${buildSeconds} s`);
  const { url, server } = await startPreview();
  const dev = parts.real ? await startDev() : null;
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: launchArgs() });
  try {
    // The dev server bundles the app's dependencies on its first page and may reload it: done before any measure.
    if (dev) await warmDev(browser, dev.url);
    const initialJs = await measureInitialJs(browser, url);
    log(`initial JS ${(initialJs.gzipBytes / 1024).toFixed(1)} KB gzip in ${initialJs.files.length} files`);
    const typical = parts.typical ? await measureTypical(browser, url, opts) : null;
    const real = parts.real ? await measureReal(browser, url, dev?.url ?? null, opts) : null;
    const long = parts.long ? await measureLongApp(browser, url, opts) : [];
    const large = parts.large ? await measureLarge(browser, url, opts) : [];
    // `serve` hands out the same build the preview serves.
    const serve = parts.serve ? await measureServePage(browser, APP_OUT, { timeoutS: opts.timeoutS, initScripts: [NAME_SHIM, recordLongTasks] }) : null;
    const out: BrowserBench[] = [];
    for (const scale of scales) out.push({ ...(await atScale(browser, url, opts, scale, { buildSeconds, initialJs })), typical });
    return { results: out, typical, large, real, long, serve };
  } finally {
    await browser.close();
    await server.close();
    await dev?.server.close();
  }
}
