// Annotations, the local library, share links and bundles, played the way teammates use them.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { inflateRawSync } from 'node:zlib';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { DEMOS } from '../app/demos';
import { dropFiles, fromDisk, fromText } from './support/drop';
import { auditListTrust } from '../src/audit/audit-trust';
import { ASKED, INVENTED_CLAIM, inventedInstructionSession } from '../src/test/invented-instruction-session';
import { openPanel } from './support/session-view';

const FIXTURES = join(import.meta.dirname, '..', 'src', 'formats', '__fixtures__');
const SESSION = join(FIXTURES, 'claude-code-session.jsonl');
const OTHER = join(FIXTURES, 'codex-rollout.jsonl');
const SHOTS = join(import.meta.dirname, '..', '.e2e-artifacts', 'screens');
const coding = DEMOS.find((d) => d.id === 'coding-agent')!;

const stepper = (page: Page) => page.getByRole('toolbar', { name: 'Step through calls' });
const notesPanel = (page: Page) => page.getByRole('region', { name: 'Annotations' });

async function openFixture(page: Page, path = SESSION): Promise<number> {
  await dropFiles(page, fromDisk(path));
  const label = stepper(page).getByText(/Call \d+ of \d+/);
  await expect(label).toBeVisible();
  return Number(/of (\d+)/.exec((await label.textContent()) ?? '')![1]);
}

async function addNote(page: Page, text: string, tags: string[] = []) {
  await openPanel(page, 'Annotations');
  await notesPanel(page).getByRole('button', { name: 'Add note', exact: true }).click();
  const editor = notesPanel(page).getByRole('form', { name: 'New note' });
  await editor.getByRole('textbox', { name: 'Note' }).fill(text);
  for (const t of tags) await editor.getByRole('button', { name: t, exact: true }).click();
  await editor.getByRole('button', { name: 'Save note' }).click();
  await expect(editor).toHaveCount(0);
}

test('two teammates: A annotates and copies the link; B opens it, drops the same file and sees A’s call and notes; a different file is flagged', async ({ browser }) => {
  const a = await browser.newContext({ permissions: ['clipboard-read', 'clipboard-write'] });
  const pa = await a.newPage();
  await pa.goto('/');
  const calls = await openFixture(pa);
  for (let i = 0; i < 3; i++) await pa.keyboard.press('j');
  await expect(stepper(pa).getByText(`Call 4 of ${calls}`)).toBeVisible();
  await addNote(pa, 'Grep output is masked from here on', ['lost fact']);
  await expect(notesPanel(pa).getByRole('article', { name: 'Note on Call 4' })).toContainText('Grep output is masked from here on');
  // An item note too: pick u-001 with search, so the selected item is the target.
  await pa.keyboard.press('/');
  await pa.getByRole('searchbox', { name: 'Search the session' }).fill('u-001');
  await pa.keyboard.press('Enter');
  await addNote(pa, 'The original task, summarized later', ['good summary']);
  const itemNote = notesPanel(pa).getByRole('article', { name: /^Note on Item u-001/ });
  await expect(itemNote).toContainText('good summary');
  const callText = (await stepper(pa).getByText(/Call \d+ of \d+/).textContent())!;

  await pa.getByRole('button', { name: 'Copy share link' }).click();
  const dialog = pa.getByRole('dialog', { name: 'Share link' });
  await expect(dialog.getByRole('status')).toHaveText('Copied to the clipboard.');
  const link = await dialog.getByRole('textbox', { name: 'Share link URL' }).inputValue();
  expect(link).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${process.env.E2E_PORT ?? 4173}/#ci=2\\.[A-Za-z0-9_-]+$`));
  expect(await pa.evaluate(() => navigator.clipboard.readText())).toBe(link);
  await expect(dialog).toContainText(`${link.length.toLocaleString('en-US')} characters`);
  await expect(dialog).toContainText('short enough for chat apps');
  await dialog.getByRole('button', { name: 'Done' }).click();

  // B has an empty browser: no library, no notes.
  const b = await browser.newContext();
  const pb = await b.newPage();
  await pb.goto(link);
  const ask = pb.getByRole('region', { name: 'Shared link' });
  await expect(ask.getByRole('heading', { name: 'Open the session file to see the shared view' })).toBeVisible();
  await expect(ask).toContainText('2 notes');
  await pb.screenshot({ path: join(SHOTS, 'shared-link-prompt-light.png') });
  await openFixture(pb);
  await expect(stepper(pb).getByText(callText)).toBeVisible();
  await expect(pb.getByRole('tab', { name: 'Annotations' })).toHaveAttribute('aria-selected', 'true');
  await expect(notesPanel(pb).getByRole('article', { name: 'Note on Call 4' })).toContainText('Grep output is masked from here on');
  await expect(notesPanel(pb).getByRole('article', { name: /^Note on Item u-001/ })).toContainText('The original task, summarized later');
  await expect(pb.getByRole('status').filter({ hasText: 'Opened the shared view' })).toContainText('2 new');
  // The selected item came along and wears its note badge in the context.
  await expect(pb.locator('.row.selected [data-item-id="u-001"] .note-badge')).toHaveText('✎ 1 note');
  expect(pb.url()).not.toContain('#ci=');

  await openFixture(pb, OTHER);
  const warning = pb.getByRole('alert').filter({ hasText: 'This file differs from the one the link was made from' });
  await expect(warning).toBeVisible();
  await expect(warning).toContainText("the link's 2 notes were not added");
  await pb.getByRole('button', { name: 'Switch to dark theme' }).click();
  await pb.screenshot({ path: join(SHOTS, 'shared-link-mismatch-dark.png') });
  await expect(notesPanel(pb).getByText('No notes yet')).toBeVisible();
  await warning.getByRole('button', { name: "Add the link's notes anyway" }).click();
  await expect(notesPanel(pb).getByRole('article')).toHaveCount(2);
  await a.close();
  await b.close();
});

