// The token budget and cache prefix panels on the coding-agent demo, checked against the engine's own analysis.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { DEMOS } from '../app/demos';
import { buildAnalysisView, type AnalysisView } from '../src/analysis/analysis-view';
import { bandsTotal, compactionThreshold } from '../src/charts/budget-bars';
import { loadFiles } from '../src/load/loader';
import { createTokenCounter, pickEncoding } from '../src/tokens';
import { dropFiles, fromText } from './support/drop';

const DEMO_DIR = join(import.meta.dirname, '..', 'public', 'demos');
const SHOTS = join(import.meta.dirname, '..', '.e2e-artifacts', 'screens');
const coding = DEMOS.find((d) => d.id === 'coding-agent')!;
const fmt = (n: number) => n.toLocaleString('en-US');

// What the page computes in its worker once exact counts are in: the same loader, tokenizer and analysis.
let auto: AnalysisView;
let exact: AnalysisView;
test.beforeAll(async () => {
  const { sessions } = loadFiles(coding.files.map((f) => ({ name: f, bytes: new Uint8Array(readFileSync(join(DEMO_DIR, f))) })));
  const session = sessions[0]!;
  const counter = await createTokenCounter(pickEncoding(session.model).encoding);
  const count = (t: string) => counter.count(t).tokens;
  auto = buildAnalysisView(session, { count, rule: 'auto' });
  exact = buildAnalysisView(session, { count, rule: 'exact' });
});

test.use({ viewport: { width: 1440, height: 1000 } });

async function openPanel(page: Page, name: 'Token budget' | 'Cache prefix') {
  await page.goto('/');
  await page.getByRole('button', { name: coding.title }).click();
  await expect(callLabel(page, 'Call 1 of 14')).toBeVisible();
  await page.getByRole('tab', { name }).click();
  return page.getByRole('region', { name });
}

const callLabel = (page: Page, text: string) => page.getByRole('toolbar', { name: 'Step through calls' }).getByText(text);
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

test('the token budget draws its bars once, at the width of its pane, and redraws them when the pane resizes', async ({ page }) => {
  // Counts every change of a bar's position or width: a chart drawn at a guessed width and then at the measured one
  // moved every bar (~80 ms of a 3 MB session's main thread, while its tokens were being counted).
  await page.addInitScript(() => {
    const w = window as unknown as { __barMoves: number };
    w.__barMoves = 0;
    new MutationObserver((records) => {
      for (const r of records) if ((r.target as Element).classList?.contains('band')) w.__barMoves++;
    }).observe(document, { subtree: true, attributes: true, attributeFilter: ['x', 'width'] });
  });
  const panel = await openPanel(page, 'Token budget');
  await expect(panel.getByRole('button', { name: /^Call \d+: / })).toHaveCount(14);
  await expect(page.locator('.count-status.estimating')).toHaveCount(0);
  const moves = () => page.evaluate(() => (window as unknown as { __barMoves: number }).__barMoves);
  expect(await moves()).toBe(0);
  const band = (n: number) => panel.getByRole('button', { name: new RegExp(`^Call ${n}: `) }).locator('rect.band').first().boundingBox();
  const wide = (await band(1))!;
  await page.setViewportSize({ width: 1200, height: 1000 });
  await expect.poll(moves).toBeGreaterThan(0);
  // Narrower bars, and the last still ends inside its pane: the chart fits the new width instead of scrolling.
  await expect.poll(async () => (await band(1))!.width).toBeLessThan(wide.width);
  const last = (await band(14))!;
  const pane = (await panel.locator('.budget-scroll').boundingBox())!;
  expect(last.x + last.width).toBeLessThanOrEqual(pane.x + pane.width + 0.5);
});

