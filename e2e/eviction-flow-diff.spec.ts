import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { DEMOS } from '../app/demos';
import { buildAnalysisView, type AnalysisView } from '../src/analysis/analysis-view';
import { diffContexts, diffSummary } from '../src/analysis/context-diff';
import { labelAt } from '../src/analysis/eviction-runs';
import { createTokenCounter, pickEncoding } from '../src/tokens';
import { dropFiles, fromDisk, fromText } from './support/drop';
import { engineLoad } from './support/engine';
import { openPanel } from './support/session-view';

const FIXTURES = join(import.meta.dirname, '..', 'src', 'formats', '__fixtures__');
const DEMO_DIR = join(import.meta.dirname, '..', 'public', 'demos');
const SHOTS = join(import.meta.dirname, '..', '.e2e-artifacts', 'screens');
const coding = DEMOS.find((d) => d.id === 'coding-agent')!;

/** The analysis the page's worker ends with: same session, same exact token counter. */
async function engineView(...paths: string[]): Promise<AnalysisView> {
  const session = engineLoad(...paths).sessions[0]!;
  const counter = await createTokenCounter(pickEncoding(session.model).encoding);
  return buildAnalysisView(session, { count: (t) => counter.count(t).tokens });
}

const stepper = (page: Page) => page.getByRole('toolbar', { name: 'Step through calls' });

async function openCoding(page: Page, panel: string) {
  await page.goto('/');
  await page.getByRole('button', { name: coding.title }).click();
  await expect(stepper(page).getByText('Call 1 of 14')).toBeVisible();
  // The exact view replaces the estimate's rows: clicks are made on the rows that stay.
  await expect(page.locator('.count-status.estimating')).toHaveCount(0);
  await openPanel(page, panel);
  return page.getByRole('region', { name: panel, exact: true });
}

test.describe('eviction map', () => {
  test('has a row per original item and shows summarized cells from call 7', async ({ page }) => {
    const view = await engineView(...coding.files.map((f) => join(DEMO_DIR, f)));
    const map = await openCoding(page, 'Eviction map');
    const list = map.getByRole('list', { name: 'Items by call' });
    await expect(map).toContainText(`${view.eviction.length} items × 14 calls`);
    await expect(list.getByRole('listitem').first()).toHaveAttribute('aria-setsize', String(view.eviction.length));
    // Rows carry a sentence of their labels; the tool result read at call 2 is summarized by the compaction before call 7.
    await expect(list.getByRole('listitem', { name: 'r1.m3 tool result run_shell: verbatim in calls 2–6, summarized from call 7' })).toBeVisible();
    await expect(list.getByRole('listitem', { name: 'r0.m0 system message: verbatim from call 1' })).toBeVisible();
    await expect(list.getByRole('listitem', { name: /^r5\.m11 user message: verbatim in calls 6–12, dropped from call 13$/ })).toBeVisible();

    const legend = map.getByRole('list', { name: /^Labels at call/ });
    await expect(legend).toHaveAccessibleName('Labels at call 1');
    await expect(legend.getByRole('listitem').filter({ hasText: 'summarized' })).toHaveText('summarized 0');
    await page.keyboard.press('n');
    await expect(stepper(page).getByText('Call 7 of 14')).toBeVisible();
    await expect(legend).toHaveAccessibleName('Labels at call 7');
    const summarized = view.eviction.filter((r) => labelAt(r.runs, 6) === 'summarized').length;
    expect(summarized).toBe(10);
    await expect(legend.getByRole('listitem').filter({ hasText: 'summarized' })).toHaveText(`summarized ${summarized}`);
    // Drawn cells: the r1.m3 row has a summarized run starting at call 7's column.
    const strip = list.getByRole('listitem', { name: /^r1\.m3 / }).locator('.evm-strip');
    const run = strip.locator('.evm-run.l-summarized');
    await expect(run).toHaveCount(1);
    const [s, r] = [await strip.boundingBox(), await run.boundingBox()];
    const cell = s!.width / 14;
    expect(Math.round((r!.x - s!.x) / cell)).toBe(6);
    expect(Math.round(r!.width / cell)).toBe(8);
  });

  test('clicking a cell steps to that call; the row header selects the item; arrows and Enter work too', async ({ page }) => {
    const map = await openCoding(page, 'Eviction map');
    const row = map.getByRole('listitem', { name: /^r1\.m3 / });
    const strip = row.locator('.evm-strip');
    const box = (await strip.boundingBox())!;
    const cell = box.width / 14;
    await strip.click({ position: { x: cell * 8.5, y: box.height / 2 } });
    await expect(stepper(page).getByText('Call 9 of 14')).toBeVisible();
    await expect(page).toHaveURL(/item=r1\.m3/);

    // The row header selects the item; the inspector steps to the first call that holds it.
    await row.getByRole('button', { name: 'Show r1.m3 tool result run_shell' }).click();
    await expect(stepper(page).getByText('Call 2 of 14')).toBeVisible();
    await expect(page.locator('.row.selected')).toContainText('scheduler: starting job ledger-reconcile');

    // Keyboard: the focused row's strip moves its cursor with the arrows; Enter steps there.
    await strip.focus();
    await expect(strip).toHaveAccessibleName(/^r1\.m3 at call 2: verbatim\./);
    for (let i = 0; i < 5; i++) await page.keyboard.press('ArrowRight');
    await expect(strip).toHaveAccessibleName(/^r1\.m3 at call 7: summarized\./);
    // The arrows chose a column only: the inspector's own ←/→ shortcuts did not also step.
    await expect(stepper(page).getByText('Call 2 of 14')).toBeVisible();
    await page.keyboard.press('Enter');
    await expect(stepper(page).getByText('Call 7 of 14')).toBeVisible();
    await page.keyboard.press('ArrowDown');
    await expect(map.getByRole('listitem', { name: /^r1\.o0\.call0 / }).locator('.evm-strip')).toBeFocused();
  });

  test('a Claude Code session shows masked cells where tool results were cleared', async ({ page }) => {
    const view = await engineView(join(FIXTURES, 'claude-code-session.jsonl'));
    await page.goto('/');
    await dropFiles(page, fromDisk(join(FIXTURES, 'claude-code-session.jsonl')));
    await expect(stepper(page).getByText(`Call 1 of ${view.calls.length}`)).toBeVisible();
    await openPanel(page, 'Eviction map');
    const list = page.getByRole('region', { name: 'Eviction map' }).getByRole('list', { name: 'Items by call' });
    await expect(list.getByRole('listitem').first()).toHaveAttribute('aria-setsize', String(view.eviction.length));
    await expect(list.getByRole('listitem', { name: /^u-012 tool result Grep: masked from call 4$/ })).toBeVisible();
    await expect(list.getByRole('listitem', { name: /^u-012 / }).locator('.evm-run.l-masked')).toHaveCount(1);
    await expect(list.getByRole('listitem', { name: /^u-001 user message: verbatim in calls 1–5, summarized in call 6$/ })).toBeVisible();
  });
});

