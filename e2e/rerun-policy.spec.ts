// Harness policies in the Re-run panel: a Codex rollout opens with the Codex preset, and the app's sweep table
// equals the CLI's `rerun --sweep` for the same session and parameters, row for row. Screenshots of a preset
// run and its cost of compacting, on the real Claude Code session when ../shared/samples is present.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { run, type CliIo } from '../src/cli/main';
import type { RerunReport } from '../src/cli/rerun';
import { dropFiles, fromDisk, fromText, type DropFile } from './support/drop';
import { openPanel } from './support/session-view';

const FIXTURES = join(import.meta.dirname, '..', 'src', 'formats', '__fixtures__');
const SAMPLES = join(import.meta.dirname, '..', '..', 'shared', 'samples');
const SHOTS = join(import.meta.dirname, '..', '.e2e-artifacts', 'screens');
const CODEX = join(FIXTURES, 'codex-rollout.jsonl');

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
/** As the app's table writes dollars (RerunResultView `usd`, two digits). */
function usd(n: number | null): string {
  if (n === null) return '—';
  if (n === 0) return '$0';
  return n >= 1 ? `$${n.toFixed(2)}` : `$${n.toPrecision(2)}`;
}

async function cli(args: string[]): Promise<RerunReport[]> {
  const out: string[] = [];
  const io: CliIo = {
    out: (t) => out.push(t),
    err: () => {},
    readFile: (p) => new Uint8Array(readFileSync(p)),
    listDir: () => [],
    isDir: () => false,
    exists: (p) => existsSync(p),
  };
  await run(['rerun', ...args, '--json'], io);
  return JSON.parse(out.join('\n')).sessions[0].runs;
}

async function openRerun(page: Page, files: string[] | DropFile[], calls: RegExp) {
  await page.setViewportSize({ width: 1400, height: 900 });
  await page.goto('/');
  await dropFiles(page, typeof files[0] === 'string' ? fromDisk(...(files as string[])) : (files as DropFile[]));
  await expect(page.getByRole('toolbar', { name: 'Step through calls' }).getByText(calls)).toBeVisible({ timeout: 30_000 });
  await openPanel(page, 'Re-run');
  const panel = page.getByRole('region', { name: 'Re-run', exact: true });
  await expect(panel.getByLabel('Harness policy', { exact: true })).toBeVisible();
  return panel;
}

test('the app sweep table equals the CLI rerun --sweep on a Codex rollout with the Codex preset', async ({ page }) => {
  const runs = await cli([CODEX, '--policy', 'codex', '--param', 'autoCompactLimit=9500', '--sweep', 'userBudget=0,20000', '--sweep', 'threshold=5000,9500']);
  expect(runs).toHaveLength(4);

  const panel = await openRerun(page, [CODEX], /Call \d+ of 4/);
  // The session's format picks its harness's preset; no share of the session's peak anywhere.
  await expect(panel.getByLabel('Harness policy', { exact: true })).toHaveValue('codex');
  await expect(panel.getByLabel('Strategy', { exact: true })).toHaveValue('codex-compact');
  await panel.getByLabel('Auto-compact limit', { exact: true }).fill('9500');
  await expect(panel.getByLabel('Threshold', { exact: true })).toHaveValue('9500');
  await panel.getByText('Sweep over a grid').click();
  await expect(panel.getByLabel('Sweep parameter', { exact: true })).toHaveValue('userBudget');
  await panel.getByLabel('Values', { exact: true }).fill('0, 20000');
  await panel.getByLabel('Thresholds', { exact: true }).fill('5000, 9500');
  await expect(panel.getByText('4 runs')).toBeVisible();
  await panel.getByRole('button', { name: 'Sweep', exact: true }).click();
  const table = panel.getByRole('table', { name: 'Sweep results' });
  await expect(table.locator('tbody tr')).toHaveCount(4, { timeout: 45_000 });

  for (const r of runs) {
    const cells = table.locator('tbody tr').nth(r.run - 1).locator('td');
    const t = r.table;
    await expect(cells).toHaveText([
      String(r.run),
      String(r.params.userBudget),
      r.trigger.replace(' tokens', ''),
      `${t.compactions}${t.fallbacks ? ` (${t.fallbacks}✕)` : ''}`,
      fmt(t.inputTokens),
      fmt(t.prefixReused),
      usd(t.inputCost),
      String(t.kept),
      `${t.lost}${t.lostReferencedLater ? '*' : ''}`,
      String(t.invented),
    ]);
  }
  // The sweep is worth comparing: the two thresholds differ.
  expect(runs[0]!.table.compactions).toBeGreaterThan(runs[2]!.table.compactions);
});

