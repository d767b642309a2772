// The first view is painted from the load's reported usage alone: header figures and the call stepper, before the
// analysis worker has rebuilt or counted anything. The analysis worker's code is held back here, so the first view
// stays on screen as long as the test looks at it (no race with a fast machine); then it is let go and the settled
// view must show the same figures.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { reportedView } from '../src/analysis/reported-view';
import { count } from '../app/format/count';
import { dropFiles, fromDisk } from './support/drop';
import { engineLoad } from './support/engine';

const FIXTURE = join(import.meta.dirname, '..', 'src', 'formats', '__fixtures__', 'claude-code-session.jsonl');
const REAL = join(import.meta.dirname, '..', '..', 'shared', 'samples', 'claude-code-compacted.jsonl');
const SHOTS = join(import.meta.dirname, '..', '.e2e-artifacts', 'screens');

/** A figure of the header's first line (the details repeat some; they are folded). */
const lineFact = (page: Page, label: string) => page.getByRole('region', { name: 'Session' }).locator('.facts-line > div').filter({ has: page.locator(`dt:text-is("${label}")`) }).locator('dd');

/** Holds the analysis worker's script until the returned function is called. */
async function holdAnalysis(page: Page): Promise<() => void> {
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.context().route(/analysis\.worker[-.\w]*\.js/, async (route) => {
    await held;
    await route.continue();
  });
  return release;
}

async function expectFigures(page: Page, figures: ReturnType<typeof shown>): Promise<void> {
  await expect(lineFact(page, 'Model calls')).toHaveText(figures.calls);
  await expect(lineFact(page, 'Compactions')).toHaveText(figures.compactions);
  await expect(lineFact(page, 'Cache hit rate')).toHaveText(figures.hitRate);
  await expect(lineFact(page, 'Peak context')).toHaveText(figures.peak);
}

function shown(path: string) {
  const session = engineLoad(path).sessions[0]!;
  const f = reportedView(session)!.figures;
  expect(f.hitRate).not.toBeNull();
  expect(f.peak).not.toBeNull();
  return { calls: count(f.calls), compactions: count(f.compactions), hitRate: `${(f.hitRate! * 100).toFixed(1)}%`, peak: count(f.peak!.tokens), n: f.calls, compactionCalls: reportedView(session)!.calls.filter((c) => c.compactionId).length };
}

for (const [what, path] of [
  ['a Claude Code fixture', FIXTURE],
  ['the real shared sample', REAL],
] as const) {
  test(`${what}: the header and stepper show the reported figures before any analysis, and the settled view the same`, async ({ page }) => {
    test.skip(!existsSync(path), 'no ../shared/samples beside the repo');
    const figures = shown(path);
    const release = await holdAnalysis(page);
    await page.goto('/');
    await dropFiles(page, fromDisk(path));
    // The analysis has not started: no context, no count status, but the header and the stepper from the usage.
    await expect(page.getByRole('toolbar', { name: 'Step through calls' })).toContainText(`Call 1 of ${figures.n}`);
    await expect(page.locator('.first-look-status')).toHaveText('From reported usage');
    await expect(page.locator('.count-status')).toHaveCount(0);
    await expect(page.locator('.inspector-body')).toHaveCount(0);
    await expectFigures(page, figures);
    // One mark on the slider per compaction (at distinct positions on these files).
    await expect(page.locator('.slider-tick:not(.break-tick)')).toHaveCount(figures.compactionCalls);
    // Stepping works on the reported calls, by button and by key.
    await page.getByRole('button', { name: 'Next call' }).click();
    await expect(page.getByRole('toolbar', { name: 'Step through calls' })).toContainText(`Call 2 of ${figures.n}`);
    await page.keyboard.press('j');
    await expect(page.getByRole('toolbar', { name: 'Step through calls' })).toContainText(`Call 3 of ${figures.n}`);
    if (path === REAL) {
      for (const [w, h] of [[1400, 900], [1000, 700]] as const) {
        await page.setViewportSize({ width: w, height: h });
        await page.screenshot({ path: join(SHOTS, `first-view-reported-${w}x${h}.png`) });
      }
    }
    release();
    // Settled: exact counts, the context beside the panels, and the same figures where they were reported.
    await expect(page.locator('.count-status')).not.toHaveClass(/estimating/, { timeout: 120_000 });
    // Counted exactly: no estimate marker (≈) is left; Claude's tokenizer is not public, so o200k_base stands in.
    await expect(page.locator('.count-status')).toHaveText('o200k_base (stand-in)');
    await expect(page.locator('.inspector-body')).toHaveCount(1);
    await expect(page.locator('.first-look-status')).toHaveCount(0);
    await expectFigures(page, figures);
    // The call the user stepped to on the first look is the one the context opens at.
    await expect(page.getByRole('toolbar', { name: 'Step through calls' })).toContainText(`Call 3 of ${figures.n}`);
    await expect(page.getByRole('tab', { name: 'Context at call 3' })).toBeVisible();
    if (path === REAL) {
      for (const [w, h] of [[1400, 900], [1000, 700]] as const) {
        await page.setViewportSize({ width: w, height: h });
        await page.screenshot({ path: join(SHOTS, `first-view-settled-${w}x${h}.png`) });
      }
    }
  });
}

test('a GPT session settles on its own tokenizer, named without a marker', async ({ page }) => {
  await page.goto('/');
  await dropFiles(page, fromDisk(join(import.meta.dirname, '..', 'src', 'formats', '__fixtures__', 'codex-rollout.jsonl')));
  await expect(page.locator('.count-status')).not.toHaveClass(/estimating/, { timeout: 120_000 });
  // gpt-5.3-codex counts with o200k_base itself: the counts are the model's own.
  await expect(page.locator('.count-status')).toHaveText('o200k_base');
  await expect(page.locator('.count-status')).toHaveAttribute('title', /^Counted exactly with o200k_base \(the tokenizer of gpt-5\.3-codex\)/);
});
