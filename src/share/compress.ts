// Raw DEFLATE for link payloads (fflate: synchronous, same code in browsers and Node, no wrapper
// bytes). Inflating is streamed in small slices so a decompression bomb stops at the cap instead of
// allocating gigabytes.
import { deflateSync, Inflate } from 'fflate';
import type { Result } from './schema';

export function deflate(bytes: Uint8Array): Uint8Array {
  return deflateSync(bytes, { level: 9 });
}

/** Slice of input fed per step: one slice can expand at most ~1,000×, so overshoot stays ~1 MB. */
const SLICE = 1024;

export function inflate(bytes: Uint8Array, maxBytes: number): Result<Uint8Array> {
  const parts: Uint8Array[] = [];
  let total = 0;
  let over = false;
  try {
    const stream = new Inflate((chunk) => {
      total += chunk.length;
      if (total > maxBytes) over = true;
      else parts.push(chunk);
    });
    if (bytes.length === 0) stream.push(new Uint8Array(0), true);
    for (let i = 0; i < bytes.length && !over; i += SLICE) {
      stream.push(bytes.subarray(i, i + SLICE), i + SLICE >= bytes.length);
    }
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    return { ok: false, error: `the compressed data is damaged (${why}); the link may have been cut short or altered` };
  }
  if (over) return { ok: false, error: `the data expands to more than ${maxBytes} bytes, over the limit` };
  const out = new Uint8Array(total);
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return { ok: true, value: out };
}
