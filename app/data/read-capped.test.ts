import { describe, expect, it } from 'vitest';
import { readCapped, tooLarge } from './read-capped';

/** A body of `chunks` chunks of `size` bytes, counting how many were pulled. */
function streamed(chunks: number, size: number, headers: Record<string, string> = {}) {
  let pulled = 0;
  let cancelled = false;
  const body = new ReadableStream<Uint8Array>({
    pull(c) {
      if (pulled === chunks) return c.close();
      pulled++;
      c.enqueue(new Uint8Array(size).fill(65));
    },
    cancel() {
      cancelled = true;
    },
  });
  return { res: new Response(body, { headers }), pulled: () => pulled, cancelled: () => cancelled };
}

describe('readCapped', () => {
  it('reads a body under the cap whole', async () => {
    const r = await readCapped(streamed(4, 10).res, 100);
    expect(r.ok && r.parts.reduce((n, p) => n + p.byteLength, 0)).toBe(40);
  });

  it('stops reading and cancels the download once the body passes the cap', async () => {
    const s = streamed(1000, 10);
    const r = await readCapped(s.res, 55);
    expect(r).toEqual({ ok: false, bytes: 60, declared: false });
    expect(s.pulled()).toBeLessThan(10);
    expect(s.cancelled()).toBe(true);
  });

  it('refuses at once a body whose Content-Length is over the cap, reading none of it', async () => {
    const s = streamed(1000, 10, { 'Content-Length': '10000' });
    expect(await readCapped(s.res, 55)).toEqual({ ok: false, bytes: 10000, declared: true });
    expect(s.pulled()).toBeLessThanOrEqual(1);
  });
});

describe('tooLarge', () => {
  it('names the size, the limit and what to do instead', () => {
    expect(tooLarge(300 * 1024 * 1024, true, 200 * 1024 * 1024)).toBe('not opened: the file is 300 MB, more than the 200 MB a link may open. Download it and drop it on the page: files you drop have no such limit.');
    expect(tooLarge(201 * 1024 * 1024, false, 200 * 1024 * 1024)).toContain('is over 200 MB (stopped reading at 201 MB)');
  });
});
