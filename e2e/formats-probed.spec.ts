// Files shaped as the real ones the probes of session 63 found misread, opened in the browser: the figures the
// header shows are the ones `inspect` prints for the same files (src/formats/cline-deleting-condense.test.ts and
// codex-fork.test.ts check both against a plain reading of the fixtures).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { dropFiles, fromDisk, fromText } from './support/drop';
import { fact, openPanel, sessionTabs } from './support/session-view';

const FIXTURES = join(import.meta.dirname, '..', 'src', 'formats', '__fixtures__');

test.use({ viewport: { width: 1400, height: 900 } });

test('a Roo Code task whose condense deleted messages: every request is a call, and the pairing warning shows', async ({ page }) => {
  const file = (name: string) => fromText(name, readFileSync(join(FIXTURES, `roo-condense-${name}`), 'utf8'));
  await page.goto('/');
  await dropFiles(page, [file('api_conversation_history.json'), file('ui_messages.json')]);
  await expect(sessionTabs(page)).toHaveCount(1);
  await expect(fact(page, 'Model calls')).toHaveText('7');
  await expect(fact(page, 'Compactions')).toHaveText('2');
  await expect(page.getByText(/6 api_req_started for 4 assistant messages, paired by time/)).toBeVisible();
  await expect(page.getByText(/1 assistant message with no api_req_started in the panel, so no usage/)).toBeVisible();
});

test("a forked Codex rollout: the parent's copied history is context, and only the child's calls are counted", async ({ page }) => {
  await page.goto('/');
  await dropFiles(page, fromDisk(join(FIXTURES, 'codex-rollout-fork-0.144.jsonl')));
  await expect(sessionTabs(page)).toHaveCount(1);
  await expect(fact(page, 'Model calls')).toHaveText('3');
  await expect(fact(page, 'Peak context').first()).toHaveText('27,120');
});

test('a Codex rollout whose user took a turn back: the next call holds none of it, and the eviction map says so', async ({ page }) => {
  await page.goto('/');
  await dropFiles(page, fromDisk(join(FIXTURES, 'codex-rollout-rollback-0.139.jsonl')));
  await expect(sessionTabs(page)).toHaveCount(1);
  await expect(fact(page, 'Model calls')).toHaveText('2');
  await expect(fact(page, 'Compactions')).toHaveText('0');
  await page.getByRole('slider', { name: 'Call' }).fill('2');
  await openPanel(page, 'Eviction map');
  const legend = page.getByRole('list', { name: 'Labels at call 2' });
  await expect(legend.getByRole('listitem').filter({ hasText: 'rolled-back' })).toHaveText('rolled-back 4');
});
