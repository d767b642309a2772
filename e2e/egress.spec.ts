import { expect, test } from '@playwright/test';
import { DEMOS } from '../app/demos';
import { openPanel } from './support/session-view';

// Every demo, every view, and an offline re-run: the page must never contact anything but its own origin.
test('opening every demo, every panel and an offline re-run makes no request beyond the app origin', async ({ page, baseURL }) => {
  const foreign: string[] = [];
  page.on('request', (r) => {
    const url = r.url();
    if (!url.startsWith(baseURL!) && !url.startsWith('data:') && !url.startsWith('blob:')) foreign.push(url);
  });
  for (const demo of DEMOS) {
    await page.goto('/');
    await page.getByRole('button', { name: demo.title }).first().click();
    await expect(page.getByRole('toolbar', { name: 'Step through calls' })).toBeVisible();
    const sessions = page.getByRole('navigation', { name: 'Open sessions' }).getByRole('tab');
    const count = await sessions.count();
    expect(count).toBe(demo.files.length === 3 ? 1 : demo.files.length);
    for (let i = 0; i < count; i++) {
      await sessions.nth(i).click();
      await expect(page.getByRole('toolbar', { name: 'Step through calls' })).toBeVisible();
      await page.getByRole('tab', { name: /All items/ }).click();
      await page.getByRole('tab', { name: /Context at call/ }).click();
      const tabs = page.getByRole('tablist', { name: 'Panels' }).getByRole('tab');
      const names = (await tabs.allTextContents()).map((n) => n.trim());
      for (const name of names) {
        await tabs.filter({ hasText: name }).first().click();
        await expect(page.getByRole('region', { name, exact: true })).toBeVisible();
      }
    }
  }
  // An offline re-run on the coding-agent session.
  await page.goto('/');
  await page.getByRole('button', { name: DEMOS[0]!.title }).click();
  await openPanel(page, 'Re-run');
  const rerun = page.getByRole('region', { name: 'Re-run', exact: true });
  await rerun.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(page.getByRole('region', { name: 'Re-run result' })).toBeVisible({ timeout: 60_000 });
  expect(foreign).toEqual([]);
});