test('the token budget draws one bar per call, named by its tokens, and a click or an arrow key steps the inspector', async ({ page }) => {
  const panel = await openPanel(page, 'Token budget');
  const bars = panel.getByRole('button', { name: /^Call \d+: / });
  await expect(bars).toHaveCount(14);
  expect(auto.calls).toHaveLength(14);

  // Each bar's name carries the engine's total (input + output); the calls after compactions say so.
  for (const call of auto.calls) {
    const total = bandsTotal(call.bands);
    const after = call.compactionId ? `, after compaction ${call.compactionId}` : '';
    await expect(bars.nth(call.index)).toHaveAccessibleName(`Call ${call.index + 1}: ${fmt(total)} tokens (${fmt(total - call.bands.output)} in, ${fmt(call.bands.output)} out)${after}`);
  }
  expect(auto.calls.filter((c) => c.compactionId).map((c) => c.index)).toEqual([6, 12]);

  // A 1M-token window against a ~4k-token session stays a note; the threshold is the smaller compaction size.
  expect(auto.contextWindow).toBe(1_047_576);
  await expect(panel.getByText(`Context window: ${fmt(auto.contextWindow!)} tokens — off scale`)).toBeVisible();
  const threshold = compactionThreshold(auto.compactions)!;
  expect(threshold).toBe(3536);
  await expect(panel.getByText(`Compaction threshold: ${fmt(threshold)} tokens`)).toBeVisible();

  await panel.getByRole('button', { name: /^Call 7: / }).click();
  await expect(callLabel(page, 'Call 7 of 14')).toBeVisible();
  await expect(panel.getByRole('button', { name: /^Call 7: / })).toHaveAttribute('aria-current', 'step');

  // The readout lists call 7's bands and its reported usage, as the engine has them.
  const c7 = auto.calls[6]!;
  const bandsList = panel.getByRole('list', { name: 'Bands of call 7' });
  await expect(bandsList.getByRole('listitem').filter({ hasText: 'System' })).toContainText(fmt(c7.bands.system));
  await expect(bandsList.getByRole('listitem').filter({ hasText: 'New input' })).toContainText(fmt(c7.bands.newInput));
  const usage = panel.getByRole('list', { name: 'Reported usage of call 7' });
  await expect(usage.getByRole('listitem').filter({ hasText: 'Cache read' })).toContainText(fmt(c7.usage!.cacheRead!));
  await expect(usage.getByRole('listitem').filter({ hasText: 'Prompt (reported)' })).toContainText(fmt(c7.usage!.input!));

  // Keyboard: the current bar is the one tab stop; arrows step the call and focus follows.
  const bar7 = panel.getByRole('button', { name: /^Call 7: / });
  await bar7.focus();
  await page.keyboard.press('ArrowRight');
  await expect(callLabel(page, 'Call 8 of 14')).toBeVisible();
  await expect(panel.getByRole('button', { name: /^Call 8: / })).toBeFocused();
  await page.keyboard.press('End');
  await expect(callLabel(page, 'Call 14 of 14')).toBeVisible();
  await page.keyboard.press('Home');
  await expect(callLabel(page, 'Call 1 of 14')).toBeVisible();
  await expect(panel.locator('[role="button"][tabindex="0"]')).toHaveCount(1);

  await panel.getByRole('button', { name: /^Call 7: / }).click();
  await expect(callLabel(page, 'Call 7 of 14')).toBeVisible();
  await page.mouse.move(0, 0);
  await page.screenshot({ path: join(SHOTS, 'token-budget-light.png') });
  await page.getByRole('button', { name: 'Switch to dark theme' }).click();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await page.screenshot({ path: join(SHOTS, 'token-budget-dark.png') });
});

