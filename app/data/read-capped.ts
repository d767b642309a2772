// A link's source is read with a byte cap (MAX_SOURCE_BYTES): refused at once when its Content-Length says it is
// bigger, else stopped (and the download cancelled) as soon as it passes the cap, so a 300 MB body is never read whole.

/** The body in parts, stopped as soon as it passes `max` bytes (or refused at once when Content-Length says so). */
export async function readCapped(res: Response, max: number): Promise<{ ok: true; parts: Uint8Array<ArrayBuffer>[] } | { ok: false; bytes: number; declared: boolean }> {
  const declared = Number(res.headers.get('Content-Length'));
  if (Number.isFinite(declared) && declared > max) {
    void res.body?.cancel().catch(() => {});
    return { ok: false, bytes: declared, declared: true };
  }
  if (!res.body) return { ok: true, parts: [new Uint8Array(await res.arrayBuffer())] };
  const reader = res.body.getReader();
  const parts: Uint8Array<ArrayBuffer>[] = [];
  let bytes = 0;
  for (;;) {
    const r = await reader.read();
    if (r.done) return { ok: true, parts };
    bytes += r.value.byteLength;
    if (bytes > max) {
      void reader.cancel().catch(() => {});
      return { ok: false, bytes, declared: false };
    }
    parts.push(r.value as Uint8Array<ArrayBuffer>);
  }
}

/** What to tell the user about a source over the cap. */
export function tooLarge(bytes: number, declared: boolean, max: number): string {
  const mb = (n: number) => `${Math.round(n / (1024 * 1024))} MB`;
  const size = declared ? `is ${mb(bytes)}` : `is over ${mb(max)} (stopped reading at ${mb(bytes)})`;
  return `not opened: the file ${size}, more than the ${mb(max)} a link may open. Download it and drop it on the page: files you drop have no such limit.`;
}
