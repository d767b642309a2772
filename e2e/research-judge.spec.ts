// The Self-Sum judge in the inspector (Table 10 rubric): offline it says an endpoint is needed; with one it scores
// the demo's recorded summaries and a re-run's beside them. Also the iterated-summarization demo's Iterations
// panel. Screenshots at 1400×900 for a person to look at.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { DEMOS } from '../app/demos';
import { openPanel as showPanel } from './support/session-view';

const SHOTS = join(import.meta.dirname, '..', '.e2e-artifacts', 'screens');
const selfSumDemo = DEMOS.find((d) => d.id === 'alfworld-self-sum')!;
const iteratedDemo = DEMOS.find((d) => d.id === 'aime-iterated-summarization')!;

test.use({ viewport: { width: 1400, height: 900 } });

/** A judge endpoint answering every completion with Table 10 scores (content higher on the second request). */
async function judgeServer(): Promise<{ url: string; bodies: { model: string; messages: { content: string }[] }[]; close(): Promise<void> }> {
  const bodies: { model: string; messages: { content: string }[] }[] = [];
  const reply = (n: number) =>
    JSON.stringify({
      summary_timing: { necessity: 4, timeliness: 4, task_awareness: 5, avoidance_of_redundancy: 5 },
      summary_content_quality: { coverage_of_critical_information: n === 1 ? 5 : 3, faithfulness_to_observations: 5, abstraction_level: 4, future_utility: n === 1 ? 5 : 3 },
      overall_score: n === 1 ? 5 : 3,
      justification: n === 1 ? 'Summaries at subgoal boundaries that keep the mug and the sink.' : 'Fixed-interval summaries, some mid-search.',
    });
  const server: Server = createServer((req, res) => {
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.setHeader('Access-Control-Allow-Headers', 'authorization, content-type');
    if (req.method === 'OPTIONS') return void res.writeHead(204).end();
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      bodies.push(JSON.parse(body));
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ id: 'x', object: 'chat.completion', model: 'judge', choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: reply(bodies.length) } }] }));
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/v1`, bodies, close: () => new Promise((ok) => server.close(() => ok())) };
}

async function openDemo(page: Page, title: string) {
  await page.goto('/');
  await page.getByRole('button', { name: title }).click();
  await expect(page.getByRole('toolbar', { name: 'Step through calls' }).getByText(/Call \d+ of \d+/)).toBeVisible();
}

async function openPanel(page: Page, name: string) {
  await showPanel(page, name);
  return page.getByRole('region', { name, exact: true });
}

test('the Self-Sum judge says offline that it needs an endpoint, then scores the recorded summaries and a re-run\'s side by side', async ({ page }) => {
  const judge = await judgeServer();
  // The endpoint must be admitted by the page's Content-Security-Policy, as after "Allow and reload".
  await page.addInitScript((origin) => sessionStorage.setItem('compaction-inspector.endpoint-origin', origin), new URL(judge.url).origin);
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  try {
    await openDemo(page, selfSumDemo.title);

    // A re-run with the offline summarizer, every 4 calls.
    const rerun = await openPanel(page, 'Re-run');
    await rerun.getByLabel('Strategy', { exact: true }).selectOption('summarize-middle');
    await rerun.getByRole('radiogroup', { name: 'Trigger kind' }).getByText('Every N calls').click();
    await rerun.getByLabel('Calls between compactions', { exact: true }).fill('4');
    await rerun.getByRole('button', { name: 'Run', exact: true }).click();
    await expect(rerun.getByRole('button', { name: 'Run', exact: true })).toBeEnabled({ timeout: 45_000 });
    await expect(page.getByRole('region', { name: 'Re-run result' })).toBeVisible();

    const panel = await openPanel(page, 'Self-Sum');
    const section = panel.getByRole('region', { name: 'Judge the summaries' });
    await section.scrollIntoViewIfNeeded();
    await expect(section).toContainText('No endpoint set: the judge cannot score offline.');
    await expect(section.getByRole('button', { name: 'Score summaries' })).toBeDisabled();
    await expect(section.getByRole('status')).toHaveText('The judge needs an endpoint: set a Base URL and a model above.');
    await page.mouse.move(0, 0);
    await section.getByRole('heading', { name: 'Judge the summaries' }).scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(SHOTS, 'self-sum-judge-offline-1400.png') });

    await section.getByLabel('Base URL').fill(judge.url);
    await section.getByLabel('Model').fill('judge-model');
    await expect(section.getByRole('status')).toContainText("Scores the 2 recorded summaries and the re-run's");
    await section.getByRole('button', { name: 'Score summaries' }).click();
    const table = section.getByRole('table');
    await expect(table.getByRole('row', { name: /Overall/ })).toContainText('5');
    await expect(table.getByRole('row', { name: /Overall/ })).toContainText('3');
    await expect(table.getByRole('columnheader', { name: 'Re-run' })).toBeVisible();

    expect(judge.bodies).toHaveLength(2);
    const [recorded, rerunBody] = judge.bodies.map((b) => b.messages[0]!.content);
    expect(recorded).toMatch(/^You are an expert evaluator of long-horizon language agents\./);
    expect(recorded).toContain('SUMMARY: Progress: I searched countertop 1');
    expect(rerunBody).not.toContain('Progress: I searched countertop 1');
    expect(rerunBody).toContain('SUMMARY: ## Conversation Summary');
    expect(judge.bodies[0]!.model).toBe('judge-model');

    // Asking again answers from the cache.
    await section.getByRole('button', { name: 'Score summaries' }).click();
    await expect(section).toContainText('(from cache)');
    expect(judge.bodies).toHaveLength(2);

    await page.mouse.move(0, 0);
    await table.evaluate((el) => el.scrollIntoView({ block: 'end' }));
    await page.screenshot({ path: join(SHOTS, 'self-sum-judge-1400.png') });
    expect(errors).toEqual([]);
  } finally {
    await judge.close();
  }
});

test('the iterated-summarization demo opens from the landing page with four attempts and the summaries they pass on', async ({ page }) => {
  await openDemo(page, iteratedDemo.title);
  const panel = await openPanel(page, 'Iterations');
  await expect(panel).toContainText('4 iterations');
  await expect(panel).toContainText('backtracking summarizer');
  await expect(panel).toContainText('first correct at iteration 3');
  await expect(panel.getByRole('table').locator('tbody').getByRole('row')).toHaveCount(4);
  await expect(panel.getByRole('article', { name: 'Iteration 1' })).toContainText('In the prompt of iterations 2, 3, 4.');
  // Each attempt's call was sent its prompt alone: the context view's count is the Prompt column's.
  await expect(page.getByText(/counting exactly/)).toHaveCount(0, { timeout: 20_000 });
  const prompt1 = await panel.getByRole('table').locator('tbody').getByRole('row').nth(0).getByRole('cell').nth(3).innerText();
  await expect(page.getByText(`The model was sent 1 item, ${prompt1.trim()} tokens.`)).toBeVisible();
  await page.mouse.move(0, 0);
  await page.screenshot({ path: join(SHOTS, 'iterations-demo-1400.png') });
});
