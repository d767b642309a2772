// Compare policies in the browser: every preset replayed on a session, the recorded run first, sortable, each figure
// beside its difference from the recorded run, the same rows as `rerun --policies … --json`. On the real Claude Code
// session (when ../shared/samples is present) the recorded row carries the header's figures and Claude Code's own
// policy fires within one call of the recorded compaction. Screenshots for a person to look at.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { run, type CliIo } from '../src/cli/main';
import type { PolicyComparison } from '../src/compaction';
import { syntheticJsonl } from '../src/corpus/synthetic';
import { dropFiles, fromDisk, fromText } from './support/drop';
import { openPanel } from './support/session-view';

const FIXTURES = join(import.meta.dirname, '..', 'src', 'formats', '__fixtures__');
const SAMPLES = join(import.meta.dirname, '..', '..', 'shared', 'samples');
const SHOTS = join(import.meta.dirname, '..', '.e2e-artifacts', 'screens');
const POLICIES = 'claude-code,codex,openhands,inspect,anthropic-server,observation-masking';

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

async function cli(files: string[]): Promise<PolicyComparison & { file: string }> {
  const out: string[] = [];
  const io: CliIo = { out: (t) => out.push(t), err: () => {}, readFile: (p) => new Uint8Array(readFileSync(p)), listDir: () => [], isDir: () => false, exists: (p) => existsSync(p) };
  await run(['rerun', ...files, '--policies', POLICIES, '--json'], io);
  return JSON.parse(out.join('\n')).sessions[0];
}

async function openCompare(page: Page, files: string[]) {
  await page.setViewportSize({ width: 1400, height: 900 });
  await page.goto('/');
  await dropFiles(page, fromDisk(...files));
  await expect(page.getByRole('toolbar', { name: 'Step through calls' }).getByText(/Call \d+ of \d+/)).toBeVisible({ timeout: 30_000 });
  await openPanel(page, 'Compare policies');
  return page.getByRole('region', { name: 'Compare policies', exact: true });
}

async function compare(page: Page, files: string[], timeout: number) {
  const panel = await openCompare(page, files);
  await panel.getByRole('button', { name: 'Compare', exact: true }).click();
  const table = panel.getByRole('table', { name: 'Policies compared' });
  await expect(table.locator('tbody tr')).toHaveCount(7, { timeout });
  return { panel, table };
}

async function shot(page: Page, name: string) {
  await page.mouse.move(0, 0);
  await page.screenshot({ path: join(SHOTS, `${name}-light.png`) });
  await page.getByRole('button', { name: 'Switch to dark theme' }).click();
  await page.screenshot({ path: join(SHOTS, `${name}-dark.png`) });
  await page.getByRole('button', { name: 'Switch to light theme' }).click();
}

test('the app’s table equals rerun --policies on a Codex rollout, the recorded run first whatever the sort', async ({ page }) => {
  const file = join(FIXTURES, 'codex-rollout.jsonl');
  const expected = await cli([file]);
  const { table } = await compare(page, [file], 60_000);
  const rows = table.locator('tbody tr');
  for (const [i, r] of expected.rows.entries()) {
    const cells = rows.nth(i).locator('td');
    await expect(cells.nth(0)).toContainText(r.label);
    // Policy, compactions, total $, lost and needed, then the sizes.
    await expect(cells.nth(1)).toContainText(String(r.compactions));
    await expect(cells.nth(3)).toContainText(String(r.lostNeeded));
    await expect(cells.nth(4)).toContainText(fmt(r.peakTokens));
    await expect(cells.nth(5)).toContainText(fmt(r.totalInputTokens));
    await expect(cells.nth(6)).toContainText(fmt(r.cacheReadTokens));
  }
  await expect(rows.first()).toHaveClass(/cp-baseline/);
  // Sorted by total dollars either way, the recorded run stays on top.
  const total = table.getByRole('button', { name: /Total \$/ });
  const header = table.getByRole('columnheader', { name: /Total \$/ });
  const orders: string[] = [];
  for (let i = 0; i < 2; i++) {
    await total.click();
    await expect(header).not.toHaveAttribute('aria-sort', orders[i - 1] ?? 'none');
    orders.push((await header.getAttribute('aria-sort'))!);
    await expect(rows.first()).toContainText('Recorded run');
  }
  expect(orders.sort()).toEqual(['ascending', 'descending']);
});

test('on the real Claude Code session: the header’s figures in the recorded row, Claude Code’s policy within one call, every policy ranked', async ({ page }) => {
  const files = ['claude-code-compacted.jsonl', 'claude-code-compacted.agent-acompact.jsonl'].map((f) => join(SAMPLES, f));
  test.skip(!files.every(existsSync), '../shared/samples is absent');
  test.setTimeout(300_000);
  const { panel, table } = await compare(page, files, 240_000);
  const first = table.locator('tbody tr').first();
  await expect(first).toContainText('Recorded run');
  // One number, one source: the header's input and peak (session-facts.ts).
  await expect(first).toContainText('12,098,281');
  await expect(first).toContainText('164,831');
  await expect(panel.getByText(/within one call/)).toBeVisible();
  await expect(panel).toContainText('Claude Code’s own policy fires at call 62');
  await expect(table.locator('tbody tr').filter({ hasText: 'Observation masking' })).toBeVisible();
  // Sizes say where they are estimated: the recording's are all reported, the replay's after its compaction are not.
  await expect(first.locator('td').nth(5)).not.toContainText('±');
  await expect(table.locator('tbody tr').filter({ hasText: 'Claude Code' }).locator('td').nth(5)).toContainText(/± [\d,]+ est/);
  await table.getByRole('button', { name: /Total \$/ }).click();
  // The panel scrolled to the table, its first columns in view.
  await table.evaluate((el) => {
    el.closest('.cp-table-wrap')!.scrollLeft = 0;
    const scroller = el.closest('.panel')!;
    scroller.scrollTop += el.getBoundingClientRect().top - scroller.getBoundingClientRect().top - 60;
  });
  await shot(page, 'compare-policies');
});

test('a corpus compares every policy over a sample: each policy’s median and total, the recorded runs first', async ({ page }) => {
  await page.setViewportSize({ width: 1400, height: 900 });
  await page.goto('/');
  await dropFiles(page, [fromText('rollouts.jsonl', syntheticJsonl(30, 5))]);
  await expect(page.getByTestId('corpus-row-count')).toHaveText('30 trajectories', { timeout: 60_000 });
  await page.locator('summary').filter({ hasText: 'Compare policies' }).click();
  await page.getByLabel('Trajectories to replay').fill('4');
  await page.getByRole('button', { name: 'Compare policies', exact: true }).click();
  const table = page.getByRole('table', { name: 'Policies over the corpus' });
  await expect(page.getByRole('status').filter({ hasText: /Compared 4 of 4 trajectories/ })).toBeVisible({ timeout: 150_000 });
  await expect(table.locator('tbody tr')).toHaveCount(7);
  await expect(table.locator('tbody tr').first()).toContainText('Recorded runs');
  for (let i = 0; i < 7; i++) await expect(table.locator('tbody tr').nth(i).locator('td').nth(1)).toHaveText('4');
  await table.evaluate((el) => el.scrollIntoView({ block: 'center' }));
  await page.mouse.move(0, 0);
  await page.screenshot({ path: join(SHOTS, 'compare-policies-corpus.png') });
});
