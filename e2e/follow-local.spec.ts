// Following a local file without a server: the File System Access API hands the page a file handle, and the page
// re-reads it when its size or date moves. Chromium's picker is native, so the page gets a stand-in handle whose
// file the test grows, as a harness appends lines to a real one.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { fact } from './support/session-view';

const FIXTURES = join(import.meta.dirname, '..', 'src', 'formats', '__fixtures__');
// The Codex rollout in three parts: two calls; then a third; then a compaction and the call after it.
const ROLLOUT = readFileSync(join(FIXTURES, 'codex-rollout.jsonl'), 'utf8').split('\n').filter((l) => l.trim() !== '');
const PART1 = ROLLOUT.slice(0, 18);
const PART2 = ROLLOUT.slice(18, 22);
const PART3 = ROLLOUT.slice(22, 31);

const callLabel = (page: Page, text: string) => page.getByRole('toolbar', { name: 'Step through calls' }).getByText(text);

async function standInPicker(page: Page, firstLines: string[]) {
  await page.addInitScript((text) => {
    const w = window as unknown as { __file: { text: string; stamp: number }; showOpenFilePicker: () => Promise<unknown[]> };
    w.__file = { text, stamp: 1 };
    w.showOpenFilePicker = async () => [{ getFile: async () => new File([w.__file.text], 'rollout-live.jsonl', { lastModified: w.__file.stamp }) }];
  }, `${firstLines.join('\n')}\n`);
}

const append = (page: Page, lines: string[]) =>
  page.evaluate((more) => {
    const f = (window as unknown as { __file: { text: string; stamp: number } }).__file;
    f.text += more;
    f.stamp += 1;
  }, `${lines.join('\n')}\n`);

// The follow loop re-reads the file about every second; the waits below are far above that, so a busy machine still
// passes: this test asserts what appears, not how soon.
test('a followed local file shows appended calls, stays on its call, and shows a compaction when it lands', async ({ page }) => {
  await standInPicker(page, PART1);
  await page.goto('/');
  await page.getByRole('button', { name: 'Follow a file…' }).click();
  await expect(callLabel(page, 'Call 1 of 2')).toBeVisible();
  await expect(page.getByRole('status', { name: 'Live follow' })).toContainText('following rollout-live.jsonl · no change yet');
  await page.getByRole('button', { name: 'Next call' }).click();
  await expect(callLabel(page, 'Call 2 of 2')).toBeVisible();

  await append(page, PART2);
  await expect(callLabel(page, 'Call 2 of 3')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole('status', { name: 'Live follow' })).toContainText('last update');
  await expect(fact(page, 'Compactions')).toHaveText('0');

  await page.getByRole('checkbox', { name: 'Follow the tail' }).check();
  await expect(callLabel(page, 'Call 3 of 3')).toBeVisible();
  await append(page, PART3);
  await expect(callLabel(page, 'Call 4 of 4')).toBeVisible({ timeout: 30_000 });
  await expect(fact(page, 'Compactions')).toHaveText('1');
  await page.mouse.move(0, 0);
  await page.screenshot({ path: join(import.meta.dirname, '..', '.e2e-artifacts', 'screens', 'follow-local.png') });
});

test('a browser without the File System Access API shows no follow button', async ({ page }) => {
  await page.addInitScript(() => {
    delete (window as unknown as { showOpenFilePicker?: unknown }).showOpenFilePicker;
  });
  await page.goto('/');
  await expect(page.getByRole('button', { name: 'Open files…' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Follow a file…' })).toHaveCount(0);
});
