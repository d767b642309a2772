// Reads a response body as text, chunk by chunk, with a byte cap and an abort signal.
// Each read races the signal, so a body that stalls mid-stream is given up at the deadline even when the
// fetch implementation does not tie the body to the request's signal (fakes, some polyfills).

import { whenAborted } from './abort';

export type ReadOutcome =
  | { ok: true; bytes: number }
  | { ok: false; why: 'too-large'; bytes: number }
  | { ok: false; why: 'aborted'; bytes: number }
  | { ok: false; why: 'read-error'; bytes: number; detail: string };

export interface ReadOptions {
  maxBytes: number;
  signal: AbortSignal;
  /** Decoded text of each chunk (UTF-8, split sequences joined). Return true to stop reading: the rest is cancelled. */
  onText(text: string): boolean | void;
}

const ABORTED = Symbol('aborted');

export async function readBody(body: ReadableStream<Uint8Array>, opts: ReadOptions): Promise<ReadOutcome> {
  const reader = body.getReader();
  const decoder = new TextDecoder('utf-8');
  const abort = whenAborted(opts.signal, ABORTED);
  let bytes = 0;
  let finished = false;
  try {
    for (;;) {
      const r = await Promise.race([reader.read(), abort.promise]);
      if (r.done) {
        finished = true;
        const tail = decoder.decode();
        if (tail !== '') opts.onText(tail);
        return { ok: true, bytes };
      }
      const chunk: unknown = r.value;
      if (!(chunk instanceof Uint8Array)) return { ok: false, why: 'read-error', bytes, detail: 'the body yielded a chunk that is not bytes' };
      bytes += chunk.byteLength;
      // Checked before decoding: nothing past the cap is ever turned into a string.
      if (bytes > opts.maxBytes) return { ok: false, why: 'too-large', bytes };
      if (opts.onText(decoder.decode(chunk, { stream: true })) === true) return { ok: true, bytes };
    }
  } catch (e) {
    if (e === ABORTED || opts.signal.aborted) return { ok: false, why: 'aborted', bytes };
    return { ok: false, why: 'read-error', bytes, detail: e instanceof Error ? e.message : String(e) };
  } finally {
    abort.dispose();
    // Releases the connection: a stalled or oversized body must not keep downloading in the background.
    if (!finished) reader.cancel().catch(() => {});
  }
}
