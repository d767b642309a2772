// Corpus mode in Chromium: 200 synthetic trajectories dropped at once open the corpus view; the table counts
// them, the charts show what the engine measures, and a chart point or a row opens its trajectory.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { processCorpusFile, textChunks } from '../src/corpus/corpus-stream';
import type { CorpusRow } from '../src/corpus/corpus-row';
import { summariesHistogram } from '../src/corpus/corpus-charts';
import { syntheticCorpus, syntheticJsonl } from '../src/corpus/synthetic';
import { estimateTokens } from '../src/tokens';
import { formatUsd } from '../src/charts/cache-summary';
import { dropFiles, fromDisk, fromText } from './support/drop';
import { fact } from './support/session-view';

const SHOTS = join(import.meta.dirname, '..', '.e2e-artifacts', 'screens');
const COUNT = 200;

let dir: string;
let names: string[];
let expected: CorpusRow[];

test.beforeAll(async () => {
  // Written to disk and read back, as a user's folder would be.
  dir = mkdtempSync(join(tmpdir(), 'corpus-e2e-'));
  const files = syntheticCorpus(COUNT, 2024);
  for (const f of files) writeFileSync(join(dir, f.name), f.text);
  names = files.map((f) => f.name);
  // What the engine says about each file (estimated tokens: only the structure is compared).
  expected = [];
  for (const n of names) {
    await processCorpusFile(n, textChunks(readFileSync(join(dir, n))), { count: estimateTokens, counter: 'estimate' }, { row: (r) => expected.push(r), issue: () => {} });
  }
});

test.afterAll(() => rmSync(dir, { recursive: true, force: true }));

const rowCount = (page: Page) => page.getByTestId('corpus-row-count');

async function dropCorpus(page: Page) {
  await page.goto('/');
  await dropFiles(page, fromDisk(...names.map((n) => join(dir, n))));
  await expect(page.getByRole('heading', { name: /^Corpus/ })).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: /^Measured/ })).toContainText(`Measured ${COUNT} trajectories from ${COUNT} files`, { timeout: 30_000 });
}

