import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadFiles, loadText } from '../load/loader';
import { promptTokens } from '../model/usage';

// Roo Code's task_metadata.json is `{files_in_context: [{path, record_state, record_source, roo_read_date,
// roo_edit_date, user_edit_date}]}` and nothing else (RooCodeInc/Roo-Code @cb836567180a3ff1da6d082f3178b90c3bd22a70,
// src/core/context-tracking/FileContextTrackerTypes.ts; Cline's adds model_usage). The fixture is hand-written on that
// schema, for the task of cline-deleting-condense.test.ts.
const read = (name: string) => new Uint8Array(readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url)));
const file = (name: string, fixture: string) => ({ name: `tasks/1757750000000/${name}`, bytes: read(fixture) });
const folder = () => [file('api_conversation_history.json', 'roo-condense-api_conversation_history.json'), file('ui_messages.json', 'roo-condense-ui_messages.json'), file('task_metadata.json', 'roo-task_metadata.json')];

describe("Roo Code's task_metadata.json", () => {
  it('is read as the task metadata, not an unrecognized file', () => {
    const r = loadText('tasks/1757750000000/task_metadata.json', new TextDecoder().decode(read('roo-task_metadata.json')));
    expect(r.issues).toEqual([]);
    expect(r.sessions.map((s) => s.format)).toEqual(['cline']);
  });

  it('joins its task, the usage the panel reports unchanged', () => {
    const r = loadFiles(folder());
    expect(r.issues.filter((i) => i.severity === 'error')).toEqual([]);
    expect(r.sessions).toHaveLength(1);
    const s = r.sessions[0]!;
    expect(s.files).toContain('tasks/1757750000000/task_metadata.json');
    // Plainly: the files it lists, and each request's prompt (tokensIn + cacheWrites + cacheReads).
    const meta = JSON.parse(new TextDecoder().decode(read('roo-task_metadata.json'))) as { files_in_context: unknown[] };
    expect(s.meta['filesInContext']).toBe(meta.files_in_context.length);
    const ui = JSON.parse(new TextDecoder().decode(read('roo-condense-ui_messages.json'))) as { say?: string; text?: string }[];
    const plain = ui.filter((m) => m.say === 'api_req_started').map((m) => JSON.parse(m.text!) as { tokensIn: number; cacheWrites: number; cacheReads: number });
    expect(s.responses.filter((x) => x.usage).map((x) => promptTokens(x.usage!))).toEqual(plain.map((q) => q.tokensIn + q.cacheWrites + q.cacheReads));
  });

  it('is told from another tool\'s file that has files_in_context beside other fields', () => {
    const other = JSON.stringify({ taskId: 'x', title: 'Restored Task', files_in_context: [] });
    expect(loadText('t/task_metadata.json', other).sessions).toEqual([]);
  });
});