test('a link made on a session opened from a URL loads it by itself, at the same call', async ({ browser }) => {
  const a = await browser.newContext();
  const pa = await a.newPage();
  await pa.goto('/');
  await pa.getByRole('button', { name: coding.title }).click();
  await expect(stepper(pa).getByText('Call 1 of 14')).toBeVisible();
  await pa.keyboard.press('n');
  await expect(stepper(pa).getByText('Call 7 of 14')).toBeVisible();
  await addNote(pa, 'The summary keeps db-prod-1:5432');
  await pa.getByRole('button', { name: 'Copy share link' }).click();
  const dialog = pa.getByRole('dialog', { name: 'Share link' });
  await expect(dialog).toContainText('loads from its URL by itself');
  const link = await dialog.getByRole('textbox', { name: 'Share link URL' }).inputValue();

  const b = await browser.newContext();
  const pb = await b.newPage();
  await pb.goto(link);
  await expect(stepper(pb).getByText('Call 7 of 14')).toBeVisible();
  await expect(notesPanel(pb).getByRole('article', { name: 'Note on Call 7' })).toContainText('db-prod-1:5432');
  await expect(pb.getByRole('region', { name: 'Shared link' })).toHaveCount(0);
  await a.close();
  await b.close();
});

test('notes survive a reload, the library lists the session and reopens it in one click, and a link to it opens from the library', async ({ page }) => {
  await page.goto('/');
  await openFixture(page);
  const title = (await page.getByRole('region', { name: 'Session' }).getByRole('heading').first().textContent())!;
  await addNote(page, 'Kept across reloads', ['question']);
  await page.getByRole('button', { name: 'Copy share link' }).click();
  const link = await page.getByRole('dialog', { name: 'Share link' }).getByRole('textbox', { name: 'Share link URL' }).inputValue();

  // A reload reopens the session where it was (issue 33), with its note; the library lists it with the note.
  await page.reload();
  await expect(stepper(page).getByText(/Call 1 of \d+/)).toBeVisible();
  await openPanel(page, 'Annotations');
  await expect(notesPanel(page).getByRole('article', { name: 'Note on Call 1' })).toContainText('Kept across reloads');
  await expect(notesPanel(page).getByRole('article')).toHaveCount(1);
  await page.getByRole('button', { name: 'Library', exact: true }).click();
  const library = page.getByRole('region', { name: 'Library' });
  await expect(library.getByRole('button', { name: `Open ${title}` })).toBeVisible();
  await expect(library).toContainText('1 note');
  await library.getByRole('button', { name: 'Close the library' }).click();

  // Same browser, the link: the session comes from the library, no file asked for; notes are not doubled.
  await page.goto('about:blank');
  await page.goto(link);
  await expect(stepper(page).getByText(/Call 1 of \d+/)).toBeVisible();
  await expect(page.getByRole('region', { name: 'Shared link' })).toHaveCount(0);
  await expect(page.getByRole('status').filter({ hasText: 'Opened the shared view' })).toContainText('0 new');
  await expect(notesPanel(page).getByRole('article')).toHaveCount(1);

  // The drawer lists it too, and removing it empties the library.
  await page.getByRole('button', { name: 'Library' }).click();
  const drawer = page.getByRole('region', { name: 'Library' });
  await drawer.getByRole('button', { name: `Remove ${title} from the library` }).click();
  await drawer.getByRole('button', { name: 'Remove', exact: true }).click();
  await expect(drawer).toContainText('Nothing yet');
});

