// A Claude Code session whose one compaction loses many project files the agent then edits by exact path: more
// lost-and-needed identifiers than the Summary audit lists before "Show all".
import { claudeCodeRecords } from '../../src/test/claude-code-records';

const CWD = '/home/dev/shop';

export function manyLostSession(files: number): string {
  const r = claudeCodeRecords(CWD, '5e1f0c2a-8b7d-4e3a-9c10-0a11ce5e0001');
  const file = (i: number) => `${CWD}/lib/shop/orders_${i}.ex`;
  r.user('Rename every orders handler to handle_order and keep the tests green.');
  for (let i = 1; i <= files; i += 1) {
    r.assistant([{ type: 'tool_use', id: `toolu_r${i}`, name: 'Read', input: { file_path: file(i) } }]);
    r.user([{ type: 'tool_result', tool_use_id: `toolu_r${i}`, content: `defmodule Shop.Orders${i} do\n  def handle_${i}(order), do: {:ok, order}\nend\n` }]);
  }
  r.compaction('auto', 160000, '## Summary\n- The user wants every orders handler renamed to handle_order.\n- The agent read the order modules; none is edited yet.');
  for (let i = 1; i <= files; i += 1) {
    r.assistant([{ type: 'tool_use', id: `toolu_e${i}`, name: 'Edit', input: { file_path: file(i), old_string: `def handle_${i}(`, new_string: 'def handle_order(' } }]);
    r.user([{ type: 'tool_result', tool_use_id: `toolu_e${i}`, content: `The file ${file(i)} has been updated.` }]);
  }
  r.assistant([{ type: 'text', text: 'Every handler is renamed.' }]);
  return r.text();
}
