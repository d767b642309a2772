import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadFiles } from '../load/loader';

// What joining a task's files finds reaches the load's issues (what `inspect` prints), not only the session's.
// Fixture: the Roo Code task of cline-deleting-condense.test.ts (jsboige/jsboige-mcp-servers
// @8b9ac085876ae7701538652c6f216e7798412f7f, servers/roo-state-manager/tests/fixtures/real-tasks/ac8aa7b4-…).
const read = (name: string) => new Uint8Array(readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url)));
const file = (name: string, fixture: string) => ({ name: `tasks/1757750000000/${name}`, bytes: read(fixture) });

describe('warnings of the Cline / Roo join', () => {
  it('reports requests and assistant messages that differ in number in the load, once', () => {
    // Plainly: the panel's requests and the history's assistant messages, its summary not one.
    const ui = JSON.parse(new TextDecoder().decode(read('roo-condense-ui_messages.json'))) as { say?: string }[];
    const api = JSON.parse(new TextDecoder().decode(read('roo-condense-api_conversation_history.json'))) as { role: string; isSummary?: boolean }[];
    const counts = `${ui.filter((m) => m.say === 'api_req_started').length} api_req_started for ${api.filter((m) => m.role === 'assistant' && !m.isSummary).length} assistant messages`;
    const r = loadFiles([file('api_conversation_history.json', 'roo-condense-api_conversation_history.json'), file('ui_messages.json', 'roo-condense-ui_messages.json')]);
    const found = r.issues.filter((i) => i.message.startsWith(counts));
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ file: 'tasks/1757750000000/ui_messages.json', severity: 'warning' });
    expect(r.sessions[0]!.issues).toContainEqual(found[0]);
  });

  it('reports panel messages or metadata loaded without their history in the load', () => {
    const r = loadFiles([file('ui_messages.json', 'roo-condense-ui_messages.json'), file('task_metadata.json', 'roo-task_metadata.json')]);
    expect(r.issues.map((i) => [i.file, i.message.split(':')[0]])).toEqual([
      ['tasks/1757750000000/ui_messages.json', 'panel messages alone'],
      ['tasks/1757750000000/task_metadata.json', 'task metadata alone'],
    ]);
  });
});
