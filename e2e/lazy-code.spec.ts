// The landing page fetches no tokenizer ranks and no Mermaid (issue 9's budget): the ranks come when a session is
// counted, or when the user points at a control that opens one; Mermaid once a session is counted. A
// spare loader worker is started on the same signals.
import { expect, test, type Page } from '@playwright/test';

const RANKS = /o200k_base|cl100k_base/;
const MERMAID = /mermaid/i;
// Mermaid's flowchart code and dagre's layout: chunks named after them, not after Mermaid.
const FLOWCHART = /flowDiagram/;
const DAGRE = /dagre/;

function scripts(page: Page): string[] {
  const seen: string[] = [];
  // Worker scripts and their imports count too: the ranks load inside the token pool's worker, as JSON.
  page.context().on('request', (r) => {
    if (/\.(js|json)$/.test(new URL(r.url()).pathname)) seen.push(new URL(r.url()).pathname);
  });
  return seen;
}

// Waits until the page has fetched no new script or table for a second. Not 'networkidle': on a loaded CI machine Chromium
// sometimes never reports it, and only scripts matter here.
async function settled(page: Page, seen: string[]): Promise<void> {
  await expect(page.getByRole('button', { name: 'Open files…' })).toBeVisible();
  let last = -1;
  let still = 0;
  while (still < 4) {
    await page.waitForTimeout(250);
    still = seen.length === last ? still + 1 : 0;
    last = seen.length;
  }
}

test('the landing page loads no ranks or Mermaid; opening a session loads the ranks for its exact counts', async ({ page }) => {
  const seen = scripts(page);
  await page.goto('/');
  await settled(page, seen);
  expect(seen.length).toBeGreaterThan(0);
  expect(seen.filter((p) => RANKS.test(p) || MERMAID.test(p) || FLOWCHART.test(p) || DAGRE.test(p))).toEqual([]);

  await page.getByRole('button', { name: /coding agent/i }).first().click();
  await expect(page.getByRole('toolbar', { name: 'Step through calls' })).toBeVisible();
  await expect(page.locator('.count-status.estimating')).toHaveCount(0);
  expect(seen.some((p) => RANKS.test(p))).toBe(true);
});

test('pointing at "Open files…" starts fetching the ranks before anything is opened', async ({ page }) => {
  const seen = scripts(page);
  await page.goto('/');
  await settled(page, seen);
  expect(seen.some((p) => RANKS.test(p))).toBe(false);
  await page.getByRole('button', { name: 'Open files…' }).hover();
  await expect.poll(() => seen.some((p) => RANKS.test(p))).toBe(true);
});

const PANEL_CODE = /\/assets\/(CachePanel|AuditPanel|EvictionMapPanel|CompactionLogPanel|DiffPanel|RerunPanel)-[^/]*\.js$/;

test('the panels\' code comes when the user goes to open a session: none on the landing page, all on pointing at "Open files…"', async ({ page }) => {
  const seen = scripts(page);
  await page.goto('/');
  await settled(page, seen);
  expect(seen.filter((p) => PANEL_CODE.test(p))).toEqual([]);
  await page.getByRole('button', { name: 'Open files…' }).hover();
  await expect.poll(() => new Set(seen.filter((p) => PANEL_CODE.test(p)).map((p) => p.split('/').pop()!.split('-')[0])).size).toBe(6);
  // Mermaid still waits for a session.
  expect(seen.some((p) => MERMAID.test(p) || FLOWCHART.test(p) || DAGRE.test(p))).toBe(false);
});

test('a file dragged over the page fetches the panels\' code before it is dropped', async ({ page }) => {
  const seen = scripts(page);
  await page.goto('/');
  await settled(page, seen);
  expect(seen.some((p) => PANEL_CODE.test(p))).toBe(false);
  await dragEnter(page);
  await expect.poll(() => seen.some((p) => PANEL_CODE.test(p))).toBe(true);
});

/** Has the token pool loaded its ranks (fetched, parsed, built)? The analysis worker marks it when the warm-up count returns. */
async function ranksReady(page: Page): Promise<boolean> {
  for (const w of page.workers()) {
    if (!w.url().includes('analysis.worker')) continue;
    const names = await w.evaluate(() => performance.getEntriesByType('measure').map((m) => m.name)).catch(() => [] as string[]);
    if (names.includes('analysis:pool-warm')) return true;
  }
  return false;
}

