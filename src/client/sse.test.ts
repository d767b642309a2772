import { describe, expect, it } from 'vitest';
import { SseParser, type SseEvent } from './sse';

/** Feeds `parts` in order and returns everything parsed, end() included. */
function parse(parts: string[]): { events: SseEvent[]; error: string | null; incomplete: boolean } {
  const p = new SseParser();
  const events: SseEvent[] = [];
  let error: string | null = null;
  for (const part of parts) {
    const b = p.push(part);
    events.push(...b.events);
    error ??= b.error;
  }
  const last = p.end();
  events.push(...last.events);
  return { events, error: error ?? last.error, incomplete: last.incomplete };
}

// The shape OpenAI, vLLM, Ollama and llama.cpp stream: data lines with JSON, a blank line after each, [DONE] last.
const STREAM = ': keep-alive\r\n\r\ndata: {"a":1}\r\n\r\nevent: message\ndata: line one\ndata: line two\n\nid: 7\nretry: 100\ndata:no-space\r\rdata: [DONE]\n\n';
const EXPECTED: SseEvent[] = [
  { event: '', data: '{"a":1}' },
  { event: 'message', data: 'line one\nline two' },
  { event: '', data: 'no-space' },
  { event: '', data: '[DONE]' },
];

describe('SseParser', () => {
  it('reads LF, CRLF and lone CR line ends, comments, multi-line data and the optional space after the colon', () => {
    expect(parse([STREAM])).toEqual({ events: EXPECTED, error: null, incomplete: false });
  });

  it('gives the same events whichever two places the stream is split at', () => {
    for (let i = 0; i <= STREAM.length; i++) {
      for (let j = i; j <= STREAM.length; j += 3) {
        expect(parse([STREAM.slice(0, i), STREAM.slice(i, j), STREAM.slice(j)]).events).toEqual(EXPECTED);
      }
    }
  });

  it('gives the same events fed one character at a time', () => {
    expect(parse([...STREAM])).toEqual({ events: EXPECTED, error: null, incomplete: false });
  });

  it('treats a CR at the end of one chunk and an LF at the start of the next as one line end', () => {
    expect(parse(['data: a\r', '\n\r', '\n'])).toEqual({ events: [{ event: '', data: 'a' }], error: null, incomplete: false });
  });

  it('ignores a byte-order mark at the start of the stream', () => {
    expect(parse(['\ufeffdata: x\n\n']).events).toEqual([{ event: '', data: 'x' }]);
  });

  it('counts a bare "data" line as an empty data line', () => {
    expect(parse(['data\ndata: b\n\n']).events).toEqual([{ event: '', data: '\nb' }]);
  });

  it('does not dispatch an event that has no data', () => {
    expect(parse(['event: ping\n\n: hi\n\n']).events).toEqual([]);
  });

  it('reports a line that is neither a comment nor a field as invalid framing and stops', () => {
    const r = parse(['data: {"a":1}\n\n<html>\n\ndata: {"b":2}\n\n']);
    expect(r.events).toEqual([{ event: '', data: '{"a":1}' }]);
    expect(r.error).toBe('invalid SSE framing: unexpected line "<html>"');
  });

  it('shortens a long invalid line in the error', () => {
    const r = parse([`${'y'.repeat(500)}\n`]);
    expect(r.error).toBe(`invalid SSE framing: unexpected line "${'y'.repeat(60)}…"`);
  });

  it('reports a stream that ends inside an event as incomplete and drops that event', () => {
    expect(parse(['data: {"a":1}\n\ndata: {"b"'])).toEqual({ events: [{ event: '', data: '{"a":1}' }], error: null, incomplete: true });
    expect(parse(['data: {"a":1}\n\ndata: {"b":2}\n'])).toEqual({ events: [{ event: '', data: '{"a":1}' }], error: null, incomplete: true });
  });

  it('ends the last line at a final CR', () => {
    expect(parse(['data: a\r\r'])).toEqual({ events: [{ event: '', data: 'a' }], error: null, incomplete: false });
  });

  it('scans a long line that arrives in many chunks without losing any of it', () => {
    const long = 'z'.repeat(100_000);
    const parts = [`data: ${long.slice(0, 3)}`, ...Array.from({ length: 99 }, (_, k) => long.slice(3 + k * 1000, 3 + (k + 1) * 1000)), long.slice(99_003), '\n\n'];
    expect(parse(parts).events).toEqual([{ event: '', data: long }]);
  });
});
