// One number, one source: for every fixture, demo and shared sample, the facts the header shows, `inspect --json`,
// the corpus row and the HTML report give the same calls, items, compactions, peak and total tokens, and the same cost
// and responses billed on abandoned branches.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildAnalysisView } from '../../src/analysis/analysis-view';
import { CAUSE_LABEL, formatUsd } from '../../src/charts/cache-summary';
import { run } from '../../src/cli/main';
import { trajectoryMetrics } from '../../src/corpus/trajectory-metrics';
import { loadFiles } from '../../src/load/loader';
import { SAMPLES_DIR } from '../../src/test/shared-samples';
import { createTokenCounter, pickEncoding, TokenMemo } from '../../src/tokens';
import { escapeHtml, reportHtml } from './report-html';

const ROOT = join(import.meta.dirname, '../..');
const dirs = [join(ROOT, 'src/formats/__fixtures__'), join(ROOT, 'public/demos'), ...(existsSync(SAMPLES_DIR) ? [SAMPLES_DIR.pathname] : [])];
const files = dirs.flatMap((d) => readdirSync(d).filter((f) => /\.(jsonl?|json|traj)$/.test(f) && statSync(join(d, f)).isFile()).map((f) => join(d, f)));

const counters = new Map<string, Promise<(t: string) => number>>();
function counterFor(model: string | null) {
  const enc = pickEncoding(model).encoding;
  let c = counters.get(enc);
  if (!c) {
    c = createTokenCounter(enc).then((counter) => {
      const memo = new TokenMemo();
      return (t: string) => memo.count(t, (x) => counter.count(x)).tokens;
    });
    counters.set(enc, c);
  }
  return c;
}

/** A figure out of the report's facts list: `<dt>Items</dt><dd>1,234</dd>`. */
function reportFigure(html: string, name: string): number {
  const m = new RegExp(`<dt>${name}</dt>\\s*<dd>([\\d,]+)`).exec(html);
  if (!m) throw new Error(`report has no ${name}`);
  return Number(m[1]!.replace(/,/g, ''));
}

describe('session figures agree on every surface', () => {
  it.each(files.map((f) => [basename(f), f]))('%s', async (_, path) => {
    const bytes = new Uint8Array(readFileSync(path));
    const { sessions } = loadFiles([{ name: basename(path), bytes }]);
    const out: string[] = [];
    const io = { out: (t: string) => out.push(t), err: () => {}, readFile: () => bytes, listDir: () => [], isDir: () => false, exists: () => true };
    await run(['inspect', '--json', basename(path)], io);
    const cli = JSON.parse(out.join('\n')).sessions;
    expect(cli).toHaveLength(sessions.length);
    for (const [i, session] of sessions.entries()) {
      const count = await counterFor(session.model);
      const facts = buildAnalysisView(session, { count, ghosts: false }).facts;
      const fromCli = cli[i];
      const view = buildAnalysisView(session, { count, ghosts: false });
      const row = trajectoryMetrics(session, { count, counter: 'same' });
      const html = reportHtml({ title: 't', formatLabel: 'f', hash: null, files: session.files, model: session.model, view, annotations: [], viewState: { turn: 1, item: null, panel: 'budget', rule: 'auto', leftView: 'context' }, createdAt: '2026-11-25T00:00:00Z' });
      const want = [facts.calls, facts.items, facts.compactions.total, facts.peakContextTokens, facts.totalInputTokens];
      expect([fromCli.facts.calls, fromCli.facts.items, fromCli.facts.compactions.total, fromCli.facts.peakContextTokens, fromCli.facts.totalInputTokens]).toEqual(want);
      expect([fromCli.calls.length, Math.max(0, ...fromCli.calls.map((c: { contextTokens: number }) => c.contextTokens))]).toEqual([facts.calls, facts.peakContextTokens]);
      expect([row.turns, row.items, row.compactions, row.peak_context_tokens, row.total_tokens]).toEqual(want);
      expect([reportFigure(html, 'Model calls'), reportFigure(html, 'Items'), reportFigure(html, 'Compactions'), reportFigure(html, 'Peak context')]).toEqual(want.slice(0, 4));
      expect(fromCli.compactions.map((c: { call: number | null }) => c.call)).toEqual(view.compactions.map((c) => c.call));
      // What was billed: the cost and the responses on abandoned branches, outside the timeline's figures above.
      const billed = [facts.cost.usd, facts.offBranch?.responses ?? 0, facts.offBranch?.prompt ?? 0];
      expect([fromCli.facts.cost.usd, fromCli.facts.offBranch?.responses ?? 0, fromCli.facts.offBranch?.prompt ?? 0]).toEqual(billed);
      expect([row.cost_usd, row.off_branch_responses, row.off_branch_prompt_tokens]).toEqual(billed);
      expect(/<dt>Cost<\/dt><dd>([^<]*)/.exec(html)?.[1]?.split(' ')[0] ?? null).toBe(facts.cost.usd === null ? null : escapeHtml(formatUsd(facts.cost.usd)));
      // Cache verdicts, call by call: the report's call headings and the CLI (the panel reads the same reports).
      const headings = [...html.matchAll(/<details id="call-(\d+)"[^>]*><summary>(.*?)<\/summary>/g)].map((m) => [Number(m[1]), /cache break: (.+?) \((?:reported|predicted)\)/.exec(m[2]!)?.[1] ?? null]);
      expect(headings).toEqual(fromCli.calls.map((c: { call: number; cacheBreak: boolean; cause: keyof typeof CAUSE_LABEL | null }) => [c.call, c.cacheBreak ? CAUSE_LABEL[c.cause ?? 'unknown'] : null]));
    }
  });
});
