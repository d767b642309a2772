// Screenshots of the summary audit and lints on the shared real Claude Code sample, for a person to look at.
// Skips when ../shared/samples is absent (a user's clone); writes to test-results/ (not committed).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { dropFiles, fromDisk } from './support/drop';
import { sessionIn } from './support/session-view';

const SAMPLES = join(import.meta.dirname, '..', '..', 'shared', 'samples');
const OUT = join(import.meta.dirname, '..', 'test-results', process.env.SHOT_TAG ?? 'after');

test.skip(!existsSync(SAMPLES), 'the shared samples are absent');
test.use({ viewport: { width: 1400, height: 900 } });

test('audit panel on the shared Claude Code sample', async ({ page }) => {
  await page.goto('/');
  await dropFiles(page, fromDisk(join(SAMPLES, 'claude-code-compacted.jsonl'), join(SAMPLES, 'claude-code-compacted.agent-acompact.jsonl')));
  await sessionIn(page);
  for (const name of ['Summary audit', 'Lints', 'Compaction log', 'Rules']) {
    const tab = page.getByRole('tablist', { name: 'Panels' }).getByRole('tab', { name });
    if ((await tab.count()) === 0) continue;
    await tab.click();
    const region = page.getByRole('region', { name, exact: true });
    await expect(region).toBeVisible();
    // The audit arrives after the first view: wait for its card, not a fixed time.
    if (name === 'Summary audit') await expect(region.getByRole('article', { name: 'Compaction #1' })).toBeVisible({ timeout: 60_000 });
    await page.waitForTimeout(500);
    await page.mouse.move(0, 0);
    await page.screenshot({ path: join(OUT, `${name.toLowerCase().replace(/ /g, '-')}.png`) });
    await region.screenshot({ path: join(OUT, `${name.toLowerCase().replace(/ /g, '-')}-panel.png`) }).catch(() => {});
    const survival = region.getByRole('group', { name: 'Survival by kind, compaction 1' });
    if (name === 'Summary audit' && (await survival.count()) > 0) {
      await survival.scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(OUT, 'summary-audit-survival.png') });
    }
    const refetch = region.getByRole('group', { name: 'Fetches repeated after compaction 1' });
    if (name === 'Summary audit' && (await refetch.count()) > 0) {
      await refetch.scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(OUT, 'summary-audit-refetch.png') });
    }
  }
});