test('200 dropped files open corpus mode: a table of 200 rows, charts, and a point that opens its trajectory', async ({ page }) => {
  expect(expected).toHaveLength(COUNT);
  await dropCorpus(page);
  await expect(rowCount(page)).toHaveText('200 trajectories');
  // Virtualized: far fewer rows in the DOM than in the corpus.
  const domRows = await page.getByRole('row', { name: /^Open trajectory/ }).count();
  expect(domRows).toBeGreaterThan(5);
  expect(domRows).toBeLessThan(COUNT);

  // The summaries histogram has a bar per count the engine finds, with the engine's numbers.
  const summaries = page.getByRole('figure', { name: 'Summaries per trajectory' });
  for (const b of summariesHistogram(expected).buckets.filter((x) => x.count > 0)) {
    await expect(summaries.getByRole('button', { name: new RegExp(`^${b.count} trajectories with ${b.value} ${b.value === 1 ? 'summary' : 'summaries'}\\.`) })).toHaveCount(1);
  }
  // Omission chart: Agent-Omit files omit thoughts from turn 2 on.
  const omissions = page.getByRole('figure', { name: 'Omission frequency by turn' });
  await expect(omissions.getByRole('button', { name: /^Turn 2: thought omitted in \d+ of \d+ trajectories/ })).toHaveCount(1);

  // A bar filters the table to what it counts.
  const oneSummary = expected.filter((r) => r.summaries === 1).length;
  await summaries.getByRole('button', { name: /trajectories with 1 summary\./ }).click();
  await expect(rowCount(page)).toHaveText(`${oneSummary} of 200 trajectories`);
  await page.getByRole('button', { name: 'Show all', exact: true }).click();
  await expect(rowCount(page)).toHaveText('200 trajectories');

  // Sorting by turns (numbers sort largest first) puts the longest trajectory first.
  await page.getByRole('columnheader', { name: /Turns/ }).getByRole('button').click();
  await expect(page.getByRole('columnheader', { name: /Turns/ })).toHaveAttribute('aria-sort', 'descending');
  const longest = Math.max(...expected.map((r) => r.turns));
  await expect(page.getByRole('row', { name: /^Open trajectory/ }).first().getByRole('cell').nth(2)).toHaveText(String(longest));

  // A point of the scatter opens that trajectory in the inspector, re-read from its file.
  const target = expected.find((r) => r.format === 'self-sum' && r.summaries > 0)!;
  const scatter = page.getByRole('figure', { name: /^Tokens against/ });
  await scatter.getByRole('button', { name: new RegExp(`^Open trajectory ${target.id}:`) }).click();
  const session = page.getByRole('region', { name: 'Session' });
  await expect(session.getByRole('heading', { name: target.file })).toBeVisible();
  await expect(fact(page, 'Items')).toHaveText(String(target.items));
  await expect(fact(page, 'Compactions')).toHaveText(String(target.compactions));

  // Back to the corpus: still 200 rows; a row opens its trajectory too.
  await page.getByRole('button', { name: /Back to corpus/ }).click();
  await expect(rowCount(page)).toHaveText('200 trajectories');
  await page.getByRole('searchbox', { name: 'Filter trajectories' }).fill('omit_1');
  await expect(rowCount(page)).toHaveText(/^\d+ of 200 trajectories$/);
  const omit = expected.find((r) => r.id === 'omit_1')!;
  // The Cost column reads the row's cost_usd, the session header's figure ("—" where nothing is priced).
  const omitRow = page.getByRole('row', { name: 'Open trajectory omit_1', exact: true });
  await expect(page.getByRole('columnheader', { name: /^Cost/ })).toBeVisible();
  await expect(omitRow.getByRole('cell').nth(4)).toHaveText(omit.cost_usd === null ? '—' : formatUsd(omit.cost_usd));
  await omitRow.click();
  await expect(session.getByRole('heading', { name: omit.file })).toBeVisible();
  await expect(fact(page, 'Items')).toHaveText(String(omit.items));
});

test('a JSONL with one trajectory per line opens as a corpus, and a row opens its line', async ({ page }) => {
  await page.goto('/');
  await dropFiles(page, [fromText('rollouts.jsonl', syntheticJsonl(30, 5))]);
  await expect(rowCount(page)).toHaveText('30 trajectories');
  await expect(page.getByRole('status').filter({ hasText: /^Measured/ })).toContainText('Measured 30 trajectories from 1 file in');
  await page.getByRole('searchbox', { name: 'Filter trajectories' }).fill('trace_5');
  await page.getByRole('row', { name: 'Open trajectory trace_5', exact: true }).click();
  await expect(page.getByRole('region', { name: 'Session' }).getByRole('heading', { name: 'rollouts.jsonl#L6' })).toBeVisible();
});

test('a few ordinary files still open in the inspector, not as a corpus', async ({ page }) => {
  await page.goto('/');
  const files = syntheticCorpus(3, 9);
  await dropFiles(page, files.map((f) => fromText(f.name, f.text)));
  await expect(page.getByRole('navigation', { name: 'Open sessions' }).getByRole('tab')).toHaveCount(3);
  await expect(page.getByRole('heading', { name: /^Corpus/ })).toHaveCount(0);
});

