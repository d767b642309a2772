import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { auditContexts } from '../analysis/audit-contexts';
import { sessionContexts } from '../analysis/session-analysis';
import { unauditedReason } from '../audit/audit-cards';
import { loadFiles, loadText } from '../load/loader';
import { effectiveContext } from './request-log-compaction';
import { summary, system, user } from '../test/builders';

// Fixtures written after the shapes in Anthropic's compaction guide (beta `compact-2026-01-12`: a `compaction`
// block first in the response, passed back in the next request; `usage.iterations` with a compaction pass and a
// message pass, as public SDK tests record them) and OpenAI's (developers.openai.com/api/docs/guides/compaction:
// an opaque `compaction` item with `encrypted_content`; `/responses/compact` returns the user messages and
// the compaction item, which replace the input).
const fixture = (name: string) => readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), 'utf8');
const anthropicLog = () => loadText('calls.jsonl', fixture('request-log-anthropic-compaction.jsonl'));
const responsesLog = () => loadText('calls.jsonl', fixture('request-log-responses-compaction.jsonl'));

describe('effectiveContext', () => {
  it('keeps instructions and what follows the latest compaction, and drops the rest', () => {
    const items = [system('s', 'sys'), user('u1', 'a'), { ...summary('c1', 'old'), meta: { blockType: 'compaction' } }, user('u2', 'b'), { ...summary('c2', 'new'), meta: { itemType: 'compaction' } }, user('u3', 'c')];
    expect(effectiveContext(items, new Set()).map((i) => i.id)).toEqual(['s', 'c2', 'u3']);
  });

  it('keeps the items a compact call returned beside its compaction item', () => {
    const items = [user('u1', 'a'), user('u2', 'b'), { ...summary('c', '[encrypted]'), meta: { itemType: 'compaction' } }, user('u3', 'c')];
    expect(effectiveContext(items, new Set(['u1'])).map((i) => i.id)).toEqual(['u1', 'c', 'u3']);
  });

  it('leaves a request without a compaction as logged', () => {
    const items = [system('s', 'sys'), user('u1', 'a'), { ...summary('x', 'recap') }];
    expect(effectiveContext(items, new Set())).toBe(items);
  });
});

describe('requestLog with an Anthropic server-side compaction', () => {
  it('sends the calls after the compaction only the system prompt, the compaction block and what follows it', () => {
    const { sessions, issues } = anthropicLog();
    expect(issues).toEqual([]);
    const [c1, c2, c3, c4, c5] = sessions[0]!.requests;
    expect(c1!.items.map((i) => i.id)).toEqual(['r0.system', 'r0.m0']);
    expect(c2!.items.map((i) => i.id)).toEqual(['r0.system', 'r0.m0', 'r0.o0.0', 'r0.o0.1', 'r1.m2.0']);
    // The call that compacted was sent the whole history: the server compacted it on the way.
    expect(c3!.items.map((i) => i.id)).toEqual(['r0.system', 'r0.m0', 'r0.o0.0', 'r0.o0.1', 'r1.m2.0', 'r1.o0.0', 'r2.m4.0']);
    expect(c3!.output.map((i) => [i.id, i.kind])).toEqual([
      ['r2.o0.0', 'summary'],
      ['r2.o0.1', 'message'],
    ]);
    expect(c4!.items.map((i) => [i.id, i.kind, i.role])).toEqual([
      ['r0.system', 'message', 'system'],
      ['r2.o0.0', 'summary', 'assistant'],
      ['r2.o0.1', 'message', 'assistant'],
      ['r3.m6', 'message', 'user'],
    ]);
    expect(c5!.items.map((i) => i.id)).toEqual(['r0.system', 'r2.o0.0', 'r2.o0.1', 'r3.m6', 'r3.o0.0', 'r4.m8.0']);
  });

  it('keeps the usage each call reported, the compacting call reporting its message pass', () => {
    const { sessions } = anthropicLog();
    expect(sessions[0]!.requests.map((r) => r.usage)).toEqual([
      { input: 12, output: 64, cacheRead: 0, cacheWrite: 1830, inputIncludesCache: false },
      { input: 8, output: 41, cacheRead: 1830, cacheWrite: 48210, inputIncludesCache: false },
      { input: 239, output: 96, cacheRead: 0, cacheWrite: 0, inputIncludesCache: false },
      { input: 30, output: 38, cacheRead: 262, cacheWrite: 0, inputIncludesCache: false },
      { input: 61, output: 52, cacheRead: 292, cacheWrite: 0, inputIncludesCache: false },
    ]);
  });

  it('records the compaction as a server event with the prompts of its compaction and message passes', () => {
    const s = anthropicLog().sessions[0]!;
    expect(s.compactions).toEqual([
      {
        id: 'server-r2.o0.0',
        index: 0,
        kind: 'server',
        trigger: null,
        tokensBefore: 50154,
        tokensAfter: 239,
        replacedIds: [],
        keptIds: [],
        summaryId: 'r2.o0.0',
        atItemId: 'r2.o0.0',
        timestamp: '2026-02-03T10:01:02Z',
        source: { file: 'calls.jsonl', line: 3 },
      },
    ]);
  });

  it('places the compaction before call 4, with everything before the block summarized, and audits the summary', () => {
    const s = anthropicLog().sessions[0]!;
    const ctx = sessionContexts(s);
    expect(ctx.calls.map((c) => c.compactionId)).toEqual([null, null, null, 'server-r2.o0.0', null]);
    expect(ctx.compactions).toHaveLength(1);
    expect(ctx.compactions[0]!.replacedIds).toEqual(['r0.m0', 'r0.o0.0', 'r0.o0.1', 'r1.m2.0', 'r1.o0.0', 'r2.m4.0']);
    expect(ctx.compactions[0]!.keptIds).toEqual(['r0.system']);
    expect(ctx.removals.get('r1.m2.0')).toEqual({ label: 'summarized', compactionId: 'server-r2.o0.0', fromCall: 3 });
    const [audit] = auditContexts(s, ctx);
    expect(audit).toMatchObject({ compactionId: 'server-r2.o0.0', kept: ['billing/invoice.py', 'billing/currency.py'], lost: [] });
  });
});