test('the cache panel at call 7 names the compaction, shows the divergence, and re-predicts under another provider rule', async ({ page }) => {
  const panel = await openPanel(page, 'Cache prefix');
  await page.getByRole('slider', { name: 'Call' }).fill('7');
  await expect(callLabel(page, 'Call 7 of 14')).toBeVisible();

  const r = auto.cache[6]!;
  expect(r).toMatchObject({ cacheBreak: true, cause: 'compaction', rule: 'openai' });
  const d = r.divergence!;
  expect(d).toMatchObject({ itemId: 'r6.m2', previousItemId: 'r0.o0.call0', itemIndex: 2, headerChanged: true });

  // The provider's figures lead: the demo's usage reports the miss, so the headline says so, with what was read and
  // what the compaction cost (the prompt less its read at most).
  expect(r).toMatchObject({ reportedMiss: true, predictedBreak: true, missCharge: 'compaction' });
  expect(r.missTokens).toBeLessThanOrEqual(r.reportedPrompt! - r.reportedCacheRead!);
  await expect(panel.getByRole('heading', { name: `Compaction: ${fmt(r.reportedCacheRead!)} tokens read, ${fmt(r.missTokens!)} processed again (the compaction's cost)` })).toBeVisible();
  await expect(panel.locator('.cause-sentence')).toContainText('A compaction replaced earlier items with a summary or marker');
  await expect(panel.getByText('The item itself changed: tool call r0.o0.call0 became summary r6.m2.')).toBeVisible();

  // The diff: the previous call's text struck out, this call's text after it.
  const diff = panel.getByLabel('Diff at the divergence');
  await expect(diff.locator('del')).toContainText(d.removed.replace('…', ''));
  await expect(diff.locator('ins')).toContainText('## Conversation Summary');

  // The prefix bar: reused and lost tokens of the previous prompt.
  await expect(panel.getByRole('img', { name: `Previous prompt: ${fmt(r.prefixTokens)} tokens reused, ${fmt(r.lostTokens)} lost` })).toBeVisible();

  // Predicted (openai rounding) against reported, then the exact rule.
  const figure = (label: RegExp) => panel.locator('.figure').filter({ has: page.locator('dt', { hasText: label }) }).locator('dd');
  await expect(figure(/^Predicted \(openai\)$/)).toHaveText(fmt(r.cachedPredicted));
  await expect(figure(/^Reported cache read$/)).toHaveText(fmt(r.reportedCacheRead!));
  const ex = exact.cache[6]!;
  expect(ex.cachedPredicted).not.toBe(r.cachedPredicted);
  await page.getByRole('combobox', { name: 'Provider rule' }).selectOption('exact');
  const cache = page.getByRole('region', { name: 'Cache prefix' });
  await expect(cache.locator('.figure').filter({ has: page.locator('dt', { hasText: /^Predicted \(exact\)$/ }) }).locator('dd')).toHaveText(fmt(ex.cachedPredicted));
  await expect(page.getByRole('combobox', { name: 'Provider rule' })).toHaveValue('exact');
  await expect(callLabel(page, 'Call 7 of 14')).toBeVisible();

  // The session's breaks: only the first compaction missed. At the second the provider read all it kept, so the
  // prediction's compaction is no break (the one disagreement), and the session line says so.
  const r13 = auto.cache[12]!;
  expect(r13).toMatchObject({ predictedCause: 'compaction', predictedBreak: true, reportedMiss: false, cacheBreak: false, missTokens: 0 });
  expect(r13.reportedPrompt! - r13.reportedCacheRead!).toBeLessThan(r13.previousCacheable! - r13.reportedCacheRead!);
  await expect(cache.getByText(/^1 cache break in 14 calls: 1 compaction\. Prediction and report agree on 12 of 13 calls\.$/)).toBeVisible();
  const breaks = cache.getByRole('list', { name: 'Cache breaks' }).getByRole('button');
  await expect(breaks).toHaveCount(1);
  await expect(breaks.nth(0)).toHaveAttribute('aria-current', 'step');

  // At call 13 the headline says "no miss": the prefix bar names the tail the compaction replaced, not a loss.
  await page.getByRole('slider', { name: 'Call' }).fill('13');
  await expect(cache.getByRole('heading', { name: /^Compaction, no miss: the provider read / })).toBeVisible();
  await expect(cache.getByRole('img', { name: `Previous prompt: ${fmt(r13.prefixTokens)} tokens reused, ${fmt(r13.lostTokens)} replaced by the compaction` })).toBeVisible();
  await expect(cache.locator('.prefix-nums .lost')).toHaveCount(0);
  await page.screenshot({ path: join(SHOTS, 'cache-no-miss-compaction.png') });
  await page.getByRole('slider', { name: 'Call' }).fill('7');

  await page.getByRole('combobox', { name: 'Provider rule' }).selectOption('auto');
  await expect(cache.locator('.figure dt').filter({ hasText: /^Predicted/ })).toHaveText('Predicted (openai)');
  await cache.getByRole('button', { name: 'Jump to divergence' }).click();
  await expect(page).toHaveURL(/item=r6\.m2/);
  await expect(page.locator('[data-item-id="r6.m2"].selected')).toBeVisible();

  await page.screenshot({ path: join(SHOTS, 'cache-prefix-light.png') });
  await page.getByRole('button', { name: 'Switch to dark theme' }).click();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await page.screenshot({ path: join(SHOTS, 'cache-prefix-dark.png') });

  // Call 13: a compaction the provider's figures show was no miss. The headline says the cache held; the note says
  // why the prediction's break did not count.
  await page.getByRole('slider', { name: 'Call' }).fill('13');
  await expect(callLabel(page, 'Call 13 of 14')).toBeVisible();
  await expect(cache.getByRole('heading', { name: `Compaction, no miss: the provider read ${fmt(r13.reportedCacheRead!)} tokens, all the compaction kept; ${fmt(r13.droppedTokens!)} cached tokens dropped` })).toBeVisible();
  await expect(cache.locator('.disagreement')).toHaveText(`A compaction changed the prompt at the divergence below, but the provider read ${fmt(r13.reportedCacheRead!)} tokens, everything before it (within its rounding): the compaction cost no cache miss, and the cached tokens it dropped were never processed again.`);
  await cache.screenshot({ path: join(SHOTS, 'cache-compaction-held.png') });
});

