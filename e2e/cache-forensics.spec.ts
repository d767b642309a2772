// The cache panel against the CLI, call by call: the provider's reported figures decide, and every surface gives the
// same verdict (the panel's headline, its list of breaks and session figures, the slider marks, `inspect --json`).
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { CAUSE_LABEL } from '../src/charts/cache-summary';
import { run } from '../src/cli/main';
import { dropFiles, fromDisk } from './support/drop';
import { openPanel } from './support/session-view';

const FIXTURES = join(import.meta.dirname, '..', 'src', 'formats', '__fixtures__');
const FIXTURE = join(FIXTURES, 'claude-code-cache-forensics.jsonl');
const SAMPLES = join(import.meta.dirname, '..', '..', 'shared', 'samples');
const SHOTS = join(import.meta.dirname, '..', '.e2e-artifacts', 'screens');
const fmt = (n: number) => n.toLocaleString('en-US');

interface CliCall {
  call: number;
  cacheBreak: boolean;
  reportedMiss: boolean | null;
  cause: keyof typeof CAUSE_LABEL | null;
  predictedCause: keyof typeof CAUSE_LABEL | null;
  reportedCacheRead: number | null;
  previousCacheable: number | null;
  missTokens: number | null;
  missCharge: 'miss' | 'compaction' | 'shortfall' | null;
  unrecordedNotRead: number | null;
  unseenPrefixTokens: number | null;
}

/** What `compaction-inspector inspect --json` says about the files, run in this process. */
async function cli(paths: string[]) {
  const out: string[] = [];
  const io = { out: (t: string) => out.push(t), err: () => {}, readFile: (p: string) => new Uint8Array(readFileSync(p)), listDir: () => [], isDir: () => false, exists: () => true };
  expect(await run(['inspect', '--json', ...paths], io)).toBe(0);
  return JSON.parse(out.join('\n')).sessions[0] as { calls: CliCall[]; facts: { calls: number; cache: { breaks: number; reportedMisses: number; predictedBreaks: number; unrecordedNotRead: { calls: number; tokens: number } } } };
}

test.use({ viewport: { width: 1400, height: 900 } });

async function openCachePanel(page: Page, paths: string[], calls: number) {
  await page.goto('/');
  await dropFiles(page, fromDisk(...paths));
  await expect(page.getByRole('toolbar', { name: 'Step through calls' }).getByText(`Call 1 of ${calls}`)).toBeVisible();
  await openPanel(page, 'Cache prefix');
  const panel = page.getByRole('region', { name: 'Cache prefix' });
  // Verdicts arrive with exact counts; the session figures appear with them.
  await expect(panel.getByRole('definition').filter({ hasText: /%|not reported/ }).first()).toBeVisible({ timeout: 30_000 });
  return panel;
}

/** Steps through every call and checks the headline against the CLI's verdict for it. */
async function checkEveryCall(page: Page, calls: CliCall[]) {
  const panel = page.getByRole('region', { name: 'Cache prefix' });
  const headline = panel.locator('.cache-headline');
  for (const c of calls) {
    if (c.call > 1) await page.keyboard.press('j');
    await expect(page.getByRole('toolbar', { name: 'Step through calls' }).getByText(new RegExp(`^Call ${c.call} of`))).toBeVisible();
    if (c.call === 1) await expect(headline).toHaveText('First call: there is no earlier prompt to reuse.');
    else if (!c.cacheBreak && c.predictedCause === 'compaction' && c.reportedMiss === false) await expect(headline).toHaveText(/^Compaction, no miss: the provider read /);
    else if (!c.cacheBreak) await expect(headline).toHaveText(/^Cache held/);
    else if (c.reportedMiss && c.missCharge === 'compaction') await expect(headline).toHaveText(`Compaction: ${fmt(c.reportedCacheRead!)} tokens read, ${fmt(c.missTokens!)} processed again (the compaction's cost)`);
    else if (c.reportedMiss) await expect(headline).toHaveText(`Cache miss reported: ${fmt(c.reportedCacheRead!)} of ${fmt(c.previousCacheable!)} tokens read — ${CAUSE_LABEL[c.cause!]}`);
    else await expect(headline).toHaveText(new RegExp(c.cause === 'ttl' ? '^Cache expired' : c.cause === 'model-changed' ? '^Cache not used' : `${CAUSE_LABEL[c.cause!]}$`));
    // The part of the unrecorded prefix the provider did not read, where the CLI finds one, and nowhere else.
    const notRead = panel.locator('.unrecorded-not-read');
    if (c.unrecordedNotRead === null) await expect(notRead).toHaveCount(0);
    else await expect(notRead).toHaveText(new RegExp(`^ At this call, though, the provider read ${fmt(c.reportedCacheRead!)} tokens from its cache, ${fmt(c.unrecordedNotRead)} short of that prefix: part of the system prompt or tool schemas`));
  }
}