describe('a request log with server-side compaction joined to its transcript', () => {
  it('keeps the recorded server event at call 4 instead of inferring a second compaction', () => {
    const transcript = { system: 'You are a coding agent working in /repo.', messages: [{ role: 'user', content: 'The invoice totals are off by one cent.' }], metadata: { session_id: 'billing-fix' } };
    const bytes = (text: string) => new TextEncoder().encode(text);
    const { sessions, issues } = loadFiles([
      { name: 'transcript.json', bytes: bytes(JSON.stringify(transcript)) },
      { name: 'calls.jsonl', bytes: bytes(fixture('request-log-anthropic-compaction.jsonl')) },
    ]);
    expect(issues).toEqual([]);
    expect(sessions).toHaveLength(1);
    const ctx = sessionContexts(sessions[0]!);
    expect(ctx.compactions.map((c) => [c.id, c.kind, c.summaryId, c.tokensBefore, c.tokensAfter])).toEqual([['server-r2.o0.0', 'server', 'r2.o0.0', 50154, 239]]);
    expect(ctx.calls.map((c) => c.compactionId)).toEqual([null, null, null, 'server-r2.o0.0', null]);
  });
});

describe('requestLog with OpenAI compaction items', () => {
  it('reads a /responses/compact call whose output replaces the input of the next call', () => {
    const { sessions, issues } = responsesLog();
    expect(issues).toEqual([]);
    const s = sessions[0]!;
    expect(s.requests.map((r) => [r.id, r.api, r.items.length, r.output.map((o) => o.kind)])).toEqual([
      ['r0', 'openai-responses', 2, ['tool_call']],
      ['r1', 'openai-responses', 4, ['message']],
      ['r2', 'openai-responses', 6, ['message', 'message', 'summary']],
      ['r3', 'openai-responses', 5, ['message']],
    ]);
    // The user messages the compact call kept stay in context although they precede the compaction item.
    expect(s.requests[3]!.items.map((i) => [i.id, i.kind, i.role])).toEqual([
      ['r0.instructions', 'message', 'system'],
      ['r0.m0', 'message', 'user'],
      ['r2.m4', 'message', 'user'],
      ['cmp_01', 'summary', 'assistant'],
      ['r3.m3', 'message', 'user'],
    ]);
    expect(s.requests.map((r) => r.usage)).toEqual([
      { input: 1520, output: 22, cacheRead: 0, cacheWrite: null, inputIncludesCache: true },
      { input: 1610, output: 31, cacheRead: 1408, cacheWrite: null, inputIncludesCache: true },
      { input: 1702, output: 310, cacheRead: 1536, cacheWrite: null, inputIncludesCache: true },
      { input: 702, output: 45, cacheRead: 0, cacheWrite: null, inputIncludesCache: true },
    ]);
  });

  it('records an opaque server event: before is the compact call prompt, after the next call prompt', () => {
    const s = responsesLog().sessions[0]!;
    expect(s.compactions).toEqual([
      expect.objectContaining({ id: 'server-cmp_01', kind: 'server', trigger: 'responses/compact', tokensBefore: 1702, tokensAfter: 702, summaryId: 'cmp_01', opaque: true }),
    ]);
    const ctx = sessionContexts(s);
    expect(ctx.calls.map((c) => c.compactionId)).toEqual([null, null, null, 'server-cmp_01']);
    expect(ctx.compactions[0]!.replacedIds).toEqual(['fc_01', 'r1.m2', 'msg_01']);
    expect(ctx.compactions[0]!.keptIds).toEqual(['r0.instructions', 'r0.m0', 'r2.m4']);
  });

  it('does not audit the encrypted summary, and says it is opaque rather than lost', () => {
    const s = responsesLog().sessions[0]!;
    const ctx = sessionContexts(s);
    expect(auditContexts(s, ctx)).toEqual([]);
    expect(unauditedReason(ctx.compactions[0]!)).toMatch(/^Opaque: the provider encrypted this summary/);
  });
});
