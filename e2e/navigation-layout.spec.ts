// An inspector that never loses the user: no action blanks the page, the document never scrolls, Back/Forward
// and links reopen what was shown, a click selects an item everywhere, Home/End and the tablists answer keys.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { DEMOS } from '../app/demos';
import { claudeCodeSession } from '../bench/generators/claude-code-session';
import { syntheticCorpus } from '../src/corpus/synthetic';
import { dropFiles, fromText } from './support/drop';
import { openPanel, sessionIn, sessionTabs } from './support/session-view';

const coding = DEMOS.find((d) => d.id === 'coding-agent')!;
const acme = DEMOS.find((d) => d.id === 'acme-audio')!;
const callLabel = (page: Page, text: string) => page.getByRole('toolbar', { name: 'Step through calls' }).getByText(text);
const panelTabs = (page: Page) => page.getByRole('tablist', { name: 'Panels' }).getByRole('tab');

/** Every uncaught error of the page and its console errors, and a check that the page still shows the app. */
function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error' && !/Failed to load resource/.test(m.text())) errors.push(`console: ${m.text()}`);
  });
  return errors;
}

async function expectAppShown(page: Page) {
  await expect(page.getByRole('heading', { name: 'Compaction Inspector', level: 1 })).toBeVisible();
  await expect(page.getByText(/could not be shown/)).toHaveCount(0);
}

async function openDemo(page: Page, demo = coding) {
  await page.goto('/');
  await page.getByRole('button', { name: demo.title }).click();
  await sessionIn(page);
}

