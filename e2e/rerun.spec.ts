// Re-run in the browser: the offline summarizer with no server at all, a local OpenAI-compatible server on
// 127.0.0.1 for streaming, cancel and every failure mode (each with its own visible reason), the API key kept
// out of URLs, storage and the console, and a sweep whose rows open their rerun. Figures are checked against
// the engine run in Node with the same tokenizer.
import { createServer } from 'node:net';
import { join } from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { DEMOS } from '../app/demos';
import { rerunSession, sweepSession, type RerunResult, type Trigger } from '../src/compaction';
import { createTokenCounter } from '../src/tokens';
import { engineLoad } from './support/engine';
import { OK_SUMMARY, startOpenAIServer, type OpenAIServer, type ServerMode } from './support/openai-server';
import { openPanel } from './support/session-view';

const DEMO_DIR = join(import.meta.dirname, '..', 'public', 'demos');
const SHOTS = join(import.meta.dirname, '..', '.e2e-artifacts', 'screens');
const coding = DEMOS.find((d) => d.id === 'coding-agent')!;
const KEY = 'sk-e2e-rerun-9f8e7d6c5b4a';
const MARKER = '[Earlier messages truncated]';

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

async function engine(trigger: Trigger, params: Record<string, unknown> = {}): Promise<RerunResult> {
  const { sessions } = engineLoad(...coding.files.map((f) => join(DEMO_DIR, f)));
  const counter = await createTokenCounter('o200k_base');
  return rerunSession(sessions[0]!, { strategy: 'summarize-middle', params, trigger, count: (t) => counter.count(t).tokens });
}

interface Watch {
  origins: Set<string>;
  urls: string[];
  console: string[];
}

/** Records every request the page and its workers make, and every console line. */
function watch(page: Page): Watch {
  const w: Watch = { origins: new Set(), urls: [], console: [] };
  page.context().on('request', (r) => {
    w.urls.push(r.url());
    w.origins.add(new URL(r.url()).origin);
  });
  page.on('console', (m) => w.console.push(m.text()));
  page.on('pageerror', (e) => w.console.push(`pageerror: ${e.message}`));
  return w;
}

async function openRerun(page: Page): Promise<Locator> {
  await page.goto('/');
  await page.getByRole('button', { name: coding.title }).click();
  await expect(page.getByRole('toolbar', { name: 'Step through calls' }).getByText(/Call \d+ of 14/)).toBeVisible();
  await openPanel(page, 'Re-run');
  const panel = page.getByRole('region', { name: 'Re-run', exact: true });
  await expect(panel.getByLabel('Strategy', { exact: true })).toBeVisible();
  return panel;
}

async function setTrigger(panel: Locator, kind: 'Token threshold' | 'Every N calls', value: number) {
  await panel.getByRole('radiogroup', { name: 'Trigger kind' }).getByText(kind).click();
  await panel.getByLabel(kind === 'Token threshold' ? 'Threshold' : 'Calls between compactions', { exact: true }).fill(String(value));
}

const result = (page: Page) => page.getByRole('region', { name: 'Re-run result' });
const figures = (page: Page) => result(page).getByRole('table', { name: 'Figures for the original and the rerun' });
const figure = (page: Page, label: string) => figures(page).getByRole('row', { name: label, exact: false }).last();

async function runAndWait(panel: Locator, page: Page) {
  await panel.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(panel.getByRole('button', { name: 'Run', exact: true })).toBeEnabled({ timeout: 45_000 });
  await expect(figures(page)).toBeVisible();
}

/** Scrolls the panel (not the page) so the element is at its top. */
async function scrollPanelTo(target: Locator) {
  await target.evaluate((el) => {
    const scroller = el.closest('.panel')!;
    scroller.scrollTop += el.getBoundingClientRect().top - scroller.getBoundingClientRect().top - 8;
  });
}

async function shots(page: Page, name: string, target?: Locator) {
  await page.mouse.move(0, 0);
  const light = page.locator('html');
  if ((await light.getAttribute('data-theme')) === 'dark') await page.getByRole('button', { name: 'Switch to light theme' }).click();
  if (target) await scrollPanelTo(target);
  await page.screenshot({ path: join(SHOTS, `${name}-light.png`) });
  await page.getByRole('button', { name: 'Switch to dark theme' }).click();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await page.screenshot({ path: join(SHOTS, `${name}-dark.png`) });
  await page.getByRole('button', { name: 'Switch to light theme' }).click();
}

