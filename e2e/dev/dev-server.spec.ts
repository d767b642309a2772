// The app under `npm start` (the dev server), where the page carries React Refresh's inline preamble and the
// policy header must carry its hash on every answer. Issue 33: a revalidated page was answered 304 with a header
// lacking the hash, and the page stayed white. Each case here reopens a page the browser already has.
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { callLabel, dropAndStep } from '../support/reload';

// The dev server compiles modules on first request: the first view may take long on a busy machine.
const FIRST = { timeout: 90_000 };

/** Collects what the policy refused, so a test can say the page ran everything it needed. */
function watchViolations(page: Page): string[] {
  const seen: string[] = [];
  page.on('console', (m) => {
    if (/violates the following Content Security Policy|can't detect preamble/i.test(m.text())) seen.push(m.text());
  });
  page.on('pageerror', (e) => seen.push(e.message));
  return seen;
}

/** The landing page is up: the app rendered (a blank page has no main). */
const appShown = (page: Page) => expect(page.getByRole('region', { name: 'Welcome' })).toBeVisible(FIRST);

test("the app's address opened again after a session shows the app", async ({ page }) => {
  const violations = watchViolations(page);
  await page.goto('/');
  await appShown(page);
  await page.getByRole('button', { name: /^Coding agent with a compaction log/ }).click();
  await expect(page.getByRole('toolbar', { name: 'Step through calls' })).toBeVisible(FIRST);
  // The same address again, as a new navigation and as a reload: the browser has the page cached both times.
  await page.goto('/');
  await appShown(page);
  await page.reload();
  await appShown(page);
  // A page answered 304 would render nothing: no main at all.
  await expect(page.locator('main')).toBeVisible();
  expect(violations).toEqual([]);
});

test('?src= on another origin opens after consent (the page reloads to admit the origin)', async ({ page }) => {
  const file = readFileSync(join(import.meta.dirname, '..', '..', 'src', 'formats', '__fixtures__', 'openai-chat-course.json'));
  const server: Server = createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/json', 'Access-Control-Allow-Origin': '*' });
    res.end(file);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const other = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    const violations = watchViolations(page);
    await page.goto(`/?src=${encodeURIComponent(`${other}/runs/course.json`)}`);
    const prompt = page.getByRole('region', { name: /^Open 1 file from/ });
    await expect(prompt).toBeVisible(FIRST);
    await prompt.getByRole('button', { name: 'Open the file' }).click();
    await expect(page.getByRole('toolbar', { name: 'Step through calls' })).toBeVisible(FIRST);
    await expect(page.getByRole('region', { name: 'Session' })).toBeVisible();
    expect(violations).toEqual([]);
  } finally {
    await new Promise((r) => server.close(r));
  }
});

test('a reload after a dropped file shows the same session at the same call', async ({ page }) => {
  const violations = watchViolations(page);
  await page.goto('/');
  await appShown(page);
  await dropAndStep(page);
  await page.reload();
  await expect(callLabel(page)).toHaveText(/^Call 3 of 6/, FIRST);
  expect(violations).toEqual([]);
});
