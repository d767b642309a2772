// Incremental parser for text/event-stream (WHATWG "server-sent events" framing), fed decoded text in chunks
// that may split anywhere — inside a line, between `\r` and `\n`, inside a field name.
// Stricter than the spec in one way, on purpose: a line that is not a comment and not one of the four fields
// (data, event, id, retry) is reported as invalid framing, so an HTML error page or a broken proxy shows up as
// garbage instead of an empty stream.

export interface SseEvent {
  /** The `event:` field, '' when absent (the spec's default type `message`). */
  event: string;
  /** `data:` lines joined with '\n'. */
  data: string;
}

export interface SseBatch {
  events: SseEvent[];
  /** First framing problem seen in this batch; parsing stops there. */
  error: string | null;
}

const FIELDS = new Set(['data', 'event', 'id', 'retry']);
const EXCERPT = 60;

export class SseParser {
  private buf = '';
  /** How far into `buf` has been scanned for line ends, so a long line arriving in many chunks is scanned once. */
  private scanned = 0;
  private data: string[] = [];
  private eventName = '';
  private failed: string | null = null;
  /** A line was read since the last dispatch: the stream ended inside an event if this is still true at the end. */
  private open = false;
  private started = false;

  push(text: string): SseBatch {
    if (this.failed) return { events: [], error: this.failed };
    // A byte-order mark may open the stream (spec); TextDecoder usually drops it, a hand-fed string may not.
    if (!this.started && text !== '') {
      this.started = true;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    this.buf += text;
    const events: SseEvent[] = [];
    let start = 0;
    let i = this.scanned;
    for (; i < this.buf.length; i++) {
      const c = this.buf.charCodeAt(i);
      if (c !== 10 && c !== 13) continue;
      // A `\r` at the very end may be the first half of `\r\n`: wait for the next chunk to tell.
      if (c === 13 && i === this.buf.length - 1) break;
      const line = this.buf.slice(start, i);
      if (c === 13 && this.buf.charCodeAt(i + 1) === 10) i++;
      start = i + 1;
      const err = this.line(line, events);
      if (err) {
        this.failed = err;
        this.buf = '';
        this.scanned = 0;
        return { events, error: err };
      }
    }
    this.buf = this.buf.slice(start);
    this.scanned = i - start;
    return { events, error: null };
  }

  /** Call at end of stream. A final `\r` ends its line; an event with no blank line after it is not dispatched (spec). */
  end(): SseBatch & { incomplete: boolean } {
    if (this.failed) return { events: [], error: this.failed, incomplete: false };
    const events: SseEvent[] = [];
    let error: string | null = null;
    if (this.buf.endsWith('\r')) {
      error = this.line(this.buf.slice(0, -1), events);
      this.buf = '';
    }
    const incomplete = this.buf !== '' || this.open;
    this.buf = '';
    this.scanned = 0;
    return { events, error, incomplete };
  }

  private line(line: string, out: SseEvent[]): string | null {
    if (line === '') {
      if (this.data.length > 0) out.push({ event: this.eventName, data: this.data.join('\n') });
      this.data = [];
      this.eventName = '';
      this.open = false;
      return null;
    }
    this.open = true;
    if (line.startsWith(':')) return null;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (!FIELDS.has(field)) {
      const shown = line.length > EXCERPT ? `${line.slice(0, EXCERPT)}…` : line;
      return `invalid SSE framing: unexpected line ${JSON.stringify(shown)}`;
    }
    if (field === 'data') this.data.push(value);
    else if (field === 'event') this.eventName = value;
    return null;
  }
}
