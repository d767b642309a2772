// A big JSONL file opens progressively: its first lines show in the inspector at once, with a status
// line, and the full session then takes the same tab, at the same call; only the full session reaches
// the library.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { formatBytes } from '../app/data/library-policy';
import { isConversationItem } from '../src/analysis/eviction-map';
import { loadFiles } from '../src/load/loader';
import { jsonlPrefix, PREVIEW_MIN_BYTES, PREVIEW_PREFIX_BYTES } from '../src/load/prefix';
import { engineLoad } from './support/engine';
import { expectSessionFacts, sessionTabs } from './support/session-view';

const FIXTURE = join(import.meta.dirname, '..', 'src', 'formats', '__fixtures__', 'claude-code-session.jsonl');
const SHOTS = join(import.meta.dirname, '..', '.e2e-artifacts', 'screens');
const NAME = 'big-session.jsonl';

/**
 * A ~12 MB Claude Code session: the fixture's records (a work session ending in a compaction) again and
 * again, each copy with fresh uuids, message, request and tool ids, and its config read padded with a
 * long listing so the file is big without having tens of thousands of calls. The fixture's deliberately
 * bad records (a cut line, a number for content, an unknown type) are left out: the file has no issues.
 */
function bigSession(targetBytes: number): string {
  const lines = readFileSync(FIXTURE, 'utf8')
    .split('\n')
    .filter((l) => l.trim() && !l.includes('"u-broken"') && !l.includes('"custom-widget"') && !/"content":\d/.test(l));
  const copyBytes = 120_000;
  const copies = Math.ceil(targetBytes / copyBytes);
  const out: string[] = [];
  for (let k = 0; k < copies; k++) {
    const pad = Array.from({ length: 1400 }, (_, i) => `# copy ${k} replica ${i}: host=db-replica-${i % 9} pool_size=${(i * 7) % 50} timeout_ms=${(i * 131) % 9000}`).join('\n');
    for (const line of lines) {
      out.push(
        line
          .replace(/"(toolu_\w+|msg_\d+|req_\d+|hook-\d+|[uaps]-\d{3})"/g, `"$1-c${k}"`)
          // Inside the JSON string of the config read's output, escaped as JSON.
          .replace('ticket: FRE-512"', `ticket: FRE-512\\n${JSON.stringify(pad).slice(1, -1)}"`),
      );
    }
  }
  return out.join('\n') + '\n';
}

let dir: string;
let file: string;
let bytes: Buffer;

test.beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'preview-e2e-'));
  file = join(dir, NAME);
  writeFileSync(file, bigSession(12_000_000));
  bytes = readFileSync(file);
});

test.afterAll(() => rmSync(dir, { recursive: true, force: true }));

// The preview's own analysis (this file's 3 MB prefix holds 55 compactions to audit) takes a few seconds on a busy machine.
const FIRST_VIEW_MS = 30_000;
const status = (page: Page) => page.getByRole('status').filter({ hasText: /^Showing the first/ });
const stepper = (page: Page) => page.getByRole('toolbar', { name: 'Step through calls' });
const callLabel = (page: Page) => stepper(page).locator('.call-label');
const mb = (n: number) => (n / 1e6).toFixed(1);

async function libraryRows(page: Page) {
  await page.getByRole('button', { name: 'Library' }).click();
  const rows = page.locator('#library-drawer').getByRole('listitem');
  return rows;
}

