// Screenshots of every panel at 1400×900 and 1000×700 in both themes, for a person to look at (not committed:
// they go under test-results/shots). Each shot also checks the page itself never scrolls.
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { DEMOS } from '../app/demos';
import { dropFiles, fromDisk } from './support/drop';
import { openPanel, sessionIn } from './support/session-view';

const SHOTS = join(import.meta.dirname, '..', 'test-results', 'shots');
const SAMPLES = join(import.meta.dirname, '..', '..', 'shared', 'samples');
const SIZES = [
  { width: 1400, height: 900 },
  { width: 1000, height: 700 },
] as const;

async function shootPanels(page: Page, tag: string, theme: 'light' | 'dark') {
  const narrow = page.locator('.narrow-switch .narrow-left');
  const vp = page.viewportSize()!;
  if (await narrow.count()) {
    await narrow.click();
    await page.screenshot({ path: join(SHOTS, `${tag}-${vp.width}-${theme}-context.png`) });
  }
  const tabs = page.getByRole('tablist', { name: 'Panels' }).getByRole('tab');
  // A narrow window lists the tabs that do not fit in a menu: every panel is shot, through either.
  const more = page.getByRole('combobox', { name: /^More panels/ });
  const names = [...(await tabs.allInnerTexts()), ...((await more.count()) ? (await more.locator('option:not([hidden])').allInnerTexts()).map((t) => t.trim()) : [])];
  expect(names.length).toBeGreaterThan(5);
  for (const name of names) {
    await openPanel(page, name);
    await page.waitForTimeout(400);
    await page.screenshot({ path: join(SHOTS, `${tag}-${vp.width}-${theme}-${name.replace(/\W+/g, '_')}.png`) });
    expect(await page.evaluate(() => document.documentElement.scrollHeight)).toBeLessThanOrEqual(vp.height);
  }
}

for (const demo of DEMOS) {
  for (const size of SIZES) {
    test(`shots: ${demo.id} at ${size.width}`, async ({ page }) => {
      mkdirSync(SHOTS, { recursive: true });
      await page.setViewportSize(size);
      await page.goto('/');
      await page.getByRole('button', { name: demo.title }).click();
      await sessionIn(page);
      await page.keyboard.press('n');
      for (const theme of ['light', 'dark'] as const) {
        if (theme === 'dark') await page.getByRole('button', { name: 'Switch to dark theme' }).click();
        else if (await page.getByRole('button', { name: 'Switch to light theme' }).count()) await page.getByRole('button', { name: 'Switch to light theme' }).click();
        await shootPanels(page, demo.id, theme);
      }
    });
  }
}

test('shots: claude code compacted sample', async ({ page }) => {
  const main = join(SAMPLES, 'claude-code-compacted.jsonl');
  test.skip(!existsSync(main), 'the shared samples are absent');
  mkdirSync(SHOTS, { recursive: true });
  for (const size of SIZES) {
    await page.setViewportSize(size);
    await page.goto('/');
    await dropFiles(page, fromDisk(main, join(SAMPLES, 'claude-code-compacted.agent-acompact.jsonl')));
    await sessionIn(page);
    await page.keyboard.press('n');
    for (const theme of ['light', 'dark'] as const) {
      if (theme === 'dark') await page.getByRole('button', { name: 'Switch to dark theme' }).click();
      else if (await page.getByRole('button', { name: 'Switch to light theme' }).count()) await page.getByRole('button', { name: 'Switch to light theme' }).click();
      await shootPanels(page, 'claude-code', theme);
    }
  }
});
