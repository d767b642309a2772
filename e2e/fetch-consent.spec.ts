import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test, type Page } from '@playwright/test';
import { DEFAULT_VIEW_STATE, encodeShareFragment } from '../src/share';

// A link's sources on another origin are fetched only after the user says yes, and the page's policy admits
// only the origins accepted. The other origin is a server on another loopback port, started by the test.
const FILE = readFileSync(new URL('../src/formats/__fixtures__/openai-chat-course.json', import.meta.url));

interface Origin {
  url: string;
  hits: string[];
  close(): Promise<void>;
}

async function otherOrigin(): Promise<Origin> {
  const hits: string[] = [];
  const server: Server = createServer((req, res) => {
    hits.push(req.url ?? '');
    res.writeHead(200, { 'Content-Type': 'application/json', 'Access-Control-Allow-Origin': '*' });
    res.end(FILE);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, hits, close: () => new Promise((r) => server.close(() => r())) };
}

const connectSrc = async (page: Page) => /connect-src ([^;]*)/.exec((await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content')) ?? '')?.[1];

test('a src link to another origin asks before fetching, and fetches only after consent', async ({ page }) => {
  const other = await otherOrigin();
  try {
    const host = other.url.replace('http://', '');
    await page.goto(`/?src=${encodeURIComponent(`${other.url}/runs/course.json`)}`);
    const prompt = page.getByRole('region', { name: `Open 1 file from ${host}?` });
    await expect(prompt).toBeVisible();
    await expect(prompt.getByRole('list', { name: 'Files the link would open' }).getByRole('listitem')).toHaveText([`${other.url}/runs/course.json`]);
    await page.screenshot({ path: 'test-results/fetch-consent-src.png' });
    // Asked, not fetched: nothing reached the other origin, and the policy admits none.
    await page.waitForTimeout(500);
    expect(other.hits).toEqual([]);
    expect(await connectSrc(page)).toBe("'self'");

    await prompt.getByRole('button', { name: 'Open the file' }).click();
    // The page reloads with the accepted origin admitted, then fetches.
    await expect(page.getByRole('toolbar', { name: 'Step through calls' })).toBeVisible();
    expect(other.hits).toEqual(['/runs/course.json']);
    expect(await connectSrc(page)).toBe(`'self' ${other.url}`);
    await expect(page.getByRole('region', { name: /Open 1 file/ })).toHaveCount(0);
    // Nothing is stored until the user keeps it.
    await expect(page.getByText('came from a link and is open in this tab only')).toBeVisible();
    await page.getByRole('button', { name: 'Library', exact: true }).click();
    const library = page.getByRole('region', { name: 'Library' });
    await expect(library.getByText('Nothing yet')).toBeVisible();
    await library.getByRole('button', { name: 'Close the library' }).click();
    await page.getByRole('button', { name: 'Keep in library' }).click();
    await page.getByRole('button', { name: 'Library', exact: true }).click();
    await expect(library.getByRole('button', { name: 'Open course.json' })).toBeVisible();
  } finally {
    await other.close();
  }
});

test('a share link with many sources asks once, lists them all, and fetches nothing when declined', async ({ page }) => {
  const a = await otherOrigin();
  const b = await otherOrigin();
  try {
    const urls = [`${a.url}/1.json`, `${a.url}/2.json`, `${a.url}/3.json`, `${b.url}/4.json`, `${b.url}/5.json`];
    const frag = encodeShareFragment({ sessionHash: 'a'.repeat(64), sourceUrls: urls, view: DEFAULT_VIEW_STATE, annotations: [] });
    if (!frag.ok) throw new Error(frag.error);
    await page.goto(`/${frag.value}`);
    const hosts = [a, b].map((o) => o.url.replace('http://', ''));
    const prompt = page.getByRole('region', { name: `Open 5 files from ${hosts[0]} and ${hosts[1]}?` });
    await expect(prompt).toBeVisible();
    // One question for the whole link.
    await expect(page.getByRole('region', { name: /^Open \d+ files? from/ })).toHaveCount(1);
    await expect(prompt.getByRole('listitem')).toHaveText(urls);
    await page.screenshot({ path: 'test-results/fetch-consent-share.png' });
    expect([...a.hits, ...b.hits]).toEqual([]);
    expect(await connectSrc(page)).toBe("'self'");

    await prompt.getByRole('button', { name: "Don't open" }).click();
    await expect(page.getByRole('region', { name: 'Shared link' })).toBeVisible();
    await expect(page.getByText('Its source was not fetched, as you chose.')).toBeVisible();
    await page.waitForTimeout(300);
    expect([...a.hits, ...b.hits]).toEqual([]);
  } finally {
    await a.close();
    await b.close();
  }
});

test('a javascript: source is refused with its own message and nothing is fetched', async ({ page }) => {
  await page.goto(`/?src=${encodeURIComponent('javascript:alert(1)')}`);
  await expect(page.getByText(/javascript: URL is code, not a file/)).toBeVisible();
});
