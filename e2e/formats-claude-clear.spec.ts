// A Claude Code 1.0 file that goes on after the user's /clear: what the clear took out is said to be cleared by it,
// not dropped by a compaction, in the Context view's Middle band and in the Eviction map.
import { expect, test, type Page } from '@playwright/test';
import { clearedSessionFile } from '../src/test/claude-code-cleared';
import { dropFiles, fromText } from './support/drop';
import { openPanel, sessionIn } from './support/session-view';

test.use({ viewport: { width: 1400, height: 900 } });

const stepper = (page: Page) => page.getByRole('toolbar', { name: 'Step through calls' });
const middle = (page: Page) => page.getByRole('region', { name: 'Middle', exact: true });

test('items a /clear took out are "cleared by /clear", with no compaction named, in the Middle band and the Eviction map', async ({ page }, info) => {
  await page.goto('/');
  await dropFiles(page, [fromText('95f3cf38.jsonl', clearedSessionFile())]);
  await sessionIn(page);
  // Call 3 is the second conversation's first call: the first conversation's items are gone.
  for (let k = 0; k < 2; k++) await page.keyboard.press('j');
  await expect(stepper(page).getByText('Call 3 of 7')).toBeVisible();
  const ghost = middle(page).getByRole('button', { name: /^Ghost: \d+ items cleared by \/clear, [\d,]+ tokens$/ });
  await expect(ghost).toBeVisible();
  const n = Number(/Ghost: (\d+)/.exec((await ghost.getAttribute('aria-label'))!)![1]);
  expect(n).toBeGreaterThanOrEqual(4);
  await expect(middle(page).getByRole('button', { name: /dropped/ })).toHaveCount(0);
  await page.screenshot({ path: info.outputPath('clear-middle.png') });

  await openPanel(page, 'Eviction map');
  const map = page.getByRole('region', { name: 'Eviction map', exact: true });
  const legend = map.getByRole('list', { name: 'Labels at call 3' });
  await expect(legend.getByRole('listitem').filter({ hasText: 'cleared' })).toHaveText(`cleared ${n}`);
  await expect(legend.getByRole('listitem').filter({ hasText: 'dropped' })).toHaveText('dropped 0');
  await expect(map.locator('.evm-run.l-cleared').first()).toBeVisible();
  await map.screenshot({ path: info.outputPath('clear-eviction-map.png') });
});