test('a big JSONL file shows its first lines at once, then the full session takes the same tab at the same call', async ({ page }) => {
  expect(bytes.length).toBeGreaterThan(PREVIEW_MIN_BYTES);
  const full = engineLoad(file);
  expect(full.issues).toEqual([]);
  expect(full.sessions).toHaveLength(1);
  const cut = jsonlPrefix(new Uint8Array(bytes.subarray(0, PREVIEW_PREFIX_BYTES)))!;
  const preview = loadFiles([{ name: NAME, bytes: cut.bytes }]).sessions[0]!;
  const facts = (s: typeof preview) => ({ items: s.items.filter(isConversationItem).length, toolCalls: s.items.filter((i) => i.kind === 'tool_call').length, compactions: s.compactions.length });
  expect(preview.items.length).toBeLessThan(full.sessions[0]!.items.length / 2);

  await page.goto('/');
  await page.getByLabel('Choose files').setInputFiles(file);

  // The preview: the status line names how much of the file it shows, and the inspector steps through it.
  await expect(status(page)).toHaveText(
    new RegExp(`^Showing the first ${mb(cut.bytes.length)} MB of ${mb(bytes.length)} MB \\(${cut.records.toLocaleString('en-US')} of ~[\\d,]+ records\\) while the rest (loads|is analysed)…$`),
  );
  await expect(stepper(page)).toBeVisible({ timeout: FIRST_VIEW_MS });
  // The preview's facts while the status line says it previews; the full session's once it has landed (under two CI
  // runs' load it once landed before the facts were read). Read in one go with the status line.
  const shown = () =>
    page.evaluate(() => {
      const previewing = [...document.querySelectorAll('[role="status"]')].some((el) => el.textContent?.startsWith('Showing the first'));
      const fact = (label: string) =>
        [...document.querySelectorAll('[aria-label="Session"] .facts > div')].find((d) => d.querySelector('dt')?.textContent === label)?.querySelector('dd')?.textContent ?? null;
      return { previewing, items: fact('Items'), toolCalls: fact('Tool calls'), compactions: fact('Compactions') };
    });
  const asShown = (f: ReturnType<typeof facts>) => ({ items: f.items.toLocaleString('en-US'), toolCalls: f.toolCalls.toLocaleString('en-US'), compactions: String(f.compactions) });
  await expect
    .poll(async () => {
      const { previewing, ...now } = await shown();
      return JSON.stringify(now) === JSON.stringify(asShown(facts(previewing ? preview : full.sessions[0]!)));
    })
    .toBe(true);
  await expect(sessionTabs(page)).toHaveCount(1);
  // Not hashed, not shareable, not exportable, and no parse report of its own. Read in one go with the status line:
  // on a busy or a fast machine the full session may land between two reads (the facts above were the preview's),
  // and then its call count and both buttons are the full session's.
  const atOnce = await page.evaluate(() => {
    const button = (name: string) => [...document.querySelectorAll('button')].find((b) => b.textContent?.trim() === name) as HTMLButtonElement | undefined;
    const previewing = [...document.querySelectorAll('[role="status"]')].some((el) => el.textContent?.startsWith('Showing the first'));
    const calls = /of ([\d,]+)/.exec(document.querySelector('[aria-label="Step through calls"] .call-label')?.textContent ?? '')?.[1];
    return { previewing, calls: calls ? Number(calls.replace(/,/g, '')) : null, share: button('Copy share link')?.disabled, bundle: button('Export bundle')?.disabled };
  });
  const previewCalls = atOnce.previewing ? atOnce.calls : null;
  if (atOnce.previewing) {
    expect(atOnce).toEqual({ previewing: true, calls: expect.any(Number), share: true, bundle: true });
    expect(previewCalls).toBeGreaterThan(3);
  }
  await expect(page.getByRole('alert')).toHaveCount(0);

  // The user moves on in the preview; the full session must keep that call. On a fast machine it may land
  // meanwhile: then it shows the same call.
  await stepper(page).getByRole('button', { name: 'Next call' }).click();
  await stepper(page).getByRole('button', { name: 'Next call' }).click();
  await expect(callLabel(page)).toContainText(/^Call 3 of [\d,]+/);

  // The library never gets the preview. Read in one go (the full session may land while the drawer is open, on a
  // machine fast or slow): either nothing yet, or only the full file at its full size, never the preview's prefix.
  await libraryRows(page);
  await expect(page.locator('#library-drawer')).toContainText(/Nothing yet|big-session\.jsonl/);
  const drawer = await page.locator('#library-drawer').evaluate((el) => ({ rows: [...el.querySelectorAll('li.library-row')].map((li) => li.textContent ?? ''), text: el.textContent ?? '' }));
  if (drawer.rows.length === 0) expect(drawer.text).toContain('Nothing yet');
  else {
    expect(drawer.rows).toHaveLength(1);
    expect(drawer.rows[0]).toContain(formatBytes(bytes.length));
    expect(drawer.rows[0]).not.toContain(formatBytes(cut.bytes.length));
  }
  await page.getByRole('button', { name: 'Close the library' }).click();

  // The full session replaces it: status gone, more calls, same tab, same call.
  await expect(status(page)).toHaveCount(0, { timeout: 150_000 });
  await expectSessionFacts(page, facts(full.sessions[0]!));
  await expect(callLabel(page)).toContainText(/^Call 3 of [\d,]+/);
  const fullCalls = Number((await callLabel(page).textContent())!.match(/of ([\d,]+)/)![1]!.replace(/,/g, ''));
  if (previewCalls !== null) expect(fullCalls).toBeGreaterThan(previewCalls);
  await expect(sessionTabs(page)).toHaveCount(1);
  await expect(page.getByRole('button', { name: 'Copy share link' })).toBeEnabled();
  await expect(page.getByRole('alert')).toHaveCount(0);

  // One library entry: the full file, at its full size.
  const after = await libraryRows(page);
  await expect(after).toHaveCount(1);
  await expect(after.first()).toContainText(NAME);
  await expect(after.first()).toContainText(formatBytes(bytes.length));
});

