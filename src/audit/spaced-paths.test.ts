import { describe, expect, it } from 'vitest';
import { loadText } from '../load/loader';
import { auditSession } from './audit-session';
import { extractIdentifiers } from './identifiers';

// A Claude Code session whose working directory has a space in it. Modelled on darthzen/fossa-mcp
// `entire/checkpoints/v1` 08/fa3bae8c4d/0/full.jsonl: its cwd is `/Users/…/Library/Mobile Documents/com~apple~CloudDocs/
// Developer/fossa-mcp`. Edit and Read take the file as a JSON `file_path`, Bash `cd`s into the quoted directory, and
// the Edit result prints the path again ("The file … has been updated successfully."). The names below are made up.
const CWD = '/Users/dev/Library/Mobile Documents/com~apple~CloudDocs/Developer/relay';

const paths = (text: string, cwd: string | null = null) => extractIdentifiers(text, { cwd }).filter((i) => i.kind === 'path').map((i) => i.value);

describe('extractIdentifiers: a path with a space where the text marks its ends', () => {
  it('reads a JSON string value of a tool call as one path', () => {
    expect(paths(`Edit({"file_path":"${CWD}/src/server.ts","old_string":"a","new_string":"b"})`)).toEqual([`${CWD}/src/server.ts`]);
    // Relative, only where the property says it holds a path.
    expect(paths('Write({"file_path":"docs/Release Notes/v2.md","content":"x"})')).toEqual(['docs/Release Notes/v2.md']);
  });

  it("reads the path Claude Code's Edit and Write results frame with fixed words", () => {
    expect(paths(`The file ${CWD}/src/server.ts has been updated successfully.`)).toEqual([`${CWD}/src/server.ts`]);
    expect(paths('File created successfully at: /Users/dev/My Proj/src/new file.ts')).toEqual(['/Users/dev/My Proj/src/new file.ts']);
  });

  it('reads a quoted shell argument, single or double, and a command quoted inside JSON once its escapes are read back', () => {
    expect(paths(`Bash({"command":"cd "${CWD}" && git status"})`)).toEqual([CWD]);
    expect(paths(`cat '${CWD}/README.md' | head`)).toEqual([`${CWD}/README.md`]);
    expect(paths('Edited `/Users/dev/My Proj/src/a.ts` to log the port.')).toEqual(['/Users/dev/My Proj/src/a.ts']);
    expect(paths('code "~/Library/Application Support/Code/User/settings.json"')).toEqual(['~/Library/Application Support/Code/User/settings.json']);
    expect(paths('Read({"file_path":"C:\\Users\\Jane Doe\\relay\\src\\server.ts"})')).toEqual(['C:\\Users\\Jane Doe\\relay\\src\\server.ts']);
  });

  it("reads a shell's escaped spaces back", () => {
    const ids = extractIdentifiers('cd /Users/dev/Cursor\\ Projects/app && npm test');
    expect(ids.filter((i) => i.kind === 'path')).toEqual([{ value: '/Users/dev/Cursor Projects/app', kind: 'path', index: 3 }]);
  });

  it('reads a path under a working directory with a space whole, and the directory alone', () => {
    expect(paths(`Error: Cannot find module ${CWD}/src/server.ts:12:3`, CWD)).toEqual([`${CWD}/src/server.ts`]);
    expect(paths(`Working directory: ${CWD}\nok`, CWD)).toEqual([CWD]);
    // Another folder whose name goes on past the directory's is not under it.
    expect(paths(`${CWD}-old/src/a.ts`, CWD)).not.toContain(`${CWD}-old/src/a.ts`);
  });

  it('still ends a path at a space in prose, and does not read a quoted sentence or command as a path', () => {
    expect(paths('I read /Users/dev/Cursor Projects/app/src/a.ts and it looks fine')).toEqual(['/Users/dev/Cursor', 'Projects/app/src/a.ts']);
    // Without the session's working directory, the cwd rule says nothing.
    expect(paths(`Error in ${CWD}/src/server.ts`)).not.toContain(`${CWD}/src/server.ts`);
    expect(paths('echo "/usr/bin is where it lives"')).toEqual(['/usr/bin']);
    expect(paths('"description":"fix the bug in src/a.ts"')).toEqual(['src/a.ts']);
    expect(paths('run "/compact keep the ports"')).toEqual([]);
    expect(paths('sh -c "/usr/local/bin/tool --fix src/a.ts"')).toEqual(['/usr/local/bin/tool', 'src/a.ts']);
  });

  it('reads a text without a space in a path as before', () => {
    const text = 'Edit({"file_path":"/Users/dev/relay/src/server.ts"})\nThe file /Users/dev/relay/src/server.ts has been updated successfully.';
    expect(extractIdentifiers(text, { cwd: '/Users/dev/relay' })).toEqual(extractIdentifiers(text));
  });
});

