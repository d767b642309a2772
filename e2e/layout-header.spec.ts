// 1000×700 (issue 33): the session header is one line with a details toggle (it took about half the height), and
// the panel tabs that do not fit are in a menu (they were cut at "Fl…"). Screenshots at 1000×700 and 1400×900 in
// both themes go to test-results/shots for a person to look at.
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { dropFiles, fromDisk } from './support/drop';
import { sessionIn } from './support/session-view';

const SHOTS = join(import.meta.dirname, '..', 'test-results', 'shots');
const FIXTURES = join(import.meta.dirname, '..', 'src', 'formats', '__fixtures__');
const SAMPLES = join(import.meta.dirname, '..', '..', 'shared', 'samples');

/** The shared 3 MB sample with its summarizer sidechain when present, else the fixture with two subagents. */
function session(): string[] {
  const sample = join(SAMPLES, 'claude-code-compacted.jsonl');
  if (existsSync(sample)) return [sample, join(SAMPLES, 'claude-code-compacted.agent-acompact.jsonl')];
  return [join(FIXTURES, 'claude-code-subagent.jsonl'), join(FIXTURES, 'claude-code-subagent.agent-a7e11f0.jsonl')];
}

const header = (page: Page) => page.getByRole('region', { name: 'Session' });
const height = async (page: Page, selector: string) => (await page.locator(selector).first().boundingBox())!.height;

test('at 1000×700 the header is one line, its details open and close, and every panel is one click or one choice away', async ({ page }) => {
  await page.setViewportSize({ width: 1000, height: 700 });
  await page.goto('/');
  await dropFiles(page, fromDisk(...session()));
  await sessionIn(page);
  // One line of text: the title, the first figures and the toggle (the header took ~330 of 700 px before).
  const line = await height(page, '.header-line');
  expect(line).toBeLessThan(32);
  expect(await height(page, '.session-header')).toBeLessThan(50);
  await expect(header(page).getByText('Model calls')).toBeVisible();
  const toggle = header(page).getByRole('button', { name: /^Details/ });
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await expect(header(page).getByText('Tool calls')).toBeHidden();
  await toggle.click();
  await expect(header(page).getByText('Tool calls')).toBeVisible();
  await expect(header(page).getByRole('list', { name: 'Sidechains' })).toBeVisible();
  await header(page).getByRole('button', { name: 'Fewer details' }).click();
  await expect(header(page).getByText('Tool calls')).toBeHidden();
  // The panels: the strip never scrolls sideways and no tab is cut; the rest are in the menu.
  const strip = page.getByRole('tablist', { name: 'Panels' });
  expect(await strip.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);
  const box = (await strip.boundingBox())!;
  for (const tab of await strip.getByRole('tab').all()) {
    const t = (await tab.boundingBox())!;
    expect(t.x + t.width).toBeLessThanOrEqual(box.x + box.width + 0.5);
  }
  const more = page.getByRole('combobox', { name: /^More panels/ });
  for (const name of ['Flow', 'Diff', 'Annotations', 'Re-run']) {
    const inStrip = await strip.getByRole('tab', { name, exact: true }).count();
    const inMenu = await more.locator('option', { hasText: name }).count();
    expect(inStrip + inMenu, name).toBeGreaterThan(0);
  }
  // The document itself never scrolls.
  expect(await page.evaluate(() => document.documentElement.scrollHeight)).toBeLessThanOrEqual(700);
});

for (const size of [
  { width: 1000, height: 700 },
  { width: 1400, height: 900 },
]) {
  test(`shots of the header and the panel tabs at ${size.width}×${size.height}, light and dark`, async ({ page }) => {
    mkdirSync(SHOTS, { recursive: true });
    await page.setViewportSize(size);
    await page.goto('/');
    await dropFiles(page, fromDisk(...session()));
    await sessionIn(page);
    await page.keyboard.press('n');
    for (const theme of ['light', 'dark'] as const) {
      if (theme === 'dark') await page.getByRole('button', { name: 'Switch to dark theme' }).click();
      await page.waitForTimeout(500);
      await page.screenshot({ path: join(SHOTS, `header-${size.width}-${theme}.png`) });
      await header(page).getByRole('button', { name: /^Details/ }).click();
      await page.screenshot({ path: join(SHOTS, `header-${size.width}-${theme}-details.png`) });
      await header(page).getByRole('button', { name: 'Fewer details' }).click();
      const more = page.getByRole('combobox', { name: /^More panels/ });
      if (await more.count()) {
        await more.selectOption({ index: 1 });
        await page.waitForTimeout(400);
        await page.screenshot({ path: join(SHOTS, `header-${size.width}-${theme}-from-menu.png`) });
      }
    }
  });
}