test('Export bundle, then dropping the bundle in a fresh browser restores the files, the notes and the view; redaction previews and applies', async ({ browser }) => {
  const a = await browser.newContext({ acceptDownloads: true });
  const pa = await a.newPage();
  await pa.goto('/');
  const calls = await openFixture(pa);
  await pa.keyboard.press('j');
  await pa.keyboard.press('j');
  await openPanel(pa, 'Annotations');
  await notesPanel(pa).getByRole('button', { name: 'Note a range of calls' }).click();
  const editor = notesPanel(pa).getByRole('form', { name: 'New note' });
  await editor.getByRole('spinbutton', { name: 'From call' }).fill('2');
  await editor.getByRole('spinbutton', { name: 'To call' }).fill('4');
  await editor.getByRole('textbox', { name: 'Note' }).fill('These three calls share a prefix with db-prod-1');
  await editor.getByRole('button', { name: 'Save note' }).click();
  await expect(notesPanel(pa).getByRole('article', { name: 'Note on Calls 2–4' })).toBeVisible();

  await pa.getByRole('button', { name: 'Export bundle' }).click();
  const dialog = pa.getByRole('dialog', { name: 'Export bundle' });
  await expect(dialog).toContainText('1 note');
  await dialog.getByRole('checkbox', { name: 'Redact secrets in the files and notes' }).check();
  await dialog.getByRole('textbox', { name: /Other strings to hide/ }).fill('db-prod-1');
  const preview = dialog.getByRole('region', { name: 'Redaction preview' });
  await expect(preview).toContainText('[REDACTED_CUSTOM_1]');
  await expect(preview.getByRole('list', { name: 'Redacted in the notes' })).toContainText('db-prod-1');
  const [download] = await Promise.all([pa.waitForEvent('download'), dialog.getByRole('button', { name: 'Download bundle' }).click()]);
  expect(download.suggestedFilename()).toMatch(/^compaction-inspector-[0-9a-f]{12}\.bundle\.json$/);
  const path = join(mkdtempSync(join(tmpdir(), 'ci-bundle-')), download.suggestedFilename());
  await download.saveAs(path);
  await expect(dialog.getByRole('status')).toContainText(`Saved ${download.suggestedFilename()}`);
  const text = readFileSync(path, 'utf8');
  expect(text.startsWith('{"compactionInspectorBundle":1')).toBe(true);
  expect(text).not.toContain('db-prod-1');
  expect(text).toContain('[REDACTED_CUSTOM_1]');

  const b = await browser.newContext();
  const pb = await b.newPage();
  await pb.goto('/');
  await dropFiles(pb, fromDisk(path));
  await expect(stepper(pb).getByText(`Call 3 of ${calls}`)).toBeVisible();
  await expect(pb.getByRole('tab', { name: 'Annotations' })).toHaveAttribute('aria-selected', 'true');
  await expect(notesPanel(pb).getByRole('article', { name: 'Note on Calls 2–4' })).toContainText('share a prefix with [REDACTED_CUSTOM_1]');
  await expect(pb.getByRole('status').filter({ hasText: 'Opened the bundle' })).toContainText('1 note added');
  await a.close();
  await b.close();
});

