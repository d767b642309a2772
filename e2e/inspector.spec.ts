import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { DEMOS } from '../app/demos';
import { dropFiles, fromDisk } from './support/drop';
import { openPanel } from './support/session-view';

const FIXTURES = join(import.meta.dirname, '..', 'src', 'formats', '__fixtures__');
const SHOTS = join(import.meta.dirname, '..', '.e2e-artifacts', 'screens');
const coding = DEMOS.find((d) => d.id === 'coding-agent')!;

async function openCodingDemo(page: Page, query = '') {
  await page.goto(`/${query}`);
  if (!query.includes('src=')) await page.getByRole('button', { name: coding.title }).click();
  await expect(page.getByRole('toolbar', { name: 'Step through calls' }).getByText(/Call \d+ of 14/)).toBeVisible();
}

const callLabel = (page: Page, text: string) => page.getByRole('toolbar', { name: 'Step through calls' }).getByText(text);
const band = (page: Page, name: 'Head' | 'Summary' | 'Middle' | 'Tail') => page.getByRole('region', { name, exact: true });

test('j, k and the slider step through the calls, and the URL keeps the turn', async ({ page }) => {
  await openCodingDemo(page);
  await expect(callLabel(page, 'Call 1 of 14')).toBeVisible();
  await page.keyboard.press('j');
  await page.keyboard.press('j');
  await expect(callLabel(page, 'Call 3 of 14')).toBeVisible();
  await page.keyboard.press('k');
  await expect(callLabel(page, 'Call 2 of 14')).toBeVisible();
  await expect(page).toHaveURL(/turn=2/);
  await page.getByRole('slider', { name: 'Call' }).fill('10');
  await expect(callLabel(page, 'Call 10 of 14')).toBeVisible();
  await page.getByRole('button', { name: 'Previous call' }).click();
  await expect(callLabel(page, 'Call 9 of 14')).toBeVisible();
});

test('a link with src and turn reopens the same call', async ({ page }) => {
  const src = coding.files.map((f) => `src=demos/${f}`).join('&');
  await openCodingDemo(page, `?${src}&turn=7`);
  await expect(callLabel(page, 'Call 7 of 14')).toBeVisible();
  await expect(band(page, 'Summary')).toContainText('Decisions');
});

test('each band is a region with its token count; the summary is a schema card with its sources one click away', async ({ page }) => {
  await openCodingDemo(page);
  for (const name of ['Head', 'Summary', 'Middle', 'Tail'] as const) await expect(band(page, name)).toContainText(/\d+ items? · [\d,]+ tok/);
  await expect(band(page, 'Summary')).toContainText('No summary or marker in this context.');
  await page.keyboard.press('n');
  await expect(callLabel(page, 'Call 7 of 14')).toBeVisible();
  const summary = band(page, 'Summary');
  for (const section of ['Decisions', 'Entities', 'Facts', 'Open Items']) await expect(summary.getByRole('term').filter({ hasText: section })).toBeVisible();
  await expect(summary).toContainText('db-prod-1:5432');
  const sources = summary.getByRole('button', { name: /Show the \d+ items it replaced/ });
  await sources.click();
  await expect(summary.getByRole('list').last()).toContainText('ledger-reconcile');
});

test('evicted items are ghost rows that say what was dropped and what it cost, and expand to the original', async ({ page }) => {
  await openCodingDemo(page);
  await page.keyboard.press('n');
  const ghost = band(page, 'Middle').getByRole('button', { name: /^Ghost: \d+ items summarized by compaction #1, [\d,]+ tokens$/ });
  await expect(ghost).toBeVisible();
  await ghost.click();
  const first = band(page, 'Middle').locator('.ghost-item').first();
  await first.click();
  await expect(band(page, 'Middle').locator('.ghost-original')).toBeVisible();
  await page.keyboard.press('n');
  await expect(callLabel(page, 'Call 13 of 14')).toBeVisible();
  await expect(band(page, 'Middle').getByRole('button', { name: /^Ghost: \d+ items dropped by compaction #2/ })).toBeVisible();
  await page.keyboard.press('p');
  await expect(callLabel(page, 'Call 7 of 14')).toBeVisible();
});

test('d jumps to the first cache divergence of the call', async ({ page }) => {
  await openCodingDemo(page);
  await page.keyboard.press('n');
  // The cache prefix follows the first view: until it is there, d says so.
  await expect(page.locator('.count-status.estimating')).toHaveCount(0);
  await openPanel(page, 'Cache prefix');
  await expect(page.getByRole('region', { name: 'Cache prefix' }).locator('.cache-headline')).toBeVisible();
  await page.keyboard.press('d');
  await expect(page).toHaveURL(/item=r6\.m2/);
  await expect(page.locator('.row.selected')).toContainText('Decisions');
});

test('search finds an item and steps to the first call that saw it; ? shows the shortcuts', async ({ page }) => {
  await openCodingDemo(page);
  await page.keyboard.press('/');
  const box = page.getByRole('searchbox', { name: 'Search the session' });
  await box.fill('which host and port');
  await expect(page.getByRole('dialog', { name: 'Search the session' })).toContainText(/\d+ match/);
  await box.press('Enter');
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(page.locator('.row.selected')).toContainText(/which host and port/i);
  await expect(page).toHaveURL(/item=/);
  await page.keyboard.press('?');
  const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(help).toContainText('next compaction');
  await page.keyboard.press('Escape');
  await expect(help).toHaveCount(0);
});

test('a Claude Code session with a compaction shows its summary and what it replaced', async ({ page }) => {
  await page.goto('/');
  await dropFiles(page, fromDisk(join(FIXTURES, 'claude-code-session.jsonl')));
  await expect(page.getByRole('toolbar', { name: 'Step through calls' }).getByText(/Call 1 of \d+/)).toBeVisible();
  // The first compaction clears old tool results in place; the second summarizes.
  await page.keyboard.press('n');
  await expect(band(page, 'Tail').getByText('masked in this call').first()).toBeVisible();
  await page.keyboard.press('n');
  await expect(band(page, 'Summary')).toContainText('db-prod-1:5432');
  await expect(band(page, 'Middle').getByRole('button', { name: /^Ghost: \d+ items? summarized by compaction #2/ })).toBeVisible();
});

test('screenshots of the context view in both themes', async ({ page }) => {
  await openCodingDemo(page);
  await page.keyboard.press('n');
  await page.screenshot({ path: join(SHOTS, 'context-light.png') });
  await page.getByRole('button', { name: 'Switch to dark theme' }).click();
  await page.screenshot({ path: join(SHOTS, 'context-dark.png') });
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
});
