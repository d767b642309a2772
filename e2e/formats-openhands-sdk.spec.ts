// OpenHands files dropped into the page. An SDK conversation (base_state.json + one event per file) opens as one session
// whose condensations show the forgotten events as evicted rows, with each call's usage from base_state.json;
// its completion logs (log_completions, one call per file) open as one request log.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { promptTokens } from '../src/model/usage';
import { isConversationItem } from '../src/analysis/eviction-map';
import { dropFiles, fromDisk } from './support/drop';
import { engineLoad } from './support/engine';
import { expectSessionFacts, sessionTabs, openPanel } from './support/session-view';

const CONV = join(import.meta.dirname, '..', 'src', 'formats', '__fixture-folders__', 'openhands-sdk-conversation', '7d3c2a9e4b1f4e8a9c552f6d0b1a8e31');
const FILES = [join(CONV, 'base_state.json'), ...readdirSync(join(CONV, 'events')).sort().map((f) => join(CONV, 'events', f))];
const fmt = (n: number) => n.toLocaleString('en-US');

const callLabel = (page: Page, text: string) => page.getByRole('toolbar', { name: 'Step through calls' }).getByText(text);
const band = (page: Page, name: 'Head' | 'Summary' | 'Middle' | 'Tail') => page.getByRole('region', { name, exact: true });

test.use({ viewport: { width: 1440, height: 1000 } });

test('dropped conversation files open as one session whose condensation shows the forgotten events as evicted rows', async ({ page }) => {
  const { sessions, issues } = engineLoad(...FILES);
  expect(issues).toEqual([]);
  const s = sessions[0]!;
  expect(sessions).toHaveLength(1);
  const forgotten = s.compactions[0]!.replacedIds.length;
  expect(forgotten).toBe(8);

  await page.goto('/');
  // The files arrive in no particular order; the event-file numbers order them.
  await dropFiles(page, fromDisk(...[...FILES].reverse()));
  await expect(sessionTabs(page)).toHaveCount(1);
  // The header counts conversation items (a compaction record is not one), as session-facts does.
  await expectSessionFacts(page, { items: s.items.filter(isConversationItem).length, toolCalls: 6, compactions: 2 });
  await expect(callLabel(page, 'Call 1 of 6')).toBeVisible();

  // The next compaction: call 3 sees the head, the first condensation's summary, and the forgotten events as ghosts.
  await page.keyboard.press('n');
  await expect(callLabel(page, 'Call 3 of 6')).toBeVisible();
  await expect(band(page, 'Summary')).toContainText('USER_CONTEXT: Fix tests/test_dates.py::test_parse_iso');
  await expect(band(page, 'Summary').getByRole('button', { name: new RegExp(`^Show the ${forgotten} items it replaced`) })).toBeVisible();
  // Evicted rows: every forgotten item, the two file views that came after call 2 included (no call saw them, but the
  // condensation replaced them: one count of what a compaction replaced, as the header and the eviction map give it).
  const ghost = band(page, 'Middle').getByRole('button', { name: new RegExp(`^Ghost: ${forgotten} items summarized by compaction #1, [\\d,]+ tokens$`) });
  await expect(ghost).toBeVisible();
  await ghost.click();
  await expect(band(page, 'Middle').locator('.ghost-item')).toHaveCount(forgotten);
  await expect(band(page, 'Middle').locator('.ghost-item').filter({ hasText: 'python -m pytest tests/test_dates.py -x -q' }).first()).toBeVisible();

  // The second condensation forgets the first summary too.
  await page.keyboard.press('n');
  await expect(callLabel(page, 'Call 6 of 6')).toBeVisible();
  await expect(band(page, 'Summary')).toContainText('COMPLETED: parse_iso in src/dates.py now returns datetime.fromisoformat(s)');
  await expect(band(page, 'Middle').getByRole('button', { name: /^Ghost: \d+ items? summarized by compaction #2/ })).toBeVisible();
});

test('each call shows the usage base_state.json recorded for it', async ({ page }) => {
  const s = engineLoad(...FILES).sessions[0]!;
  const usage3 = s.responses[2]!.usage!;
  expect(promptTokens(usage3)).toBe(2650);
  expect(usage3).toMatchObject({ cacheRead: 1950, cacheWrite: 690 });
  await page.goto('/');
  await dropFiles(page, fromDisk(...FILES));
  await expect(callLabel(page, 'Call 1 of 6')).toBeVisible();
  await openPanel(page, 'Token budget');
  const panel = page.getByRole('region', { name: 'Token budget' });
  await panel.getByRole('button', { name: /^Call 3: / }).click();
  await expect(callLabel(page, 'Call 3 of 6')).toBeVisible();
  const usage = panel.getByRole('list', { name: 'Reported usage of call 3' });
  await expect(usage.getByRole('listitem').filter({ hasText: 'Prompt (reported)' })).toContainText(fmt(promptTokens(usage3)!));
  await expect(usage.getByRole('listitem').filter({ hasText: 'Cache read' })).toContainText(fmt(usage3.cacheRead!));
  await expect(usage.getByRole('listitem').filter({ hasText: 'Cache write' })).toContainText(fmt(usage3.cacheWrite!));
});

test('OpenHands completion logs (one call per file) open as one request log with the condensation between calls', async ({ page }) => {
  const dir = join(import.meta.dirname, '..', 'src', 'formats', '__fixtures__');
  const logs = readdirSync(dir).filter((f) => f.startsWith('completion-log-')).sort().map((f) => join(dir, f));
  const { sessions, issues } = engineLoad(...logs);
  expect(issues).toEqual([]);
  expect(sessions).toHaveLength(1);
  const usage2 = sessions[0]!.requests[1]!.usage!;
  await page.goto('/');
  await dropFiles(page, fromDisk(...logs));
  await expect(sessionTabs(page)).toHaveCount(1);
  await expect(callLabel(page, 'Call 1 of 3')).toBeVisible();
  // The third call's messages keep the head and a summary: the calls before it lost what it no longer holds.
  await page.keyboard.press('n');
  await expect(callLabel(page, 'Call 3 of 3')).toBeVisible();
  await expect(page.getByRole('region', { name: 'Context at call 3' })).toContainText('USER_CONTEXT: Fix export/csv_writer.py');
  await expect(band(page, 'Middle').getByRole('button', { name: /^Ghost: 3 items .* compaction #1/ })).toBeVisible();
  await openPanel(page, 'Token budget');
  const panel = page.getByRole('region', { name: 'Token budget' });
  await panel.getByRole('button', { name: /^Call 2: / }).click();
  const usage = panel.getByRole('list', { name: 'Reported usage of call 2' });
  await expect(usage.getByRole('listitem').filter({ hasText: 'Prompt (reported)' })).toContainText(fmt(usage2.input!));
  await expect(usage.getByRole('listitem').filter({ hasText: 'Cache read' })).toContainText(fmt(usage2.cacheRead!));
});