test("the HTML report lists an instruction the summary gave the user, with the closest message, as the Summary audit does", async ({ page }) => {
  await page.goto('/');
  await dropFiles(page, [fromText('redirect.jsonl', inventedInstructionSession())]);
  // The report holds the audit once the panel has it.
  await openPanel(page, 'Summary audit');
  const audit = page.getByRole('tabpanel', { name: 'Summary audit', exact: true });
  await expect(audit.getByRole('group', { name: 'Invented instructions, compaction 1' })).toBeVisible();
  await page.getByRole('button', { name: 'Export bundle' }).click();
  const dialog = page.getByRole('dialog', { name: 'Export bundle' });
  const [download] = await Promise.all([page.waitForEvent('download'), dialog.getByRole('button', { name: 'Download HTML report' }).click()]);
  const path = join(mkdtempSync(join(tmpdir(), 'ci-report-')), download.suggestedFilename());
  await download.saveAs(path);
  const report = await page.context().newPage();
  await report.goto(`file://${path}`);
  const compaction = report.locator('details.audit').first();
  await expect(compaction).toHaveAttribute('open', '');
  await expect(compaction.locator('summary')).toContainText('1 invented instruction ·');
  await expect(compaction).toContainText(`Invented instructions (the summary says the user asked or wanted it; no user message says it; ${auditListTrust('inventedInstructions')}):`);
  await expect(compaction.getByText(INVENTED_CLAIM)).toBeVisible();
  await expect(compaction.getByText(ASKED)).toBeVisible();
  await compaction.scrollIntoViewIfNeeded();
  await report.screenshot({ path: join(SHOTS, 'report-invented-instruction.png') });
  await report.close();
});

test('the HTML report is one file that shows the notes and every call, and makes no network request when opened', async ({ page }) => {
  await page.goto('/');
  const calls = await openFixture(page);
  await addNote(page, 'Worth a look <b>bold?</b>', ['question']);
  await page.getByRole('button', { name: 'Export bundle' }).click();
  const dialog = page.getByRole('dialog', { name: 'Export bundle' });
  const [download] = await Promise.all([page.waitForEvent('download'), dialog.getByRole('button', { name: 'Download HTML report' }).click()]);
  expect(download.suggestedFilename()).toMatch(/^compaction-inspector-[0-9a-f]{12}\.report\.html$/);
  const path = join(mkdtempSync(join(tmpdir(), 'ci-report-')), download.suggestedFilename());
  await download.saveAs(path);

  // In a page of its own: the app's page may still be fetching its workers' code, which is not the report's doing.
  const report = await page.context().newPage();
  const requests: string[] = [];
  report.on('request', (r) => requests.push(r.url()));
  await report.goto(`file://${path}`);
  await expect(report.getByRole('heading', { name: 'Notes (1)' })).toBeVisible();
  await expect(report.getByText('Worth a look <b>bold?</b>')).toBeVisible();
  await expect(report.locator('details[id^="call-"]')).toHaveCount(calls);
  expect(requests).toEqual([`file://${path}`]);
  await report.screenshot({ path: join(SHOTS, 'html-report-light.png') });
});

