// Figures that come from each harness's own usage: every model a session ran on with its calls, and a harness's
// session totals that the calls do not add up to, as the header shows them (src/analysis/session-facts.ts).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { dropFiles, fromDisk, fromText } from './support/drop';
import { fact, sessionTabs } from './support/session-view';

const FIXTURES = join(import.meta.dirname, '..', 'src', 'formats', '__fixtures__');
const SHOTS = join(import.meta.dirname, '..', '.e2e-artifacts', 'screens');

test.use({ viewport: { width: 1440, height: 900 } });

test('the header lists every model the calls ran on, with its number of calls', async ({ page }) => {
  await page.goto('/');
  await dropFiles(page, fromDisk(join(FIXTURES, 'claude-code-two-models.jsonl')));
  await expect(sessionTabs(page)).toHaveCount(1);
  await expect(fact(page, 'Models')).toHaveText('claude-opus-4-6 (2 calls), claude-haiku-4-5-20251001 (3 calls)');
  await expect(fact(page, 'Model')).toHaveCount(0);
  await page.getByRole('region', { name: 'Session' }).screenshot({ path: join(SHOTS, 'header-models.png') });
});

test('a SWE-agent 0.x file whose calls add up to much less than its tokens_sent says so in the header', async ({ page }) => {
  // The demonstration taken out of the history: tokens_sent still counts it on every call.
  const doc = JSON.parse(readFileSync(join(FIXTURES, 'swe-agent-0.7-demo.traj'), 'utf8')) as { history: { is_demo?: boolean }[] };
  doc.history = doc.history.filter((m) => !m.is_demo);
  await page.goto('/');
  await dropFiles(page, [fromText('no-demo.traj', JSON.stringify(doc))]);
  await expect(sessionTabs(page)).toHaveCount(1);
  const note = page.getByRole('region', { name: 'Session' }).getByRole('note');
  await expect(note).toContainText("Totals disagree: SWE-agent's info.model_stats reports 12,387 prompt tokens sent; the 4 calls here add up to");
  await expect(note).toContainText('the calls here lack part of what was sent.');
  await page.getByRole('region', { name: 'Session' }).screenshot({ path: join(SHOTS, 'header-totals.png') });
  // With the demonstration, as SWE-agent 0.x sent it, the totals agree and nothing is said.
  await dropFiles(page, fromDisk(join(FIXTURES, 'swe-agent-0.7-demo.traj')));
  await expect(sessionTabs(page)).toHaveCount(2);
  await sessionTabs(page).nth(1).click();
  await expect(fact(page, 'Model calls')).toHaveText('4');
  await expect(page.getByRole('region', { name: 'Session' }).getByRole('note')).toHaveCount(0);
});

test('the header says how many responses were billed on abandoned branches, apart from the model calls, and the cost with them', async ({ page }) => {
  await page.goto('/');
  await dropFiles(page, fromDisk(join(FIXTURES, 'claude-code-off-branch.jsonl')));
  await expect(sessionTabs(page)).toHaveCount(1);
  const header = page.getByRole('region', { name: 'Session' });
  const note = header.getByRole('note').filter({ hasText: 'abandoned branches' });
  await expect(note).toHaveText('+2 responses on abandoned branches (billed, not shown): 37,709 prompt and 324 output tokens, $0.03');
  await expect(note).toHaveAttribute('title', /sent and billed them.*not among the model calls/);
  await expect(fact(page, 'Model calls')).toHaveText('4');
  await header.getByRole('button', { name: 'Details' }).click();
  await expect(fact(page, 'Cost')).toHaveText('$0.10 at the reported usage (calls $0.07 · abandoned branches $0.03)');
  await header.screenshot({ path: join(SHOTS, 'header-off-branch.png') });
});
