// A Claude Code session whose one compaction loses many project files the agent then edits by exact path: more
// lost-and-needed identifiers than the Summary audit lists before "Show all". Record shapes follow
// src/formats/__fixtures__/claude-code-session.jsonl (Claude Code 2.1.39).

const CWD = '/home/dev/shop';
const SESSION = '5e1f0c2a-8b7d-4e3a-9c10-0a11ce5e0001';

export function manyLostSession(files: number): string {
  const lines: string[] = [];
  let parent: string | null = null;
  let n = 0;
  const stamp = () => new Date(Date.UTC(2026, 2, 2, 2, 0, n)).toISOString();
  const usage = { input_tokens: 3, cache_creation_input_tokens: 400, cache_read_input_tokens: 2000 + n * 40, output_tokens: 20 };
  const push = (record: Record<string, unknown>) => {
    n += 1;
    const uuid = `r-${String(n).padStart(4, '0')}`;
    lines.push(JSON.stringify({ parentUuid: parent, isSidechain: false, userType: 'external', cwd: CWD, sessionId: SESSION, version: '2.1.39', uuid, timestamp: stamp(), ...record }));
    parent = uuid;
    return uuid;
  };
  const assistant = (content: unknown[]) =>
    push({ type: 'assistant', requestId: `req_${n}`, message: { model: 'claude-opus-4-6', id: `msg_${n}`, type: 'message', role: 'assistant', content, usage: { ...usage, cache_read_input_tokens: 2000 + n * 40 } } });
  const user = (content: unknown) => push({ type: 'user', message: { role: 'user', content } });
  const file = (i: number) => `${CWD}/lib/shop/orders_${i}.ex`;

  user('Rename every orders handler to handle_order and keep the tests green.');
  for (let i = 1; i <= files; i += 1) {
    assistant([{ type: 'tool_use', id: `toolu_r${i}`, name: 'Read', input: { file_path: file(i) } }]);
    user([{ type: 'tool_result', tool_use_id: `toolu_r${i}`, content: `defmodule Shop.Orders${i} do\n  def handle_${i}(order), do: {:ok, order}\nend\n` }]);
  }
  const last = parent;
  n += 1;
  lines.push(JSON.stringify({ parentUuid: null, logicalParentUuid: last, isSidechain: false, userType: 'external', cwd: CWD, sessionId: SESSION, version: '2.1.39', type: 'system', subtype: 'compact_boundary', content: 'Conversation compacted', isMeta: false, level: 'info', compactMetadata: { trigger: 'auto', preTokens: 160000 }, uuid: 'compact-1', timestamp: stamp() }));
  parent = 'compact-1';
  push({ type: 'user', isCompactSummary: true, isVisibleInTranscriptOnly: true, message: { role: 'user', content: 'This session is being continued from a previous conversation that ran out of context. The summary below covers the earlier portion of the conversation.\n\n## Summary\n- The user wants every orders handler renamed to handle_order.\n- The agent read the order modules; none is edited yet.' } });
  for (let i = 1; i <= files; i += 1) {
    assistant([{ type: 'tool_use', id: `toolu_e${i}`, name: 'Edit', input: { file_path: file(i), old_string: `def handle_${i}(`, new_string: 'def handle_order(' } }]);
    user([{ type: 'tool_result', tool_use_id: `toolu_e${i}`, content: `The file ${file(i)} has been updated.` }]);
  }
  assistant([{ type: 'text', text: 'Every handler is renamed.' }]);
  return `${lines.join('\n')}\n`;
}
