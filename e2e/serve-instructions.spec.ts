// A session opened from `serve`'s list comes with the instruction files its harness loaded where it ran: the server
// finds the CLAUDE.md in the working directory the session recorded (here a temporary folder), and the Summary audit
// reads it: the staging host that file names is no longer lost, "Read with CLAUDE.md" says so and that it was found
// where the session ran, and removing the file puts the row back. The server sees a home of its own (no
// ~/.claude/CLAUDE.md), so the machine's own files never enter the test.
// Needs the built app (npx vite build); the spec starts the server itself, on a free port.
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { formatBytes } from '../app/data/library-policy';
import { CLAUDE_MD, instructionFilesSession, RETRY_FILE, STAGING_HOST } from './support/instruction-files-session';
import { startServe, stopServe } from './support/serve';
import { openPanel, sessionIn } from './support/session-view';

test.use({ viewport: { width: 1400, height: 900 } });

const SLOW = { timeout: 60_000 };
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

let dir: string;
let server: ChildProcess;
let address: string;

test.beforeAll(async () => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'ci-serve-instr-e2e-')));
  const project = join(dir, 'payments');
  const sessions = join(dir, 'sessions', '-payments');
  mkdirSync(project, { recursive: true });
  mkdirSync(sessions, { recursive: true });
  mkdirSync(join(dir, 'home'));
  writeFileSync(join(project, 'CLAUDE.md'), CLAUDE_MD);
  writeFileSync(join(sessions, 'payments.jsonl'), instructionFilesSession(project));
  ({ server, address } = await startServe(join(dir, 'sessions'), { cacheDir: join(dir, 'cache'), home: join(dir, 'home') }));
});

test.afterAll(() => stopServe(server, dir));

const audit = (page: Page) => page.getByRole('region', { name: 'Summary audit', exact: true });
const gate = (page: Page) => audit(page).getByRole('group', { name: 'Lost and needed later, compaction 1' });
const row = (page: Page, value: string) => gate(page).getByRole('row', { name: new RegExp(`^${escape(value)} `) });
const readWith = (page: Page) => audit(page).getByRole('group', { name: 'Instruction files read' });

test('a session opened from the list is audited with the CLAUDE.md found where it ran, which the user can remove', async ({ page }) => {
  await page.goto(address);
  await page.getByRole('region', { name: 'Sessions on this machine' }).getByRole('button', { name: 'Open -payments/payments.jsonl' }).click();
  await sessionIn(page);
  await openPanel(page, 'Summary audit');
  await expect(gate(page)).toBeVisible(SLOW);
  await expect(readWith(page)).toContainText(`Read with CLAUDE.md (${formatBytes(Buffer.byteLength(CLAUDE_MD))}, found where it ran)`, SLOW);
  await expect(readWith(page).getByTitle(join(dir, 'payments', 'CLAUDE.md'), { exact: true })).toHaveText('CLAUDE.md');
  await expect(row(page, STAGING_HOST)).toHaveCount(0, SLOW);
  // A value the file does not hold is still lost and needed.
  await expect(row(page, RETRY_FILE)).toBeVisible();

  await readWith(page).getByRole('button', { name: `Remove ${join(dir, 'payments', 'CLAUDE.md')}` }).click();
  await expect(row(page, STAGING_HOST)).toBeVisible(SLOW);
  await expect(readWith(page)).toHaveCount(0);
});
