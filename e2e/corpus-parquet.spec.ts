// A dropped .parquet dataset opens corpus mode: one table row per dataset row, read row group by row group in the
// corpus worker, and a row opens its trajectory (the row re-read from the file). The datasets are written here with
// hyparquet-writer in the shapes of public Hugging Face datasets (see src/corpus/__fixtures__/README.md).
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import type { CorpusRow } from '../src/corpus/corpus-row';
import { processParquetFile } from '../src/corpus/parquet-corpus';
import { openHandsParquet, sweAgentParquet } from '../src/test/parquet-datasets';
import { estimateTokens } from '../src/tokens';
import { dropFiles, type DropFile } from './support/drop';
import { fact } from './support/session-view';

const SHOTS = join(import.meta.dirname, '..', '.e2e-artifacts', 'screens');
const NAME = 'train-00000-of-00001.parquet';
const rowCount = (page: import('@playwright/test').Page) => page.getByTestId('corpus-row-count');

function dropped(name: string, bytes: Uint8Array): DropFile {
  return { name, base64: Buffer.from(bytes).toString('base64') };
}

/** What the engine says about each row, to compare the page with. */
async function engineRows(name: string, bytes: Uint8Array): Promise<CorpusRow[]> {
  const rows: CorpusRow[] = [];
  const file = { byteLength: bytes.byteLength, slice: (s: number, e?: number) => bytes.slice(s, e).buffer };
  await processParquetFile(name, file, { count: estimateTokens, counter: 'estimate' }, { row: (r) => rows.push(r), issue: () => {} });
  return rows;
}

test('a dropped .parquet of OpenHands trajectories opens as a corpus with one row per dataset row, and a row opens its trajectory', async ({ page }) => {
  const bytes = openHandsParquet(12, 4);
  const expected = await engineRows(NAME, bytes);
  expect(expected).toHaveLength(12);
  await page.setViewportSize({ width: 1400, height: 1000 });
  await page.goto('/');
  await dropFiles(page, [dropped(NAME, bytes)]);
  await expect(page.getByRole('heading', { name: /^Corpus/ })).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: /^Measured/ })).toContainText('Measured 12 trajectories from 1 file in', { timeout: 30_000 });
  await expect(rowCount(page)).toHaveText('12 trajectories');

  // The rows carry the dataset's ids and the format its messages were read as.
  const target = expected[5]!;
  await page.getByRole('searchbox', { name: 'Filter trajectories' }).fill(target.id);
  await expect(rowCount(page)).toHaveText('1 of 12 trajectories');
  const row = page.getByRole('row', { name: `Open trajectory ${target.id}`, exact: true });
  await expect(row).toContainText('openai-chat');
  await page.getByRole('searchbox', { name: 'Filter trajectories' }).fill('');
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, 'corpus-parquet-light.png') });
  await page.locator('.corpus-view').evaluate((el) => el.scrollTo(0, el.scrollHeight));
  await page.screenshot({ path: join(SHOTS, 'corpus-parquet-table-light.png') });

  // A row opens its trajectory in the inspector, its row read again from the file.
  await page.getByRole('searchbox', { name: 'Filter trajectories' }).fill(target.id);
  await row.click();
  const session = page.getByRole('region', { name: 'Session' });
  await expect(session.getByRole('heading', { name: `${NAME}#L6` })).toBeVisible();
  await expect(fact(page, 'Items')).toHaveText(String(target.items));
  await expect(fact(page, 'Tool calls')).toHaveText(String(target.tool_calls));
});

test('a folder-sized drop of two Parquet shards counts every row of both', async ({ page }) => {
  await page.goto('/');
  await dropFiles(page, [dropped('swe-agent-00000.parquet', sweAgentParquet(9, 2)), dropped('openhands-00000.parquet', openHandsParquet(6, 2))]);
  await expect(page.getByRole('status').filter({ hasText: /^Measured/ })).toContainText('Measured 15 trajectories from 2 files in', { timeout: 30_000 });
  await expect(rowCount(page)).toHaveText('15 trajectories');
});