test('the endpoint API key typed in the Re-run panel is in no link, bundle, report, OTLP or ATIF export or library entry', async ({ page }) => {
  const KEY = 'sk-proj-e2eSHARINGkey0123456789abcdefXYZ';
  await page.goto('/');
  await openFixture(page);
  await openPanel(page, 'Re-run');
  await page.getByRole('region', { name: 'Re-run' }).getByLabel('API key', { exact: true }).fill(KEY);
  await addNote(page, 'A note that is not a key');

  await page.getByRole('button', { name: 'Copy share link' }).click();
  const link = await page.getByRole('dialog', { name: 'Share link' }).getByRole('textbox', { name: 'Share link URL' }).inputValue();
  await page.getByRole('dialog', { name: 'Share link' }).getByRole('button', { name: 'Done' }).click();
  const payload = /#ci=2\.([A-Za-z0-9_-]+)$/.exec(link)![1]!;
  const json = inflateRawSync(Buffer.from(payload, 'base64url')).toString('utf8');
  expect(json).toContain('A note that is not a key');
  expect(json).not.toContain(KEY);

  const texts: string[] = [];
  for (const button of ['Download bundle', 'Download HTML report', 'Export as OTLP', 'Export as ATIF']) {
    await page.getByRole('button', { name: 'Export bundle' }).click();
    // The OTLP and ATIF exports wait for the finished analysis.
    await expect(page.getByRole('dialog', { name: 'Export bundle' }).getByRole('button', { name: button })).toBeEnabled({ timeout: 30_000 });
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('dialog', { name: 'Export bundle' }).getByRole('button', { name: button }).click()]);
    const path = join(mkdtempSync(join(tmpdir(), 'ci-key-')), download.suggestedFilename());
    await download.saveAs(path);
    texts.push(readFileSync(path, 'utf8'));
    await page.getByRole('dialog', { name: 'Export bundle' }).getByRole('button', { name: 'Close' }).click();
  }
  expect(texts[0]).toContain('A note that is not a key');
  for (const t of texts) expect(t).not.toContain(KEY);

  // Everything the library holds: entries, notes, and the stored files' bytes.
  const stored = await page.evaluate(async () => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const r = indexedDB.open('compaction-inspector');
      r.onsuccess = () => resolve(r.result);
      r.onerror = () => reject(r.error);
    });
    const out: string[] = [];
    for (const name of Array.from(db.objectStoreNames)) {
      const all = await new Promise<unknown[]>((resolve) => {
        const r = db.transaction(name).objectStore(name).getAll();
        r.onsuccess = () => resolve(r.result);
      });
      for (const v of all) {
        out.push(JSON.stringify(v));
        const files = (v as { files?: { blob?: Blob }[] }).files;
        if (Array.isArray(files)) for (const f of files) if (f.blob instanceof Blob) out.push(await f.blob.text());
      }
    }
    return out.join('\n');
  });
  expect(stored).toContain('A note that is not a key');
  expect(stored).toContain('"type"');
  expect(stored).not.toContain(KEY);
});

test('a malformed link shows a clear error and leaves the open sessions alone', async ({ page }) => {
  await page.goto('/#ci=1.@@not-a-link@@');
  await expect(page.getByRole('alert').filter({ hasText: 'This share link could not be opened' })).toContainText('damaged');
  await openFixture(page);
  await addNote(page, 'Still here');
  // A broken link pasted into this tab's address bar: the session and its note stay.
  await page.evaluate(() => (location.hash = '#ci=9.abc'));
  await expect(page.getByRole('alert').filter({ hasText: 'This share link could not be opened' })).toContainText('newer version');
  await expect(page.getByRole('navigation', { name: 'Open sessions' }).getByRole('tab')).toHaveCount(1);
  await expect(notesPanel(page).getByRole('article', { name: 'Note on Call 1' })).toContainText('Still here');
});

test('without IndexedDB the app says so plainly and notes still work in the tab', async ({ page }) => {
  await page.addInitScript(() => Object.defineProperty(window, 'indexedDB', { value: undefined }));
  await page.goto('/');
  await openFixture(page);
  await expect(page.getByRole('status').filter({ hasText: 'no local database' }).first()).toBeVisible();
  await addNote(page, 'Only in memory');
  await expect(notesPanel(page).getByRole('article', { name: 'Note on Call 1' })).toContainText('Only in memory');
  await page.getByRole('button', { name: 'Library' }).click();
  await expect(page.getByRole('region', { name: 'Library' })).toContainText('sessions are not remembered between visits');
});

