// SWE-agent, mini-swe-agent, ATIF and tau-bench files dropped into the page: the context at a call after a
// compaction (or an elision) and the usage reported on a call, as the engine reads them.
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { sessionContexts } from '../src/analysis/session-analysis';
import { dropFiles, fromDisk } from './support/drop';
import { engineLoad } from './support/engine';
import { analyzeSession } from '../src/analysis/analyze-session';
import { expectSessionFacts, fact, sessionTabs, openPanel } from './support/session-view';

const FIXTURES = join(import.meta.dirname, '..', 'src', 'formats', '__fixtures__');
const fmt = (n: number) => n.toLocaleString('en-US');

test.use({ viewport: { width: 1440, height: 1000 } });

const stepper = (page: Page) => page.getByRole('toolbar', { name: 'Step through calls' });
const band = (page: Page, name: 'Head' | 'Summary' | 'Middle' | 'Tail') => page.getByRole('region', { name, exact: true });

async function open(page: Page, file: string) {
  const expected = engineLoad(join(FIXTURES, file));
  expect(expected.issues).toEqual([]);
  const session = expected.sessions[0]!;
  await page.goto('/');
  await dropFiles(page, fromDisk(join(FIXTURES, file)));
  await expect(sessionTabs(page)).toHaveCount(1);
  // The header shows the engine's facts: SWE-agent's elisions are compactions inferred from the recorded calls.
  const f = analyzeSession(session, { count: (t) => t.length, defer: ['cache', 'lints', 'audits'] }).facts;
  await expectSessionFacts(page, { items: f.items, toolCalls: f.toolCalls, compactions: `${f.compactions.total}${f.compactions.inferred ? ` (${f.compactions.inferred} inferred)` : ''}` });
  // Detection named the format and left no warning.
  await expect(page.getByRole('alert')).toHaveCount(0);
  return { session, contexts: sessionContexts(session) };
}

async function goToCall(page: Page, n: number, of: number) {
  await page.getByRole('slider', { name: 'Call' }).fill(String(n));
  await expect(stepper(page).getByText(`Call ${n} of ${of}`)).toBeVisible();
}

test('a SWE-agent .traj shows each step as a recorded call, with elided observations masked in the context', async ({ page }) => {
  const { contexts } = await open(page, 'swe-agent-division.traj');
  expect(contexts.calls).toHaveLength(4);
  await expect(fact(page, 'Format')).toHaveText('SWE-agent trajectory');
  await goToCall(page, 3, 4);
  // Call 3 was sent the placeholder SWE-agent wrote, not the file listing it replaced.
  const sent = contexts.calls[2]!.entries.map((e) => e.item);
  expect(sent.map((i) => i.text)).toContain('Old environment output: (8 lines omitted)');
  const context = page.getByRole('main');
  await expect(context.getByText('Old environment output: (8 lines omitted)').first()).toBeVisible();
  await openPanel(page, 'Eviction map');
  const map = page.getByRole('region', { name: 'Eviction map', exact: true });
  await expect(map.getByRole('list', { name: 'Items by call' }).getByRole('listitem', { name: /^r1\.m3 tool result str_replace_editor: verbatim in call 2, masked from call 3$/ })).toBeVisible();
});

test('a mini-swe-agent .traj.json shows the summary in the context after its compaction and the usage of each call', async ({ page }) => {
  const { contexts } = await open(page, 'mini-swe-agent-division.traj.json');
  expect(contexts.calls).toHaveLength(6);
  await goToCall(page, 3, 6);
  await expect(band(page, 'Summary')).toContainText('Listed src/: only division.py.');
  // Reported usage on call 2: prompt tokens holding the cache read and write of extra.response.usage (LiteLLM).
  await goToCall(page, 2, 6);
  await openPanel(page, 'Token budget');
  const usage = page.getByRole('region', { name: 'Token budget' }).getByRole('list', { name: 'Reported usage of call 2' });
  const u = contexts.calls[1]!.usage!;
  expect(u).toEqual({ input: 1921, output: 38, cacheRead: 1846, cacheWrite: 71, inputIncludesCache: true });
  await expect(usage.getByRole('listitem').filter({ hasText: 'Prompt (reported)' })).toContainText(fmt(u.input!));
  await expect(usage.getByRole('listitem').filter({ hasText: 'Cache read' })).toContainText(fmt(u.cacheRead!));
});

test('an ATIF trajectory shows the handoff prompt as the summary after the context summarization, and each step\'s metrics', async ({ page }) => {
  const { contexts } = await open(page, 'atif-terminus-summarization.json');
  expect(contexts.calls.map((c) => c.compactionId)).toEqual([null, null, 'compaction-1', null]);
  await goToCall(page, 3, 4);
  await expect(band(page, 'Summary')).toContainText('Here are the answers the other agent provided.');
  await openPanel(page, 'Token budget');
  const usage = page.getByRole('region', { name: 'Token budget' }).getByRole('list', { name: 'Reported usage of call 3' });
  await expect(usage.getByRole('listitem').filter({ hasText: 'Prompt (reported)' })).toContainText(fmt(contexts.calls[2]!.usage!.input!));
});

test('a tau-bench result opens as a corpus with one row per task', async ({ page }) => {
  await page.goto('/');
  await dropFiles(page, fromDisk(join(FIXTURES, 'tau-bench-airline.json')));
  await expect(page.getByRole('heading', { name: /^Corpus/ })).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: /^Measured/ })).toContainText('Measured 3 trajectories from 1 file', { timeout: 30_000 });
  await expect(page.getByTestId('corpus-row-count')).toHaveText('3 trajectories');
  await expect(page.getByRole('row', { name: /^Open trajectory/ })).toHaveCount(3);
});