test.describe('flow diagram', () => {
  test('renders an svg with the segments, the compactions and the summary lineage; a segment steps to its first call', async ({ page }) => {
    const requested: string[] = [];
    page.on('request', (r) => requested.push(r.url()));
    await openCoding(page, 'Eviction map');
    // Mermaid comes in idle time once the counts are exact (the diagram is drawn ahead), or when the tab opens: once.
    await openPanel(page, 'Flow');
    const flow = page.getByRole('region', { name: 'Flow', exact: true });
    const svg = flow.locator('.flow-diagram svg');
    await expect(svg).toBeVisible();
    expect(requested.filter((u) => /mermaid\.core/.test(u))).toHaveLength(1);
    await expect(flow).toContainText('3 segments, 2 compactions, 2 summaries, 1 fallback marker instead of a summary');
    await expect(flow.getByRole('button', { name: 'Compaction 1: summarize, tokens 3,702 to 1,611' })).toBeVisible();
    await expect(flow.getByRole('button', { name: 'Compaction 2: summarize, tokens 3,536 to 1,150, fallback marker' })).toBeVisible();
    await expect(flow.getByRole('button', { name: /^Summary r6\.m2, [\d,]+ tokens$/ })).toBeVisible();
    await expect(flow.getByRole('button', { name: /^Marker r12\.m2, [\d,]+ tokens$/ })).toBeVisible();
    await expect(svg.getByText('folded into')).toBeVisible();
    // Labels are SVG text, not HTML: no foreignObject, and the entity-coded quotes read back as text.
    await expect(svg.locator('foreignObject')).toHaveCount(0);
    await expect(svg).toContainText('"[Earlier messages');
    await flow.getByRole('button', { name: /^Segment 2: calls 7-12,/ }).click();
    await expect(stepper(page).getByText('Call 7 of 14')).toBeVisible();
    await flow.getByText('Mermaid source').click();
    await expect(flow.locator('.flow-source pre')).toContainText('flowchart TD');
  });

  test('hostile ids and triggers render as text: no injected directive, no script, no dialog', async ({ page }) => {
    const dialogs: string[] = [];
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    const hostileId = '"]; click n0 call alert(1) %%';
    const text = readFileSync(join(FIXTURES, 'claude-code-session.jsonl'), 'utf8')
      .split('"u-021"')
      .join(JSON.stringify(hostileId))
      .split('"trigger":"manual"')
      .join(`"trigger":${JSON.stringify('<script>alert(1)</script><img src=x onerror=alert(2)>')}`);
    await page.goto('/');
    const scriptsBefore = (await page.content()).split('<script').length;
    await dropFiles(page, [fromText('hostile.jsonl', text)]);
    await expect(stepper(page).getByText(/Call 1 of \d+/)).toBeVisible();
    await openPanel(page, 'Flow');
    const flow = page.getByRole('region', { name: 'Flow' });
    const svg = flow.locator('.flow-diagram svg');
    await expect(svg).toBeVisible();
    // Labels come in short lines (the first 21 characters and an ellipsis), shown as text; the node's name keeps every character.
    await expect(svg).toContainText('compact, <script>aler...');
    const node = flow.getByRole('button', { name: `Summary ${hostileId}`, exact: false });
    await expect(node).toBeVisible();
    await expect(node).toContainText('"]; click n0 call ale...');
    const html = await page.content();
    expect(html.split('<script').length).toBe(scriptsBefore);
    expect(html).not.toContain('<img src=x');
    expect(await svg.locator('script, foreignObject, img, [onerror], [onclick]').count()).toBe(0);
    await flow.getByText('Mermaid source').click();
    const source = (await flow.locator('.flow-source pre').textContent()) ?? '';
    expect(source.split('\n').filter((l) => /^\s*(click|style|%%)/.test(l))).toEqual([]);
    expect(source).not.toContain('<script');
    expect(dialogs).toEqual([]);
  });
});

