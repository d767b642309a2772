// Steps shared by the reload specs against the built app and the dev server (issue 33).
import { join } from 'node:path';
import { expect, type Page } from '@playwright/test';
import { dropFiles, fromDisk } from './drop';
import { libraryKeepsFiles } from './library-db';

const FIXTURES = join(import.meta.dirname, '..', '..', 'src', 'formats', '__fixtures__');
// Waits far above any budget: this asserts what happens, not how fast (budgets are in npm run bench).
export const SLOW = { timeout: 30_000 };
export const callLabel = (page: Page) => page.getByRole('toolbar', { name: 'Step through calls' }).locator('.call-label');

/** Drops the Claude Code fixture, steps to call 3 and waits until the library keeps its files. */
export async function dropAndStep(page: Page): Promise<string> {
  await page.goto('/');
  await dropFiles(page, fromDisk(join(FIXTURES, 'claude-code-session.jsonl')));
  await expect(callLabel(page)).toHaveText(/^Call 1 of 6/, SLOW);
  await page.getByRole('button', { name: 'Next call' }).click();
  await page.getByRole('button', { name: 'Next call' }).click();
  await expect(callLabel(page)).toHaveText(/^Call 3 of 6/);
  await expect(page).toHaveURL(/[?&]lib=[0-9a-f]{64}/, SLOW);
  await expect(page).toHaveURL(/[?&]turn=3/, SLOW);
  const hash = /[?&]lib=([0-9a-f]{64})/.exec(page.url())![1]!;
  await expect.poll(() => libraryKeepsFiles(page, hash), SLOW).toBe(true);
  return hash;
}

