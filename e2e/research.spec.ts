// The research panels (Self-Sum, Agent-Omit, Iterations) on the demos and the AIME fixture, checked against the
// engine's own metrics computed with the tokenizer the page uses once exact counts are in.
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { DEMOS } from '../app/demos';
import { buildAnalysisView, type AnalysisView } from '../src/analysis/analysis-view';
import { firstCallByItem } from '../src/analysis/call-lookup';
import { loadFiles } from '../src/load/loader';
import type { Session } from '../src/model/types';
import { agentOmitStats, iterationStats, selfSumSegments } from '../src/research';
import { createTokenCounter, pickEncoding } from '../src/tokens';
import { dropFiles, fromDisk } from './support/drop';
import { openPanel as showPanel } from './support/session-view';

const DEMO_DIR = join(import.meta.dirname, '..', 'public', 'demos');
const FIXTURES = join(import.meta.dirname, '..', 'src', 'formats', '__fixtures__');
const SHOTS = join(import.meta.dirname, '..', '.e2e-artifacts', 'screens');
const selfSumDemo = DEMOS.find((d) => d.id === 'alfworld-self-sum')!;
const omitDemo = DEMOS.find((d) => d.id === 'deepsearch-agent-omit')!;
const AIME = join(FIXTURES, 'reasoning-trace-aime.json');

const fmt = (n: number) => n.toLocaleString('en-US');
const plural = (n: number, one: string, many = `${one}s`) => `${fmt(n)} ${n === 1 ? one : many}`;
const sup = (k: number) => String(k).replace(/\d/g, (d) => '⁰¹²³⁴⁵⁶⁷⁸⁹'[Number(d)]!);
const sub = (k: number) => String(k).replace(/\d/g, (d) => '₀₁₂₃₄₅₆₇₈₉'[Number(d)]!);

/** The session and the analysis the page's worker builds with exact counts. */
async function engine(paths: string[]): Promise<{ session: Session; view: AnalysisView }> {
  const { sessions } = loadFiles(paths.map((p) => ({ name: basename(p), bytes: new Uint8Array(readFileSync(p)) })));
  const session = sessions[0]!;
  const counter = await createTokenCounter(pickEncoding(session.model).encoding);
  return { session, view: buildAnalysisView(session, { count: (t) => counter.count(t).tokens }) };
}

const callLabel = (page: Page, text: string) => page.getByRole('toolbar', { name: 'Step through calls' }).getByText(text);
/** The selected row, in the context view or the transcript (both show the item's id). */
const selectedRow = (page: Page, id: string) => page.locator('.row.selected').filter({ hasText: id });

async function openPanel(page: Page, name: string) {
  await showPanel(page, name);
  return page.getByRole('region', { name, exact: true });
}

async function openDemo(page: Page, demo: (typeof DEMOS)[number], panel: string) {
  await page.goto('/');
  await page.getByRole('button', { name: demo.title }).click();
  await expect(page.getByRole('toolbar', { name: 'Step through calls' }).getByText(/Call \d+ of \d+/)).toBeVisible();
  return openPanel(page, panel);
}

/** Screenshots of the panel in both themes, for a person to look at. */
async function shots(page: Page, name: string) {
  await page.mouse.move(0, 0);
  await page.screenshot({ path: join(SHOTS, `${name}-light.png`) });
  await page.getByRole('button', { name: 'Switch to dark theme' }).click();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await page.screenshot({ path: join(SHOTS, `${name}-dark.png`) });
}

test.use({ viewport: { width: 1440, height: 1000 } });

