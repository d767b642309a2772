// Where `inspect --json --no-cache`'s CPU goes on the long session of realistic shape (issue 33), stage by stage, in
// one process: each stage timed with process.cpuUsage (the process's CPU: this thread, the GC's helpers beside it).
// The analysis stages run twice: the first pass counts every text, the second (`warm`) reads the counts back, so
// the two apart say what counting costs and what the pass itself does. `gc` is the GC's pause time (wall) over the run.
// Run: `node --import tsx bench/long-stages.ts FILE [FILE…]` (the bench's files: bench/results/data/, made by
// `npm run bench` or ensureLong in bench/browser/data.ts). To compare two builds, bundle this file from each
// checkout with esbuild and run the two alternately: the machine's load moves the figures by 20 % or more.
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { PerformanceObserver } from 'node:perf_hooks';
import { analyzeCachePrefix } from '../src/cache';
import { calibrate } from '../src/analysis/calibration';
import { countedPerCall } from '../src/analysis/counted-tokens';
import { sessionContexts } from '../src/analysis/session-analysis';
import { auditContexts, contextItems } from '../src/analysis/audit-contexts';
import { lintSession } from '../src/lints';
import { refetchTax } from '../src/refetch';
import { openInputs } from '../src/cli/open-inputs';
import { counters } from '../src/cli/cli-io';
import { sessionMetrics } from '../src/cli/session-metrics';
import { inspectReport } from '../src/cli/inspect-report';
import { pickEncoding } from '../src/tokens/encoding';

const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

export async function longStages(path: string): Promise<Record<string, number>> {
  let gcMs = 0;
  const obs = new PerformanceObserver((l) => {
    for (const e of l.getEntries()) gcMs += e.duration;
  });
  obs.observe({ entryTypes: ['gc'] });
  const out: Record<string, number> = {};
  let t = cpu();
  const lap = (name: string) => {
    const now = cpu();
    out[name] = Math.round(now - t);
    t = now;
  };
  const bytes = new Uint8Array(readFileSync(path));
  lap('read');
  const loaded = await openInputs([{ name: path, bytes }]);
  lap('load');
  const report = inspectReport(loaded);
  lap('report');
  const session = loaded.sessions[0]!;
  const choice = pickEncoding(session.model);
  const count = await counters()(choice.encoding);
  lap('rank table');
  // Twice: the first pass counts every text (and pays for the JIT's warm-up), the second reads the counts back.
  let contexts = sessionContexts(session);
  for (const pass of ['', ' (warm)']) {
    if (pass) {
      contexts = sessionContexts(session);
      lap('contexts' + pass);
    } else lap('contexts');
    const items = contextItems(session, contexts);
    const counted = countedPerCall(contexts, count);
    lap('count' + pass);
    const calibration = calibrate(contexts.calls, counted, choice.approximate);
    lap('calibrate' + pass);
    analyzeCachePrefix(contexts.calls, { count, rule: 'auto', calibration, timeline: contexts.timeline });
    lap('cache prefix' + pass);
    auditContexts(session, contexts);
    lap('audits' + pass);
    lintSession({ format: session.format, items, calls: contexts.calls, timeline: contexts.timeline, compactions: contexts.compactions, removals: contexts.removals, count, candidates: true });
    lap('lints' + pass);
    refetchTax({ items, compactions: contexts.compactions, calls: contexts.calls, count });
    lap('refetch' + pass);
  }
  // The whole analysis again as the CLI runs it (counts memoized now): what the stages above leave out.
  const m = sessionMetrics(session, count, { rule: 'auto', encoding: { name: choice.encoding, approximate: choice.approximate }, contexts });
  lap('metrics (again, contexts reused)');
  JSON.stringify({ ...report, sessions: [{ ...report.sessions[0], ...m }] }, null, 2);
  lap('json');
  await new Promise((r) => setTimeout(r, 10));
  obs.disconnect();
  out.gc = Math.round(gcMs);
  out.records = bytes.reduce((n, b) => n + (b === 10 ? 1 : 0), 0);
  out.calls = contexts.calls.length;
  return out;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const p of process.argv.slice(2)) console.log(p.split('/').pop(), JSON.stringify(await longStages(p)));
}
