// JS heap of the page and of each of its workers, after a forced GC, through the DevTools protocol:
// the page through its own CDP session, workers by attaching to their targets from the browser session.
import type { Browser, CDPSession, Page } from 'playwright-core';

export interface HeapReading {
  /** Bytes used after GC. */
  mainBytes: number;
  workers: { url: string; bytes: number }[];
  totalBytes: number;
}

async function workerHeap(cdp: CDPSession, targetId: string): Promise<number | null> {
  const { sessionId } = (await cdp.send('Target.attachToTarget', { targetId, flatten: false })) as { sessionId: string };
  let next = 1;
  const pending = new Map<number, (v: unknown) => void>();
  const onMessage = (e: { sessionId?: string; message: string }) => {
    if (e.sessionId !== sessionId) return;
    const m = JSON.parse(e.message) as { id?: number; result?: unknown };
    if (m.id !== undefined) pending.get(m.id)?.(m.result);
  };
  cdp.on('Target.receivedMessageFromTarget', onMessage);
  const call = (method: string) =>
    new Promise<unknown>((resolve) => {
      const id = next++;
      pending.set(id, resolve);
      void cdp.send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id, method, params: {} }) });
    });
  const timeout = new Promise<null>((resolve) => setTimeout(() => resolve(null), 60_000));
  try {
    const used = await Promise.race([
      (async () => {
        await call('HeapProfiler.collectGarbage');
        const r = (await call('Runtime.getHeapUsage')) as { usedSize: number };
        return r.usedSize;
      })(),
      timeout,
    ]);
    return used;
  } finally {
    cdp.off('Target.receivedMessageFromTarget', onMessage);
    await cdp.send('Target.detachFromTarget', { sessionId }).catch(() => undefined);
  }
}

export async function readHeap(browser: Browser, page: Page): Promise<HeapReading> {
  const pageCdp = await page.context().newCDPSession(page);
  await pageCdp.send('HeapProfiler.collectGarbage');
  const { usedSize } = (await pageCdp.send('Runtime.getHeapUsage')) as { usedSize: number };
  await pageCdp.detach();
  const cdp = await browser.newBrowserCDPSession();
  const { targetInfos } = (await cdp.send('Target.getTargets')) as { targetInfos: { targetId: string; type: string; url: string }[] };
  const workers: HeapReading['workers'] = [];
  for (const t of targetInfos.filter((t) => t.type === 'worker' || t.type === 'shared_worker')) {
    const bytes = await workerHeap(cdp, t.targetId).catch(() => null);
    if (bytes !== null) workers.push({ url: t.url.replace(/^.*\//, ''), bytes });
  }
  await cdp.detach();
  return { mainBytes: usedSize, workers, totalBytes: usedSize + workers.reduce((n, w) => n + w.bytes, 0) };
}
