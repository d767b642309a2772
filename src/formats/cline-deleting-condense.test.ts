import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { sessionContexts } from '../analysis/session-analysis';
import { reportedPromptTokens } from '../cache/reported';
import { loadFiles } from '../load/loader';

// A Roo Code task whose condenses deleted messages (Roo's summarizeConversation of 2025, RooCodeInc/Roo-Code
// src/core/condense/index.ts: the history becomes [first, summary (isSummary, ts = keepMessages[0].ts), ...the last
// 3]), hand-written on the shape of real tasks of jsboige/jsboige-mcp-servers @8b9ac085876ae7701538652c6f216e7798412f7f,
// servers/roo-state-manager/tests/fixtures/{real-tasks,controlled-hierarchy}/ (ac8aa7b4-…: 59 requests for 29
// assistant messages; e73ea764-…: two condenses, the first one's summary gone). Six requests: two condenses (during
// the third and the fifth), so the history holds the replies of the last three only, then a feedback round the panel
// never recorded (as in ac8aa7b4).
const read = (name: string) => new Uint8Array(readFileSync(new URL(`./__fixtures__/roo-condense-${name}`, import.meta.url)));
const task = () => loadFiles(['api_conversation_history.json', 'ui_messages.json'].map((n) => ({ name: `tasks/1757750000000/${n}`, bytes: read(n) })));

interface UiMessage {
  ts: number;
  say?: string;
  text?: string;
}
const ui = JSON.parse(new TextDecoder().decode(read('ui_messages.json'))) as UiMessage[];
const requests = ui.filter((m) => m.say === 'api_req_started');

describe('a Roo Code task whose condense deleted messages', () => {
  // Cross-check: the panel read the obvious way. Anthropic's convention: the prompt is tokensIn + writes + reads.
  it('gives every request its own call, with the usage the panel reports, in order', () => {
    const plain = requests.map((m) => JSON.parse(m.text!) as { tokensIn: number; tokensOut: number; cacheWrites: number; cacheReads: number }).map((r) => [r.tokensIn + r.cacheWrites + r.cacheReads, r.tokensOut]);
    const calls = sessionContexts(task().sessions[0]!).calls;
    const reported = calls.filter((c) => c.usage).map((c) => [reportedPromptTokens(c), c.usage!.output]);
    expect(reported).toEqual(plain);
    // The panel read alone agrees call for call.
    const alone = sessionContexts(loadFiles([{ name: 'tasks/1757750000000/ui_messages.json', bytes: read('ui_messages.json') }]).sessions[0]!).calls;
    expect(alone.map((c) => [reportedPromptTokens(c), c.usage!.output])).toEqual(plain);
  });

  it('reads the calls whose replies the history lost from the panel, and pairs the rest by time', () => {
    const s = task().sessions[0]!;
    expect(s.responses.map((r) => r.id)).toEqual(['req-0', 'req-1', 'req-2', 'm3', 'm5', 'm7', 'm9']);
    expect(s.responses.map((r) => r.itemIds)).toEqual([['u2', 'u3', 'u4'], ['u6', 'u7'], ['u10', 'u11'], ['m3.0'], ['m5.0'], ['m7.0'], ['m9.0']]);
    // The feedback round after the completion has no request in the panel: a call with no usage.
    expect(s.responses.at(-1)!.usage).toBeNull();
  });

  it('places each condense before the call its request made, the history losing what it replaced', () => {
    const s = task().sessions[0]!;
    const calls = sessionContexts(s).calls;
    // Plainly: a condense came during the last request started before it.
    const condenses = ui.filter((m) => m.say === 'condense_context').map((m) => requests.filter((r) => r.ts < m.ts).length);
    expect(condenses).toEqual([3, 5]);
    expect(calls.map((c) => c.compactionId)).toEqual([null, null, 'condense-0', null, 'condense-1', null, null]);
    expect(s.compactions.map((c) => [c.summaryId, c.replacedIds])).toEqual([
      // The first summary, gone from the history, is the panel's; it kept the first message and the last three.
      ['u9', ['u2', 'u3', 'u4']],
      ['m1', ['r5.0', 'u6', 'u7', 'r8.0', 'u9', 'u10', 'u11']],
    ]);
    expect(calls[2]!.entries.map((e) => e.item.id)).toEqual(['m0.0', 'm0.1', 'u9', 'r5.0', 'u6', 'u7', 'r8.0']);
    expect(calls[4]!.entries.map((e) => e.item.id)).toEqual(['m0.0', 'm0.1', 'm1', 'm2.0', 'm2.1', 'm3.0', 'm4.0', 'm4.1']);
  });

  it('counts as skipped only the panel messages the join did not read', () => {
    expect(task().sessions[0]!.skipped).toEqual({ 'say:text': 3, 'say:command_output': 1, 'ask:completion_result': 1, 'ask:resume_completed_task': 1, 'ask:tool': 2, 'say:completion_result': 1 });
  });
});
