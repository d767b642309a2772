// Screenshots of the Flow panel on the real shared sample, in a built app (a kept copy or the bench's last build),
// at 1400×900 and 1000×700: `node --import tsx bench/flow-shots.ts [APP_DIR] [PREFIX]` writes PREFIX-WxH.png.
import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { chromium } from 'playwright-core';
import { APP_OUT, startPreview } from './browser/build';
import { dropFetched } from './browser/page-probes';
import { REAL_TYPICAL } from './browser/run-browser';

const [dir = APP_OUT, prefix = '/tmp/flow'] = process.argv.slice(2);
if (!existsSync(REAL_TYPICAL)) throw new Error('no ../shared/samples beside the repo');
const name = 'claude-code-compacted.jsonl';
mkdirSync(`${dir}/bench-data`, { recursive: true });
copyFileSync(REAL_TYPICAL, `${dir}/bench-data/${name}`);
const srv = await startPreview(dir);
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
try {
  for (const [width, height] of [[1400, 900], [1000, 700]] as const) {
    const page = await browser.newPage({ viewport: { width, height } });
    // tsx names functions with __name, which the page does not have.
    await page.addInitScript('globalThis.__name = globalThis.__name || ((f) => f);');
    await page.goto(srv.url, { waitUntil: 'networkidle' });
    await page.evaluate(dropFetched, { url: `/bench-data/${name}`, name, dragMs: 0 });
    await page.waitForFunction(() => (window as unknown as { __drop: { exact: number | null } }).__drop.exact !== null, undefined, { timeout: 120_000 });
    const tab = page.getByRole('tab', { name: 'Flow', exact: true });
    if (await tab.count()) await tab.click();
    else await page.getByRole('combobox', { name: /^More panels/ }).selectOption({ label: 'Flow' });
    await page.locator('.flow-diagram svg').waitFor({ timeout: 60_000 });
    await page.waitForTimeout(300);
    await page.screenshot({ path: `${prefix}-${width}x${height}.png` });
    await page.close();
  }
} finally {
  await browser.close();
  await srv.server.close();
}
