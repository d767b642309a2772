// A Claude Code session with messages typed while the agent worked: the context of the call that read each one
// shows it, and the call before does not (src/formats/claude-code-queue.ts, docs/formats.md).
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { dropFiles, fromDisk } from './support/drop';
import { sessionIn } from './support/session-view';

const FIXTURE = join(import.meta.dirname, '..', 'src', 'formats', '__fixtures__', 'claude-code-queued.jsonl');
const callLabel = (page: Page, text: string) => page.getByRole('toolbar', { name: 'Step through calls' }).getByText(text);
const context = (page: Page, call: number) => page.getByRole('region', { name: `Context at call ${call}` });

test.use({ viewport: { width: 1440, height: 1000 } });

test('a message typed while the agent worked shows in the context of the calls that read it', async ({ page }, info) => {
  await page.goto('/');
  await dropFiles(page, fromDisk(FIXTURE));
  await sessionIn(page);
  await expect(callLabel(page, 'Call 1 of 8')).toBeVisible();
  await page.getByRole('tab', { name: /^Context at call/ }).click();
  await expect(context(page, 1)).toContainText('The TTS tests fail on CI');
  await expect(context(page, 1)).not.toContainText('there have been some updates to the tts library');
  await page.keyboard.press('j');
  await expect(callLabel(page, 'Call 2 of 8')).toBeVisible();
  await expect(context(page, 2)).toContainText('there have been some updates to the tts library since the last release');
  await page.screenshot({ path: info.outputPath('queued-context-call-2.png') });
  // The one sent with a queued_command attachment (2.1.101), once, from call 6 on.
  for (let k = 0; k < 4; k++) await page.keyboard.press('j');
  await expect(callLabel(page, 'Call 6 of 8')).toBeVisible();
  const attached = context(page, 6).getByText('Continue, and commit when the tests are green.');
  await expect(attached).toHaveCount(1);
  await attached.scrollIntoViewIfNeeded();
  await page.screenshot({ path: info.outputPath('queued-context-call-6.png') });
});
