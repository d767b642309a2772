// `compaction-inspector serve` on a temporary folder of fixtures: the landing table lists them and one click opens
// a session; lines appended to its file show as new calls (and a compaction), the view staying on its call until
// the user follows the tail; a reload keeps the session; other Host headers and paths outside the folder get 403.
// Waits are far above any budget (the follow latency is measured in npm run bench), so a busy machine passes.
// Needs the built app (npx vite build --outDir dist); the spec starts the server itself, on a free port.
import type { ChildProcess } from 'node:child_process';
import { appendFileSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { startServe, stopServe } from './support/serve';
import { fact } from './support/session-view';

// 0: any free port, so checkouts running their suites side by side never collide.
const ASK_PORT = Number(process.env.SERVE_E2E_PORT ?? 0);
let PORT = 0;
const SLOW = { timeout: 30_000 };
const ROOT = join(import.meta.dirname, '..');
const FIXTURES = join(ROOT, 'src', 'formats', '__fixtures__');
// The Codex rollout in three parts: two calls; then a third; then a compaction and the call after it.
const ROLLOUT = readFileSync(join(FIXTURES, 'codex-rollout.jsonl'), 'utf8').split('\n').filter((l) => l.trim() !== '');
const PART1 = ROLLOUT.slice(0, 18);
const PART2 = ROLLOUT.slice(18, 22);
const PART3 = ROLLOUT.slice(22, 31);

let dir: string;
let server: ChildProcess;
let address: string;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ci-serve-e2e-'));
  const sessions = join(dir, 'sessions');
  mkdirSync(join(sessions, 'project-a'), { recursive: true });
  writeFileSync(join(sessions, 'project-a', 'rollout-live.jsonl'), `${PART1.join('\n')}\n`);
  copyFileSync(join(FIXTURES, 'claude-code-session.jsonl'), join(sessions, 'claude-code-session.jsonl'));
  copyFileSync(join(FIXTURES, 'openai-chat-course.json'), join(sessions, 'course.json'));
  // A name with a right-to-left override: shown reversed, `report\u202Elmth.jsonl` reads as "reportlnosj.html".
  writeFileSync(join(sessions, 'report\u202Elmth.jsonl'), `${readFileSync(join(FIXTURES, 'openai-chat-course.json'), 'utf8')}\n`);
  writeFileSync(join(dir, 'outside.jsonl'), '{"secret":"outside the folder"}\n');
  symlinkSync(join(dir, 'outside.jsonl'), join(sessions, 'escape.jsonl'));
  // Its result cache and index stay in the test's folder, not the user's ~/.cache.
  ({ server, address } = await startServe(sessions, { port: ASK_PORT, cacheDir: join(dir, 'cache') }));
  PORT = Number(new URL(address).port);
});

test.afterAll(() => stopServe(server, dir));