test.describe('context diff', () => {
  test('between calls 6 and 7 lists the removed items and the token delta', async ({ page }) => {
    const view = await engineView(...coding.files.map((f) => join(DEMO_DIR, f)));
    const expected = diffContexts(view.calls[5]!, view.calls[6]!);
    expect(expected.removed).toHaveLength(10);
    const diff = await openCoding(page, 'Diff');
    await diff.getByRole('combobox', { name: 'From call' }).selectOption({ label: 'Call 6' });
    await diff.getByRole('combobox', { name: 'To call' }).selectOption({ index: 6 });
    await expect(diff.getByRole('combobox', { name: 'To call' })).toHaveValue('6');
    await expect(diff.getByText(diffSummary(expected), { exact: true })).toBeVisible();
    const changes = diff.getByRole('list', { name: 'Changes from call 6 to call 7' });
    await expect(changes).toContainText(`Removed: 10 items, −${expected.tokens.removed.toLocaleString('en-US')} tokens`);
    for (const e of expected.removed) await expect(changes.getByRole('button', { name: new RegExp(`^removed ${e.id.replace(/\./g, '\\.')} `) })).toBeVisible();
    for (const e of expected.added) await expect(changes.getByRole('button', { name: new RegExp(`^added ${e.id.replace(/\./g, '\\.')} `) })).toBeVisible();
    await changes.getByRole('button', { name: /^added r6\.m2 summary/ }).click();
    await expect(page).toHaveURL(/item=r6\.m2/);
  });

  test('follows the current call: previous against current by default', async ({ page }) => {
    const diff = await openCoding(page, 'Diff');
    await expect(diff.getByRole('combobox', { name: 'From call' })).toHaveValue('0');
    await expect(diff.getByRole('combobox', { name: 'To call' })).toHaveValue('0');
    await expect(diff).toContainText('Both sides are the same call');
    await page.keyboard.press('n');
    await page.keyboard.press('n');
    await expect(stepper(page).getByText('Call 13 of 14')).toBeVisible();
    await expect(diff.getByRole('combobox', { name: 'From call' })).toHaveValue('11');
    await expect(diff.getByRole('combobox', { name: 'To call' })).toHaveValue('12');
    await expect(diff.getByRole('list', { name: 'Changes from call 12 to call 13' })).toContainText('Removed');
  });
});

test('screenshots of the eviction map, flow and diff panels in both themes', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 1000 });
  await openCoding(page, 'Eviction map');
  await page.keyboard.press('n');
  await expect(stepper(page).getByText('Call 7 of 14')).toBeVisible();
  for (const theme of ['light', 'dark'] as const) {
    if (theme === 'dark') await page.getByRole('button', { name: 'Switch to dark theme' }).click();
    await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
    await openPanel(page, 'Eviction map');
    await expect(page.getByRole('region', { name: 'Eviction map' }).getByRole('listitem').first()).toBeVisible();
    await page.screenshot({ path: join(SHOTS, `eviction-map-${theme}.png`) });
    await openPanel(page, 'Flow');
    await expect(page.getByRole('region', { name: 'Flow' }).locator('.flow-diagram svg')).toBeVisible();
    await page.screenshot({ path: join(SHOTS, `flow-${theme}.png`) });
    await openPanel(page, 'Diff');
    await expect(page.getByRole('region', { name: 'Diff' }).getByRole('list', { name: /^Changes from/ })).toBeVisible();
    await page.screenshot({ path: join(SHOTS, `diff-${theme}.png`) });
  }
});