test('a prompt larger than the window listed for its model makes the window unknown, and the panel says why', async ({ page }) => {
  // Modelled on LeoDChen/claude-config: Claude Code sent to deepseek-v4-flash through an Anthropic-compatible endpoint
  // was served prompts past the 128,000 tokens listed for DeepSeek models.
  const rec = (type: string, uuid: string, parentUuid: string | null, message: object) =>
    JSON.stringify({ parentUuid, isSidechain: false, sessionId: 'p-1', type, uuid, timestamp: '2026-04-27T11:47:15.000Z', cwd: '/home/u/pi', message });
  const reply = (uuid: string, parent: string, id: string, input: number) =>
    rec('assistant', uuid, parent, { id, model: 'deepseek-v4-flash', role: 'assistant', content: [{ type: 'text', text: `reply ${id}` }], usage: { input_tokens: input, output_tokens: 120 } });
  const text = [
    rec('user', 'u1', null, { role: 'user', content: 'fill in the quotation template' }),
    reply('a1', 'u1', 'm1', 96_908),
    rec('user', 'u2', 'a1', { role: 'user', content: 'now the customer data' }),
    reply('a2', 'u2', 'm2', 164_756),
  ].join('\n');
  await page.goto('/');
  await dropFiles(page, [fromText('proxy-deepseek.jsonl', text)]);
  await expect(callLabel(page, 'Call 1 of 2')).toBeVisible();
  await page.getByRole('tab', { name: 'Token budget' }).click();
  const panel = page.getByRole('region', { name: 'Token budget' });
  await expect(panel.getByText(`Context window: unknown (a call was sent ${fmt(164_756)} tokens, more than the ${fmt(128_000)} listed for this model)`)).toBeVisible();
});