test.describe('Self-Sum panel', () => {
  test('the ALFWorld demo shows H¹…H³ on the step axis, the summaries at steps 11 and 16, and what each segment received', async ({ page }) => {
    const { session, view } = await engine(selfSumDemo.files.map((f) => join(DEMO_DIR, f)));
    const report = selfSumSegments(session, view);
    expect(report.segments).toHaveLength(3);
    expect(report.summaries.map((s) => s.firedAtStep)).toEqual([11, 16]);

    const region = await openDemo(page, selfSumDemo, 'Self-Sum');
    await expect(region.getByText(`${plural(3, 'segment')}`, { exact: true })).toBeVisible();
    await expect(region).toContainText('fired at steps 11, 16');

    // One button per segment, named by its steps and what its last call was sent (the engine's, once exact counts are in).
    const segs = region.getByRole('list', { name: 'Segments' }).getByRole('button');
    await expect(segs).toHaveCount(3);
    for (const [i, seg] of report.segments.entries()) {
      const range = seg.firstStep === seg.lastStep ? `step ${seg.firstStep}` : `steps ${seg.firstStep}–${seg.lastStep}`;
      await expect(segs.nth(i)).toHaveAccessibleName(`H${sup(seg.index)}: ${range}, ${plural(seg.steps, 'step')} (${plural(seg.actionSteps, 'action')}), ${fmt(seg.contextTokens)} tokens sent at call ${seg.lastCall! + 1}`);
    }
    await expect(segs.nth(0)).toHaveAttribute('aria-current', 'step');

    // Summary markers on the axis, and the timing table: fired at, steps since the last summary, written at.
    const markers = region.getByRole('group', { name: 'Summaries on the step axis' }).getByRole('button');
    await expect(markers).toHaveCount(2);
    await expect(markers.nth(0)).toHaveAccessibleName('s₁: summary fired at step 11');
    await expect(markers.nth(1)).toHaveAccessibleName('s₂: summary fired at step 16');
    const rows = region.getByRole('table').getByRole('row');
    for (const [i, s] of report.summaries.entries()) {
      const cells = rows.nth(i + 1).getByRole('cell');
      await expect(rows.nth(i + 1).getByRole('rowheader')).toHaveText(`s${sub(s.k)}`);
      await expect(cells.nth(0)).toHaveText(String(s.timingStep));
      await expect(cells.nth(1)).toContainText(String(s.stepsSinceLast));
      await expect(cells.nth(2)).toHaveText(String(s.contentStep));
      await expect(cells.nth(3)).toHaveText(fmt(s.tokens));
      await expect(cells.nth(4)).toHaveText(`H${sup(s.segment + 1)}`);
    }
    expect(report.summaries.map((s) => [s.stepsSinceLast, s.consecutive])).toEqual([
      [10, false],
      [3, false],
    ]);

    // The summary as the next segment's first user turn carries it, marked inside that turn, and why the agent summarized then.
    const card = region.getByRole('article', { name: 's₁ fed into H²' });
    await expect(card.locator('mark')).toHaveText(report.summaries[0]!.text);
    await expect(card).toContainText(report.summaries[0]!.fed!.itemId);
    await expect(card).toContainText('I found mug 2 on diningtable 1. The search phase is complete');
    await expect(region.getByRole('article', { name: 's₂ fed into H³' }).locator('mark')).toHaveText(report.summaries[1]!.text);

    await shots(page, 'self-sum');
    await page.getByRole('button', { name: 'Switch to light theme' }).click();

    // Clicking a segment steps to the call that starts it, with its first user turn selected.
    const first = firstCallByItem(view.calls);
    const h2 = report.segments[1]!;
    await segs.nth(1).click();
    await expect(callLabel(page, `Call ${first.get(h2.openerId!)! + 1} of ${view.calls.length}`)).toBeVisible();
    await expect(selectedRow(page, h2.openerId!)).toBeVisible();
    await expect(segs.nth(1)).toHaveAttribute('aria-current', 'step');
    // A summary marker steps to the call that wrote the summary.
    await markers.nth(1).click();
    await expect(callLabel(page, `Call ${first.get(report.summaries[1]!.itemId)! + 1} of ${view.calls.length}`)).toBeVisible();
    await expect(selectedRow(page, report.summaries[1]!.itemId)).toBeVisible();
  });
});

test.describe('Agent-Omit panel', () => {
  test('the DeepSearch demo shows R_omit from the engine, when each observation was omitted, and thought/action/observation per turn', async ({ page }) => {
    const { session, view } = await engine(omitDemo.files.map((f) => join(DEMO_DIR, f)));
    const st = agentOmitStats(session, view);
    expect(st.omitted.map((o) => [o.number, o.omittedAtTurn])).toEqual([
      [1, 4],
      [2, 4],
      [4, 5],
    ]);
    expect(st.thoughtTokensSaved).toBe(0);
    const r = st.rOmit;

    const region = await openDemo(page, omitDemo, 'Agent-Omit');
    const formula = region.getByRole('group', { name: 'R_omit formula' });
    await expect(formula.getByLabel(`R_omit ${r.total.toFixed(3)}`)).toBeVisible();
    await expect(formula.getByLabel(`thought part ${r.thought.toFixed(3)}`)).toBeVisible();
    await expect(formula.getByLabel(`observation part ${r.observation.toFixed(3)}`)).toBeVisible();
    await expect(formula.locator('.ao-frac.observation .ao-num')).toHaveText(fmt(st.observationTokensSaved));
    await expect(formula.locator('.ao-frac.observation .ao-den')).toHaveText(fmt(st.totalTokens));
    expect(r.total).toBeCloseTo(st.observationTokensSaved / st.totalTokens, 12);
    await expect(region).toContainText('2 omitted thoughts have no original text');
    await expect(region).toContainText('Observation 4: only the <omitted_tool_response_N> placeholder was recorded');

    // The matrix names every omission; the timeline lists them per turn with the tokens saved.
    await expect(region.getByRole('img', { name: /^Omission matrix/ })).toHaveAccessibleName(
      'Omission matrix: 6 turns; thoughts omitted at turns 3, 6; observation 1 omitted at turn 4; observation 2 omitted at turn 4; observation 4 omitted at turn 5',
    );
    const timeline = region.getByRole('table');
    const turn4 = timeline.getByRole('row').filter({ has: page.getByRole('rowheader', { name: '4', exact: true }) });
    await expect(turn4.getByRole('button', { name: "Go to turn 4's omit command: observations 1, 2" })).toBeVisible();
    await expect(turn4.getByRole('cell').last()).toHaveText(fmt(st.omitted[0]!.savedTokens + st.omitted[1]!.savedTokens));
    const turn5 = timeline.getByRole('row').filter({ has: page.getByRole('rowheader', { name: '5', exact: true }) });
    await expect(turn5).toContainText('original lost: 4');
    await expect(turn5.getByRole('cell').last()).toHaveText('0');

    // Fig. 2: one bar per turn named by its thought, action and observation tokens.
    const bars = region.getByRole('group', { name: /^Tokens per turn/ }).getByRole('button');
    await expect(bars).toHaveCount(st.turns.length);
    const barName = (t: (typeof st.turns)[number], obs: number) =>
      `Turn ${t.turn}: thought ${fmt(t.thoughtTokens)}, action ${fmt(t.actionTokens)}, observation ${fmt(obs)} tokens${t.thoughtOmitted ? ', thought omitted' : ''}${t.omits.length ? `, omits observation ${t.omits.join(', ')}` : ''}`;
    for (const [i, t] of st.turns.entries()) await expect(bars.nth(i)).toHaveAccessibleName(barName(t, t.observationTokens));
    await region.getByRole('radio', { name: 'in the turn’s context' }).check();
    for (const [i, t] of st.turns.entries()) await expect(bars.nth(i)).toHaveAccessibleName(barName(t, t.observationsInContext));

    await shots(page, 'agent-omit');
    await page.getByRole('button', { name: 'Switch to light theme' }).click();

    // Keyboard: arrows move along the bars, Enter steps the inspector to that turn's call.
    const first = firstCallByItem(view.calls);
    await bars.nth(0).focus();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await expect(bars.nth(2)).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(callLabel(page, `Call ${first.get(st.turns[2]!.itemIds[0]!)! + 1} of ${view.calls.length}`)).toBeVisible();
    // The omit command's row steps to the turn that wrote it.
    await turn4.getByRole('button', { name: "Go to turn 4's omit command: observations 1, 2" }).click();
    await expect(callLabel(page, `Call ${first.get('m8.omit')! + 1} of ${view.calls.length}`)).toBeVisible();
    await expect(selectedRow(page, 'm8.omit')).toBeVisible();
  });
});