const line = (o: Record<string, unknown>) => JSON.stringify({ sessionId: 's', cwd: CWD, version: '2.1.170', timestamp: '2026-06-10T10:00:00.000Z', ...o });
const user = (uuid: string, content: unknown, extra: Record<string, unknown> = {}) => line({ type: 'user', uuid, message: { role: 'user', content }, ...extra });
const reply = (uuid: string, content: unknown[]) =>
  line({ type: 'assistant', uuid, message: { id: `m-${uuid}`, role: 'assistant', model: 'claude-opus-4-5', content, usage: { input_tokens: 900, output_tokens: 20 } } });

/** Reads and edits `src/server.ts` under the spaced cwd, is compacted with `summary`, then edits the file again. */
function session(summary: string): string {
  const file = `${CWD}/src/server.ts`;
  return [
    user('u1', 'The relay drops the port on restart; fix it.'),
    reply('a1', [{ type: 'tool_use', id: 't0', name: 'Bash', input: { command: `cd "${CWD}" && git status --short` } }]),
    user('r0', [{ type: 'tool_result', tool_use_id: 't0', content: ' M src/server.ts' }]),
    reply('a2', [{ type: 'tool_use', id: 't1', name: 'Read', input: { file_path: file } }]),
    user('r1', [{ type: 'tool_result', tool_use_id: 't1', content: '     1→export const PORT = Number(process.env.RELAY_PORT);\n' }]),
    reply('a3', [{ type: 'tool_use', id: 't2', name: 'Edit', input: { file_path: file, old_string: 'Number(', new_string: 'Number.parseInt(' } }]),
    user('r2', [{ type: 'tool_result', tool_use_id: 't2', content: `The file ${file} has been updated successfully.` }]),
    line({ type: 'system', subtype: 'compact_boundary', uuid: 'b1', content: 'Conversation compacted', compactMetadata: { trigger: 'auto', preTokens: 160_000 } }),
    user('s1', `This session is being continued from a previous conversation that ran out of context.\n\nSummary:\n1. Primary Request: keep the relay's port across restarts.\n${summary}`, {
      isCompactSummary: true,
    }),
    reply('a4', [{ type: 'tool_use', id: 't3', name: 'Edit', input: { file_path: file, old_string: 'parseInt(', new_string: 'parseInt(10, ' } }]),
    user('r3', [{ type: 'tool_result', tool_use_id: 't3', content: `The file ${file} has been updated successfully.` }]),
  ]
    .map((l, i, all) => {
      const o = JSON.parse(l) as Record<string, unknown>;
      o['parentUuid'] = i === 0 || o['subtype'] === 'compact_boundary' ? null : (JSON.parse(all[i - 1]!) as { uuid: string }).uuid;
      return JSON.stringify(o);
    })
    .join('\n');
}

const audit = (summary: string) => auditSession(loadText('full.jsonl', session(summary)).sessions[0]!)[0]!;
const pieces = (values: string[]) => values.filter((v) => v === '/Users/dev/Library/Mobile' || v.startsWith('Documents/'));

describe('auditSession on a Claude Code session whose working directory has a space', () => {
  it('lists the lost file once, whole, and finds it needed later', () => {
    const a = audit('2. Work: the port is now parsed as an integer.');
    const server = a.lost.filter((v) => v.endsWith('server.ts'));
    expect(server).toHaveLength(1);
    expect(`${CWD}/src/server.ts`.endsWith(server[0]!)).toBe(true);
    expect(pieces(a.lost)).toEqual([]);
    const needed = [...a.lostReferencedLater, ...a.lostRefetchedLater].map((r) => r.value);
    expect(needed).toEqual(server);
  });

  it('keeps the file when the summary names it, relative to the working directory or absolute', () => {
    for (const named of ['src/server.ts', `${CWD}/src/server.ts`]) {
      const a = audit(`2. Work: ${named} now parses the port as an integer.`);
      expect(a.lost.filter((v) => v.endsWith('server.ts')), named).toEqual([]);
      expect(a.kept.some((v) => v.endsWith('src/server.ts')), named).toBe(true);
      expect(pieces([...a.kept, ...a.lost, ...a.invented]), named).toEqual([]);
    }
  });
});
