// Instruction files (CLAUDE.md, AGENTS.md, …) a harness puts in every request without recording them: added in the
// Summary audit panel or dropped with or onto a session, the audit reads them (a value the file holds was never lost),
// removed, it reads without them; no other figure moves, and they stay in the tab (a reload forgets them).
import { expect, test, type Page } from '@playwright/test';
import { buildAnalysisView } from '../src/analysis/analysis-view';
import { loadFiles } from '../src/load/loader';
import { formatBytes } from '../app/data/library-policy';
import { dropFiles, fromText } from './support/drop';
import { CLAUDE_MD, instructionFilesSession, RETRY_FILE, STAGING_HOST } from './support/instruction-files-session';
import { openPanel, sessionIn } from './support/session-view';

test.use({ viewport: { width: 1400, height: 900 } });

const SESSION = instructionFilesSession();
const SLOW = { timeout: 60_000 };
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const audit = (page: Page) => page.getByRole('region', { name: 'Summary audit', exact: true });
const gate = (page: Page) => audit(page).getByRole('group', { name: 'Lost and needed later, compaction 1' });
/** The gate's row of `value` (each row's name starts with its value). */
const row = (page: Page, value: string) => gate(page).getByRole('row', { name: new RegExp(`^${escape(value)} `) });
const readWith = (page: Page) => audit(page).getByRole('group', { name: 'Instruction files read' });
const hint = (page: Page) => audit(page).getByText('This audit cannot see files the harness loads without recording them');
const claudeMd = () => ({ name: 'CLAUDE.md', mimeType: 'text/markdown', buffer: Buffer.from(CLAUDE_MD, 'utf8') });

async function openSession(page: Page, withFiles: { name: string; text: string }[] = []) {
  await page.goto('/');
  await dropFiles(page, [fromText('payments.jsonl', SESSION), ...withFiles.map((f) => fromText(f.name, f.text))]);
  await sessionIn(page);
  await openPanel(page, 'Summary audit');
  await expect(gate(page)).toBeVisible(SLOW);
}

async function expectWithout(page: Page) {
  await expect(row(page, STAGING_HOST)).toBeVisible(SLOW);
  await expect(row(page, RETRY_FILE)).toBeVisible();
  await expect(hint(page)).toBeVisible();
  await expect(readWith(page)).toHaveCount(0);
  await expect(audit(page).locator('.audit-trust')).not.toContainText("each read with its project's CLAUDE.md");
}

async function expectWith(page: Page) {
  await expect(readWith(page)).toContainText(`Read with CLAUDE.md (${formatBytes(Buffer.byteLength(CLAUDE_MD))})`);
  await expect(row(page, STAGING_HOST)).toHaveCount(0, SLOW);
  // A value no instruction file holds is still lost and needed.
  await expect(row(page, RETRY_FILE)).toBeVisible();
  await expect(hint(page)).toHaveCount(0);
  // The trust sentence states the figures measured with each project's CLAUDE.md read, as this audit now is.
  await expect(audit(page).locator('.audit-trust')).toContainText("each read with its project's CLAUDE.md");
}

test('the engine counts the staging host lost and needed without CLAUDE.md, and not with it', () => {
  const session = loadFiles([{ name: 'payments.jsonl', bytes: new TextEncoder().encode(SESSION) }]).sessions[0]!;
  const words = (t: string) => t.split(/\s+/).filter(Boolean).length;
  const needed = (files: { path: string; text: string }[]) => buildAnalysisView({ ...session, instructionFiles: files }, { count: words }).audits[0]!.lostReferencedLater.map((r) => r.value);
  expect(needed([])).toEqual(expect.arrayContaining([STAGING_HOST, RETRY_FILE]));
  expect(needed([{ path: 'CLAUDE.md', text: CLAUDE_MD }])).not.toContain(STAGING_HOST);
  expect(needed([{ path: 'CLAUDE.md', text: CLAUDE_MD }])).toContain(RETRY_FILE);
});

/** The share link the page would copy now. */
async function shareLink(page: Page): Promise<string> {
  await page.getByRole('button', { name: 'Copy share link' }).click();
  const dialog = page.getByRole('dialog', { name: 'Share link' });
  const link = await dialog.getByRole('textbox', { name: 'Share link URL' }).inputValue();
  await dialog.getByRole('button', { name: 'Done' }).click();
  return link;
}

test('a CLAUDE.md added in the panel takes the host it names off the lost list, and removing it puts it back', async ({ page }) => {
  await openSession(page);
  await expectWithout(page);
  const calls = await page.getByRole('toolbar', { name: 'Step through calls' }).locator('.call-label').textContent();
  const facts = await page.getByRole('region', { name: 'Session' }).textContent();
  // The address names the panel once it has caught up with it.
  await expect(page).toHaveURL(/[?&]panel=audit/);
  const address = page.url();
  const link = await shareLink(page);

  await audit(page).getByLabel('Instruction files for the audit').setInputFiles(claudeMd());
  await expectWith(page);
  // Only the audit reads it: the calls, the header, the address and the share link are as they were (nothing of the
  // file is in a link).
  await expect(page.getByRole('toolbar', { name: 'Step through calls' }).locator('.call-label')).toHaveText(calls!);
  await expect(page.getByRole('region', { name: 'Session' })).toHaveText(facts!);
  expect(page.url()).toBe(address);
  expect(await shareLink(page)).toBe(link);

  // Adding the same file again adds nothing.
  await audit(page).getByLabel('Instruction files for the audit').setInputFiles(claudeMd());
  await expect(readWith(page).getByRole('listitem')).toHaveCount(1);

  await readWith(page).getByRole('button', { name: 'Remove CLAUDE.md' }).click();
  await expectWithout(page);
});

test('a CLAUDE.md dropped onto the open session is added to it, not loaded as a session', async ({ page }) => {
  await openSession(page);
  await expectWithout(page);
  await dropFiles(page, [fromText('CLAUDE.md', CLAUDE_MD)]);
  await expect(page.getByRole('status').filter({ hasText: 'Added CLAUDE.md to' })).toBeVisible();
  await expectWith(page);
  await expect(page.getByRole('navigation', { name: 'Open sessions' }).getByRole('tab')).toHaveCount(1);
  await readWith(page).getByRole('button', { name: 'Remove CLAUDE.md' }).click();
  await expectWithout(page);
});

test('a session dropped with its CLAUDE.md opens read with it; a reload forgets the file', async ({ page }) => {
  await openSession(page, [{ name: 'CLAUDE.md', text: CLAUDE_MD }]);
  await expectWith(page);
  // No load problem over the CLAUDE.md: it was never read as a session.
  await expect(page.getByText(/CLAUDE\.md.*(not recognized|unknown|could not)/i)).toHaveCount(0);
  await expect(page.getByRole('navigation', { name: 'Open sessions' }).getByRole('tab')).toHaveCount(1);
  // The library keeps the session's file only: after a reload the audit reads without the CLAUDE.md, and says so.
  await expect(page).toHaveURL(/[?&]lib=[0-9a-f]{64}/, SLOW);
  await page.reload();
  await sessionIn(page);
  await openPanel(page, 'Summary audit');
  await expectWithout(page);
});

test('a CLAUDE.md dropped with no session open says how to use it', async ({ page }) => {
  await page.goto('/');
  await dropFiles(page, [fromText('CLAUDE.md', CLAUDE_MD)]);
  await expect(page.getByText('open it together with its session, or add it in the Summary audit panel of an open session')).toBeVisible();
  await expect(page.getByRole('toolbar', { name: 'Step through calls' })).toHaveCount(0);
});