test.describe('offline re-run (no server running at all)', () => {
  test('summarize-middle runs with the offline summarizer, shows figures for both sides and keeps db-prod-1:5432', async ({ page, baseURL }) => {
    const expected = await engine({ kind: 'tokens', threshold: 2500 });
    expect(expected.rerun.identifiers.keptValues).toContain('db-prod-1:5432');
    const w = watch(page);
    await page.setViewportSize({ width: 1440, height: 1000 });
    const panel = await openRerun(page);
    await expect(panel.getByText('Offline summarizer', { exact: true })).toBeVisible();
    await panel.getByLabel('Strategy', { exact: true }).selectOption('summarize-middle');
    await setTrigger(panel, 'Token threshold', 2500);
    // The prompts it sends are shown, editable, with their placeholders; an edit that drops one is flagged.
    await panel.locator('.rr-prompts > summary').click();
    const userPrompt = panel.getByLabel('User prompt', { exact: true });
    await expect(userPrompt).toHaveValue(/\{slice\}/);
    await expect(panel.getByLabel('Placeholders in User prompt')).toHaveText('{prior_summary}{slice}');
    await userPrompt.fill('Summarize:\n{slice}');
    await expect(panel.getByText('Missing {prior_summary}: an earlier summary’s facts will not reach the new one.')).toBeVisible();
    await shots(page, 'rerun-prompts', panel.locator('.rr-prompts'));
    await panel.getByRole('button', { name: 'Reset User prompt to the default' }).click();
    await expect(userPrompt).toHaveValue(/\{prior_summary\}/);
    await panel.locator('.rr-prompts > summary').click();
    await expect(result(page)).toContainText('Press Run');
    await runAndWait(panel, page);

    await expect(result(page)).toContainText('summarizer offline');
    await expect(result(page)).toContainText(`${expected.rerun.compactions} compactions`);
    // Whole-run figures, original and rerun, as the engine computes them.
    await expect(figure(page, 'Input tokens')).toContainText(fmt(expected.original.totalInputTokens));
    await expect(figure(page, 'Input tokens')).toContainText(fmt(expected.rerun.totalInputTokens));
    await expect(figure(page, 'Identifiers kept')).toHaveText(`Identifiers kept${expected.original.identifiers.keptValues.length}${expected.rerun.identifiers.keptValues.length}`);
    await expect(figure(page, 'Identifiers lost')).toHaveText(`Identifiers lost${expected.original.identifiers.lostValues.length}${expected.rerun.identifiers.lostValues.length}`);
    await expect(figure(page, 'Identifiers invented')).toHaveText(`Identifiers invented${expected.original.identifiers.inventedValues.length}${expected.rerun.identifiers.inventedValues.length}`);
    await expect(figures(page).getByRole('row', { name: /^Prefix tokens reused on the next call/ }).last()).toContainText(fmt(expected.rerun.prefixReused));
    await expect(figures(page).getByRole('row', { name: /^Estimated input cost/ }).last()).toContainText('$');
    await expect(figure(page, 'Compactions (fallbacks)')).toHaveText(`Compactions (fallbacks)2 (1)${expected.rerun.compactions} (0)`);

    // The run stepped to the rerun's first compaction; the two contexts sit side by side with the recap highlighted.
    const first = expected.events[0]!;
    await expect(page.getByRole('toolbar', { name: 'Step through calls' })).toContainText(`Call ${first.callIndex + 1} of 14`);
    const compare = result(page).getByRole('table', { name: /Original context and rerun context at call/ });
    await expect(compare.locator('td.rr-recap-summary')).toHaveCount(1);
    await expect(compare.locator('td.rr-recap-summary')).toContainText(first.summaryId!);
    const recap = result(page).locator('.rr-recap-text');
    await expect(recap).toContainText('## Conversation Summary');
    await expect(recap).toContainText('db-prod-1:5432');
    await result(page).getByText(/^Identifiers: rerun keeps/).click();
    await expect(result(page).getByRole('list', { name: 'Rerun kept' })).toContainText('db-prod-1:5432');

    // The original is untouched: the context view still shows the session's own call.
    await expect(page.getByRole('region', { name: `Context at call ${first.callIndex + 1}` })).toContainText('The model was sent');
    await result(page).getByText(/^Identifiers: rerun keeps/).click();
    await scrollPanelTo(result(page));
    await shots(page, 'rerun-result');
    await scrollPanelTo(result(page).locator('.rr-compare'));
    await shots(page, 'rerun-compare');
    await panel.evaluate((el) => el.scrollTo(0, 0));
    await shots(page, 'rerun-panel');

    expect([...w.origins]).toEqual([new URL(baseURL!).origin]);
    expect(w.console.filter((l) => l.startsWith('pageerror'))).toEqual([]);
  });
});

