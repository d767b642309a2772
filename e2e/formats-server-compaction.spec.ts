// A request log of Anthropic calls with server-side compaction, dropped into the page: the call after the
// compaction is sent only the system prompt, the compaction block and what follows, and its usage is the provider's.
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { dropFiles, fromDisk } from './support/drop';
import { engineLoad } from './support/engine';
import { expectSessionFacts, openPanel } from './support/session-view';

const FILE = join(import.meta.dirname, '..', 'src', 'formats', '__fixtures__', 'request-log-anthropic-compaction.jsonl');
const callLabel = (page: Page, text: string) => page.getByRole('toolbar', { name: 'Step through calls' }).getByText(text);
const band = (page: Page, name: 'Head' | 'Summary' | 'Middle' | 'Tail') => page.getByRole('region', { name, exact: true });

test.use({ viewport: { width: 1440, height: 1000 } });

test('an Anthropic request log with server-side compaction shows the compacted context and the reported usage', async ({ page }) => {
  const expected = engineLoad(FILE);
  const session = expected.sessions[0]!;
  expect(session.compactions.map((c) => [c.kind, c.tokensBefore, c.tokensAfter])).toEqual([['server', 50154, 239]]);

  await page.goto('/');
  await dropFiles(page, fromDisk(FILE));
  await expect(callLabel(page, 'Call 1 of 5')).toBeVisible();
  await expectSessionFacts(page, { items: session.items.length, toolCalls: 3, compactions: 1 });

  // n jumps to call 4, the first sent the compaction block: the summary stands in for the first three calls.
  await page.keyboard.press('n');
  await expect(callLabel(page, 'Call 4 of 5')).toBeVisible();
  await expect(band(page, 'Summary')).toContainText('ROUND_HALF_UP');
  await expect(band(page, 'Middle').getByRole('button', { name: /^Ghost: 6 items summarized by compaction #1, [\d,]+ tokens$/ })).toBeVisible();
  await expect(page.getByText('The invoice totals in billing/invoice.py are off by one cent', { exact: false })).toHaveCount(0);

  // The token budget's readout of call 4 carries the provider's figures: 30 uncached + 262 read.
  await openPanel(page, 'Token budget');
  const usage = page.getByRole('region', { name: 'Token budget' }).getByRole('list', { name: 'Reported usage of call 4' });
  await expect(usage.getByRole('listitem').filter({ hasText: 'Cache read' })).toContainText('262');
  await expect(usage.getByRole('listitem').filter({ hasText: 'Prompt (reported)' })).toContainText('292');
});