test.describe('Iterations panel', () => {
  test('a dropped AIME trace shows tokens per iteration as the engine counts them, each attempt and the summary it passes on', async ({ page }) => {
    const { session, view } = await engine([AIME]);
    const st = iterationStats(session, view);
    expect(st.rows).toHaveLength(3);

    await page.goto('/');
    await dropFiles(page, fromDisk(AIME));
    await expect(page.getByRole('toolbar', { name: 'Step through calls' }).getByText(/Call \d+ of \d+/)).toBeVisible();
    const region = await openPanel(page, 'Iterations');
    await expect(region).toContainText('first correct at iteration 2');

    // Table 6 per trace: reasoning, post-think, summary, prompt, answer.
    const table = region.getByRole('table');
    const rows = table.locator('tbody').getByRole('row');
    await expect(rows).toHaveCount(3);
    for (const [i, r] of st.rows.entries()) {
      const cells = rows.nth(i).getByRole('cell');
      await expect(rows.nth(i).getByRole('rowheader')).toHaveText(String(r.iteration));
      await expect(cells.nth(0)).toHaveText(fmt(r.reasoningTokens));
      await expect(cells.nth(1)).toHaveText(fmt(r.postThinkTokens));
      await expect(cells.nth(2)).toHaveText(r.summaryId ? fmt(r.summaryTokens) : '—');
      await expect(cells.nth(3)).toHaveText(fmt(r.promptTokens));
      await expect(cells.nth(4)).toContainText(`${r.finalAnswer}`);
      await expect(cells.nth(4)).toContainText(r.correct ? 'correct' : 'wrong');
    }
    const total = table.locator('tfoot').getByRole('row').filter({ hasText: 'Total' }).getByRole('cell');
    await expect(total.nth(0)).toHaveText(fmt(st.totals.reasoning));
    await expect(total.nth(3)).toHaveText(fmt(st.totals.prompt));

    // The first attempt's summary, passed on to the prompts of iterations 2 and 3.
    const card = region.getByRole('article', { name: 'Iteration 1' });
    await expect(card).toContainText(`Summary passed on ${fmt(st.rows[0]!.summaryTokens)} tokens`);
    await expect(card).toContainText('In the prompt of iterations 2, 3.');
    await expect(card).toContainText(session.items.find((i) => i.id === 'i1.summary')!.text);

    await shots(page, 'iterations');
    await page.getByRole('button', { name: 'Switch to light theme' }).click();

    const first = firstCallByItem(view.calls);
    await region.getByRole('button', { name: 'Go to iteration 2', exact: true }).click();
    await expect(callLabel(page, `Call ${first.get('i2.think')! + 1} of ${view.calls.length}`)).toBeVisible();
    await expect(selectedRow(page, 'i2.think')).toBeVisible();
    await expect(rows.nth(1)).toHaveClass(/current/);
  });
});
