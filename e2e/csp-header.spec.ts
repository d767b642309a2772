import { expect, test } from '@playwright/test';

// The preview server (what e2e runs against) sends the same policy header as `npm start` (app/security/csp-server.ts).
const directives = (policy: string) => new Map(policy.split('; ').map((d) => [d.split(' ')[0]!, d.slice(d.indexOf(' ') + 1)]));

test("the preview server sends the app's Content-Security-Policy header, frame-ancestors 'none' included", async ({ request, page }) => {
  const res = await request.get('/');
  const header = res.headers()['content-security-policy'];
  expect(header).toBeTruthy();
  const d = directives(header!);
  expect(d.get('frame-ancestors')).toBe("'none'");
  expect(d.get('script-src')).toBe("'self'");
  expect(d.get('object-src')).toBe("'none'");
  expect(d.get('base-uri')).toBe("'none'");
  expect(res.headers()['x-frame-options']).toBe('DENY');

  // Every directive the page's own meta policy sets, the header sets the same (connect-src aside: the meta narrows it).
  await page.goto('/');
  const meta = directives((await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content'))!);
  for (const [name, value] of meta) if (name !== 'connect-src') expect(d.get(name), name).toBe(value);

  // A worker takes its policy from its own response: the scripts get the header too.
  const script = await page.locator('script[src]').first().getAttribute('src');
  expect((await request.get(script!)).headers()['content-security-policy']).toBe(header);
});

test('another site cannot frame the app', async ({ page, baseURL }) => {
  await page.setContent(`<iframe id="app" src="${baseURL}/"></iframe>`);
  const frame = page.frameLocator('#app');
  await page.waitForTimeout(1500);
  // Blocked by frame-ancestors: the frame never shows the app's landing page.
  await expect(frame.getByText('Open files…')).toHaveCount(0);
  const app = page.frames().find((f) => f !== page.mainFrame());
  expect(app?.url() ?? '').not.toBe(`${baseURL}/`);
});
