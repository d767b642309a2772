import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadText } from '../load/loader';

// codex-exec-stream.jsonl imitates `codex exec --json` output as openai/codex docs/exec.md documents it (mirrored in
// Antocatt/codex_chatleg docs/exec-mode-json-events.md): thread.started, turns with item.started/updated/completed
// for reasoning, command_execution, mcp_tool_call, file_change, agent_message and todo_list, and turn.completed usage.
const fixture = (name: string) => readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), 'utf8');
const load = () => loadText('exec.jsonl', fixture('codex-exec-stream.jsonl'));

describe('codex exec --json', () => {
  it('reads the stream as a Codex session named by its thread', () => {
    const { sessions, issues } = load();
    expect(issues).toEqual([]);
    expect(sessions).toHaveLength(1);
    expect(sessions[0]).toMatchObject({ id: '0199a213-81c0-7800-8aa1-bbab2a035a53', format: 'codex', meta: { source: 'exec', usageScope: 'turn' } });
  });

  it('turns each completed item into items, and tool items into a call and its result', () => {
    const s = load().sessions[0]!;
    expect(s.items.map((i) => [i.id, i.kind, i.role, i.name ?? null, i.isError ?? false])).toEqual([
      ['item_0', 'thinking', 'assistant', null, false],
      ['item_1', 'tool_call', 'assistant', 'shell', false],
      ['item_1.result', 'tool_result', 'tool', 'shell', true],
      ['item_2', 'thinking', 'assistant', null, false],
      ['item_3', 'tool_call', 'assistant', 'repo.search', false],
      ['item_3.result', 'tool_result', 'tool', 'repo.search', false],
      ['item_4', 'tool_call', 'assistant', 'apply_patch', false],
      ['item_4.result', 'tool_result', 'tool', 'apply_patch', false],
      ['item_5', 'message', 'assistant', null, false],
      ['item_7', 'tool_call', 'assistant', 'shell', false],
      ['item_7.result', 'tool_result', 'tool', 'shell', false],
      ['item_8', 'message', 'assistant', null, false],
    ]);
    expect(s.items[1]!.text).toBe("bash -lc 'npm test -- checkout'");
    expect(s.items[2]).toMatchObject({ pairId: 'item_1', meta: { exitCode: 1 } });
    expect(s.items[5]!.text).toBe('src/Checkout.tsx:88: <button id="pay-now">');
    expect(s.items[6]!.text).toBe('update e2e/checkout.spec.ts');
    expect(s.skipped).toEqual({ 'item.started': 3, 'item:todo_list': 1 });
  });

  it('makes each turn one model response with the usage turn.completed reports', () => {
    const s = load().sessions[0]!;
    expect(s.responses.map((r) => [r.id, r.itemIds, r.usage])).toEqual([
      ['turn1', ['item_0', 'item_1', 'item_2', 'item_3', 'item_4', 'item_5'], { input: 24763, output: 612, cacheRead: 19840, cacheWrite: null, inputIncludesCache: true }],
      ['turn2', ['item_7', 'item_8'], { input: 13120, output: 140, cacheRead: 12288, cacheWrite: null, inputIncludesCache: true }],
    ]);
    expect(s.compactions).toEqual([]);
  });

  it('reports a broken event with its line and keeps the rest', () => {
    const lines = fixture('codex-exec-stream.jsonl').trimEnd().split('\n');
    lines[4] = '{"type":"item.completed"}';
    lines[9] = '{"type":"thread.forked"}';
    const { sessions, issues } = loadText('exec.jsonl', lines.join('\n'));
    expect(issues.map((i) => [i.line, i.field, i.severity])).toEqual([
      [5, 'item', 'error'],
      [10, 'type', 'warning'],
    ]);
    expect(sessions[0]!.items.map((i) => i.id)).not.toContain('item_1');
    expect(sessions[0]!.responses).toHaveLength(2);
  });
});
