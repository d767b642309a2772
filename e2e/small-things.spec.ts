// Small things a user notices (issue 33): a session without model calls never says "Call 1 of 0", and problem
// banners stack newest first, three at most, each dismissible, all of them at once too.
import { expect, test } from '@playwright/test';
import { dropFiles, fromText } from './support/drop';

const SLOW = { timeout: 30_000 };

test('a session with no model calls says so instead of "Call 1 of 0"', async ({ page }) => {
  await page.goto('/');
  await dropFiles(page, [fromText('question.json', JSON.stringify({ messages: [{ role: 'user', content: 'What port does the staging database use?' }] }))]);
  const stepper = page.getByRole('toolbar', { name: 'Step through calls' });
  await expect(stepper.getByText('No model calls in this session')).toBeVisible(SLOW);
  await expect(page.getByText(/Call 1 of 0/)).toHaveCount(0);
  await expect(page.getByRole('tab', { name: 'Context (no calls)' })).toBeVisible();
});

test('problem banners stack newest first, three at most, and are dismissed one by one or all at once', async ({ page }) => {
  await page.goto('/');
  const reports = page.getByRole('alert', { name: /^Problems loading/ });
  for (let i = 1; i <= 5; i++) {
    await dropFiles(page, [fromText(`broken-${i}.json`, `{"messages": [ ${i}`)]);
    await expect(page.getByRole('alert', { name: `Problems loading broken-${i}.json` })).toBeVisible(SLOW);
  }
  await expect(reports).toHaveCount(3);
  await expect(reports.first()).toHaveAccessibleName('Problems loading broken-5.json');
  await page.screenshot({ path: 'test-results/banner-stack.png' });
  const more = page.getByText('2 older messages not shown');
  await expect(more).toBeVisible();
  await page.getByRole('button', { name: 'Show all 5' }).click();
  await expect(reports).toHaveCount(5);
  await page.getByRole('button', { name: 'Show the newest three' }).click();
  // One dismissed: the next older one takes its place.
  await reports.first().getByRole('button', { name: 'Dismiss' }).click();
  await expect(reports).toHaveCount(3);
  await expect(reports.first()).toHaveAccessibleName('Problems loading broken-4.json');
  await expect(reports.last()).toHaveAccessibleName('Problems loading broken-2.json');
  await page.getByRole('button', { name: 'Dismiss all' }).click();
  await expect(reports).toHaveCount(0);
  // What was loaded before is untouched: the start page is still there.
  await expect(page.getByRole('region', { name: 'Welcome' })).toBeVisible();
});
