import { describe, expect, it } from 'vitest';
import { countWords } from '../../cache/test-builders';
import { offlineSummarizer } from '../offline-summarizer';
import { SCHEMA_SYSTEM_PROMPT, TRUNCATION_MARKER, XML_SYSTEM_PROMPT } from '../prompts';
import { acmeContext, failingSummarizer, fixedSummarizer } from '../test-support';
import { SUMMARIZE_MIDDLE_DEFAULTS, summarizeMiddle, type SummarizeMiddleParams } from './summarize-middle';

const SUMMARY = '## Conversation Summary\n- **Decisions:** replace the buds\n- **Entities:** LK-4821936\n- **Facts:** none\n- **Open Items:** none';
// Head = system prompt + first user message; tail = the last user turn (address, create_rma, reply).
const params: SummarizeMiddleParams = { ...SUMMARIZE_MIDDLE_DEFAULTS, head: 1, tail: 1, unit: 'user' };

describe('summarizeMiddle', () => {
  it('replaces the middle with one assistant recap right after the head and keeps head and tail verbatim', async () => {
    const context = acmeContext();
    const summarizer = fixedSummarizer(SUMMARY);
    const out = await summarizeMiddle(context, params, { summarizer, count: countWords, idPrefix: 'x' });
    expect(out.context.map((it) => it.id)).toEqual(['i1', 'i2', 'x.summary', 'i10', 'i11.call', 'i11.out', 'i12']);
    expect(out.recap).toMatchObject({ id: 'x.summary', kind: 'summary', role: 'assistant', text: SUMMARY });
    expect(out.context[0]).toBe(context[0]);
    expect(out.replacedIds).toEqual(['i3', 'i4', 'i5.call', 'i5.out', 'i6', 'i7', 'i8.call', 'i8.out', 'i9']);
    expect(out.label).toBe('summarized');
    expect(out.fallback).toBeNull();
    expect(out.summarizerCalls).toEqual([{ promptTokens: expect.any(Number), outputTokens: countWords(SUMMARY), ok: true }]);
  });

  it('sends the course schema prompt with the slice as plain lines and "(none)" for the prior summary', async () => {
    const summarizer = fixedSummarizer(SUMMARY);
    await summarizeMiddle(acmeContext(), params, { summarizer, count: countWords });
    const req = summarizer.requests[0]!;
    expect(req.messages[0]).toEqual({ role: 'system', content: SCHEMA_SYSTEM_PROMPT });
    expect(req.messages[1]!.content).toContain('Prior summary to fold in:\n(none)');
    expect(req.messages[1]!.content).toContain('assistant called lookup_order({"order_number": "LK-4821936", "customer_email": "maya.chen@example.com"})');
    expect(req.messages[1]!.content).toContain('check_warranty returned: {"eligible":true,"warranty_expires":"2026-10-07"}');
    expect(req.slice.map((it) => it.id)).toEqual(['i3', 'i4', 'i5.call', 'i5.out', 'i6', 'i7', 'i8.call', 'i8.out', 'i9']);
    expect(req.priorSummary).toBeNull();
  });

  it('renders tool calls and results as escaped XML in action-aware mode', async () => {
    const summarizer = fixedSummarizer(SUMMARY);
    await summarizeMiddle(acmeContext(), { ...params, render: 'xml' }, { summarizer, count: countWords });
    const [system, userMsg] = summarizer.requests[0]!.messages;
    expect(system!.content).toBe(XML_SYSTEM_PROMPT);
    expect(userMsg!.content).toContain('<function_call name="check_warranty" call_id="k2">{&quot;serial&quot;:&quot;ACB-PRO-7F29D4&quot;,&quot;purchase_date&quot;:&quot;2025-10-07&quot;}</function_call>');
    expect(userMsg!.content).toContain('<function_call_output name="check_warranty" call_id="k2">');
    expect(userMsg!.content).toContain('<message role="user">iPhone 14 Pro, iOS 18.0.1. I tried re-pairing twice.</message>');
    expect(userMsg!.content.startsWith('<prior_summary>\n(none)\n</prior_summary>\n<chat_history>\n')).toBe(true);
  });

  it('folds a prior summary into one merged summary instead of stacking a second one', async () => {
    const prior = '## Conversation Summary\n- **Decisions:** verify identity first\n- **Entities:** FRE-77\n- **Facts:** customer called before\n- **Open Items:** none';
    const base = acmeContext();
    const context = [base[0]!, base[1]!, { id: 'old', kind: 'summary' as const, role: 'assistant' as const, text: prior, source: { file: 't', line: null } }, ...base.slice(2)];
    const out = await summarizeMiddle(context, params, { summarizer: offlineSummarizer, count: countWords, idPrefix: 'x' });
    expect(out.context.filter((it) => it.kind === 'summary').map((it) => it.id)).toEqual(['x.summary']);
    expect(out.foldedIds).toEqual(['old']);
    expect(out.priorSummary).toBe(prior);
    expect(out.replacedIds).not.toContain('old');
    const text = out.recap!.text;
    expect(text.match(/## Conversation Summary/g)).toHaveLength(1);
    expect(text).toContain('verify identity first');
    expect(text).toContain('FRE-77');
    expect(text).toContain('LK-4821936');
  });

  it('folds a summary the context begins with (a resumed session) into one summary at the start', async () => {
    const prior = '## Conversation Summary\n- **Decisions:** none\n- **Entities:** FRE-77\n- **Facts:** none\n- **Open Items:** fix the pool';
    const base = acmeContext().slice(1);
    const context = [{ id: 'old', kind: 'summary' as const, role: 'assistant' as const, text: prior, source: { file: 't', line: null } }, ...base];
    const out = await summarizeMiddle(context, params, { summarizer: offlineSummarizer, count: countWords, idPrefix: 'x' });
    expect(out.context.map((it) => it.id)).toEqual(['x.summary', 'i10', 'i11.call', 'i11.out', 'i12']);
    expect(out.foldedIds).toEqual(['old']);
    expect(out.recap!.text.match(/## Conversation Summary/g)).toHaveLength(1);
    expect(out.recap!.text).toContain('FRE-77');
    expect(out.recap!.text).toContain('maya.chen@example.com');
  });

  it('hands the prior summary to the summarizer through the prompt and the request', async () => {
    const prior = '## Conversation Summary\n- **Decisions:** none\n- **Entities:** FRE-77\n- **Facts:** none\n- **Open Items:** none';
    const base = acmeContext();
    const context = [base[0]!, base[1]!, { id: 'old', kind: 'summary' as const, role: 'assistant' as const, text: prior, source: { file: 't', line: null } }, ...base.slice(2)];
    const summarizer = fixedSummarizer(SUMMARY);
    await summarizeMiddle(context, params, { summarizer, count: countWords });
    expect(summarizer.requests[0]!.priorSummary).toBe(prior);
    expect(summarizer.requests[0]!.messages[1]!.content).toContain(`Prior summary to fold in:\n${prior}\n\nMessages to summarize:`);
    expect(summarizer.requests[0]!.slice.map((it) => it.id)).not.toContain('old');
  });

  it('falls back to the static marker with the reason when the summarizer fails', async () => {
    const out = await summarizeMiddle(acmeContext(), params, { summarizer: failingSummarizer('timeout', 'no answer within 25 s'), count: countWords, idPrefix: 'x' });
    expect(out.recap).toMatchObject({ id: 'x.marker', kind: 'omission', role: 'assistant', text: TRUNCATION_MARKER, omission: { target: 'turns' } });
    expect(out.fallback).toEqual({ failure: 'timeout', reason: 'no answer within 25 s' });
    expect(out.label).toBe('dropped');
    expect(out.context.map((it) => it.id)).toEqual(['i1', 'i2', 'x.marker', 'i10', 'i11.call', 'i11.out', 'i12']);
  });

  it('treats output without the schema header as a failure', async () => {
    const out = await summarizeMiddle(acmeContext(), params, { summarizer: fixedSummarizer('Maya wants new earbuds.'), count: countWords });
    expect(out.fallback?.failure).toBe('not-schema');
    expect(out.recap!.text).toBe(TRUNCATION_MARKER);
  });

  it('fills user-edited prompts', async () => {
    const summarizer = fixedSummarizer(SUMMARY);
    await summarizeMiddle(acmeContext(), { ...params, systemPrompt: 'Be brief.', userPrompt: 'PRIOR={prior_summary} SLICE={slice} {unknown}', maxItemChars: 10 }, { summarizer, count: countWords });
    expect(summarizer.requests[0]!.messages[0]!.content).toBe('Be brief.');
    expect(summarizer.requests[0]!.messages[1]!.content).toMatch(/^PRIOR=\(none\) SLICE=assistant: Could/);
    expect(summarizer.requests[0]!.messages[1]!.content).toMatch(/ \{unknown\}$/);
    expect(summarizer.requests[0]!.messages[1]!.content).toContain('characters cut');
  });

  it('returns the context unchanged, cancelled, when the signal is aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    const summarizer = fixedSummarizer(SUMMARY);
    const context = acmeContext();
    const out = await summarizeMiddle(context, params, { summarizer, count: countWords, signal: controller.signal });
    expect(out.cancelled).toBe(true);
    expect(out.changed).toBe(false);
    expect(out.context).toEqual(context);
    expect(summarizer.requests).toHaveLength(0);
  });

  it('does nothing when head and tail cover the whole context', async () => {
    const out = await summarizeMiddle(acmeContext().slice(0, 3), params, { summarizer: fixedSummarizer(SUMMARY), count: countWords });
    expect(out.changed).toBe(false);
    expect(out.note).toMatch(/^nothing to compact/);
  });
});