/** A judge endpoint: answers every completion with the same Table 10 scores, with CORS, and records the requests. */
async function judgeServer(): Promise<{ url: string; bodies: { model: string; messages: { content: string }[] }[]; close(): Promise<void> }> {
  const bodies: { model: string; messages: { content: string }[] }[] = [];
  const reply = JSON.stringify({
    summary_timing: { necessity: 4, timeliness: 3, task_awareness: 4, avoidance_of_redundancy: 5 },
    summary_content_quality: { coverage_of_critical_information: 5, faithfulness_to_observations: 5, abstraction_level: 4, future_utility: 4 },
    overall_score: 4,
    justification: 'Summarized after picking up the object.',
  });
  const server: Server = createServer((req, res) => {
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.setHeader('Access-Control-Allow-Headers', 'authorization, content-type');
    if (req.method === 'OPTIONS') return void res.writeHead(204).end();
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      bodies.push(JSON.parse(body));
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ id: 'x', object: 'chat.completion', model: 'judge', choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: `"""json ${reply} """` } }] }));
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/v1`, bodies, close: () => new Promise((ok) => server.close(() => ok())) };
}

test('the judge scores a sample of summaries at the endpoint, adds timing and content columns, and answers again from its cache', async ({ page }) => {
  const judge = await judgeServer();
  // The judge's endpoint must be admitted by the page's Content-Security-Policy, as after "Allow and reload".
  await page.addInitScript((origin) => sessionStorage.setItem('compaction-inspector.endpoint-origin', origin), new URL(judge.url).origin);
  try {
    await dropCorpus(page);
    await page.getByText('Score summaries with a judge').click();
    await page.getByLabel('Base URL').fill(judge.url);
    await page.getByLabel('Model').fill('judge-model');
    await page.getByLabel('Sample size', { exact: true }).fill('3');
    await page.getByRole('button', { name: 'Score summaries' }).click();
    await expect(page.getByRole('status').filter({ hasText: /^Scored/ })).toHaveText('Scored 3 of 3.');
    expect(judge.bodies).toHaveLength(3);
    expect(judge.bodies[0]!.model).toBe('judge-model');
    expect(judge.bodies[0]!.messages[0]!.content).toMatch(/^You are an expert evaluator of long-horizon language agents\./);
    expect(judge.bodies[0]!.messages[0]!.content).toContain('SUMMARY: ');
    // Timing = mean(4, 3, 4, 5) = 4.00; content = mean(5, 5, 4, 4) = 4.50.
    await page.getByRole('columnheader', { name: /Timing \(judge\)/ }).getByRole('button').click();
    const first = page.getByRole('row', { name: /^Open trajectory/ }).first();
    await expect(first.getByRole('cell', { name: '4.00', exact: true })).toHaveCount(1);
    await expect(first.getByRole('cell', { name: '4.50', exact: true })).toHaveCount(1);
    await expect(page.getByText(/3 scored: timing 4\.00, content 4\.50/)).toBeVisible();
    // Asked again: every score comes from the cache and nothing is sent.
    await page.getByRole('button', { name: 'Score summaries' }).click();
    await expect(page.getByRole('status').filter({ hasText: /^Scored/ })).toHaveText('Scored 3 of 3 (3 from cache).');
    expect(judge.bodies).toHaveLength(3);
    mkdirSync(SHOTS, { recursive: true });
    await page.getByText('Score summaries with a judge').scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(SHOTS, 'corpus-judge-light.png') });
  } finally {
    await judge.close();
  }
});

test('screenshots of the corpus view in both themes', async ({ page }) => {
  mkdirSync(SHOTS, { recursive: true });
  await page.setViewportSize({ width: 1400, height: 1100 });
  await dropCorpus(page);
  await expect(rowCount(page)).toHaveText('200 trajectories');
  await page.screenshot({ path: join(SHOTS, 'corpus-light.png'), fullPage: false });
  await page.getByRole('button', { name: 'Switch to dark theme' }).click();
  await page.screenshot({ path: join(SHOTS, 'corpus-dark.png'), fullPage: false });
  await page.locator('.corpus-view').evaluate((el) => el.scrollTo(0, el.scrollHeight));
  await page.screenshot({ path: join(SHOTS, 'corpus-table-dark.png'), fullPage: false });
  await page.getByRole('button', { name: 'Switch to light theme' }).click();
  await page.getByRole('row', { name: /^Open trajectory/ }).first().click();
  await expect(page.getByRole('region', { name: 'Session' })).toBeVisible();
  await page.screenshot({ path: join(SHOTS, 'corpus-opened-light.png'), fullPage: false });
});
