// The endpoint side of the summarizer seam, through a fake fetch answering like an OpenAI-compatible server.
import { describe, expect, it } from 'vitest';
import type { SummarizeRequest } from '../compaction/summarizer';
import type { FetchLike } from './chat-completion';
import { createEndpointSummarizer } from './endpoint-summarizer';

const SUMMARY = '## Conversation Summary\n- **Decisions:** keep FRE-512 open';

const json = (content: string | null, finish = 'stop'): FetchLike => async () =>
  new Response(JSON.stringify({ model: 'served-model', choices: [{ message: { role: 'assistant', content }, finish_reason: finish }] }), {
    headers: { 'content-type': 'application/json' },
  });

const request = (extra: Partial<SummarizeRequest> = {}): SummarizeRequest => ({
  messages: [
    { role: 'system', content: 'Summarize.' },
    { role: 'user', content: 'the slice' },
  ],
  slice: [],
  priorSummary: null,
  ...extra,
});

const config = { baseUrl: 'http://127.0.0.1:9', apiKey: 'sk-abcdef123456', model: 'small-model' };

describe('createEndpointSummarizer', () => {
  it('is named after the model', () => {
    expect(createEndpointSummarizer({ ...config, fetch: json(SUMMARY) }).name).toBe('small-model');
    expect(createEndpointSummarizer({ ...config, model: ' ', fetch: json(SUMMARY) }).name).toBe('endpoint');
  });

  it('returns the trimmed summary and the model the server names', async () => {
    const s = createEndpointSummarizer({ ...config, stream: false, fetch: json(`\n  ${SUMMARY}  \n`) });
    expect(await s.summarize(request())).toEqual({ ok: true, text: SUMMARY, model: 'served-model' });
  });

  it('sends the rendered messages with the configured sampling settings', async () => {
    const bodies: unknown[] = [];
    const fetch: FetchLike = async (url, init) => {
      bodies.push(JSON.parse(String(init.body)));
      return json(SUMMARY)(url, init);
    };
    await createEndpointSummarizer({ ...config, temperature: 0, maxTokens: 256, stream: false, fetch }).summarize(request());
    expect(bodies).toEqual([
      {
        model: 'small-model',
        messages: [
          { role: 'system', content: 'Summarize.' },
          { role: 'user', content: 'the slice' },
        ],
        temperature: 0,
        max_tokens: 256,
        stream: false,
      },
    ]);
  });

  it('fails as not-schema when the output does not start with the schema header', async () => {
    const s = createEndpointSummarizer({ ...config, fetch: json('Here is your summary: all good.') });
    expect(await s.summarize(request())).toEqual({
      ok: false,
      failure: 'not-schema',
      reason: 'the output does not start with "## Conversation Summary"; it starts with "Here is your summary: all good."',
    });
  });

  it('accepts other shapes when the schema check is off', async () => {
    const s = createEndpointSummarizer({ ...config, requireSchema: false, fetch: json('<summary>done</summary>') });
    expect(await s.summarize(request())).toEqual({ ok: true, text: '<summary>done</summary>', model: 'served-model' });
  });

  it('fails as garbage on an empty completion, saying when max_tokens ran out', async () => {
    expect(await createEndpointSummarizer({ ...config, fetch: json('  ') }).summarize(request())).toEqual({ ok: false, failure: 'garbage', reason: 'the endpoint returned no text' });
    expect(await createEndpointSummarizer({ ...config, fetch: json(null, 'length') }).summarize(request())).toEqual({
      ok: false,
      failure: 'garbage',
      reason: 'the endpoint returned no text (it stopped at max_tokens before writing any; a reasoning model may have spent them thinking)',
    });
  });

  it('passes on the client failure and its reason', async () => {
    const s = createEndpointSummarizer({ ...config, fetch: async () => new Response('boom', { status: 500 }) });
    expect(await s.summarize(request())).toEqual({ ok: false, failure: 'http', reason: 'HTTP 500 from http://127.0.0.1:9/v1/chat/completions: boom' });
  });

  it('streams to onText and stops on the caller signal', async () => {
    const ctrl = new AbortController();
    const seen: string[] = [];
    const fetch: FetchLike = async () =>
      new Response(
        new ReadableStream<Uint8Array>({
          start(c) {
            c.enqueue(new TextEncoder().encode('data: {"choices":[{"delta":{"content":"## Conversation"}}]}\n\n'));
          },
        }),
        { headers: { 'content-type': 'text/event-stream' } },
      );
    const s = createEndpointSummarizer({ ...config, fetch });
    const r = await s.summarize(request({ signal: ctrl.signal, onText: (t) => (seen.push(t), ctrl.abort()) }));
    expect(r).toEqual({ ok: false, failure: 'cancelled', reason: 'cancelled' });
    expect(seen).toEqual(['## Conversation']);
  });
});
