// Issue 31: one miss definition in the Cache panel. At a compaction the panel says what the compaction cost (never more
// than the prompt less its read) and what it dropped, apart from misses; at a Codex shortfall it says "cache held,
// short by an uncached tail", no break. Fixtures: src/cache/__fixtures__ (modelled on public files, see its README).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { dropFiles, fromDisk } from './support/drop';
import { openPanel } from './support/session-view';

const FIXTURES = join(import.meta.dirname, '..', 'src', 'cache', '__fixtures__');
const SAMPLES = join(import.meta.dirname, '..', '..', 'shared', 'samples');
const SHOTS = join(import.meta.dirname, '..', '.e2e-artifacts', 'screens');

test.use({ viewport: { width: 1400, height: 900 } });

async function cachePanelAt(page: Page, paths: string[], calls: number, call: number) {
  await page.goto('/');
  await dropFiles(page, fromDisk(...paths));
  const toolbar = page.getByRole('toolbar', { name: 'Step through calls' });
  await expect(toolbar.getByText(`Call 1 of ${calls}`)).toBeVisible();
  await openPanel(page, 'Cache prefix');
  const panel = page.getByRole('region', { name: 'Cache prefix' });
  await expect(panel.getByRole('definition').filter({ hasText: /%|not reported/ }).first()).toBeVisible({ timeout: 30_000 });
  for (let k = 1; k < call; k++) await page.keyboard.press('j');
  await expect(toolbar.getByText(new RegExp(`^Call ${call} of`))).toBeVisible();
  await page.locator('.panel[role=tabpanel]').evaluate((el) => el.scrollTo(0, 0));
  return panel;
}

const figure = (panel: ReturnType<Page['getByRole']>, name: string) => panel.locator('.figure').filter({ has: panel.page().getByText(name, { exact: true }) }).locator('dd');

test('at a compaction the panel charges the compaction what its next call processed again, and says what it dropped', async ({ page }) => {
  const panel = await cachePanelAt(page, [join(FIXTURES, 'claude-code-compaction-miss.jsonl')], 5, 4);
  await expect(panel.locator('.cache-headline')).toHaveText("Compaction: 21,460 tokens read, 12,500 processed again (the compaction's cost)");
  // 33,960 sent less 21,460 read: not the 145,298 the dropped prefix would make it.
  await expect(figure(panel, 'Processed again')).toHaveText("12,500 · $0.07 the compaction's cost");
  await expect(figure(panel, 'Dropped, not processed again')).toHaveText('132,798');
  await expect(panel.locator('.cause-sentence')).toContainText("The 12,500 tokens processed again are the compaction's cost, not a miss; the 132,798 cached tokens it dropped were never processed again.");
  await expect(figure(panel, 'Lost to misses')).toHaveText('$0.00');
  await expect(figure(panel, 'At compactions')).toHaveText('$0.07');
  await page.screenshot({ path: join(SHOTS, 'cache-compaction-cost.png') });
  await panel.locator('.cache-session').scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(SHOTS, 'cache-compaction-cost-session.png') });
  // The help lists every cause with what sets it.
  await panel.getByText('What the causes mean, and what sets them').click();
  await expect(panel.locator('.cause-list dt')).toContainText(['compaction', 'tool list changed', 'thinking dropped at a new turn', 'new process (restart or resume)', 'time gap unknown', 'uncached tail (shortfall) (no break)', 'not cached: no cache breakpoint (no break)']);
});

test('at a Codex shortfall the panel says the cache held, short by an uncached tail, and counts no break', async ({ page }) => {
  const panel = await cachePanelAt(page, [join(FIXTURES, 'codex-partial-reads.jsonl')], 10, 2);
  await expect(panel.locator('.cache-headline')).toHaveText('Cache held, short by an uncached tail: the provider read 47,488, 809 tokens not served');
  await expect(figure(panel, 'Processed again')).toHaveText('809 · <$0.01 uncached tail, not a break');
  await expect(panel.locator('.cause-sentence')).toContainText('it is not a cache break');
  // Two collapses are breaks; four shortfalls are a cost.
  await expect(panel.getByRole('list', { name: 'Cache breaks' }).getByRole('listitem')).toHaveCount(2);
  await expect(figure(panel, 'Uncached tails')).toHaveText('<$0.01');
  await expect(panel.locator('.disagreement')).toHaveCount(0);
  await page.screenshot({ path: join(SHOTS, 'cache-codex-shortfall.png') });
  await panel.locator('.cache-session').scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(SHOTS, 'cache-codex-shortfall-session.png') });
});

test('on the shared Claude Code sample, the compaction call 62 costs the compaction 14,603 tokens, not 143,352', async ({ page }) => {
  const files = ['claude-code-compacted.jsonl', 'claude-code-compacted.agent-acompact.jsonl'].map((f) => join(SAMPLES, f));
  test.skip(!files.every(existsSync), '../shared/samples is not beside this checkout');
  await page.goto('/');
  await dropFiles(page, fromDisk(...files));
  await openPanel(page, 'Cache prefix');
  const panel = page.getByRole('region', { name: 'Cache prefix' });
  await expect(panel.getByRole('definition').filter({ hasText: /%|not reported/ }).first()).toBeVisible({ timeout: 60_000 });
  await panel.getByRole('list', { name: 'Cache breaks' }).getByRole('button', { name: /^Call 62/ }).click();
  await page.locator('.panel[role=tabpanel]').evaluate((el) => el.scrollTo(0, 0));
  await expect(figure(panel, 'Processed again')).toHaveText("14,603 · $0.08 the compaction's cost");
  await page.screenshot({ path: join(SHOTS, 'cache-sample-compaction.png') });
});
