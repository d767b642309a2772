// Probes in the Re-run panel: offline scores for every compaction, recorded and re-run; then the endpoint path end to
// end against the local OpenAI-compatible test server — nothing is sent before the user allows the endpoint's origin
// ("Allow this endpoint and reload"), each probe is asked twice and judged 0–5, asking again comes from the cache, and
// a slow run can be cancelled.
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { DEMOS } from '../app/demos';
import { startOpenAIServer, type OpenAIServer } from './support/openai-server';
import { openPanel } from './support/session-view';

const SHOTS = join(import.meta.dirname, '..', '.e2e-artifacts', 'screens');
const coding = DEMOS.find((d) => d.id === 'coding-agent')!;
const KEY = 'sk-e2e-probes-1a2b3c';

type Body = { model?: string; messages?: { role: string; content: string }[] };

/** The test model: answers probe questions from the text it was given, grades 4/5, summarizes with the schema. */
function respond(body: unknown): string | undefined {
  const m = (body as Body).messages ?? [];
  const system = m[0]?.content ?? '';
  if (system.startsWith('You grade')) return '{"score": 4, "reason": "the same facts, less detail"}';
  if (system.startsWith('You answer a question')) {
    const text = m[1]?.content ?? '';
    return text.includes('db-prod-1:5432') ? 'db-prod-1:5432, as stated.' : 'not stated';
  }
  return undefined;
}

const posts = (s: OpenAIServer) => s.requests.filter((r) => r.method === 'POST');
const probeRequests = (s: OpenAIServer) => posts(s).filter((r) => /^You (answer a question|grade)/.test((r.body as Body).messages?.[0]?.content ?? ''));

async function openRerun(page: Page) {
  await page.setViewportSize({ width: 1400, height: 1000 });
  const calls = page.getByRole('toolbar', { name: 'Step through calls' }).getByText(/Call \d+ of 14/);
  const demo = page.getByRole('button', { name: coding.title });
  // After the reload the Library reopens the session by itself (the landing page shows first); else open the demo.
  const restored = await calls.waitFor({ timeout: 15_000 }).then(
    () => true,
    () => false,
  );
  if (!restored) await demo.click();
  await expect(calls).toBeVisible();
  await openPanel(page, 'Re-run');
  return page.getByRole('region', { name: 'Re-run', exact: true });
}

async function runAndWait(page: Page) {
  const panel = page.getByRole('region', { name: 'Re-run', exact: true });
  await panel.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(panel.getByRole('button', { name: 'Run', exact: true })).toBeEnabled({ timeout: 60_000 });
  const probes = page.getByRole('region', { name: 'Re-run result' }).getByRole('region', { name: 'Probes' });
  await expect(probes).toBeVisible();
  return probes;
}

test('offline probe scores for every compaction, then the endpoint asks and judges them once its origin is allowed', async ({ page }) => {
  test.setTimeout(240_000);
  const server = await startOpenAIServer({ chunkDelayMs: 0, slowMs: 20_000, respond });
  try {
    await page.goto('/');
    await page.getByRole('button', { name: coding.title }).click();
    let panel = await openRerun(page);
    // The demo recorded its compactions: the default re-run compacts at the same calls.
    await expect(panel.getByRole('radiogroup', { name: 'Trigger kind' }).getByLabel('Where the recording compacted')).toBeChecked();
    let probes = await runAndWait(page);
    const rows = probes.getByRole('table', { name: 'Probe scores' }).locator('tbody tr');
    const n = await rows.count();
    expect(n).toBeGreaterThanOrEqual(4);
    await expect(rows.filter({ hasText: 'Recorded' })).toHaveCount(2);
    await expect(rows.filter({ hasText: 'Re-run' })).toHaveCount(n - 2);
    // Every compaction has at least one offline score.
    for (let i = 0; i < n; i++) await expect(rows.nth(i)).toContainText('%');

    // An endpoint the page's policy does not list: nothing leaves, and the panel says what to do first.
    await panel.getByLabel('Base URL', { exact: true }).fill(server.url);
    await panel.getByLabel('Model', { exact: true }).fill('judge-model');
    await panel.getByLabel('API key', { exact: true }).fill(KEY);
    const ask = probes.getByRole('button', { name: 'Ask the endpoint' });
    await expect(ask).toBeDisabled();
    await expect(probes.getByRole('status')).toContainText(`Allow ${server.origin}`);
    expect(posts(server)).toEqual([]);

    // The consent the Re-run panel asks for: allow the origin, which reloads the page.
    await panel.getByRole('button', { name: 'Allow this endpoint and reload' }).click();
    await page.waitForLoadState('load');
    panel = await openRerun(page);
    await expect(panel.getByLabel('Base URL', { exact: true })).toHaveValue(server.url);
    await panel.getByLabel('API key', { exact: true }).fill(KEY);
    probes = await runAndWait(page);
    await expect(probes.getByRole('status')).toContainText(`up to`);
    const before = posts(server).length;
    await probes.getByRole('button', { name: 'Ask the endpoint' }).click();
    await expect(probes.getByRole('status')).toContainText(/Asked \d+ probes? of judge-model/, { timeout: 90_000 });
    const status = (await probes.getByRole('status').textContent())!;
    const [, asked, sentN, cachedN] = /Asked (\d+) probes? of .*: (\d+) requests? sent, (\d+) answered from the cache/.exec(status)!.map(Number) as [number, number, number, number];
    // Each probe: the compacted context, the evicted content, then the judge; a request asked before (the same
    // evicted content and question for a recorded and a re-run compaction) comes from the cache.
    expect(sentN + cachedN).toBe(asked * 3);
    const sent = probeRequests(server);
    expect(sent).toHaveLength(sentN);
    expect(posts(server).length - before).toBe(sentN);
    expect(sent.every((r) => r.headers.authorization === `Bearer ${KEY}` && (r.body as Body).model === 'judge-model')).toBe(true);
    expect(sent.filter((r) => ((r.body as Body).messages![0]!.content).startsWith('You grade')).length).toBeGreaterThan(0);
    await expect(probes.getByRole('table', { name: 'Probe scores' })).toContainText('4.0');
    await probes.getByText('The questions').click();
    await expect(probes.getByText(/Judge 4\/5\./).first()).toBeVisible();

    // Asking again sends nothing: every completion comes from the cache by its request's hash.
    await probes.getByRole('button', { name: 'Ask the endpoint' }).click();
    await expect(probes.getByRole('status')).toContainText(`0 requests sent, ${asked * 3} answered from the cache`, { timeout: 30_000 });
    expect(probeRequests(server)).toHaveLength(sentN);
    await probes.evaluate((el) => {
      const scroller = el.closest('.panel')!;
      scroller.scrollTop += el.getBoundingClientRect().top - scroller.getBoundingClientRect().top - 8;
    });
    await page.mouse.move(0, 0);
    await page.screenshot({ path: join(SHOTS, 'rerun-probes.png') });

    // A slow endpoint (another model: nothing cached) is cancelled mid-run.
    server.setMode('slow');
    await panel.getByLabel('Model', { exact: true }).fill('other-model');
    await probes.getByRole('button', { name: 'Ask the endpoint' }).click();
    await expect(probes.getByRole('status')).toContainText('Probe 1 of');
    await probes.getByRole('button', { name: 'Cancel' }).click();
    await expect(probes.getByRole('status')).toContainText('Cancelled after 0 of', { timeout: 15_000 });
    // The key never reached the page's URL or storage.
    expect(page.url()).not.toContain(KEY);
    expect(await page.evaluate(() => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }))).not.toContain(KEY);
  } finally {
    await server.close();
  }
});
