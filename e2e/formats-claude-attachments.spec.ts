// A Claude Code session with attachments the harness added to the user's turn (an @-mentioned file, a nested
// CLAUDE.md, a file the person changed, hook context): each shows, labelled, in the context of the calls that read
// it, and not before (src/formats/claude-code-attachments.ts, docs/formats.md).
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { dropFiles, fromDisk } from './support/drop';
import { sessionIn } from './support/session-view';

const FIXTURE = join(import.meta.dirname, '..', 'src', 'formats', '__fixtures__', 'claude-code-attachments.jsonl');
const callLabel = (page: Page, text: string) => page.getByRole('toolbar', { name: 'Step through calls' }).getByText(text);
const context = (page: Page, call: number) => page.getByRole('region', { name: `Context at call ${call}` });

test.use({ viewport: { width: 1440, height: 1000 } });

test('an attachment the harness added shows in the context of the calls that read it, labelled', async ({ page }, info) => {
  await page.goto('/');
  await dropFiles(page, fromDisk(FIXTURE));
  await sessionIn(page);
  await expect(callLabel(page, 'Call 1 of 3')).toBeVisible();
  await page.getByRole('tab', { name: /^Context at call/ }).click();
  // The @-mentioned file and the hooks' context are in the first call; the nested CLAUDE.md is not yet.
  await expect(context(page, 1)).toContainText('file · docs/segments/battery.md');
  await expect(context(page, 1)).toContainText('Shows the battery level and charging state.');
  await expect(context(page, 1)).toContainText('Docs style: sentence case headings');
  await expect(context(page, 1)).not.toContainText('nested_memory');
  await page.keyboard.press('j');
  await expect(callLabel(page, 'Call 2 of 3')).toBeVisible();
  const nested = context(page, 2).getByRole('article', { name: /user message at-009/ });
  await expect(nested).toContainText('nested_memory · src/segments/CLAUDE.md');
  await expect(nested).toContainText('in the order of the struct fields');
  // Marked as the harness's words, not the person's; the person's own message is not.
  await expect(nested.locator('.item-head')).toContainText('harness');
  await expect(context(page, 2).getByRole('article', { name: /user message u-003/ }).locator('.item-head')).not.toContainText('harness');
  await nested.scrollIntoViewIfNeeded();
  await page.screenshot({ path: info.outputPath('attachment-context-call-2.png') });
  // The person's change to the file, from call 3 on; a hook message shown only to the person never shows.
  await page.keyboard.press('j');
  await expect(callLabel(page, 'Call 3 of 3')).toBeVisible();
  const edited = context(page, 3).getByText('edited_text_file · docs/segments/battery.md');
  await expect(edited).toHaveCount(1);
  await expect(context(page, 3)).not.toContainText('Docs linter: 1 warning');
  await edited.scrollIntoViewIfNeeded();
  await page.screenshot({ path: info.outputPath('attachment-context-call-3.png') });
});