/** A judge endpoint answering every completion with the same Table 10 scores, with CORS. */
async function judgeServer(): Promise<{ url: string; close(): Promise<void> }> {
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
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ id: 'x', object: 'chat.completion', model: 'judge', choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: reply } }] }));
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/v1`, close: () => new Promise((ok) => server.close(() => ok())) };
}

test('blank-page hunt: every panel, both left views and every corpus action leave the app standing', async ({ page }) => {
  const errors = watchErrors(page);
  const judge = await judgeServer();
  await page.addInitScript((origin) => sessionStorage.setItem('compaction-inspector.endpoint-origin', origin), new URL(judge.url).origin);
  try {
    await openDemo(page);
    await page.keyboard.press('n');
    for (const name of await panelTabs(page).allInnerTexts()) {
      await panelTabs(page).filter({ hasText: name }).first().click();
      await expect(page.getByRole('tabpanel', { name })).toBeVisible();
      await expectAppShown(page);
    }
    await page.getByRole('tab', { name: /^All items/ }).click();
    await page.getByRole('tab', { name: /^Context at call/ }).click();
    await expectAppShown(page);

    // Corpus mode: measure, score with the judge, then open a row (this used to blank the page), and come back.
    await dropFiles(page, syntheticCorpus(24, 7).map((f) => fromText(f.name, f.text)));
    await expect(page.getByRole('status').filter({ hasText: /^Measured/ })).toContainText('Measured 24 trajectories', { timeout: 30_000 });
    await page.getByText('Score summaries with a judge').click();
    await page.getByLabel('Base URL').fill(judge.url);
    await page.getByLabel('Model').fill('judge-model');
    await page.getByLabel('Sample size', { exact: true }).fill('2');
    await page.getByRole('button', { name: 'Score summaries' }).click();
    await expect(page.getByRole('status').filter({ hasText: /^Scored/ })).toHaveText(/^Scored 2 of 2/);
    await page.getByRole('row', { name: /^Open trajectory/ }).first().click();
    await expect(sessionTabs(page)).toHaveCount(2);
    await expect(sessionTabs(page).nth(1)).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByRole('region', { name: 'Session' })).toBeVisible();
    await expectAppShown(page);
    await page.getByRole('button', { name: /Back to corpus/ }).click();
    await page.getByRole('figure', { name: 'Summaries per trajectory' }).getByRole('button', { name: /^[1-9]\d* trajectories with / }).first().click();
    await page.getByRole('button', { name: 'Show all', exact: true }).click();
    await page.getByRole('figure', { name: 'When summaries fire' }).getByRole('button', { name: /^[1-9]\d* summar(y|ies) after turn / }).first().click();
    await page.getByRole('button', { name: 'Show all', exact: true }).click();
    await page.getByRole('row', { name: /^Open trajectory/ }).nth(1).click();
    await expect(sessionTabs(page)).toHaveCount(3);
    await expect(page.getByRole('region', { name: 'Session' })).toBeVisible();
    await page.getByRole('button', { name: /Back to corpus/ }).click();
    await page.getByRole('button', { name: 'Close corpus' }).click();
    await expectAppShown(page);
    expect(errors).toEqual([]);
  } finally {
    await judge.close();
  }
});

test('the document never scrolls, also after a re-run: only panes do', async ({ page }) => {
  await page.setViewportSize({ width: 1400, height: 900 });
  await openDemo(page);
  await panelTabs(page).filter({ hasText: 'Re-run' }).click();
  const panel = page.getByRole('region', { name: 'Re-run', exact: true });
  await panel.getByRole('radiogroup', { name: 'Trigger kind' }).getByText('Token threshold').click();
  await panel.getByLabel('Threshold', { exact: true }).fill('2500');
  await panel.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(page.getByRole('region', { name: 'Re-run result' })).toBeVisible({ timeout: 45_000 });
  const size = () => page.evaluate(() => ({ scroll: document.documentElement.scrollHeight, body: document.body.scrollHeight, view: innerHeight, top: document.scrollingElement!.scrollTop }));
  expect(await size()).toEqual({ scroll: 900, body: 900, view: 900, top: 0 });
  // A wheel over the header does not slide the app away.
  await page.mouse.move(400, 20);
  await page.mouse.wheel(0, 1500);
  await page.waitForTimeout(200);
  expect((await size()).top).toBe(0);
  await expect(page.getByRole('heading', { name: 'Compaction Inspector', level: 1 })).toBeInViewport();
});

test('Back returns to the previous session or the start page, Forward brings it back; stepping adds no entry', async ({ page, baseURL }) => {
  await openDemo(page);
  await expect(page).toHaveURL(/[?&]demo=coding-agent/);
  await page.keyboard.press('j');
  await page.keyboard.press('j');
  await expect(callLabel(page, 'Call 3 of 14')).toBeVisible();
  await expect(page).toHaveURL(/turn=3/);
  await page.goBack();
  expect(page.url().startsWith(baseURL!)).toBe(true);
  await expect(page.getByRole('region', { name: 'Welcome' })).toBeVisible();
  await page.goForward();
  await expect(callLabel(page, 'Call 3 of 14')).toBeVisible();
  await expect(page).toHaveURL(/demo=coding-agent.*turn=3/);

  // A second session opened over the first: Back returns to the first at its call, Forward to the second.
  const [dropped] = syntheticCorpus(1, 5);
  await dropFiles(page, [fromText(dropped!.name, dropped!.text)]);
  await expect(sessionTabs(page)).toHaveCount(2);
  await expect(sessionTabs(page).nth(1)).toHaveAttribute('aria-selected', 'true');
  await expect(page).not.toHaveURL(/demo=/);
  await page.goBack();
  await expect(callLabel(page, 'Call 3 of 14')).toBeVisible();
  await expect(sessionTabs(page).first()).toHaveAttribute('aria-selected', 'true');
  await expect(page).toHaveURL(/demo=coding-agent.*turn=3/);
  await page.goForward();
  await expect(sessionTabs(page).nth(1)).toHaveAttribute('aria-selected', 'true');
  // Back twice more: the start page, then nothing of the app is lost on the way.
  await page.goBack();
  await page.goBack();
  await expect(page.getByRole('region', { name: 'Welcome' })).toBeVisible();
  expect(page.url().startsWith(baseURL!)).toBe(true);
});

test('a demo link reopens the demo at its call, panel and view; every reachable view has one', async ({ page }) => {
  await page.goto('/?demo=coding-agent&turn=7&panel=log');
  await expect(callLabel(page, 'Call 7 of 14')).toBeVisible();
  await expect(panelTabs(page).filter({ hasText: 'Compaction log' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('region', { name: 'Compaction log' })).toBeVisible();

  // The address follows what the user opens, and pasting it back shows the same thing.
  await panelTabs(page).filter({ hasText: 'Eviction map' }).click();
  await page.getByRole('tab', { name: /^All items/ }).click();
  await page.keyboard.press('k');
  await expect(page).toHaveURL(/turn=6/);
  await expect(page).toHaveURL(/panel=eviction/);
  await expect(page).toHaveURL(/view=transcript/);
  const link = page.url();
  await page.goto('about:blank');
  await page.goto(link);
  await expect(callLabel(page, 'Call 6 of 14')).toBeVisible();
  await expect(panelTabs(page).filter({ hasText: 'Eviction map' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('tab', { name: /^All items/ })).toHaveAttribute('aria-selected', 'true');

  // A demo of two sessions names the one shown.
  await openDemo(page, acme);
  await expect(sessionTabs(page)).toHaveCount(2);
  await sessionTabs(page).nth(1).click();
  await expect(page).toHaveURL(/demo=acme-audio&file=/);
  const second = await sessionTabs(page).nth(1).innerText();
  const acmeLink = page.url();
  await page.goto('about:blank');
  await page.goto(acmeLink);
  await expect(sessionTabs(page)).toHaveCount(2);
  await expect(sessionTabs(page).filter({ hasText: second.split('\n')[0]! })).toHaveAttribute('aria-selected', 'true');
});

test('a click selects an item; annotations, the diff and the eviction map follow the selection', async ({ page }) => {
  await openDemo(page);
  await page.keyboard.press('n');
  await expect(callLabel(page, 'Call 7 of 14')).toBeVisible();
  const summary = page.getByRole('region', { name: 'Summary', exact: true }).getByRole('article').first();
  const id = (await summary.getAttribute('data-item-id'))!;
  await summary.getByText('Decisions').click();
  await expect(summary).toHaveAttribute('aria-current', 'true');
  await expect(page).toHaveURL(new RegExp(`item=${encodeURIComponent(id).replace(/\./g, '\\.')}`));

  await panelTabs(page).filter({ hasText: 'Diff' }).click();
  await expect(page.getByRole('region', { name: 'Diff' }).getByRole('button', { name: new RegExp(`^added ${id.replace(/\./g, '\\.')} `) })).toHaveAttribute('aria-current', 'true');
  await panelTabs(page).filter({ hasText: 'Eviction map' }).click();
  await expect(page.getByRole('region', { name: 'Eviction map' }).locator('[role="listitem"][aria-current="true"]')).toHaveAttribute('aria-label', new RegExp(`^${id.replace(/\./g, '\\.')} `));
  await panelTabs(page).filter({ hasText: 'Annotations' }).click();
  await expect(page.getByRole('region', { name: 'Annotations' })).toContainText(id);

  // Another click moves the selection; a click on a control inside an item does not select it.
  const head = page.getByRole('region', { name: 'Head', exact: true }).getByRole('article').nth(1);
  await head.locator('.item-text').click();
  await expect(head).toHaveAttribute('aria-current', 'true');
  await expect(summary).not.toHaveAttribute('aria-current', 'true');
  await expect(page.getByRole('region', { name: 'Annotations' })).toContainText((await head.getAttribute('data-item-id'))!);
});

test('Home and End go to the first and last call; the tablists answer arrow keys; many sessions get a menu', async ({ page }) => {
  await openDemo(page);
  await page.keyboard.press('End');
  await expect(callLabel(page, 'Call 14 of 14')).toBeVisible();
  await page.keyboard.press('Home');
  await expect(callLabel(page, 'Call 1 of 14')).toBeVisible();

  // Panels: a real tablist whose tabs control one tabpanel; arrows move between tabs, not between calls.
  const first = panelTabs(page).first();
  await expect(first).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('tabpanel', { name: await first.innerText() })).toBeVisible();
  await first.focus();
  await page.keyboard.press('ArrowRight');
  await expect(panelTabs(page).nth(1)).toHaveAttribute('aria-selected', 'true');
  await expect(panelTabs(page).nth(1)).toBeFocused();
  await expect(callLabel(page, 'Call 1 of 14')).toBeVisible();
  await page.keyboard.press('End');
  await expect(panelTabs(page).last()).toHaveAttribute('aria-selected', 'true');
  await expect(callLabel(page, 'Call 1 of 14')).toBeVisible();
  await page.keyboard.press('ArrowRight');
  await expect(panelTabs(page).first()).toHaveAttribute('aria-selected', 'true');

  // Twelve sessions: the strip scrolls and a menu lists them all.
  await dropFiles(page, syntheticCorpus(11, 3).map((f) => fromText(f.name, f.text)));
  await expect(sessionTabs(page)).toHaveCount(12);
  const menu = page.getByRole('combobox', { name: 'All 12 open sessions' });
  await expect(menu).toBeVisible();
  const strip = page.getByRole('navigation', { name: 'Open sessions' }).getByRole('tablist');
  expect(await strip.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
  await menu.selectOption({ index: 0 });
  await expect(sessionTabs(page).first()).toHaveAttribute('aria-selected', 'true');
  await expect(sessionTabs(page).first()).toBeInViewport();
  // The strip's fade says on which side there is more: the right, once it is scrolled to the first tab.
  await expect(strip).toHaveClass(/scroll-more-right/);
  await expect(strip).not.toHaveClass(/scroll-more-left/);
  const nav = page.getByRole('navigation', { name: 'Open sessions' });
  await page.mouse.move(0, 0);
  await nav.screenshot({ path: join(import.meta.dirname, '..', '.e2e-artifacts', 'screens', 'session-strip.png') });
  expect(await nav.evaluate((el) => el.getBoundingClientRect().right)).toBeLessThanOrEqual(page.viewportSize()!.width);
});

test('a narrow window shows the panel tabs that fit and lists the others in a menu; the chosen one stays in the strip', async ({ page }) => {
  await page.setViewportSize({ width: 700, height: 700 });
  await openDemo(page);
  const strip = page.getByRole('tablist', { name: 'Panels' });
  const more = page.getByRole('combobox', { name: /^More panels/ });
  await expect(more).toBeVisible();
  // No tab is cut off: the strip does not scroll, and every tab in it is whole.
  expect(await strip.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);
  const shown = await panelTabs(page).allInnerTexts();
  const listed = (await more.locator('option:not([hidden])').allInnerTexts()).map((t) => t.trim());
  expect(shown.length).toBeGreaterThan(1);
  expect(listed.length).toBeGreaterThan(0);
  expect(shown.filter((t) => listed.includes(t))).toEqual([]);
  // Choosing one from the menu shows that panel, and its tab joins the strip, selected.
  const last = listed[listed.length - 1]!;
  await more.selectOption({ label: last });
  await expect(strip.getByRole('tab', { name: last, exact: true })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('region', { name: last, exact: true })).toBeVisible();
  // Keys still walk the tabs in the strip.
  await panelTabs(page).first().focus();
  await page.keyboard.press('End');
  await expect(panelTabs(page).last()).toHaveAttribute('aria-selected', 'true');
  // A link to a panel the strip had no room for opens with its tab in the strip.
  await page.goto('/?demo=coding-agent&panel=rerun');
  await expect(strip.getByRole('tab', { name: 'Re-run' })).toHaveAttribute('aria-selected', 'true');
  // Wider, every tab fits again and the menu goes.
  await page.setViewportSize({ width: 1400, height: 900 });
  await expect(more).toHaveCount(0);
  await expect(panelTabs(page)).toHaveCount(shown.length + listed.length);
});

test('a narrow window never paints the panel tabs twice: the first frame that shows them already has the menu', async ({ page }) => {
  await page.setViewportSize({ width: 700, height: 700 });
  await page.goto('/');
  // Record, at each animation frame, how many tabs the strip holds and whether the menu is there, from before the
  // session opens until it settles. A frame's sample can show a commit that the frame then fixes before painting
  // (observers run between layout and paint), but the same unsettled strip in two frames in a row was painted.
  await page.evaluate(() => {
    const seen: { tabs: number; menu: boolean }[] = [];
    (window as unknown as { tabFrames: typeof seen }).tabFrames = seen;
    const look = () => {
      const bar = document.querySelector('.panel-tabs-bar');
      if (bar) seen.push({ tabs: bar.querySelectorAll('[data-tab]').length, menu: bar.querySelector('[data-tab-more]') !== null });
      requestAnimationFrame(look);
    };
    requestAnimationFrame(look);
  });
  await page.getByRole('button', { name: coding.title }).click();
  await expect(page.getByRole('combobox', { name: /^More panels/ })).toBeVisible();
  await page.waitForTimeout(300);
  const frames = await page.evaluate(() => (window as unknown as { tabFrames: { tabs: number; menu: boolean }[] }).tabFrames);
  expect(frames.length).toBeGreaterThan(1);
  expect(frames.at(-1)!.menu).toBe(true);
  const painted = frames.filter((f, i) => i > 0 && !f.menu && !frames[i - 1]!.menu);
  expect(painted, 'frames painted with every tab and no menu').toEqual([]);
});

test('a narrow window shows one side at a time: a panel tab shows the panel, a jump shows the item', async ({ page }) => {
  await page.setViewportSize({ width: 1000, height: 700 });
  await openDemo(page);
  await page.keyboard.press('n');
  const left = page.getByRole('region', { name: 'Context at call 7' });
  await expect(left).toBeVisible();
  // The side switch names the side; only the left view's own tab names the call.
  await expect(page.locator('.narrow-switch').getByRole('button', { name: 'Context', exact: true })).toBeVisible();
  await expect(page.getByText('Context at call 7', { exact: true })).toHaveCount(1);
  await openPanel(page, 'Diff');
  await expect(page.getByRole('region', { name: 'Diff' })).toBeVisible();
  await expect(left).toBeHidden();
  // The diff list takes the pane's height, not a few rows of it.
  const list = page.getByRole('region', { name: 'Diff' }).locator('.diff-scroll');
  const pane = page.locator('.panel');
  const [listBox, paneBox] = [await list.boundingBox(), await pane.boundingBox()];
  expect(listBox!.y + listBox!.height).toBeGreaterThan(paneBox!.y + paneBox!.height - 40);
  await page.getByRole('region', { name: 'Diff' }).getByRole('button', { name: /^added / }).first().click();
  await expect(left).toBeVisible();
  await expect(page.evaluate(() => document.documentElement.scrollHeight)).resolves.toBe(700);
});

test('the eviction map and the diff scroll their own lists inside the pane, rendering the rows in view only', async ({ page }) => {
  await page.setViewportSize({ width: 1400, height: 900 });
  await page.goto('/');
  await dropFiles(page, [fromText('long.jsonl', claudeCodeSession({ seed: 7, records: 800, bytes: 400_000, compactions: 1 }))]);
  await expect(page.getByRole('toolbar', { name: 'Step through calls' })).toBeVisible();
  await page.keyboard.press('End');
  const paneBottom = async () => {
    const box = await page.locator('.panel').boundingBox();
    return box!.y + box!.height;
  };
  await panelTabs(page).filter({ hasText: 'Eviction map' }).click();
  const map = page.getByRole('region', { name: 'Eviction map' });
  const rows = map.getByRole('list', { name: 'Items by call' }).getByRole('listitem');
  await expect(rows.first()).toBeVisible();
  const mapBox = await map.locator('.evm-scroll').boundingBox();
  expect(mapBox!.y + mapBox!.height).toBeLessThanOrEqual((await paneBottom()) + 1);
  // Hundreds of items, a screenful of rows: grown to its content, the list laid out every row (250 ms here).
  expect(Number(await rows.first().getAttribute('aria-setsize'))).toBeGreaterThan(300);
  expect(await rows.count()).toBeLessThan(80);
  await expect(page.locator('.panel')).toHaveJSProperty('scrollTop', 0);
  await panelTabs(page).filter({ hasText: 'Diff' }).click();
  const diff = page.getByRole('region', { name: 'Diff' }).locator('.diff-scroll');
  await expect(diff).toBeVisible();
  const diffBox = await diff.boundingBox();
  expect(diffBox!.y + diffBox!.height).toBeLessThanOrEqual((await paneBottom()) + 1);
  expect(diffBox!.y + diffBox!.height).toBeGreaterThan((await paneBottom()) - 40);
});

/** How far a table sticks out of its scrolling box (0 when it fits). */
const overflowX = (page: Page, selector: string) => page.locator(selector).first().evaluate((el) => el.scrollWidth - el.clientWidth);

for (const size of [
  { width: 1400, height: 900 },
  { width: 1000, height: 700 },
]) {
  test(`tables fit their pane at ${size.width}×${size.height}: the compaction log, the sweep, the Self-Sum timing`, async ({ page }) => {
    await page.setViewportSize(size);
    await openDemo(page);
    await openPanel(page, 'Compaction log');
    await expect(page.getByRole('region', { name: 'Compaction log' }).getByRole('columnheader', { name: /Summary/ })).toBeInViewport();
    expect(await overflowX(page, '.log-scroll')).toBeLessThanOrEqual(0);

    await openPanel(page, 'Re-run');
    const panel = page.getByRole('region', { name: 'Re-run', exact: true });
    await panel.getByRole('radiogroup', { name: 'Trigger kind' }).getByText('Token threshold').click();
    await panel.getByLabel('Threshold', { exact: true }).fill('2500');
    await panel.getByText('Sweep over a grid').click();
    await panel.getByLabel('Thresholds', { exact: true }).fill('1500, 2500');
    await panel.getByRole('button', { name: 'Sweep', exact: true }).click();
    const sweep = panel.getByRole('table', { name: 'Sweep results' });
    await expect(sweep.locator('tbody tr')).toHaveCount(10, { timeout: 60_000 });
    await sweep.scrollIntoViewIfNeeded();
    for (const name of [/Lost/, /Invented/]) await expect(sweep.getByRole('columnheader', { name })).toBeInViewport({ ratio: 1 });
    expect(await overflowX(page, '.rr-sweep-scroll')).toBeLessThanOrEqual(0);
    await page.screenshot({ path: `test-results/shots/sweep-${size.width}.png` });

    await openDemo(page, DEMOS.find((d) => d.id === 'alfworld-self-sum')!);
    await openPanel(page, 'Self-Sum');
    const next = page.getByRole('region', { name: 'Self-Sum' }).getByRole('columnheader', { name: 'Next segment' });
    await next.scrollIntoViewIfNeeded();
    // Whole to the pixel: scrolling can leave a fraction of a pixel of it under the pane's edge.
    await expect(next).toBeInViewport({ ratio: 0.99 });
    expect(await overflowX(page, '.ss-timing')).toBeLessThanOrEqual(0);
    expect(await overflowX(page, '.research-table-wrap')).toBeLessThanOrEqual(0);
  });
}