function raw(path: string, host: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: PORT, path, headers: { host } }, (res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

const callLabel = (page: Page, text: string) => page.getByRole('toolbar', { name: 'Step through calls' }).getByText(text);
const table = (page: Page) => page.getByRole('region', { name: 'Sessions on this machine' });

test('lists the folder\'s sessions, measures them, and opens one with one click', async ({ page }) => {
  await page.goto(address);
  const list = table(page);
  await expect(list.getByRole('button', { name: 'Open project-a/rollout-live.jsonl' })).toBeVisible();
  await expect(list.getByRole('button', { name: 'Open claude-code-session.jsonl' })).toBeVisible();
  await expect(list.getByRole('button', { name: 'Open course.json' })).toBeVisible();
  // The overriding character shows as a mark, in the text and the accessible name.
  const rlo = list.getByRole('button', { name: 'Open report⟨RLO⟩lmth.jsonl' });
  await expect(rlo).toBeVisible();
  await expect(rlo).toHaveText('report⟨RLO⟩lmth.jsonl');
  // The symlink out of the folder is not listed.
  await expect(list.getByRole('button', { name: /escape/ })).toHaveCount(0);
  // Rows are measured in the browser: the Claude Code session's calls, compactions and reported hit rate.
  const claude = list.getByRole('row').filter({ has: page.getByRole('button', { name: 'Open claude-code-session.jsonl' }) });
  await expect(claude.getByRole('cell')).toHaveText(['claude-code-session.jsonl', /^Claude Code/, '—', /\d/, /\d/, /KB$/, '6', '2', '88.8%'], SLOW);
  // Sorting by size puts the biggest file first (the Claude Code session), or the smallest.
  const firstOpen = () => list.getByRole('button', { name: /^Open / }).first();
  const sizeHeader = list.getByRole('columnheader', { name: 'Size' });
  const sortSize = async (dir: 'ascending' | 'descending') => {
    for (let i = 0; i < 3 && (await sizeHeader.getAttribute('aria-sort')) !== dir; i++) await sizeHeader.getByRole('button').click();
    await expect(sizeHeader).toHaveAttribute('aria-sort', dir);
  };
  await sortSize('descending');
  await expect(firstOpen()).toHaveAccessibleName('Open claude-code-session.jsonl');
  await sortSize('ascending');
  await expect(firstOpen()).toHaveAccessibleName('Open course.json');
  // The filter narrows the table.
  await list.getByRole('searchbox', { name: 'Filter sessions' }).fill('project-a');
  await expect(list.getByRole('button', { name: /^Open / })).toHaveCount(1, SLOW);
  await list.getByRole('button', { name: 'Open project-a/rollout-live.jsonl' }).click();
  await expect(callLabel(page, 'Call 1 of 2')).toBeVisible();
  await expect(page.getByRole('status', { name: 'Live follow' })).toContainText('following project-a/rollout-live.jsonl');
  // Back to the list; the session's tab stays open.
  await page.getByRole('button', { name: 'Sessions on this machine' }).click();
  await expect(table(page).getByRole('button', { name: 'Open course.json' })).toBeVisible();
  await page.getByRole('navigation', { name: 'Open sessions' }).getByRole('tab').first().click();
  await expect(callLabel(page, 'Call 1 of 2')).toBeVisible();
});

test('appended lines show as new calls, the view stays on its call, and a compaction shows when it lands', async ({ page }) => {
  await page.goto(address);
  await table(page).getByRole('button', { name: 'Open project-a/rollout-live.jsonl' }).click();
  await expect(callLabel(page, 'Call 1 of 2')).toBeVisible();
  await expect(page.getByRole('status', { name: 'Live follow' })).toContainText('no change yet');
  await page.getByRole('button', { name: 'Next call' }).click();
  await expect(callLabel(page, 'Call 2 of 2')).toBeVisible();

  appendFileSync(join(dir, 'sessions', 'project-a', 'rollout-live.jsonl'), `${PART2.join('\n')}\n`);
  // A third call arrives, and the view stays on call 2.
  await expect(callLabel(page, 'Call 2 of 3')).toBeVisible(SLOW);
  await expect(page.getByRole('status', { name: 'Live follow' })).toContainText('last update');
  await expect(fact(page, 'Compactions')).toHaveText('0');

  // Following the tail jumps to the newest call, and stays there as more arrive.
  await page.getByRole('checkbox', { name: 'Follow the tail' }).check();
  await expect(callLabel(page, 'Call 3 of 3')).toBeVisible();
  appendFileSync(join(dir, 'sessions', 'project-a', 'rollout-live.jsonl'), `${PART3.join('\n')}\n`);
  await expect(callLabel(page, 'Call 4 of 4')).toBeVisible(SLOW);
  await expect(fact(page, 'Compactions')).toHaveText('1');
  // The compaction shows like any other: the budget chart marks call 4 as the one after it.
  await expect(page.getByRole('button', { name: /^Call 4: .*after compaction/ })).toBeVisible();
});

test('F5 on a served session reopens it at the same call: its path is in the address', async ({ page }) => {
  await page.goto(address);
  await table(page).getByRole('button', { name: 'Open claude-code-session.jsonl' }).click();
  await expect(callLabel(page, 'Call 1 of 6')).toBeVisible(SLOW);
  await page.getByRole('button', { name: 'Next call' }).click();
  await page.getByRole('button', { name: 'Next call' }).click();
  await expect(page).toHaveURL(/[?&]served=0%2Fclaude-code-session\.jsonl/);
  await expect(page).toHaveURL(/[?&]turn=3/, SLOW);
  await page.reload();
  await expect(callLabel(page, 'Call 3 of 6')).toBeVisible(SLOW);
  // Still followed live, like a session opened from the list.
  await expect(page.getByRole('status', { name: 'Live follow' })).toContainText('following claude-code-session.jsonl');
  await expect(page.getByRole('navigation', { name: 'Open sessions' }).getByRole('tab')).toHaveCount(1);
  // Back to the list drops the session from the address.
  await page.getByRole('button', { name: 'Sessions on this machine' }).click();
  await expect(page).not.toHaveURL(/served=/);
});

test('at 1000×700 with a served session open, every action of the top bar is in the window, on one line', async ({ page }) => {
  await page.setViewportSize({ width: 1000, height: 700 });
  await page.goto(address);
  await table(page).getByRole('button', { name: 'Open claude-code-session.jsonl' }).click();
  await expect(callLabel(page, 'Call 1 of 6')).toBeVisible(SLOW);
  // Under serve the bar has one more action than a dropped file's; Library and the theme were cut off the window.
  const bar = page.locator('header.topbar');
  const buttons = await bar.getByRole('button').all();
  expect(buttons.length).toBeGreaterThanOrEqual(7);
  for (const b of buttons) {
    const box = (await b.boundingBox())!;
    expect(box.x + box.width, await b.getAttribute('aria-label') ?? await b.innerText()).toBeLessThanOrEqual(1000);
  }
  await expect(bar.getByRole('button', { name: 'Sessions on this machine' })).toBeVisible();
  await expect(bar.getByRole('button', { name: 'Library', exact: true })).toBeVisible();
  expect((await bar.boundingBox())!.height).toBeLessThan(60);
});

test('another Host header, or a path outside the folder, gets 403', async ({ page }) => {
  const token = new URL(address).searchParams.get('token')!;
  const own = `127.0.0.1:${PORT}`;
  expect((await raw('/', own)).status).toBe(200);
  expect((await raw('/', `attacker.example:${PORT}`)).status).toBe(403);
  expect((await raw(`/api/sessions?token=${token}`, 'rebind.example')).status).toBe(403);
  expect((await raw('/api/sessions', own)).status).toBe(403); // no token
  const file = (p: string) => raw(`/api/file?token=${token}&root=0&path=${encodeURIComponent(p)}`, own);
  expect((await file('course.json')).status).toBe(200);
  for (const p of ['../outside.jsonl', 'project-a/../../outside.jsonl', join(dir, 'outside.jsonl'), 'escape.jsonl']) {
    const r = await file(p);
    expect(r.status, p).toBe(403);
    expect(r.body).not.toContain('outside the folder');
  }
  // The page itself is sent with the app's policy and may not be framed.
  const res = await page.request.get(address);
  expect(res.headers()['content-security-policy']).toContain("frame-ancestors 'none'");
});