test('a file dragged over the page for a moment loads the ranks before it is dropped', async ({ page }) => {
  const seen = scripts(page);
  await page.goto('/');
  await settled(page, seen);
  expect(seen.some((p) => RANKS.test(p))).toBe(false);
  const drag = (types: string[]) =>
    page.evaluate((types) => {
      const dt = new DataTransfer();
      dt.items.add(new File(['{}'], 'session.jsonl'));
      for (const type of types) document.body.dispatchEvent(new DragEvent(type, { dataTransfer: dt, bubbles: true, cancelable: true }));
    }, types);
  // A drag that leaves at once fetches nothing.
  await drag(['dragenter', 'dragleave']);
  await page.waitForTimeout(600);
  expect(seen.some((p) => RANKS.test(p))).toBe(false);
  expect(await ranksReady(page)).toBe(false);
  await drag(['dragenter']);
  await expect.poll(() => seen.some((p) => RANKS.test(p))).toBe(true);
  // Loaded, not only fetched: parsed and built in the token worker, so the count can start with the first view.
  await expect.poll(() => ranksReady(page), { timeout: 10_000 }).toBe(true);
  // Nothing was opened.
  await expect(page.getByRole('navigation', { name: 'Open sessions' })).toHaveCount(0);
});

test('a counted session fetches Mermaid, its flowchart code and its layout once the counts are exact, before the Flow tab is clicked', async ({ page }) => {
  const seen = scripts(page);
  await page.goto('/');
  await settled(page, seen);
  expect(seen.some((p) => MERMAID.test(p) || FLOWCHART.test(p) || DAGRE.test(p))).toBe(false);
  await page.getByRole('button', { name: /coding agent/i }).first().click();
  // The Flow tab's diagram is drawn ahead (flow-drawing.ts): its code comes once the counts are exact, the three together,
  // not one round trip after another, and without the tab being pointed at or opened.
  await expect.poll(() => [MERMAID, FLOWCHART, DAGRE].map((re) => seen.some((p) => re.test(p))), { timeout: 30_000 }).toEqual([true, true, true]);
  const flow = page.getByRole('tablist', { name: 'Panels' }).getByRole('tab', { name: 'Flow' });
  await expect(flow).toHaveAttribute('aria-selected', 'false');
});

/** Load workers the page starts (the script each is started from), in order. */
function loaders(page: Page): string[] {
  const started: string[] = [];
  page.on('worker', (w) => {
    if (w.url().includes('load.worker')) started.push(w.url());
  });
  return started;
}

/** A file entering the page, as a drag from the desktop starts. */
async function dragEnter(page: Page): Promise<void> {
  await page.evaluate(() => {
    const dt = new DataTransfer();
    dt.items.add(new File(['{}'], 'session.jsonl'));
    document.body.dispatchEvent(new DragEvent('dragenter', { dataTransfer: dt, bubbles: true, cancelable: true }));
  });
}

async function openDemo(page: Page, seen: string[]): Promise<void> {
  await page.getByRole('button', { name: /coding agent/i }).first().click();
  await expect(page.locator('.count-status.estimating')).toHaveCount(0);
  await settled(page, seen);
}

test('a load ends its loader worker; the next starts when the user goes to open something, not beside the session', async ({ page }) => {
  const started = loaders(page);
  const seen = scripts(page);
  await page.goto('/');
  await settled(page, seen);
  // One started ahead of the first session.
  expect(started).toHaveLength(1);
  await openDemo(page, seen);
  // The load used it; none was started beside the session's first view and counts.
  expect(started).toHaveLength(1);
  await page.getByRole('button', { name: 'Open files…' }).hover();
  await expect.poll(() => started.length).toBe(2);
  // A file dragged over the page finds it there: no third.
  await dragEnter(page);
  await page.waitForTimeout(300);
  expect(started).toHaveLength(2);
});

test('a file dragged over the page after a load starts a loader worker for it', async ({ page }) => {
  const started = loaders(page);
  const seen = scripts(page);
  await page.goto('/');
  await openDemo(page, seen);
  expect(started).toHaveLength(1);
  await dragEnter(page);
  await expect.poll(() => started.length).toBe(2);
});

test('the workers a session uses are compiled when they start: their scripts carry the compile hint, the page entry does not', async ({ page }) => {
  // The paths come from request events and the bodies are fetched again: Chromium does not always report a response
  // for a worker's script (CI saw the token worker's request but no response).
  const seen = scripts(page);
  await page.goto('/');
  await openDemo(page, seen);
  const first = async (re: RegExp) => {
    const paths = [...new Set(seen.filter((p) => re.test(p)))];
    expect(paths.length, `${re} was fetched`).toBeGreaterThan(0);
    return Promise.all(paths.map(async (p) => (await (await page.request.get(p)).text()).split('\n', 1)[0]));
  };
  for (const worker of [/load\.worker/, /analysis\.worker/, /tokens\.worker/, /audit\.worker/]) {
    expect(await first(worker)).toEqual(expect.arrayContaining(['//# allFunctionsCalledOnLoad']));
  }
  expect(await first(/\/assets\/index-/)).not.toContain('//# allFunctionsCalledOnLoad');
});
