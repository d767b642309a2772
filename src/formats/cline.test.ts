import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { sessionContexts } from '../analysis/session-analysis';
import { loadFiles, loadText } from '../load/loader';
import { promptTokens } from '../model/usage';

// The task folder imitates a Roo Code task (`tasks/<taskId>/`), modelled on RooCodeInc/Roo-Code
// src/core/condense/index.ts (non-destructive condense: `condenseParent` on the condensed messages, the summary
// with `isSummary` and `condenseId`), packages/types ui message schema (`api_req_started` text JSON with
// tokensIn/tokensOut/cacheWrites/cacheReads/cost; `condense_context` with `contextCondense`), and Cline's
// task_metadata.json (`files_in_context`, `model_usage`).
// The fixtures are the folder's three files, named `cline-<file>`; here they are given back their folder.
const file = (name: string, folder = 'tasks/1760000000000') => ({ name: `${folder}/${name}`, bytes: new Uint8Array(readFileSync(new URL(`./__fixtures__/cline-${name}`, import.meta.url))) });
const task = () => loadFiles([file('api_conversation_history.json'), file('ui_messages.json'), file('task_metadata.json')]);

describe('cline', () => {
  it('joins the files of one task folder into one session', () => {
    const { sessions, issues } = task();
    expect(issues).toEqual([]);
    expect(sessions).toHaveLength(1);
    const s = sessions[0]!;
    expect([s.format, s.id, s.title, s.model]).toEqual(['cline', '1760000000000', 'Cline task 1760000000000', 'claude-sonnet-4-5-20250929']);
    expect(s.files).toEqual(['tasks/1760000000000/api_conversation_history.json', 'tasks/1760000000000/ui_messages.json', 'tasks/1760000000000/task_metadata.json']);
    expect(s.meta).toEqual({ clineTask: 'tasks/1760000000000', cost: 0.0624, filesInContext: 1 });
  });

  it('reads the API history as items, the summary placed where the model first saw it', () => {
    const s = task().sessions[0]!;
    expect(s.items.map((i) => `${i.id}:${i.role}:${i.kind}`)).toEqual([
      'm0.0:user:message',
      'm0.1:user:message',
      'm1.0:assistant:message',
      'm1.1:assistant:tool_call',
      'm2.0:tool:tool_result',
      'm3.0:assistant:tool_call',
      'm4.0:tool:tool_result',
      'm6.0:assistant:tool_call',
      'm7.0:tool:tool_result',
      'm5.0:assistant:summary',
      'm8.0:assistant:message',
    ]);
    expect(s.items.find((i) => i.id === 'm1.1')).toMatchObject({ name: 'read_file', callId: 'toolu_01', pairId: 'm2.0' });
    expect(s.skipped).toEqual({ 'say:text': 2, 'ask:tool': 2, 'ask:command': 1, 'say:command_output': 1, 'say:completion_result': 1, 'ask:completion_result': 1 });
  });

  it('gives each assistant message the usage of its api_req_started, in order', () => {
    const s = task().sessions[0]!;
    expect(s.responses.map((r) => [r.id, r.itemIds, r.usage])).toEqual([
      ['m1', ['m1.0', 'm1.1'], { input: 3, output: 120, cacheRead: 0, cacheWrite: 9800, inputIncludesCache: false }],
      ['m3', ['m3.0'], { input: 6, output: 210, cacheRead: 9800, cacheWrite: 640, inputIncludesCache: false }],
      ['m6', ['m6.0'], { input: 5, output: 90, cacheRead: 10440, cacheWrite: 120, inputIncludesCache: false }],
      ['m8', ['m8.0'], { input: 4, output: 80, cacheRead: 1900, cacheWrite: 2100, inputIncludesCache: false }],
    ]);
  });

  it('records the condense as a compaction with its tokens, replacing the condensed messages before the next call', () => {
    const s = task().sessions[0]!;
    expect(s.compactions).toEqual([
      expect.objectContaining({ id: 'cnd-7f3a', index: 0, kind: 'condensation', trigger: 'condense_context', tokensBefore: 10720, tokensAfter: 4020, replacedIds: ['m1.0', 'm1.1', 'm2.0', 'm3.0', 'm4.0'], summaryId: 'm5.0', atItemId: 'm5.0' }),
    ]);
    const contexts = sessionContexts(s);
    expect(contexts.calls.map((c) => [c.compactionId, c.entries.map((e) => e.item.id)])).toEqual([
      [null, ['m0.0', 'm0.1']],
      [null, ['m0.0', 'm0.1', 'm1.0', 'm1.1', 'm2.0']],
      [null, ['m0.0', 'm0.1', 'm1.0', 'm1.1', 'm2.0', 'm3.0', 'm4.0']],
      ['cnd-7f3a', ['m0.0', 'm0.1', 'm5.0', 'm6.0', 'm7.0']],
    ]);
  });

  it('joins two task files dropped without folders, and leaves another task apart', () => {
    const r = loadFiles([file('api_conversation_history.json', ''), file('ui_messages.json', '')].map((f) => ({ ...f, name: f.name.slice(1) })));
    expect(r.sessions.map((s) => [s.format, s.responses.filter((x) => x.usage).length, s.compactions.length])).toEqual([['cline', 4, 1]]);
    const two = loadFiles([file('api_conversation_history.json', 'tasks/a'), file('ui_messages.json', 'tasks/b'), file('api_conversation_history.json', 'tasks/c')]);
    expect(two.sessions.map((s) => [s.id, s.compactions.length])).toEqual([
      ['a', 0],
      ['b', 1],
      ['c', 0],
    ]);
  });

  it("turns Cline's conversationHistoryDeletedRange into a compaction dropping those messages before the request that truncated", () => {
    const api = [
      { role: 'user', content: [{ type: 'text', text: '<task>\nRename foo to bar\n</task>' }] },
      { role: 'assistant', content: 'Reading.' },
      { role: 'user', content: [{ type: 'text', text: '[read_file] result' }] },
      { role: 'assistant', content: 'Editing.' },
      { role: 'user', content: [{ type: 'text', text: '[replace_in_file] result' }] },
      { role: 'assistant', content: 'Done.' },
    ];
    const req = (ts: number, extra: object = {}) => ({ ts, type: 'say', say: 'api_req_started', text: JSON.stringify({ tokensIn: 10, tokensOut: 5, cacheWrites: 0, cacheReads: 100 }), ...extra });
    // Cline says `api_req_started`, then truncates and sends: the range shows first on the third request's reply.
    const reply = (ts: number, extra: object = {}) => ({ ts, type: 'say', say: 'text', text: 'Done.', ...extra });
    const ui = [req(100), req(200), req(300), reply(310, { conversationHistoryDeletedRange: [1, 2] })];
    const enc = (v: unknown) => new TextEncoder().encode(JSON.stringify(v));
    const s = loadFiles([{ name: 't/api_conversation_history.json', bytes: enc(api) }, { name: 't/ui_messages.json', bytes: enc(ui) }]).sessions[0]!;
    expect(s.compactions).toEqual([expect.objectContaining({ trigger: 'conversationHistoryDeletedRange', replacedIds: ['m1', 'm2.0'], summaryId: null, atItemId: 'm4.0' })]);
    expect(sessionContexts(s).calls.map((c) => c.entries.map((e) => e.item.id))).toEqual([['m0.0'], ['m0.0', 'm1', 'm2.0'], ['m0.0', 'm3', 'm4.0']]);
  });

  it('reads a deleted range from the panel alone: the items that stand for those API messages, from the request that truncated', () => {
    // Modelled on CoreGems/Cline-Xray's task_sample (ui_messages.json only): each panel message records
    // `conversationHistoryIndex`, the last API message when it was added; the range first shows on the reply of the
    // request that went out truncated (its prompt fell from 174,433 to 63,908 tokens there).
    const req = (ts: number, index: number, request: string, extra: object = {}) => ({ ts, type: 'say', say: 'api_req_started', text: JSON.stringify({ request, tokensIn: 10, tokensOut: 5 }), conversationHistoryIndex: index, ...extra });
    const say = (ts: number, index: number, text: string, extra: object = {}) => ({ ts, type: 'say', say: 'text', text, conversationHistoryIndex: index, ...extra });
    const ui = [
      req(100, -1, '<task>\nRename foo to bar\n</task>'),
      say(110, 0, 'Reading.'),
      req(200, 1, '[read_file] result'),
      say(210, 2, 'Editing.'),
      req(300, 3, '[replace_in_file] result'),
      say(310, 4, 'Done.', { conversationHistoryDeletedRange: [1, 2] }),
    ];
    const enc = (v: unknown) => new TextEncoder().encode(JSON.stringify(v));
    const s = loadFiles([{ name: 't/ui_messages.json', bytes: enc(ui) }]).sessions[0]!;
    // API message 1 is the first reply ('Reading.'), 2 the second request.
    expect(s.compactions).toEqual([expect.objectContaining({ trigger: 'conversationHistoryDeletedRange', replacedIds: ['u1', 'r2.0'], atItemId: 'r4.0' })]);
    const contexts = sessionContexts(s).calls.map((c) => c.entries.map((e) => e.item.id));
    expect(contexts[2]).toEqual(['r0.0', 'u3', 'r4.0']);
    // A range that shows first on the next request (the truncated one left no reply) still took effect at the one before.
    const unanswered = [...ui.slice(0, 5), req(400, 3, '[replace_in_file] result', { conversationHistoryDeletedRange: [1, 2] })];
    const t = loadFiles([{ name: 't/ui_messages.json', bytes: enc(unanswered) }]).sessions[0]!;
    expect(t.compactions).toEqual([expect.objectContaining({ replacedIds: ['u1', 'r2.0'], atItemId: 'r4.0' })]);
  });

  it('warns, naming the file, when requests and assistant messages do not line up, and on a bad api_req_started', () => {
    const enc = (v: unknown) => new TextEncoder().encode(JSON.stringify(v));
    const api = [{ role: 'user', content: '<task>x</task>' }, { role: 'assistant', content: 'a' }];
    const ui = [{ ts: 1, type: 'say', say: 'api_req_started', text: 'not json' }, { ts: 2, type: 'say', say: 'api_req_started', text: '{"tokensIn":1}' }];
    const r = loadFiles([{ name: 't/api_conversation_history.json', bytes: enc(api) }, { name: 't/ui_messages.json', bytes: enc(ui) }]);
    expect(r.sessions[0]!.issues.map((i) => [i.file, i.field, i.message])).toEqual([
      ['t/ui_messages.json', '[0].text', 'api_req_started text is not the JSON object Cline writes; the call has no usage'],
      ['t/ui_messages.json', null, '2 api_req_started for 1 assistant messages: usage attached in order to the first 1'],
    ]);
  });

  it('does not count a request that failed before any reply as a call', () => {
    const enc = (v: unknown) => new TextEncoder().encode(JSON.stringify(v));
    const api = [{ role: 'user', content: '<task>x</task>' }, { role: 'assistant', content: 'a' }];
    const ui = [
      { ts: 1, type: 'say', say: 'api_req_started', text: '{"request":"x","streamingFailedMessage":"overloaded"}' },
      { ts: 2, type: 'say', say: 'api_req_started', text: '{"request":"x","tokensIn":7,"tokensOut":3,"cacheWrites":0,"cacheReads":0}' },
    ];
    const s = loadFiles([{ name: 't/api_conversation_history.json', bytes: enc(api) }, { name: 't/ui_messages.json', bytes: enc(ui) }]).sessions[0]!;
    expect(s.issues).toEqual([]);
    expect(s.responses.map((r) => r.usage)).toEqual([{ input: 7, output: 3, cacheRead: 0, cacheWrite: 0, inputIncludesCache: false }]);
    expect(s.skipped).toEqual({ 'api_req_started (failed)': 1 });
  });

  it('says what is missing when panel messages or metadata are loaded without their API history', () => {
    const r = loadFiles([file('ui_messages.json'), file('task_metadata.json')]);
    expect(r.sessions.map((s) => s.issues.map((i) => i.message.slice(0, 32)))).toEqual([['panel messages alone: each call '], ['task metadata alone: load api_co']]);
  });

  it('is detected by content: the API history by its <task> opening, not as a bare Anthropic array', () => {
    expect(loadText('history.json', JSON.stringify([{ role: 'user', content: [{ type: 'text', text: '<task>\nhi\n</task>' }] }, { role: 'assistant', content: [{ type: 'tool_use', id: 't', name: 'x', input: {} }] }])).sessions[0]!.format).toBe('cline');
    expect(loadText('plain.json', JSON.stringify([{ role: 'user', content: [{ type: 'text', text: 'hi' }] }, { role: 'assistant', content: [{ type: 'tool_use', id: 't', name: 'x', input: {} }] }])).sessions[0]!.format).toBe('anthropic');
  });
  // Cline 3.x (2026), modelled on a public task of mike4567/MRA04242026 (`api_conversation_history.json`): metrics
  // and the model on each assistant message, tool results sent back as user text headed `[tool for 'arg'] Result:`.
  describe('a Cline 3.x API history on its own', () => {
    const metrics = () => loadFiles([file('api_conversation_history.json', 'tasks/1777073160794')].map((f) => ({ ...f, bytes: new Uint8Array(readFileSync(new URL('./__fixtures__/cline-metrics-api_conversation_history.json', import.meta.url))) }))).sessions[0]!;

    it("gives each call the usage its message's metrics report: the prompt holds the cached tokens", () => {
      const s = metrics();
      expect(s.model).toBe('claude-sonnet-4-5-20250929');
      expect(s.responses.map((r) => [r.id, r.usage])).toEqual([
        ['m1', { input: 9650, output: 180, cacheRead: 0, cacheWrite: null, inputIncludesCache: true }],
        ['m3', { input: 10240, output: 260, cacheRead: 9600, cacheWrite: null, inputIncludesCache: true }],
        ['m5', { input: 10700, output: 90, cacheRead: 10180, cacheWrite: null, inputIncludesCache: true }],
        ['m7', { input: 10850, output: 120, cacheRead: 10640, cacheWrite: null, inputIncludesCache: true }],
        ['m9', { input: 11020, output: 70, cacheRead: 10790, cacheWrite: null, inputIncludesCache: true }],
        ['m11', { input: 11300, output: 60, cacheRead: 10950, cacheWrite: null, inputIncludesCache: true }],
      ]);
    });

    it('pairs each text result with the call it answers, in call order, also under another label', () => {
      const s = metrics();
      const pairs = s.items.filter((i) => i.kind === 'tool_call').map((c) => [c.name, c.pairId ?? null]);
      expect(pairs).toEqual([
        ['read_file', 'm2.0'],
        ['list_files', 'm2.1'],
        ['write_to_file', 'm4.0'],
        // The answer to a question is the person's words: it stays their message.
        ['ask_followup_question', null],
        // Labelled `[subagents]`: one result for one call.
        ['use_subagents', 'm8.0'],
        // Interrupted: the resumption notice answers nothing.
        ['execute_command', null],
        ['execute_command', null],
      ]);
      expect(s.items.find((i) => i.id === 'm2.1')).toMatchObject({ kind: 'tool_result', role: 'tool', name: 'list_files', callId: 'tooluse_RJkw1fA2' });
      expect(s.items.find((i) => i.id === 'm6.0')).toMatchObject({ kind: 'message', role: 'user' });
      expect(s.items.find((i) => i.id === 'm2.2')).toMatchObject({ kind: 'message', role: 'user' });
    });

    it('pairs by name when results and calls differ in number, and prefers the message metrics over the panel', () => {
      const enc = (v: unknown) => new TextEncoder().encode(JSON.stringify(v));
      const api = [
        { role: 'user', content: '<task>x</task>' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'a', name: 'read_file', input: { path: 'a.ts' } }, { type: 'tool_use', id: 'b', name: 'search_files', input: { regex: 'x' } }], metrics: { tokens: { prompt: 50, completion: 5, cached: 40 } } },
        { role: 'user', content: [{ type: 'text', text: "[search_files for 'x'] Result:\nFound 0 results." }] },
        { role: 'assistant', content: 'done' },
      ];
      const ui = [
        { ts: 1, type: 'say', say: 'api_req_started', text: '{"tokensIn":10,"tokensOut":5,"cacheWrites":0,"cacheReads":40}' },
        { ts: 2, type: 'say', say: 'api_req_started', text: '{"tokensIn":7,"tokensOut":3,"cacheWrites":0,"cacheReads":0}' },
      ];
      const s = loadFiles([{ name: 't/api_conversation_history.json', bytes: enc(api) }, { name: 't/ui_messages.json', bytes: enc(ui) }]).sessions[0]!;
      expect(s.items.filter((i) => i.kind === 'tool_call').map((c) => [c.name, c.pairId ?? null])).toEqual([
        ['read_file', null],
        ['search_files', 'm2.0'],
      ]);
      expect(s.responses.map((r) => r.usage)).toEqual([
        { input: 50, output: 5, cacheRead: 40, cacheWrite: null, inputIncludesCache: true },
        { input: 7, output: 3, cacheRead: 0, cacheWrite: 0, inputIncludesCache: false },
      ]);
    });
  });

  // Cline 3.x on Anthropic's API, modelled on two public tasks of gmfstu/Online-Card-Architecture (January 2026):
  // `metrics.tokens.prompt` is the uncached rest and `cached` the panel's cacheWrites + cacheReads together.
  describe('a Cline 3.x task on Anthropic\'s API', () => {
    const read = (name: string) => new Uint8Array(readFileSync(new URL(`./__fixtures__/cline-anthropic-${name}`, import.meta.url)));
    const task = (names: string[]) => loadFiles(names.map((n) => ({ name: `tasks/1769053680585/${n}`, bytes: read(n) }))).sessions[0]!;

    it('reads the prompt as prompt + cached when a message shows prompt below cached, with the split unknown', () => {
      const s = task(['api_conversation_history.json']);
      expect(s.responses.map((r) => r.usage)).toEqual([
        { input: 9410, output: 120, cacheRead: null, cacheWrite: null, inputIncludesCache: true },
        { input: 9710, output: 80, cacheRead: null, cacheWrite: null, inputIncludesCache: true },
        { input: 9910, output: 40, cacheRead: null, cacheWrite: null, inputIncludesCache: true },
      ]);
    });

    it("takes the panel's split of writes and reads where its prompt is the same", () => {
      const s = task(['api_conversation_history.json', 'ui_messages.json']);
      expect(s.responses.map((r) => r.usage)).toEqual([
        { input: 10, output: 120, cacheRead: 0, cacheWrite: 9400, inputIncludesCache: false },
        { input: 10, output: 80, cacheRead: 9400, cacheWrite: 300, inputIncludesCache: false },
        { input: 10, output: 40, cacheRead: 9700, cacheWrite: 200, inputIncludesCache: false },
      ]);
    });

    // Cross-check: the fixture read the obvious way, apart from the adapter.
    it('gives every call the prompt and cache reads the files hold', () => {
      const api = JSON.parse(new TextDecoder().decode(read('api_conversation_history.json'))) as { role: string; metrics?: { tokens: { prompt: number; cached: number } } }[];
      const ui = (JSON.parse(new TextDecoder().decode(read('ui_messages.json'))) as { say?: string; text?: string }[])
        .filter((m) => m.say === 'api_req_started')
        .map((m) => JSON.parse(m.text!) as { tokensIn: number; cacheWrites: number; cacheReads: number });
      const s = task(['api_conversation_history.json', 'ui_messages.json']);
      const prompts = s.responses.map((r) => promptTokens(r.usage!));
      expect(prompts).toEqual(api.filter((m) => m.metrics).map((m) => m.metrics!.tokens.prompt + m.metrics!.tokens.cached));
      expect(prompts).toEqual(ui.map((r) => r.tokensIn + r.cacheWrites + r.cacheReads));
      expect(s.responses.map((r) => r.usage!.cacheRead)).toEqual(ui.map((r) => r.cacheReads));
    });
  });

  // A panel file shared without its API history, modelled on a public Cline task of haram-333/fineye
  // (`ui_messages.json`, January 2026: `request` holds what each call sent, `reasoning`/`tool`/`completion_result`
  // what it answered, failed requests written with every figure 0 and a `cancelReason`).
  describe('panel messages alone', () => {
    const panel = () => loadFiles([file('panel-ui_messages.json', 'tasks/1767644900000')].map((f) => ({ ...f, bytes: new Uint8Array(readFileSync(new URL('./__fixtures__/cline-panel-ui_messages.json', import.meta.url))) }))).sessions[0]!;

    it('reads each call from its request and the reply the panel shows, and leaves out the failed request', () => {
      const s = panel();
      expect(s.responses.map((r) => r.itemIds.map((id) => s.items.find((it) => it.id === id)!.kind))).toEqual([['thinking', 'tool_call'], [], ['tool_call']]);
      expect(s.items.filter((it) => it.kind === 'tool_call').map((c) => [c.name, c.pairId ?? null])).toEqual([
        ['read_file', 'r6.0'],
        ['attempt_completion', null],
      ]);
      expect(s.items.find((it) => it.id === 'r2.0')).toMatchObject({ kind: 'message', role: 'user' });
      expect(s.skipped['api_req_started (failed)']).toBe(1);
      // The retry after the failed request sends the same text: the context holds it once.
      expect(s.items.filter((it) => it.role !== 'assistant').map((it) => it.id)).toEqual(['r2.0', 'r6.0', 'r8.0']);
    });

    // Cross-check: the panel file read the obvious way, apart from the adapter.
    it('gives the calls the usage the requests report', () => {
      const raw = JSON.parse(readFileSync(new URL('./__fixtures__/cline-panel-ui_messages.json', import.meta.url), 'utf8')) as { say?: string; text?: string }[];
      const reqs = raw.filter((m) => m.say === 'api_req_started').map((m) => JSON.parse(m.text!) as { tokensIn: number; tokensOut: number; cacheWrites: number; cacheReads: number });
      const answered = reqs.filter((r) => r.tokensIn + r.tokensOut > 0);
      const s = panel();
      expect(s.responses.map((r) => promptTokens(r.usage!))).toEqual(answered.map((r) => r.tokensIn + r.cacheWrites + r.cacheReads));
      expect(s.responses.map((r) => r.usage!.output)).toEqual(answered.map((r) => r.tokensOut));
    });

    // Plan mode, modelled on Jeehunter/mcp-vscode-server's ui_messages.json (Cline 3.3x, October 2025): a call whose
    // whole reply is `ask: plan_mode_respond` (text `{response, options}`), a tool waiting for approval as `ask: tool`.
    it('reads a plan-mode answer as the reply, so that call and its usage are kept', () => {
      const req = (request: string, tokensIn: number, tokensOut: number, cacheWrites: number, cacheReads: number) => ({ type: 'say', say: 'api_req_started', text: JSON.stringify({ request, tokensIn, tokensOut, cacheWrites, cacheReads, cost: 0.001 }) });
      const raw = [
        { type: 'say', say: 'text', text: 'plan an MCP server' },
        req('<task>\nplan an MCP server\n</task>', 0, 66, 3756, 11776),
        { type: 'ask', ask: 'tool', text: JSON.stringify({ tool: 'readFile', path: 'package.json', content: '/w/package.json' }) },
        req("[read_file for 'package.json'] Result:\n{}", 0, 756, 634, 15552),
        { type: 'say', say: 'text', text: '' },
        { type: 'ask', ask: 'plan_mode_respond', text: JSON.stringify({ response: 'Plan: 1. scaffold 2. tools', options: [] }) },
        { type: 'say', say: 'user_feedback', text: 'go ahead' },
        req('[plan_mode_respond] Result:\n<user_message>\ngo ahead\n</user_message>', 0, 181, 292, 16768),
        { type: 'say', say: 'completion_result', text: 'Done.' },
      ];
      const s = loadText('tasks/1760534080239/ui_messages.json', JSON.stringify(raw.map((m, i) => ({ ts: 1760534080239 + i * 1000, ...m })))).sessions[0]!;
      const calls = sessionContexts(s).calls;
      expect(calls.map((c) => c.output.map((it) => it.name ?? it.kind))).toEqual([['read_file'], ['plan_mode_respond'], ['attempt_completion']]);
      // The requests read the plain way: Anthropic's convention, the prompt is tokensIn + cacheWrites + cacheReads.
      const plain = raw.filter((m) => m.say === 'api_req_started').map((m) => JSON.parse(m.text!) as { tokensIn: number; tokensOut: number; cacheWrites: number; cacheReads: number });
      expect(calls.map((c) => [promptTokens(c.usage!), c.usage!.cacheRead, c.usage!.output])).toEqual(plain.map((r) => [r.tokensIn + r.cacheWrites + r.cacheReads, r.cacheReads, r.tokensOut]));
    });
  });
});