test('the preview status line in both themes', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  // The preview lasts only until the full session lands (a few seconds, sooner on an idle machine): each theme is set
  // before its own load, so each shot is taken as the preview first shows, not after a click that may come too late.
  for (const theme of ['light', 'dark'] as const) {
    await page.goto('/');
    if (theme === 'dark') await page.getByRole('button', { name: 'Switch to dark theme' }).click();
    await page.getByLabel('Choose files').setInputFiles(file);
    await expect(stepper(page)).toBeVisible({ timeout: FIRST_VIEW_MS });
    await expect(status(page)).toBeVisible();
    await page.screenshot({ path: join(SHOTS, `preview-status-${theme}.png`) });
  }
});

test('a small JSONL file opens whole, with no preview', async ({ page }) => {
  await page.goto('/');
  await page.getByLabel('Choose files').setInputFiles(FIXTURE);
  await expect(stepper(page)).toBeVisible({ timeout: FIRST_VIEW_MS });
  await expect(page.locator('.preview-status')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Copy share link' })).toBeEnabled();
});

test('closing the preview cancels its load: the full session never appears and nothing reaches the library', async ({ page }) => {
  await page.goto('/');
  await page.getByLabel('Choose files').setInputFiles(file);
  await expect(status(page)).toBeVisible();
  const tab = sessionTabs(page);
  await expect(tab).toHaveCount(1);
  const title = (await tab.first().getAttribute('title')) ?? NAME;
  expect(title).toBe(NAME);
  await page.getByRole('navigation', { name: 'Open sessions' }).getByRole('button', { name: /^Close / }).click();
  await expect(sessionTabs(page)).toHaveCount(0);
  await expect(page.getByRole('region', { name: 'Welcome' })).toBeVisible();
  // Long enough for the whole file to have loaded and been analysed, had it gone on.
  await page.waitForTimeout(8_000);
  await expect(sessionTabs(page)).toHaveCount(0);
  await expect(page.getByRole('status').filter({ hasText: /Parsing|Reading|Opening/ })).toHaveCount(0);
  await expect(page.getByRole('alert')).toHaveCount(0);
  // The welcome page lists the library unless it is empty; after a reload it is read from storage afresh.
  await page.reload();
  await expect(page.getByRole('region', { name: 'Welcome' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Library' })).toHaveCount(0);
});

test('a big file fetched from ?src= previews too, and the call the address names waits for the full session', async ({ page }) => {
  await page.route('**/fetched/big-session.jsonl', (route) => route.fulfill({ status: 200, contentType: 'application/x-ndjson', body: bytes }));
  await page.goto('/?src=fetched/big-session.jsonl&turn=300');
  await expect(status(page)).toBeVisible();
  // The preview has fewer calls: it stops at its last one.
  await expect(callLabel(page)).toContainText(/^Call (\d+) of \1\b/, { timeout: FIRST_VIEW_MS });
  await expect(status(page)).toHaveCount(0, { timeout: 120_000 });
  await expect(callLabel(page)).toContainText(/^Call 300 of [\d,]+/);
  await expect(sessionTabs(page)).toHaveCount(1);
  await expect(page.getByRole('button', { name: 'Copy share link' })).toBeEnabled();
});
