// Export as OTLP / ATIF from the app, played as a user does: the download happens, the file is what the engine wrote,
// and dropping it back into the app shows the same calls with the same reported usage, call by call.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { dropFiles, fromDisk } from './support/drop';
import { engineLoad } from './support/engine';
import { fact, sessionTabs, openPanel } from './support/session-view';

const FIXTURES = join(import.meta.dirname, '..', 'src', 'formats', '__fixtures__');
const FILES = ['claude-code-session.jsonl', 'claude-code-session.agent-acompact.jsonl'].map((f) => join(FIXTURES, f));
const SHOTS = join(import.meta.dirname, '..', '.e2e-artifacts', 'screens');

const stepper = (page: Page) => page.getByRole('toolbar', { name: 'Step through calls' });

type Attr = { key: string; value: { stringValue?: string; intValue?: string; doubleValue?: number; boolValue?: boolean } };
type Span = { name: string; traceId: string; spanId: string; parentSpanId?: string; attributes: Attr[] };
const attr = (s: Span, key: string) => {
  const v = s.attributes.find((a) => a.key === key)?.value;
  return v === undefined ? undefined : v.intValue !== undefined ? Number(v.intValue) : (v.stringValue ?? v.doubleValue ?? v.boolValue);
};

async function callCount(page: Page): Promise<number> {
  const label = stepper(page).getByText(/Call \d+ of \d+/);
  await expect(label).toBeVisible();
  return Number(/of (\d+)/.exec((await label.textContent()) ?? '')![1]);
}

/** The "Reported usage" readout of each call, as the Token budget panel shows it. */
async function usageByCall(page: Page, calls: number): Promise<string[][]> {
  await openPanel(page, 'Token budget');
  const out: string[][] = [];
  for (let c = 1; c <= calls; c++) {
    await page.getByRole('slider', { name: 'Call' }).fill(String(c));
    const list = page.getByRole('region', { name: 'Token budget' }).getByRole('list', { name: `Reported usage of call ${c}` });
    await expect(list).toBeVisible();
    out.push((await list.getByRole('listitem').allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim()));
  }
  return out;
}

async function exportFrom(page: Page, button: 'Export as OTLP' | 'Export as ATIF'): Promise<{ name: string; text: string }> {
  await page.getByRole('button', { name: 'Export bundle' }).click();
  const dialog = page.getByRole('dialog', { name: 'Export bundle' });
  // Enabled once the whole analysis (cache, audits) is finished: the export carries every figure.
  await expect(dialog.getByRole('button', { name: button })).toBeEnabled({ timeout: 30_000 });
  const [download] = await Promise.all([page.waitForEvent('download'), dialog.getByRole('button', { name: button }).click()]);
  const path = join(mkdtempSync(join(tmpdir(), 'ci-otlp-')), download.suggestedFilename());
  await download.saveAs(path);
  await expect(dialog.getByRole('status')).toContainText(`Saved ${download.suggestedFilename()}`);
  await dialog.getByRole('button', { name: 'Close' }).click();
  return { name: download.suggestedFilename(), text: readFileSync(path, 'utf8') };
}

test.use({ viewport: { width: 1440, height: 1000 } });

test('Export as OTLP downloads the spans of the session; dropped back in, the same calls show the same reported usage and the same compactions', async ({ browser }) => {
  const original = engineLoad(...FILES).sessions[0]!;
  const a = await browser.newContext({ acceptDownloads: true });
  const pa = await a.newPage();
  await pa.goto('/');
  await dropFiles(pa, fromDisk(...FILES));
  const calls = await callCount(pa);
  expect(calls).toBe(original.responses.length);
  const compactions = await fact(pa, 'Compactions').textContent();
  const before = await usageByCall(pa, calls);

  const exported = await exportFrom(pa, 'Export as OTLP');
  expect(exported.name).toMatch(/^compaction-inspector-[0-9a-f]{12}\.otlp\.json$/);
  // One ExportTraceServiceRequest on one line: a root span, a chat span per call, a span per compaction, one trace.
  expect(exported.text.trimEnd().split('\n')).toHaveLength(1);
  const doc = JSON.parse(exported.text) as { resourceSpans: { scopeSpans: { spans: Span[] }[] }[] };
  const spans = doc.resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans));
  const root = spans.find((s) => !s.parentSpanId)!;
  expect(root.name).toBe('invoke_agent claude-code');
  expect(new Set(spans.map((s) => s.traceId))).toEqual(new Set([root.traceId]));
  const chat = spans.filter((s) => attr(s, 'gen_ai.operation.name') === 'chat');
  // Each chat span carries the usage the provider reported for its call, the cache inside the input count.
  expect(chat.map((s) => [attr(s, 'gen_ai.usage.input_tokens'), attr(s, 'gen_ai.usage.cache_read.input_tokens'), attr(s, 'gen_ai.usage.cache_creation.input_tokens'), attr(s, 'gen_ai.usage.output_tokens')])).toEqual(
    original.responses.map((r) => [r.usage!.input! + r.usage!.cacheRead! + r.usage!.cacheWrite!, r.usage!.cacheRead, r.usage!.cacheWrite, r.usage!.output]),
  );
  expect(spans.filter((s) => s.name === 'compaction_inspector.compaction').map((s) => [attr(s, 'compaction_inspector.compaction.kind'), attr(s, 'compaction_inspector.compaction.tokens_before'), attr(s, 'compaction_inspector.compaction.tokens_after')])).toEqual([
    ['microcompact', 42000, 33000],
    ['compact', 48210, 3805],
  ]);

  // A teammate drops the exported file into a fresh browser.
  const b = await browser.newContext();
  const pb = await b.newPage();
  await pb.goto('/');
  await dropFiles(pb, [{ name: exported.name, base64: Buffer.from(exported.text).toString('base64') }]);
  expect(await callCount(pb)).toBe(calls);
  await expect(sessionTabs(pb)).toHaveCount(1);
  await expect(sessionTabs(pb).first()).toContainText(original.title);
  await expect(fact(pb, 'Compactions')).toHaveText(compactions!);
  expect(await usageByCall(pb, calls)).toEqual(before);
  await expect(pb.getByRole('alert')).toHaveCount(0);
  await pb.screenshot({ path: join(SHOTS, 'otlp-reimported-light.png') });
  await a.close();
  await b.close();
});

