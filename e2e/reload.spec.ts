// A reload keeps what was open (issue 33): dropped files are kept in this browser's library and the address names
// them (`?lib=<hash>`), so F5 reopens the same session at the same call; forgetting them is one click in the Library.
import { expect, test } from '@playwright/test';
import { libraryKeepsFiles } from './support/library-db';
import { callLabel, dropAndStep, SLOW } from './support/reload';

test('F5 after a dropped file reopens the same session at the same call', async ({ page }) => {
  await dropAndStep(page);
  const title = await page.getByRole('region', { name: 'Session' }).getByRole('heading').first().textContent();
  await page.reload();
  await expect(callLabel(page)).toHaveText(/^Call 3 of 6/, SLOW);
  await expect(page.getByRole('region', { name: 'Session' }).getByRole('heading').first()).toHaveText(title!);
  // One tab: the reload reopened it, it did not add a second.
  await expect(page.getByRole('navigation', { name: 'Open sessions' }).getByRole('tab')).toHaveCount(1);
});

test('a session forgotten in the Library is not reopened by its address: the page says why', async ({ page }) => {
  const hash = await dropAndStep(page);
  const address = page.url();
  await page.getByRole('button', { name: 'Library', exact: true }).click();
  const library = page.getByRole('region', { name: 'Library' });
  await library.getByRole('button', { name: 'Forget all…' }).click();
  await library.getByRole('button', { name: 'Forget all', exact: true }).click();
  await expect(library.getByText('Nothing yet')).toBeVisible();
  expect(await libraryKeepsFiles(page, hash)).toBe(false);
  await page.goto(address);
  await expect(page.getByText("names a session this browser's library does not have")).toBeVisible(SLOW);
  await expect(page.getByRole('toolbar', { name: 'Step through calls' })).toHaveCount(0);
  await expect(page.getByRole('region', { name: 'Welcome' })).toBeVisible();
});
