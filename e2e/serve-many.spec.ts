// `serve` on a folder of many sessions: the table lists every one (its status counts them all) while only the rows
// in view are in the page, and each session is reached by scrolling or by the filter. The sessions are copies of the
// Claude Code fixture under 400 names in 8 project folders. Waits are far above any budget (the listing time is
// measured in npm run bench), so a busy machine passes. Needs the built app (npx vite build).
import type { ChildProcess } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { startServe, stopServe } from './support/serve';

const COUNT = 400;
const SLOW = { timeout: 30_000 };
const FIXTURE = join(import.meta.dirname, '..', 'src', 'formats', '__fixtures__', 'claude-code-session.jsonl');

let dir: string;
let server: ChildProcess;
let address: string;

test.beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ci-serve-many-e2e-'));
  const sessions = join(dir, 'sessions');
  for (let i = 0; i < COUNT; i++) {
    const project = join(sessions, `project-${i % 8}`);
    mkdirSync(project, { recursive: true });
    copyFileSync(FIXTURE, join(project, `session-${String(i).padStart(4, '0')}.jsonl`));
  }
  ({ server, address } = await startServe(sessions, { cacheDir: join(dir, 'cache') }));
});

test.afterAll(() => stopServe(server, dir));

test('400 sessions: every one is listed, only the rows in view are in the page, and scrolling or the filter reaches any', async ({ page }) => {
  await page.goto(address);
  const list = page.getByRole('region', { name: 'Sessions on this machine' });
  await expect(list.getByRole('status')).toHaveText(new RegExp(`^${COUNT} sessions`), SLOW);
  const table = list.getByRole('table');
  // The header row and the sessions: the table says how many rows it has although it holds only those in view.
  await expect(table).toHaveAttribute('aria-rowcount', String(COUNT + 1));
  const rows = table.locator('tbody').getByRole('row');
  await expect(rows.first()).toBeVisible();
  expect(await rows.count()).toBeLessThan(COUNT / 4);
  await expect(rows.first()).toHaveAttribute('aria-rowindex', '2');

  // Scrolled to the end, the last row is the table's last.
  const sortByName = list.getByRole('columnheader', { name: 'Session' });
  for (let i = 0; i < 3 && (await sortByName.getAttribute('aria-sort')) !== 'ascending'; i++) await sortByName.getByRole('button').click();
  await expect(sortByName).toHaveAttribute('aria-sort', 'ascending');
  await list.locator('.served-scroll').evaluate((el) => el.scrollTo(0, el.scrollHeight));
  await expect(rows.last()).toHaveAttribute('aria-rowindex', String(COUNT + 1));
  await expect(list.getByRole('button', { name: `Open project-${(COUNT - 1) % 8}/session-${String(COUNT - 1).padStart(4, '0')}.jsonl` })).toBeVisible();

  // The filter finds a session far down the list.
  await list.getByRole('searchbox', { name: 'Filter sessions' }).fill('session-0237');
  await expect(list.getByRole('status')).toHaveText(new RegExp(`^1 of ${COUNT} sessions`));
  await expect(list.getByRole('button', { name: 'Open project-5/session-0237.jsonl' })).toBeVisible();
});