test('Export as ATIF downloads a trajectory: an agent step per call with its usage; dropped back in, each call reports the same usage', async ({ browser }) => {
  const context = await browser.newContext({ acceptDownloads: true });
  const page = await context.newPage();
  await page.goto('/');
  await dropFiles(page, fromDisk(...FILES));
  const calls = await callCount(page);
  const before = await usageByCall(page, calls);
  const exported = await exportFrom(page, 'Export as ATIF');
  expect(exported.name).toMatch(/^compaction-inspector-[0-9a-f]{12}\.atif\.json$/);
  const t = JSON.parse(exported.text) as { schema_version: string; steps: { source: string; metrics?: { prompt_tokens?: number; cached_tokens?: number } }[] };
  expect(t.schema_version).toMatch(/^ATIF-v/);
  const agent = t.steps.filter((s) => s.source === 'agent' && s.metrics);
  expect(agent).toHaveLength(calls);

  const fresh = await (await browser.newContext()).newPage();
  await fresh.goto('/');
  await dropFiles(fresh, [{ name: exported.name, base64: Buffer.from(exported.text).toString('base64') }]);
  expect(await callCount(fresh)).toBe(calls);
  const after = await usageByCall(fresh, calls);
  // The prompt and the read in ATIF's own fields, the write in metrics.extra: every line of the readout comes back.
  expect(after).toEqual(before);
  expect(before.every((rows) => rows.length === 4 && !rows.join(' ').includes('not reported'))).toBe(true);
  await context.close();
  await fresh.context().close();
});

test('with redaction on, neither export holds the hidden string: the messages carry the placeholder', async ({ page }) => {
  await page.goto('/');
  await dropFiles(page, fromDisk(...FILES));
  await callCount(page);
  for (const button of ['Export as OTLP', 'Export as ATIF'] as const) {
    await page.getByRole('button', { name: 'Export bundle' }).click();
    const dialog = page.getByRole('dialog', { name: 'Export bundle' });
    await dialog.getByRole('checkbox', { name: 'Redact secrets in the files and notes' }).check();
    await dialog.getByRole('textbox', { name: /Other strings to hide/ }).fill('db-prod-1');
    await expect(dialog.getByRole('button', { name: button })).toBeEnabled({ timeout: 30_000 });
    const [download] = await Promise.all([page.waitForEvent('download'), dialog.getByRole('button', { name: button }).click()]);
    const path = join(mkdtempSync(join(tmpdir(), 'ci-otlp-')), download.suggestedFilename());
    await download.saveAs(path);
    const text = readFileSync(path, 'utf8');
    expect(text).not.toContain('db-prod-1');
    expect(text).toContain('[REDACTED_CUSTOM_1]');
    await dialog.getByRole('button', { name: 'Close' }).click();
  }
});

test('screenshot: the export dialog with the OTLP and ATIF buttons, after an OTLP export', async ({ page }) => {
  await page.goto('/');
  await dropFiles(page, fromDisk(...FILES));
  await callCount(page);
  await page.getByRole('button', { name: 'Export bundle' }).click();
  const dialog = page.getByRole('dialog', { name: 'Export bundle' });
  await expect(dialog.getByRole('button', { name: 'Export as OTLP' })).toBeEnabled({ timeout: 30_000 });
  await Promise.all([page.waitForEvent('download'), dialog.getByRole('button', { name: 'Export as OTLP' }).click()]);
  await expect(dialog.getByRole('status')).toContainText('OpenTelemetry spans');
  await page.screenshot({ path: join(SHOTS, 'export-otlp-dialog-light.png') });
});