test('the cache panel gives the CLI verdict on every call of a session with a TTL miss, a 1-hour hit, an unrecorded-prefix collapse and a compaction', async ({ page }) => {
  const want = await cli([FIXTURE]);
  expect(want.calls.map((c) => c.cause)).toEqual([null, null, null, 'ttl', null, null, 'unrecorded-prefix', 'compaction', null]);
  const panel = await openCachePanel(page, [FIXTURE], want.facts.calls);
  // The session figures and the list of breaks.
  await expect(panel.getByRole('list', { name: 'Cache breaks' }).getByRole('listitem')).toHaveCount(want.facts.cache.breaks);
  await expect(panel.getByText(`${want.facts.cache.reportedMisses} · ${want.facts.cache.predictedBreaks}`)).toBeVisible();
  await checkEveryCall(page, want.calls);

  // Call 6 comes 9 minutes after call 5, within the 1-hour TTL the usage shows: a hit, never "expired".
  await page.getByRole('list', { name: 'Cache breaks' }).getByRole('button', { name: /^Call 7/ }).click();
  await expect(panel.locator('.cache-headline')).toHaveText(/^Cache miss reported: 18,000 of/);
  await expect(panel.getByText(/The recorded conversation did not change; what changed is in the unrecorded part of the prompt/)).toBeVisible();
  await page.locator('.panel[role=tabpanel]').evaluate((el) => el.scrollTo(0, 0));
  await page.screenshot({ path: join(SHOTS, 'cache-reported-miss.png') });
  await page.keyboard.press('k');
  await page.locator('.panel[role=tabpanel]').evaluate((el) => el.scrollTo(0, 0));
  await expect(panel.locator('.cache-headline')).toHaveText('Cache held: the provider read 20,347 tokens after a 9 min 20 s gap');
  await page.screenshot({ path: join(SHOTS, 'cache-1h-hit.png') });
  await page.keyboard.press('b');
  await page.keyboard.press('b');
  await expect(page.getByRole('toolbar', { name: 'Step through calls' }).getByText(/^Call 8 of/)).toBeVisible();
  await expect(panel.locator('.miss-cost')).toHaveText(' · $0.02');
  await page.locator('.panel[role=tabpanel]').evaluate((el) => el.scrollTo(0, 0));
  await page.screenshot({ path: join(SHOTS, 'cache-compaction-priced.png') });
});