test('a Claude Code session replayed with the Claude Code preset: where it fired and what compacting cost', async ({ page }) => {
  const files = ['claude-code-compacted.jsonl', 'claude-code-compacted.agent-acompact.jsonl'].map((f) => join(SAMPLES, f));
  test.skip(!files.every(existsSync), '../shared/samples is absent');
  const panel = await openRerun(page, files, /Call \d+ of \d+/);
  await expect(panel.getByLabel('Harness policy', { exact: true })).toHaveValue('claude-code');
  // The chosen preset's whole line, which a narrow pane cuts in the select, is its tooltip.
  await expect(panel.getByLabel('Harness policy', { exact: true })).toHaveAttribute('title', /^Claude Code — auto-compacts .*re-attaches the 5 most recently read files$/);
  // The session recorded a compaction: the default trigger compacts where it did, and the form says why.
  const kinds = panel.getByRole('radiogroup', { name: 'Trigger kind' });
  await expect(kinds.getByLabel('Where the recording compacted')).toBeChecked();
  await expect(panel.getByLabel('Why this default')).toContainText('where the recording compacted (before call 62)');
  await expect(panel.getByText('Compacts before call 62, where the recording did.')).toBeVisible();
  // The preset's own trigger is one click away, its threshold kept.
  await kinds.getByText('Token threshold').click();
  await expect(panel.getByLabel('Threshold', { exact: true })).toHaveValue('167000');
  await page.mouse.move(0, 0);
  await page.screenshot({ path: join(SHOTS, 'rerun-policy-preset.png') });
  await panel.getByRole('button', { name: 'Run', exact: true }).click();
  const result = page.getByRole('region', { name: 'Re-run result' });
  const cost = result.getByRole('table', { name: 'Cost of compacting' });
  await expect(cost).toBeVisible({ timeout: 90_000 });
  // Fed the reported prompts, Claude Code's own policy fires where Claude Code did.
  await expect(result).toContainText('1 compaction at call 62');
  await expect(result).toContainText('recorded: call 62');
  await expect(result.getByRole('list', { name: 'Where it fired' })).toContainText('within one call');
  await expect(result.getByRole('list', { name: 'Where it fired' })).toContainText('logged at 170,251 tokens');
  // Call 62's recorded prompt is already compacted, so the trigger reads call 61's reported prompt plus what came after.
  await expect(result.getByRole('list', { name: 'Where it fired' })).toContainText('from call 61’s reported prompt and the calibrated difference');
  await result.evaluate((el) => {
    const scroller = el.closest('.panel')!;
    scroller.scrollTop += el.getBoundingClientRect().top - scroller.getBoundingClientRect().top - 8;
  });
  await page.mouse.move(0, 0);
  await page.screenshot({ path: join(SHOTS, 'rerun-policy-fired.png') });
  await expect(cost.getByRole('row', { name: /Compactions/ })).toContainText('1 (62)');
  // The recorded run's re-fetch tax is the figure `inspect` reports for that compaction; a rerun's is unknown.
  const refetch = cost.getByRole('row', { name: /Re-fetch tax/ });
  await expect(refetch).toContainText('1,473 tok');
  await expect(refetch).toContainText('unknown: never run');
  await cost.evaluate((el) => {
    const scroller = el.closest('.panel')!;
    scroller.scrollTop += el.getBoundingClientRect().top - scroller.getBoundingClientRect().top - 120;
  });
  await page.mouse.move(0, 0);
  await page.screenshot({ path: join(SHOTS, 'rerun-policy-cost.png') });
});

test('a Claude Code 2.0 session starts the preset from the trigger of its version, 155,000 of 200,000', async ({ page }) => {
  // The repo's fixture as Claude Code 2.0.76 would have written it: only the version field differs.
  const text = readFileSync(join(FIXTURES, 'claude-code-session.jsonl'), 'utf8').replaceAll('"version":"2.1.39"', '"version":"2.0.76"');
  const panel = await openRerun(page, [fromText('claude-code-2.0.jsonl', text)], /Call \d+ of \d+/);
  await expect(panel.getByLabel('Harness policy', { exact: true })).toHaveValue('claude-code');
  await expect(panel.getByLabel('Output reserve', { exact: true })).toHaveValue('32000');
  await expect(panel.getByLabel('Auto-compact buffer', { exact: true })).toHaveValue('13000');
  await expect(panel).toContainText("This session's version: Claude Code 1.0.71–2.1.20: window − max output (32,000) − 13,000.");
  await panel.getByRole('radiogroup', { name: 'Trigger kind' }).getByText('Token threshold').click();
  await expect(panel.getByLabel('Threshold', { exact: true })).toHaveValue('155000');
  await page.mouse.move(0, 0);
  await page.screenshot({ path: join(SHOTS, 'rerun-policy-version.png') });
});
