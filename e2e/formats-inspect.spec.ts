// Formats of issue 15 dropped into the page: an Inspect `.eval` (zipped here from the fixture, as Inspect lays one
// out) and a Cline / Roo task's two files; the context at the compaction and a call's reported usage, as the
// engine reads them.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { strToU8, zipSync } from 'fflate';
import { dropFiles, fromDisk, type DropFile } from './support/drop';
import { engineLoad } from './support/engine';
import { expectSessionFacts, sessionTabs, openPanel } from './support/session-view';

const FIXTURES = join(import.meta.dirname, '..', 'src', 'formats', '__fixtures__');
const fmt = (n: number) => n.toLocaleString('en-US');

const callLabel = (page: Page, text: string) => page.getByRole('toolbar', { name: 'Step through calls' }).getByText(text);
const band = (page: Page, name: 'Head' | 'Summary' | 'Middle' | 'Tail') => page.getByRole('region', { name, exact: true });

function evalFile(): DropFile {
  const log = JSON.parse(readFileSync(join(FIXTURES, 'inspect-compaction.json'), 'utf8')) as { samples: { id: string; epoch: number }[] } & Record<string, unknown>;
  const { samples, ...header } = log;
  const files: Record<string, Uint8Array> = { 'header.json': strToU8(JSON.stringify(header)) };
  for (const s of samples) files[`samples/${s.id}_epoch_${s.epoch}.json`] = strToU8(JSON.stringify(s));
  return { name: 'fix_calc.eval', base64: Buffer.from(zipSync(files)).toString('base64') };
}

async function expectUsage(page: Page, call: number, usage: { cacheRead: number; cacheWrite: number; prompt: number }) {
  await page.getByRole('slider', { name: 'Call' }).fill(String(call));
  await openPanel(page, 'Token budget');
  const list = page.getByRole('region', { name: 'Token budget' }).getByRole('list', { name: `Reported usage of call ${call}` });
  await expect(list.getByRole('listitem').filter({ hasText: 'Cache read' })).toContainText(fmt(usage.cacheRead));
  await expect(list.getByRole('listitem').filter({ hasText: 'Cache write' })).toContainText(fmt(usage.cacheWrite));
  await expect(list.getByRole('listitem').filter({ hasText: 'Prompt (reported)' })).toContainText(fmt(usage.prompt));
}

test.use({ viewport: { width: 1440, height: 1000 } });

test('an Inspect .eval of two samples opens as a corpus; a sample opens alone, at its compaction the context holds the summary, and calls show their usage', async ({ page }) => {
  await page.goto('/');
  await dropFiles(page, [evalFile()]);
  await expect(page.getByRole('heading', { name: /^Corpus/ })).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: /^Measured/ })).toContainText('Measured 2 trajectories from 1 file', { timeout: 30_000 });
  await expect(page.getByRole('row', { name: /^Open trajectory/ })).toHaveCount(2);
  await page.getByRole('row', { name: 'Open trajectory EvL4tq9Zc2/calc-1_epoch_1', exact: true }).click();

  // Only the row's sample opens, not every sample of the log.
  const tabs = sessionTabs(page);
  await expect(tabs).toHaveCount(1);
  await expect(tabs.nth(0)).toContainText('fix_calc · sample calc-1');
  await expectSessionFacts(page, { items: 11, toolCalls: 2, compactions: 1 });
  await expect(callLabel(page, 'Call 1 of 4')).toBeVisible();

  // n goes to the call after the compaction: system, task and the summary are what call 4 was sent.
  await page.keyboard.press('n');
  await expect(callLabel(page, 'Call 4 of 4')).toBeVisible();
  await expect(band(page, 'Summary')).toContainText('calc.divide uses floor division');
  await expect(band(page, 'Head')).toContainText('You are a careful software engineer');
  await expect(band(page, 'Middle').getByRole('button', { name: /^Ghost: \d+ items summarized by compaction #1/ })).toBeVisible();
  await expect(page.getByRole('alert')).toHaveCount(0);

  // Call 2 reported 9 uncached, 1,500 read and 141 written: a 1,650-token prompt.
  await expectUsage(page, 2, { cacheRead: 1500, cacheWrite: 141, prompt: 1650 });
});

test("a Cline / Roo task's two files open as one session: the condense replaces the early turns, and each call has its api_req_started usage", async ({ page }) => {
  const files = ['cline-api_conversation_history.json', 'cline-ui_messages.json'].map((f) => join(FIXTURES, f));
  const expected = engineLoad(...files);
  expect(expected.sessions).toHaveLength(1);
  await page.goto('/');
  await dropFiles(page, fromDisk(...files));
  await expect(sessionTabs(page)).toHaveCount(1);
  await expectSessionFacts(page, { items: 11, toolCalls: 3, compactions: 1 });
  await expect(callLabel(page, 'Call 1 of 4')).toBeVisible();

  await page.keyboard.press('n');
  await expect(callLabel(page, 'Call 4 of 4')).toBeVisible();
  await expect(band(page, 'Summary')).toContainText('add a --verbose flag to cli.py');
  await expect(band(page, 'Middle').getByRole('button', { name: /^Ghost: \d+ items summarized by compaction #1/ })).toBeVisible();

  // Call 4: tokensIn 4, cacheReads 1,900, cacheWrites 2,100.
  const c4 = expected.sessions[0]!.responses[3]!.usage!;
  expect(c4).toEqual({ input: 4, output: 80, cacheRead: 1900, cacheWrite: 2100, inputIncludesCache: false });
  await expectUsage(page, 4, { cacheRead: 1900, cacheWrite: 2100, prompt: 4004 });
});
