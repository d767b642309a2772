// One drop of a file into the app under a Chrome trace, and the CPU time (thread time, `tdur`) each thread spent
// from the drop to the first view and to the exact counts: on a shared machine the wall time moves with the load,
// the thread time much less. `node --import tsx bench/trace-drop.ts FILE [--dev] [--drag MS] [--light] [--out trace.json]`
// (after `npm run bench` built the app into bench/results/app, or with --build; `--app DIR` serves another build,
// a kept copy from before a change).
import { copyFileSync, mkdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { chromium } from 'playwright-core';
import { APP_OUT, buildAll, startDev, startPreview } from './browser/build';
import { dropFetched, recordLongTasks, type DropWatch } from './browser/page-probes';
import { loadSourceMap, type Resolver } from './browser/source-map';

/** PROFILE_INCLUSIVE=1: each function's samples with its callees (self time otherwise); PROFILE_APP_DIR: the build a trace ran (for its source maps). */
const INCLUSIVE = process.env.PROFILE_INCLUSIVE === '1';
/** PROFILE_UNDER=regex: only the samples with a frame on their stack matching it (`name source:line`, as printed). */
const UNDER = process.env.PROFILE_UNDER ? new RegExp(process.env.PROFILE_UNDER) : null;
const args = process.argv.slice(2);
if (args[0] === '--profile') {
  profileOf(args[1]!, (args[2] as Window | undefined) ?? 'first', args[3] ?? null);
  process.exit(0);
}
if (args[0] === '--stages') {
  for (const f of args.slice(1)) stagesOf(f);
  process.exit(0);
}
if (args[0] === '--walk') {
  for (const f of args.slice(1)) walkOf(f);
  process.exit(0);
}
const file = args.find((a, i) => !a.startsWith('--') && !/^\d+$/.test(a) && !a.endsWith('.json') && args[i - 1] !== '--app')!;
const flag = (name: string) => args.includes(name);
const value = (name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const dragMs = Number(value('--drag') ?? 300);
const out = value('--out') ?? '/tmp/trace-drop.json';
if (flag('--build')) await buildAll();
const appDir = value('--app') ?? APP_OUT;
const dir = join(appDir, 'bench-data');
mkdirSync(dir, { recursive: true });
const name = basename(file);
rmSync(join(dir, name), { force: true });
copyFileSync(file, join(dir, name));
const srv = flag('--dev') ? await startDev() : await startPreview(appDir);
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
try {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  await context.addInitScript('globalThis.__name = globalThis.__name || ((f) => f);');
  await context.addInitScript(recordLongTasks);
  const page = await context.newPage();
  await page.goto(srv.url, { waitUntil: 'networkidle', timeout: 180_000 });
  if (flag('--dev')) {
    await page.waitForTimeout(3000);
    await page.goto(srv.url, { waitUntil: 'networkidle', timeout: 180_000 });
  }
  await page.waitForTimeout(1000);
  // --light: no sampling profiler (it costs each thread ~60 ms of CPU to start, in the window it measures).
  const profiler = flag('--light') ? [] : ['disabled-by-default-v8.cpu_profiler'];
  await browser.startTracing(page, { path: out, categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8.execute', 'blink.user_timing', 'v8', ...profiler] });
  await page.evaluate(dropFetched, { url: `/bench-data/${name}`, name, dragMs });
  await page.waitForFunction(() => (window as unknown as { __drop: DropWatch }).__drop.exact !== null, undefined, { timeout: 180_000, polling: 100 });
  await page.waitForTimeout(500);
  const watch = await page.evaluate(() => (window as unknown as { __drop: DropWatch }).__drop);
  await browser.stopTracing();
  console.log(`first view ${Math.round(watch.firstView! - watch.t0)} ms, context view ${watch.contextView ? Math.round(watch.contextView - watch.t0) : '?'} ms, exact ${Math.round(watch.exact! - watch.t0)} ms (${(statSync(file).size / 1e6).toFixed(1)} MB)`);
  summarize(out, watch);
} finally {
  await browser.close();
  await srv.server.close();
}

/** Thread time of the top-level tasks of each thread, in the windows drop → first view and first view → exact. */
function summarize(path: string, _watch: DropWatch): void {
  type Ev = { name: string; ph: string; ts: number; dur?: number; tdur?: number; pid: number; tid: number; cat: string; args?: { name?: string; data?: { url?: string; functionName?: string } } };
  const events = (JSON.parse(readFileSync(path, 'utf8')) as { traceEvents: Ev[] }).traceEvents;
  const markAt = (n: string) => events.find((e) => e.name === n)?.ts ?? null;
  const drop = markAt('bench:drop');
  const first = markAt('bench:first-view');
  const exact = markAt('bench:exact');
  if (drop === null || first === null || exact === null) {
    console.log('the bench marks are not in the trace');
    return;
  }
  // Name each thread: the page's main thread, else the worker script it evaluated.
  const label = new Map<string, string>();
  for (const e of events) if (e.ph === 'M' && e.name === 'thread_name') label.set(`${e.pid}:${e.tid}`, e.args?.name ?? '?');
  for (const e of events) {
    const url = e.args?.data?.url ?? '';
    const m = /\/([\w.-]+\.worker)[-.\w]*\.(?:js|ts)/.exec(url);
    const k = `${e.pid}:${e.tid}`;
    if (m && (label.get(k) ?? '').startsWith('DedicatedWorker')) label.set(k, m[1]!);
  }
  const tasks = events.filter((e) => e.ph === 'X' && (e.name === 'RunTask' || e.name === 'ThreadControllerImpl::RunTask') && e.tdur !== undefined);
  const context = markAt('bench:context-view');
  // The analysis's first view, when it came after the first view (painted from the reported usage).
  const windows: [string, number, number][] = [['drop → first view', drop, first], ...(context !== null && context > first ? [['drop → context view', drop, context] as [string, number, number]] : []), ['first view → exact', first, exact]];
  for (const [what, from, to] of windows) {
    const rows = new Map<string, { cpu: number; wall: number }>();
    for (const e of tasks) {
      const end = e.ts + (e.dur ?? 0);
      if (end <= from || e.ts >= to) continue;
      // A task cut by the window counts its share (thread time spread evenly over its wall time).
      const share = (Math.min(end, to) - Math.max(e.ts, from)) / Math.max(1, e.dur ?? 1);
      const k = label.get(`${e.pid}:${e.tid}`) ?? `${e.pid}:${e.tid}`;
      const row = rows.get(k) ?? { cpu: 0, wall: 0 };
      row.cpu += ((e.tdur ?? 0) * share) / 1000;
      row.wall += ((e.dur ?? 0) * share) / 1000;
      rows.set(k, row);
    }
    const total = [...rows.values()].reduce((n, r) => n + r.cpu, 0);
    console.log(`${what}: ${((to - from) / 1000).toFixed(0)} ms wall, ${total.toFixed(0)} ms of thread time`);
    for (const [k, v] of [...rows].sort((a, b) => b[1].cpu - a[1].cpu).slice(0, 10)) console.log(`  ${k.padEnd(30)} cpu ${v.cpu.toFixed(0).padStart(6)} ms   busy ${v.wall.toFixed(0).padStart(6)} ms`);
  }
}

/**
 * Where a bench run's time went, stage by stage (`node --import tsx bench/trace-drop.ts --stages TRACE…`, traces of
 * `BENCH_TRACE`): each thread's CPU from the drop to the first view, to the analysis's context view, to the exact
 * counts and to every panel final; the workers' own measures (load:*, analysis:*) as wall spans from the drop; and
 * each panel of the walk, its wall and the page's CPU.
 */
function stagesOf(path: string): void {
  type Ev = { name: string; ph: string; ts: number; dur?: number; tdur?: number; pid: number; tid: number; cat?: string; id2?: { local?: string }; id?: string; args?: { name?: string; data?: { url?: string } } };
  const events = (JSON.parse(readFileSync(path, 'utf8')) as { traceEvents: Ev[] }).traceEvents;
  const markAt = (n: string) => events.find((e) => e.name === n)?.ts ?? null;
  const drop = markAt('bench:drop');
  if (drop === null) return console.log(`${basename(path)}: no bench:drop mark`);
  const label = new Map<string, string>();
  for (const e of events) if (e.ph === 'M' && e.name === 'thread_name') label.set(`${e.pid}:${e.tid}`, e.args?.name ?? '?');
  for (const e of events) {
    const m = /\/([\w.-]+\.worker)[-.\w]*\.(?:js|ts)/.exec(e.args?.data?.url ?? '');
    const k = `${e.pid}:${e.tid}`;
    if (m && (label.get(k) ?? '').startsWith('DedicatedWorker')) label.set(k, m[1]!);
  }
  const ms = (t: number) => Math.round((t - drop) / 1000);
  const tasks = events.filter((e) => e.ph === 'X' && (e.name === 'RunTask' || e.name === 'ThreadControllerImpl::RunTask') && e.tdur !== undefined);
  const cpuIn = (from: number, to: number) => {
    const rows = new Map<string, number>();
    for (const e of tasks) {
      const end = e.ts + (e.dur ?? 0);
      if (end <= from || e.ts >= to) continue;
      const share = (Math.min(end, to) - Math.max(e.ts, from)) / Math.max(1, e.dur ?? 1);
      const k = label.get(`${e.pid}:${e.tid}`) ?? `${e.pid}:${e.tid}`;
      rows.set(k, (rows.get(k) ?? 0) + ((e.tdur ?? 0) * share) / 1000);
    }
    return rows;
  };
  console.log(`== ${basename(path)}`);
  const points = (['bench:first-view', 'bench:context-view', 'bench:exact', 'bench:panels-final'] as const).map((n) => [n.slice(6), markAt(n)] as const).filter((p): p is readonly [string, number] => p[1] !== null);
  let from = drop;
  let fromName = 'drop';
  let total = 0;
  for (const [name, at] of points) {
    if (at <= from) continue;
    const rows = [...cpuIn(from, at)].filter(([, v]) => v >= 5).sort((a, b) => b[1] - a[1]);
    const sum = rows.reduce((n, [, v]) => n + v, 0);
    total += sum;
    console.log(`  ${fromName} → ${name}: ${ms(at) - ms(from)} ms wall (at ${ms(at)}), CPU ${sum.toFixed(0)} ms: ${rows.map(([k, v]) => `${k} ${v.toFixed(0)}`).join(', ')}`);
    from = at;
    fromName = name;
  }
  console.log(`  all threads' CPU, drop → ${fromName}: ${total.toFixed(0)} ms`);
  // The workers' measures: begin/end pairs of blink.user_timing, by name and thread.
  const open = new Map<string, number>();
  const spans: string[] = [];
  for (const e of [...events].sort((a, b) => a.ts - b.ts)) {
    if (!(e.cat ?? '').includes('user_timing') || !/^(load|analysis|audit|tokens):/.test(e.name)) continue;
    const k = `${e.pid}:${e.tid}:${e.name}`;
    if (e.ph === 'b') open.set(k, e.ts);
    else if (e.ph === 'e' && open.has(k)) {
      spans.push(`${e.name} ${ms(open.get(k)!)}–${ms(e.ts)}`);
      open.delete(k);
    }
  }
  console.log(`  measures (ms from the drop): ${spans.join(', ')}`);
  const marks = events.filter((e) => e.name.startsWith('bench:panel:')).sort((a, b) => a.ts - b.ts);
  const end = markAt('bench:panels-final');
  const main = [...label].find(([, v]) => v === 'CrRendererMain')?.[0];
  const walk = marks.map((m, i) => {
    const to = marks[i + 1]?.ts ?? end ?? m.ts;
    const cpu = main ? (cpuIn(m.ts, to).get('CrRendererMain') ?? 0) : 0;
    return `${m.name.slice(12)} ${Math.round((to - m.ts) / 1000)}/${cpu.toFixed(0)}`;
  });
  if (walk.length) console.log(`  panels (wall/main-thread CPU ms): ${walk.join(', ')}`);
}

/**
 * The page's main-thread CPU (thread time) per panel of a bench walk (BENCH_TRACE), from each tab's click to the
 * next one's: `node --import tsx bench/trace-drop.ts --walk TRACE…`.
 */
function walkOf(path: string): void {
  type Ev = { name: string; ph: string; ts: number; dur?: number; tdur?: number; pid: number; tid: number; args?: { name?: string } };
  const events = (JSON.parse(readFileSync(path, 'utf8')) as { traceEvents: Ev[] }).traceEvents;
  const main = events.find((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
  const marks = events.filter((e) => e.name.startsWith('bench:panel:')).sort((a, b) => a.ts - b.ts);
  const tasks = events.filter((e) => e.ph === 'X' && e.pid === main?.pid && e.tid === main?.tid && (e.name === 'RunTask' || e.name === 'ThreadControllerImpl::RunTask') && e.tdur !== undefined);
  const row = marks.map((m, i) => {
    const to = marks[i + 1]?.ts ?? Infinity;
    let cpu = 0;
    for (const e of tasks) {
      const end = e.ts + (e.dur ?? 0);
      if (end <= m.ts || e.ts >= to) continue;
      cpu += ((e.tdur ?? 0) * (Math.min(end, to) - Math.max(e.ts, m.ts))) / Math.max(1, e.dur ?? 1) / 1000;
    }
    return `${m.name.slice(12)} ${cpu.toFixed(0)}${Number.isFinite(to) ? '' : '+'}`;
  });
  console.log(`${basename(path)}: main-thread CPU ms per panel: ${row.join(', ')}`);
}

/**
 * The functions each thread ran most between two bench marks, from the trace's sampling profile, named through the
 * build's hidden source maps: `node --import tsx bench/trace-drop.ts --profile TRACE [first|exact|panels|panel:NAME] [THREAD]`
 * (`panel:Flow`: from the walk's click on that tab to its click on the next; `ms:A-B`: A to B ms after the drop).
 */
type Window = 'first' | 'exact' | 'panels' | `panel:${string}` | `ms:${number}-${number}`;
export function profileOf(path: string, window: Window, only: string | null, top = 15): void {
  type Node = { id: number; parent?: number; callFrame: { functionName?: string; scriptId?: number | string; url?: string; lineNumber?: number; columnNumber?: number } };
  type Ev = { name: string; ph: string; ts: number; pid: number; tid: number; id?: string; args?: { name?: string; data?: { url?: string; scriptId?: number | string; startTime?: number; cpuProfile?: { nodes?: Node[]; samples?: number[] }; timeDeltas?: number[] } } };
  const events = (JSON.parse(readFileSync(path, 'utf8')) as { traceEvents: Ev[] }).traceEvents;
  const markAt = (n: string) => events.find((e) => e.name === n)?.ts ?? 0;
  // 'panels': from the exact counts to the trace's end (a bench walk's panels, BENCH_TRACE).
  const panelWindow = (name: string): [number, number] => {
    const marks = events.filter((e) => e.name.startsWith('bench:panel:')).sort((a, b) => a.ts - b.ts);
    const i = marks.findIndex((e) => e.name === `bench:panel:${name}`);
    if (i < 0) throw new Error(`no bench:panel:${name} mark in the trace (marks: ${marks.map((e) => e.name.slice(12)).join(', ')})`);
    return [marks[i]!.ts, marks[i + 1]?.ts ?? Infinity];
  };
  // 'ms:A-B': from A to B ms after the drop.
  const span = /^ms:(-?\d+)-(\d+)$/.exec(window);
  const [from, to] = span ? [markAt('bench:drop') + Number(span[1]) * 1000, markAt('bench:drop') + Number(span[2]) * 1000] : window === 'first' ? [markAt('bench:drop'), markAt('bench:first-view')] : window === 'exact' ? [markAt('bench:first-view'), markAt('bench:exact')] : window === 'panels' ? [markAt('bench:exact'), Infinity] : panelWindow(window.slice(6));
  const label = new Map<string, string>();
  for (const e of events) if (e.ph === 'M' && e.name === 'thread_name') label.set(`${e.pid}:${e.tid}`, e.args?.name ?? '?');
  const scripts = new Map<string, string>();
  for (const e of events) {
    const d = e.args?.data;
    if (d?.url && d.scriptId !== undefined) scripts.set(`${e.pid}:${d.scriptId}`, d.url);
    const m = /\/([\w.-]+\.worker)/.exec(d?.url ?? '');
    if (m && (label.get(`${e.pid}:${e.tid}`) ?? '').startsWith('DedicatedWorker')) label.set(`${e.pid}:${e.tid}`, m[1]!);
  }
  const maps = new Map<string, Resolver | null>();
  const where = (url: string, line: number, column: number) => {
    const p = url.startsWith('http') ? new URL(url).pathname : '';
    if (!p.endsWith('.js')) return `${url.split('/').pop()}:${line + 1}`;
    if (!maps.has(p)) maps.set(p, loadSourceMap(join(process.env.PROFILE_APP_DIR ?? APP_OUT, p)));
    return maps.get(p)?.resolve(line, column) ?? `${p.split('/').pop()}:${line + 1}`;
  };
  const profiles = new Map<string, { start: number; tid: number; nodes: Map<number, Node>; samples: number[]; deltas: number[] }>();
  for (const e of events) if (e.name === 'Profile') profiles.set(`${e.pid}:${e.id}`, { start: e.args!.data!.startTime!, tid: e.tid, nodes: new Map(), samples: [], deltas: [] });
  for (const e of events) {
    if (e.name !== 'ProfileChunk') continue;
    const p = profiles.get(`${e.pid}:${e.id}`);
    if (!p) continue;
    for (const n of e.args?.data?.cpuProfile?.nodes ?? []) p.nodes.set(n.id, n);
    p.samples.push(...(e.args?.data?.cpuProfile?.samples ?? []));
    p.deltas.push(...(e.args?.data?.timeDeltas ?? []));
  }
  for (const [key, p] of profiles) {
    const pid = key.split(':')[0]!;
    const name = label.get(`${pid}:${p.tid}`) ?? String(p.tid);
    if (only && name !== only) continue;
    // Chrome's profile chunks give children, not parents.
    const parents = new Map<number, Node>();
    for (const x of p.nodes.values()) for (const c of (x as Node & { children?: number[] }).children ?? []) parents.set(c, x);
    let t = p.start;
    let total = 0;
    let us = 0;
    const self = new Map<string, number>();
    p.samples.forEach((s, i) => {
      t += p.deltas[i] ?? 0;
      if (t < from || t > to) return;
      const n = p.nodes.get(s);
      const fn = n?.callFrame.functionName || '(anonymous)';
      if (!n || fn === '(idle)') return;

      const keyOf = (x: Node) => {
        const cf = x.callFrame;
        const f = cf.functionName || '(anonymous)';
        const url = cf.url || scripts.get(`${pid}:${cf.scriptId}`) || '';
        // An anonymous function is named by where it is; (program), (garbage collector) and the like have no place.
        return f.startsWith('(') && !url ? f : `${f} ${where(url, cf.lineNumber ?? 0, cf.columnNumber ?? 0)}`;
      };
      if (UNDER) {
        let hit = false;
        for (let x: Node | undefined = n; x && !hit; x = x.parent !== undefined ? p.nodes.get(x.parent) : parents.get(x.id)) hit = UNDER.test(keyOf(x));
        if (!hit) return;
      }
      total++;
      us += p.deltas[i] ?? 0;
      if (!INCLUSIVE) {
        const k = keyOf(n);
        self.set(k, (self.get(k) ?? 0) + 1);
        return;
      }
      // Inclusive: every function on the sample's stack, once.
      const seen = new Set<string>();
      for (let x: Node | undefined = n; x; x = x.parent !== undefined ? p.nodes.get(x.parent) : parents.get(x.id)) seen.add(keyOf(x));
      for (const k of seen) self.set(k, (self.get(k) ?? 0) + 1);
    });
    if (total < 5) continue;
    console.log(`== ${name}: ${total} samples, ~${Math.round(us / 1000)} ms`);
    for (const [k, v] of [...self].sort((a, b) => b[1] - a[1]).slice(0, INCLUSIVE ? top * 4 : top)) console.log(`  ${String(v).padStart(5)} ${k}`);
  }
}