test('on a Cline task the context view, the budget bands, the cache panel and the CLI give one unrecorded prefix', async ({ page }) => {
  // The Cline pair modelled on gmfstu/Online-Card-Architecture, where the context view once said 6,896 tokens for the
  // unrecorded system prompt and tools and the cache panel 6,605. Written under the names a task folder gives them.
  const dir = mkdtempSync(join(tmpdir(), 'ci-e2e-'));
  const files = ['api_conversation_history.json', 'ui_messages.json'].map((n) => {
    const file = join(dir, n);
    writeFileSync(file, readFileSync(join(FIXTURES, `cline-anthropic-${n}`)));
    return file;
  });
  const want = await cli(files);
  expect(want.calls.every((c) => c.unseenPrefixTokens !== null && c.unseenPrefixTokens > 0)).toBe(true);
  const panel = await openCachePanel(page, files, want.facts.calls);
  // Counting is done: the tokenizer badge carries no estimate marker, and says the tokenizer is a stand-in for Claude's.
  await expect(page.locator('.count-status')).toHaveText('o200k_base (stand-in)');
  for (const c of want.calls) {
    if (c.call > 1) await page.keyboard.press('j');
    await expect(page.getByRole('toolbar', { name: 'Step through calls' }).getByText(new RegExp(`^Call ${c.call} of`))).toBeVisible();
    const prefix = fmt(c.unseenPrefixTokens!);
    await expect(page.getByRole('region', { name: `Context at call ${c.call}` }).getByText(`${prefix} of them the unrecorded system prompt and tools, estimated`)).toBeVisible();
    await expect(panel.getByText(`That prefix is estimated at ${prefix} tokens`)).toBeVisible();
  }
  await page.screenshot({ path: join(SHOTS, 'cline-unrecorded-prefix-cache.png') });
  await openPanel(page, 'Token budget');
  await expect(page.getByRole('list', { name: `Bands of call ${want.calls.length}` })).toContainText(`estimated unrecorded prefix ${fmt(want.calls.at(-1)!.unseenPrefixTokens!)}`);
  await page.screenshot({ path: join(SHOTS, 'cline-unrecorded-prefix-budget.png') });
});

test('a compaction call that reads less than the unrecorded prefix says how much of it was not read, as the CLI does', async ({ page }) => {
  // The fixture's compaction call, re-read as a public Claude Code session's was after /compact: 12,000 of the
  // ~20,000-token system prompt and tools read from the cache, the rest written again (the reported prompt unchanged).
  const text = readFileSync(FIXTURE, 'utf8');
  const read = (w: number, r: number) => `"cache_creation_input_tokens":${w},"cache_read_input_tokens":${r},"cache_creation":{"ephemeral_5m_input_tokens":0,"ephemeral_1h_input_tokens":${w}}`;
  const edited = text.replace(read(2271, 18000), read(8271, 12000));
  expect(edited).not.toBe(text);
  const file = join(mkdtempSync(join(tmpdir(), 'ci-e2e-')), 'claude-code-cache-forensics.jsonl');
  writeFileSync(file, edited);
  const want = await cli([file]);
  expect(want.calls.filter((c) => c.unrecordedNotRead !== null).map((c) => [c.call, c.cause, c.reportedCacheRead])).toEqual([[8, 'compaction', 12_000]]);
  const panel = await openCachePanel(page, [file], want.facts.calls);
  await checkEveryCall(page, want.calls);
  await page.getByRole('list', { name: 'Cache breaks' }).getByRole('button', { name: /^Call 8/ }).click();
  const note = panel.locator('.unrecorded-not-read');
  await expect(note).toContainText(`${fmt(want.calls[7]!.unrecordedNotRead!)} short of that prefix`);
  // The session's figure, as the CLI's summary gives it.
  await expect(panel.locator('.unrecorded-not-read-session')).toHaveText(` At 1 call the provider did not read ${fmt(want.facts.cache.unrecordedNotRead.tokens)} tokens of the unrecorded system prompt and tools from its cache (part of them changed, or no cache breakpoint covered them).`);
  await note.scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(SHOTS, 'cache-unrecorded-not-read.png') });
});

test('on the shared Claude Code sample, the panel finds the four collapses the provider reported, as the CLI does', async ({ page }) => {
  const files = ['claude-code-compacted.jsonl', 'claude-code-compacted.agent-acompact.jsonl'].map((f) => join(SAMPLES, f));
  test.skip(!files.every(existsSync), '../shared/samples is not beside this checkout');
  const want = await cli(files);
  expect(want.calls.filter((c) => c.reportedMiss).map((c) => [c.call, c.cause])).toEqual([
    [19, 'ttl'],
    [62, 'compaction'],
    [114, 'ttl'],
    [138, 'unrecorded-prefix'],
  ]);
  await openCachePanel(page, files, want.facts.calls);
  await checkEveryCall(page, want.calls);
  await expect(page.locator('.break-tick')).toHaveCount(new Set(want.calls.filter((c) => c.cacheBreak).map((c) => Math.round(((c.call - 1) / (want.facts.calls - 1)) * 400))).size);
});
