// A Claude Code session with subagents, dropped with one subagent's sidechain file: the header lists both
// subagents with the call that started them, and one opens as a session with its own calls and usage.
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { dropFiles, fromDisk } from './support/drop';
import { sessionTabs, openPanel } from './support/session-view';

const FIXTURES = join(import.meta.dirname, '..', 'src', 'formats', '__fixtures__');
const callLabel = (page: Page, text: string) => page.getByRole('toolbar', { name: 'Step through calls' }).getByText(text);

test.use({ viewport: { width: 1440, height: 1000 } });

test('subagents are listed with their parent call and open as sessions with their own calls and usage', async ({ page }) => {
  await page.goto('/');
  await dropFiles(page, fromDisk(join(FIXTURES, 'claude-code-subagent.jsonl'), join(FIXTURES, 'claude-code-subagent.agent-a7e11f0.jsonl')));
  await expect(sessionTabs(page)).toHaveCount(1);
  // The header is one line; its details (the sidechains among them) open with one click, and say how many there are.
  await page.getByRole('region', { name: 'Session' }).getByRole('button', { name: 'Details (2 sidechains)' }).click();
  const list = page.getByRole('region', { name: 'Session' }).getByRole('list', { name: 'Sidechains' });
  await expect(list.getByRole('listitem')).toHaveCount(2);
  await expect(list.getByRole('listitem').nth(0)).toContainText('Subagent a51c0de (Explore: Find retry config): 4 items · 2 calls · started by call 1');
  await expect(list.getByRole('listitem').nth(1)).toContainText('Subagent a7e11f0 (general-purpose: Find retry callers): 4 items · 2 calls · started by call 2');

  await list.getByRole('button', { name: 'Open subagent a51c0de' }).click();
  await expect(sessionTabs(page)).toHaveCount(2);
  await expect(callLabel(page, 'Call 1 of 2')).toBeVisible();
  await page.keyboard.press('j');
  await expect(callLabel(page, 'Call 2 of 2')).toBeVisible();
  await openPanel(page, 'Token budget');
  const usage = page.getByRole('region', { name: 'Token budget' }).getByRole('list', { name: 'Reported usage of call 2' });
  await expect(usage.getByRole('listitem').filter({ hasText: 'Cache read' })).toContainText('5,200');
  await expect(usage.getByRole('listitem').filter({ hasText: 'Prompt (reported)' })).toContainText('5,285');
});