test('screenshots: annotations panel, library, share and export dialogs in both themes', async ({ page }) => {
  await page.setViewportSize({ width: 1360, height: 860 });
  await page.goto('/');
  await page.getByRole('button', { name: coding.title }).click();
  await expect(stepper(page).getByText('Call 1 of 14')).toBeVisible();
  await page.keyboard.press('n');
  await addNote(page, 'The summary keeps db-prod-1:5432 and FRE-512.', ['good summary']);
  await notesPanel(page).getByRole('button', { name: 'Note a range of calls' }).click();
  await notesPanel(page).getByRole('spinbutton', { name: 'From call' }).fill('12');
  await notesPanel(page).getByRole('spinbutton', { name: 'To call' }).fill('14');
  await notesPanel(page).getByRole('textbox', { name: 'Note' }).fill('After the fallback, v2.14.3 is gone.\nAsk: should the fallback keep version strings?');
  await notesPanel(page).getByRole('button', { name: 'lost fact' }).click();
  await notesPanel(page).getByRole('button', { name: 'Save note' }).click();
  await page.keyboard.press('/');
  await page.getByRole('searchbox', { name: 'Search the session' }).fill('FRE-512');
  await page.keyboard.press('Enter');
  await notesPanel(page).getByRole('button', { name: 'Add note', exact: true }).click();
  await notesPanel(page).getByRole('textbox', { name: 'Note' }).fill('Ticket id first appears here.');
  for (const theme of ['light', 'dark'] as const) {
    if (theme === 'dark') await page.getByRole('button', { name: 'Switch to dark theme' }).click();
    await page.screenshot({ path: join(SHOTS, `annotations-${theme}.png`) });
    if (theme === 'light') {
      await notesPanel(page).getByRole('button', { name: 'Cancel' }).click();
    }
    await page.screenshot({ path: join(SHOTS, `annotations-list-${theme}.png`) });
    await page.getByRole('button', { name: 'Copy share link' }).click();
    const share = page.getByRole('dialog', { name: 'Share link' });
    await share.getByRole('checkbox', { name: 'Redact secrets in the notes' }).check();
    await share.getByRole('textbox', { name: /Other strings to hide/ }).fill('db-prod-1');
    await expect(share.getByRole('list', { name: 'Redacted in the notes' })).toBeVisible();
    await page.screenshot({ path: join(SHOTS, `share-dialog-${theme}.png`) });
    await share.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('button', { name: 'Export bundle' }).click();
    const exp = page.getByRole('dialog', { name: 'Export bundle' });
    await exp.getByRole('checkbox', { name: 'Redact secrets in the files and notes' }).check();
    await exp.getByRole('textbox', { name: /Other strings to hide/ }).fill('db-prod-1');
    await expect(exp.getByRole('region', { name: 'Redaction preview' })).toBeVisible();
    await page.screenshot({ path: join(SHOTS, `export-dialog-${theme}.png`) });
    await exp.getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('button', { name: 'Library' }).click();
    await expect(page.getByRole('region', { name: 'Library' }).getByRole('button', { name: /^Open / }).first()).toBeVisible();
    await page.screenshot({ path: join(SHOTS, `library-drawer-${theme}.png`) });
    await page.getByRole('button', { name: 'Close the library' }).click();
  }
  await page.goto('/');
  await expect(page.getByRole('region', { name: 'Library' })).toBeVisible();
  await page.screenshot({ path: join(SHOTS, 'library-welcome-light.png'), fullPage: true });
  await page.getByRole('button', { name: 'Switch to dark theme' }).click();
  await page.screenshot({ path: join(SHOTS, 'library-welcome-dark.png'), fullPage: true });
});