test.describe('re-run against an OpenAI-compatible endpoint on 127.0.0.1', () => {
  let server: OpenAIServer;
  let closedPort: number;

  test.beforeAll(async () => {
    server = await startOpenAIServer({ chunkDelayMs: 60, slowMs: 10_000 });
    // A port nobody listens on: bound, then released.
    closedPort = await new Promise<number>((resolve) => {
      const s = createServer();
      s.listen(0, '127.0.0.1', () => {
        const { port } = s.address() as { port: number };
        s.close(() => resolve(port));
      });
    });
  });
  test.afterAll(async () => {
    await server.close();
  });
  // The built app's Content-Security-Policy admits the endpoint chosen in this tab before a reload;
  // a test starts where a user stands after "Allow this endpoint and reload".
  test.beforeEach(async ({ page }) => {
    await page.addInitScript((origin) => sessionStorage.setItem('compaction-inspector.endpoint-origin', origin), server.origin);
  });

  async function configure(page: Page, baseUrl: string, timeoutS = 25) {
    const panel = await openRerun(page);
    await panel.getByLabel('Strategy', { exact: true }).selectOption('summarize-middle');
    // Two compactions (calls 7 and 14): two summarizer calls per run.
    await setTrigger(panel, 'Every N calls', 7);
    await panel.getByLabel('Base URL', { exact: true }).fill(baseUrl);
    await panel.getByLabel('API key', { exact: true }).fill(KEY);
    await panel.getByLabel('Model', { exact: true }).fill('test-model');
    await panel.getByLabel('Timeout', { exact: true }).fill(String(timeoutS));
    await expect(panel.getByLabel('API key', { exact: true })).toHaveAttribute('type', 'password');
    return panel;
  }

  async function keyNowhere(page: Page, w: Watch) {
    expect(page.url()).not.toContain(KEY);
    expect(w.urls.filter((u) => u.includes(KEY))).toEqual([]);
    expect(w.console.filter((l) => l.includes(KEY))).toEqual([]);
    const stored = await page.evaluate(() => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }));
    expect(stored).not.toContain(KEY);
  }

  test('mode ok: the summary streams in, the result shows it, and the key stays in memory', async ({ page, baseURL }) => {
    server.setMode('ok');
    server.clearRequests();
    const w = watch(page);
    const panel = await configure(page, server.url);
    await expect(panel.getByText(`POST ${server.url}/chat/completions`)).toBeVisible();
    // Record every state of the live summary while it streams.
    await page.evaluate(() => {
      const snaps: string[] = [];
      (window as unknown as { __snaps: string[] }).__snaps = snaps;
      new MutationObserver(() => {
        const el = document.querySelector('[aria-label="Summary so far"]');
        const t = el?.textContent ?? '';
        if (t && snaps[snaps.length - 1] !== t) snaps.push(t);
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    await panel.getByRole('button', { name: 'Run', exact: true }).click();
    const live = result(page).getByLabel('Summary so far', { exact: true });
    await expect(live).toContainText('## Conversation Summary');
    await expect(result(page).getByRole('status')).toContainText('Summarizing at call 7 of 14 (test-model at');
    await shots(page, 'rerun-streaming');
    await expect(panel.getByRole('button', { name: 'Run', exact: true })).toBeEnabled({ timeout: 30_000 });
    const snaps = await page.evaluate(() => (window as unknown as { __snaps: string[] }).__snaps);
    const partial = snaps.filter((s) => s.length < OK_SUMMARY.length && OK_SUMMARY.startsWith(s));
    expect(partial.length).toBeGreaterThan(1);

    await expect(result(page)).toContainText('summarizer test-model');
    await expect(figure(page, 'Compactions (fallbacks)')).toHaveText('Compactions (fallbacks)2 (1)2 (0)');
    await expect(result(page).locator('.rr-recap-text')).toHaveText(OK_SUMMARY);
    await expect(result(page).getByRole('list', { name: 'Fallbacks' })).toHaveCount(0);

    // What was sent: the two headers, the defaults, the key only as the bearer token.
    const posts = server.requests.filter((r) => r.method === 'POST');
    expect(posts).toHaveLength(2);
    expect(posts[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(posts[0]!.body).toMatchObject({ model: 'test-model', temperature: 0.2, max_tokens: 512, stream: true });
    expect([...w.origins].sort()).toEqual([new URL(baseURL!).origin, server.origin].sort());
    await keyNowhere(page, w);

    // Remember stores the settings but not the key; only the second box stores the key.
    await panel.getByLabel('Remember these settings in this browser', { exact: true }).check();
    const stored = await page.evaluate(() => JSON.stringify({ ...localStorage }));
    expect(stored).toContain(server.url);
    expect(stored).not.toContain(KEY);
    await panel.getByLabel('Remember the API key too', { exact: true }).check();
    expect(await page.evaluate(() => JSON.stringify({ ...localStorage }))).toContain(KEY);
    await panel.getByLabel('Remember these settings in this browser', { exact: true }).uncheck();
    expect(await page.evaluate(() => JSON.stringify({ ...localStorage }))).not.toContain(KEY);
    expect(w.console.filter((l) => l.includes(KEY))).toEqual([]);
  });

  test('Cancel during a slow run stops it and leaves the original intact', async ({ page }) => {
    server.setMode('slow');
    const panel = await configure(page, server.url);
    await panel.getByRole('button', { name: 'Run', exact: true }).click();
    await expect(result(page).getByRole('status')).toContainText('Summarizing at call 7 of 14');
    await panel.getByRole('button', { name: 'Cancel', exact: true }).click();
    // The server holds the slow answer for 10 s; the result saying "cancelled" is what shows the cancel stopped it.
    await expect(panel.getByRole('button', { name: 'Run', exact: true })).toBeEnabled({ timeout: 30_000 });
    await expect(result(page)).toContainText('cancelled: cancelled while compacting at call 7 of 14');
    await expect(figure(page, 'Compactions (fallbacks)')).toContainText('0 (0)');
    await expect(page.getByRole('toolbar', { name: 'Step through calls' })).toContainText('of 14');
  });

  const failures: { name: string; mode: ServerMode | null; timeoutS?: number; reason: (url: string) => RegExp }[] = [
    { name: 'a timeout', mode: 'slow', timeoutS: 1, reason: (u) => new RegExp(`timeout — no response from ${esc(u)}/chat/completions within 1 s \\(the response headers never arrived\\)`) },
    { name: 'an HTTP 500', mode: '500', reason: (u) => new RegExp(`http — HTTP 500.* from ${esc(u)}/chat/completions: the model crashed \\(test server\\)`) },
    { name: 'garbage output', mode: 'garbage', reason: (u) => new RegExp(`garbage — .*${esc(u)}/chat/completions`) },
    { name: 'output without the schema header', mode: 'non-schema', reason: () => /not-schema — the output does not start with "## Conversation Summary"; it starts with "Sure! Here is a summary/ },
    { name: 'a CORS refusal', mode: 'no-cors', reason: (u) => new RegExp(`cors — network error or CORS refusal: ${esc(u)}/chat/completions answers, but the browser refused`) },
    { name: 'a wrong URL (closed port)', mode: null, reason: () => /network — network error or CORS refusal: could not reach http:\/\/127\.0\.0\.1:\d+\/v1\/chat\/completions/ },
  ];
  const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

  for (const f of failures) {
    test(`${f.name} gives the marker with its reason`, async ({ page, baseURL }) => {
      if (f.mode) server.setMode(f.mode);
      const url = f.mode ? server.url : `http://127.0.0.1:${closedPort}/v1`;
      const w = watch(page);
      const panel = await configure(page, url, f.timeoutS ?? 25);
      await runAndWait(panel, page);
      const fallbacks = result(page).getByRole('list', { name: 'Fallbacks' });
      await expect(fallbacks).toContainText(MARKER);
      await expect(fallbacks.getByRole('listitem')).toHaveCount(1);
      await expect(fallbacks).toContainText(f.reason(url));
      await expect(fallbacks).toContainText('(calls 7 and 14)');
      await expect(figure(page, 'Compactions (fallbacks)')).toHaveText('Compactions (fallbacks)2 (1)2 (2)');
      // The marker stands in the summary's place, the reason beside it.
      const card = result(page).locator('.rr-recap-card');
      await expect(card.locator('.rr-recap-text')).toHaveText(MARKER);
      await expect(card).toContainText('Fell back to the marker:');
      await expect(result(page).getByRole('table', { name: /Original context and rerun context/ }).locator('td.rr-recap-marker')).toHaveCount(1);
      if (f.mode === '500') await shots(page, 'rerun-fallback', result(page));
      const allowed = [new URL(baseURL!).origin, f.mode ? server.origin : new URL(url).origin];
      expect([...w.origins].filter((o) => !allowed.includes(o))).toEqual([]);
      await keyNowhere(page, w);
      expect(w.console.filter((l) => l.startsWith('pageerror'))).toEqual([]);
    });
  }
});

test.describe('sweep', () => {
  test('tail 1..5 × three thresholds gives 15 rows; sorting works and a row opens its rerun', async ({ page }) => {
    const { sessions } = engineLoad(...coding.files.map((f) => join(DEMO_DIR, f)));
    const counter = await createTokenCounter('o200k_base');
    const thresholds = [1500, 2500, 3500];
    const expected = await sweepSession(sessions[0]!, {
      strategy: 'summarize-middle',
      grid: { tail: [1, 2, 3, 4, 5] },
      triggers: thresholds.map((threshold) => ({ kind: 'tokens', threshold })),
      count: (t) => counter.count(t).tokens,
    });
    expect(expected.rows).toHaveLength(15);

    await page.setViewportSize({ width: 1440, height: 1000 });
    const panel = await openRerun(page);
    await setTrigger(panel, 'Token threshold', 2500);
    await panel.getByText('Sweep over a grid').click();
    await expect(panel.getByLabel('Sweep parameter', { exact: true })).toHaveValue('tail');
    await expect(panel.getByLabel('Values', { exact: true })).toHaveValue('1-5');
    await panel.getByLabel('Thresholds', { exact: true }).fill(thresholds.join(', '));
    await expect(panel.getByText('15 runs')).toBeVisible();
    await panel.getByRole('button', { name: 'Sweep', exact: true }).click();
    const table = panel.getByRole('table', { name: 'Sweep results' });
    await expect(table.locator('tbody tr')).toHaveCount(15, { timeout: 45_000 });

    // Each row's input tokens as the engine computes them (rows in grid order: threshold, then tail).
    for (const row of expected.rows) {
      const tr = table.locator('tbody tr').nth(row.index);
      await expect(tr.locator('td').nth(0)).toHaveText(String(row.index + 1));
      await expect(tr.locator('td').nth(1)).toHaveText(String(row.gridParams.tail));
      await expect(tr.locator('td').nth(2)).toHaveText(`≥ ${(row.trigger as { threshold: number }).threshold.toLocaleString('en-US')}`);
      await expect(tr.locator('td').nth(4)).toHaveText(fmt(row.inputTokens));
      await expect(tr.locator('td').nth(5)).toHaveText(fmt(row.prefixReused));
    }

    // Sorting by input tokens: largest first (TanStack's default for numbers), then smallest first.
    const sorted = [...expected.rows].sort((a, b) => a.inputTokens - b.inputTokens);
    await table.getByRole('button', { name: /Input tokens/ }).click();
    await expect(table.getByRole('columnheader', { name: /Input tokens/ })).toHaveAttribute('aria-sort', 'descending');
    await expect(table.locator('tbody tr').first().locator('td').nth(4)).toHaveText(fmt(sorted[sorted.length - 1]!.inputTokens));
    await table.getByRole('button', { name: /Input tokens/ }).click();
    await expect(table.getByRole('columnheader', { name: /Input tokens/ })).toHaveAttribute('aria-sort', 'ascending');
    await expect(table.locator('tbody tr').first().locator('td').nth(4)).toHaveText(fmt(sorted[0]!.inputTokens));

    // Picking a row opens that rerun.
    const pick = expected.rows.find((r) => r.gridParams.tail === 3 && r.triggerLabel === '≥ 1,500 tokens')!;
    await table.locator('tbody tr', { has: page.locator(`td:first-child:text-is("${pick.index + 1}")`) }).click();
    await expect(result(page)).toContainText(`Sweep run ${pick.index + 1}: tail 3 · ≥ 1,500 tokens`);
    await expect(figure(page, 'Input tokens')).toContainText(fmt(pick.inputTokens));
    await expect(figure(page, 'Compactions (fallbacks)')).toContainText(`${pick.compactions} (0)`);
    await expect(table.locator('tbody tr[aria-current="true"]')).toHaveCount(1);
    await scrollPanelTo(panel.locator('.rr-sweep-box'));
    await shots(page, 'rerun-sweep');
  });
});
