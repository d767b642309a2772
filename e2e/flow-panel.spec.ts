// The Flow panel draws its Mermaid diagram for the demo, a session shaped like the real 3 MB Claude Code sample and a
// long one (its middle compactions folded), draws each diagram once (ahead, in idle time, once a session is in), and
// leaves nothing of Mermaid's work in the page.
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { DEMOS } from '../app/demos';
import { CLAUDE_CODE_TYPICAL, claudeCodeSession } from '../bench/generators/claude-code-session';
import { MAX_COMPACTIONS } from '../src/flow/mermaid-source';
import { dropFiles, fromText } from './support/drop';
import { openPanel, sessionIn } from './support/session-view';

const SHOTS = join(import.meta.dirname, '..', '.e2e-artifacts', 'screens');
const coding = DEMOS.find((d) => d.id === 'coding-agent')!;
const stepper = (page: Page) => page.getByRole('toolbar', { name: 'Step through calls' });
const flowRegion = (page: Page) => page.getByRole('region', { name: 'Flow', exact: true });

async function openFlow(page: Page) {
  await openPanel(page, 'Flow');
  const svg = flowRegion(page).locator('.flow-diagram svg');
  await expect(svg).toBeVisible();
  return svg;
}

/** Nothing Mermaid measured with is left in the page: its measuring box is empty, no temporary element remains. */
async function expectNoLeftovers(page: Page) {
  expect(await page.evaluate(() => document.getElementById('flow-measure')?.childElementCount ?? 0)).toBe(0);
  expect(await page.locator('body > div[id^="dflow-"]').count()).toBe(0);
}

test('the demo: drawn once, and shown again from the drawing when the tab comes back', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('button', { name: coding.title }).click();
  await expect(stepper(page).getByText('Call 1 of 14')).toBeVisible();
  const svg = await openFlow(page);
  await expect(flowRegion(page)).toContainText('3 segments, 2 compactions, 2 summaries');
  const first = await svg.getAttribute('id');
  expect(first).toMatch(/^flow-\w+-\d+$/);
  await expectNoLeftovers(page);
  // Another panel, then Flow again: the same drawing (Mermaid numbers each render's id), nodes still wired.
  await openPanel(page, 'Diff');
  await expect(flowRegion(page)).toHaveCount(0);
  await openFlow(page);
  await expect(flowRegion(page).locator('.flow-diagram svg')).toHaveAttribute('id', first!);
  await flowRegion(page).getByRole('button', { name: /^Segment 2: calls 7-12,/ }).click();
  await expect(stepper(page).getByText('Call 7 of 14')).toBeVisible();
  // The segment holding the current call is outlined.
  await expect(flowRegion(page).locator('g.node[aria-current="step"]')).toHaveAttribute('aria-label', /^Segment 2: calls 7-12,/);
});

test('a session shaped like the real 3 MB sample: two segments around its compaction, with the summary', async ({ page }) => {
  await page.goto('/');
  await dropFiles(page, [fromText('typical.jsonl', claudeCodeSession(CLAUDE_CODE_TYPICAL))]);
  await expect(stepper(page).getByText(/Call 1 of [\d,]+/)).toBeVisible();
  const svg = await openFlow(page);
  const region = flowRegion(page);
  await expect(region).toContainText('2 segments, 1 compaction, 1 summary');
  await expect(region.getByRole('button', { name: /^Segment 1: calls 1-\d+, peak [\d,]+ tokens$/ })).toBeVisible();
  await expect(region.getByRole('button', { name: /^Compaction 1: compact, auto, tokens [\d,]+ to [\d,]+$/ })).toBeVisible();
  await expect(region.getByRole('button', { name: /^Summary [\w-]+, [\d,]+ tokens$/ })).toBeVisible();
  // SVG text only, nothing active.
  expect(await svg.locator('script, foreignObject, img, [onerror], [onclick]').count()).toBe(0);
  await expectNoLeftovers(page);
});

test('a long session: the first and last compactions drawn, the middle folded into one node that says so', async ({ page }) => {
  const compactions = MAX_COMPACTIONS + 6;
  await page.setViewportSize({ width: 1400, height: 900 });
  await page.goto('/');
  await dropFiles(page, [fromText('long.jsonl', claudeCodeSession({ seed: 11, records: 1_200, bytes: 500_000, compactions }))]);
  await expect(stepper(page).getByText(/Call 1 of [\d,]+/)).toBeVisible();
  await openFlow(page);
  const region = flowRegion(page);
  await expect(region.locator('.flow-lead')).toContainText(`${MAX_COMPACTIONS} compactions`);
  await expect(region.locator('.flow-lead')).toContainText(/6 compactions in the middle folded into one node \(calls [\d,]+–[\d,]+\)/);
  await expect(region.getByRole('button', { name: 'Compaction 1: compact, auto', exact: false })).toBeVisible();
  await expect(region.getByRole('button', { name: `Compaction ${compactions}: compact, auto`, exact: false })).toBeVisible();
  await expect(region.getByRole('button', { name: `Compaction ${MAX_COMPACTIONS / 2 + 1}: `, exact: false })).toHaveCount(0);
  const fold = region.getByRole('button', { name: /^6 compactions folded, calls \d+-\d+$/ });
  await expect(fold).toBeVisible();
  await page.screenshot({ path: join(SHOTS, 'flow-folded-1400x900.png') });
  const first = Number(/calls (\d+)-/.exec((await fold.getAttribute('aria-label'))!)![1]);
  await fold.click();
  await expect(stepper(page).getByText(new RegExp(`Call ${first.toLocaleString('en-US')} of`))).toBeVisible();
});

test('drawn ahead: once the counts are exact, the Flow tab opens on a diagram drawn in idle time', async ({ page }) => {
  await page.setViewportSize({ width: 1400, height: 900 });
  await page.goto('/');
  await page.getByRole('button', { name: coding.title }).click();
  await sessionIn(page);
  await expect(page.locator('.count-status')).not.toHaveClass(/estimating/, { timeout: 60_000 });
  // The last view's drawing is done when no new one follows for a while.
  const drawnAhead = () => page.evaluate(() => performance.getEntriesByName('flow:drawn-ahead').length);
  let last = -1;
  await expect
    .poll(
      async () => {
        const n = await drawnAhead();
        const settled = n > 0 && n === last;
        last = n;
        return settled;
      },
      { timeout: 60_000, intervals: [1000] },
    )
    .toBe(true);
  // The panel never says it is drawing: its diagram is there on its first render.
  await page.evaluate(() => {
    (window as unknown as { sawDrawing: boolean }).sawDrawing = false;
    new MutationObserver(() => {
      if (document.querySelector('.flow [role="status"]')?.textContent?.includes('Drawing the diagram')) (window as unknown as { sawDrawing: boolean }).sawDrawing = true;
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
  const svg = await openFlow(page);
  await expect(svg).toHaveAttribute('id', /^flow-ahead-\d+$/);
  expect(await page.evaluate(() => (window as unknown as { sawDrawing: boolean }).sawDrawing)).toBe(false);
  await expect(flowRegion(page).getByRole('button', { name: /^Segment 2: calls 7-12,/ })).toBeVisible();
  await expectNoLeftovers(page);
  await page.screenshot({ path: join(SHOTS, 'flow-drawn-ahead-1400x900.png') });
});
