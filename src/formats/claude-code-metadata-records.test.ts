// The harness-state records Claude Code 2.1.92–2.1.232 write between the conversation's: known to detection, counted,
// and `ai-title` read as the title where the session has no other. Modelled on the opening records of
// hannibal8856/claude_backup@2e35e2520a2d1ec40b13fb931c06981bc7bb7453
// .claude/projects/-home-moxa-sdc1-home-moxa-mds4xgl3-buildroot-dl/c2bebb28-05c8-4384-a345-aae6c814458b.jsonl (2.1.232:
// `mode` and `permission-mode` before each prompt, `ai-title` and `last-prompt` after it), with the other types from
// .claude/projects/-home-moxa-sda2-home-moxa-NOS-v6-0-develop-buildroot-dl/1240745b-0001-4e08-a589-bed6e137a069.jsonl
// of the same commit (2.1.222: `bridge-session`, `agent-name`, `pr-link`, `file-history-delta`, system notes).
import { describe, expect, it } from 'vitest';
import { parseDocument } from '../load/document';
import { loadText } from '../load/loader';
import { promptTokens } from '../model/usage';
import { billedResponses, plainPrompt } from '../test/plain-usage';
import { claudeCode } from './claude-code';

const SID = 'c2bebb28-0000-4000-8000-000000000232';
const TITLE = 'Analyse the ISS WebNM module';
let clock = 0;
const at = () => `2026-08-06T05:${String(10 + Math.floor(clock / 60)).padStart(2, '0')}:${String(clock++ % 60).padStart(2, '0')}.000Z`;
const rec = (type: string, uuid: string, parentUuid: string | null, extra: Record<string, unknown>) =>
  JSON.stringify({ parentUuid, isSidechain: false, userType: 'external', entrypoint: 'cli', cwd: '/home/moxa/dl', sessionId: SID, version: '2.1.232', gitBranch: 'main', type, uuid, timestamp: at(), ...extra });
const state = (type: string, extra: Record<string, unknown>) => JSON.stringify({ type, ...extra, sessionId: SID });
const system = (uuid: string, parent: string, subtype: string, extra: Record<string, unknown> = {}) => rec('system', uuid, parent, { subtype, isMeta: false, ...extra });

/** One turn as 2.1.232 writes it: mode records, the prompt, a reminder, the reply (two parts), the title notes. */
function turn(n: number, parent: string | null, title: string): string[] {
  const usage = { input_tokens: 3, cache_creation_input_tokens: 1000 + n, cache_read_input_tokens: 20_000 * n, output_tokens: 50 + n };
  const reply = (part: number, content: unknown[]) =>
    rec('assistant', `a${n}.${part}`, part === 0 ? `at${n}` : `a${n}.0`, { message: { id: `msg_${n}`, model: 'claude-opus-5', role: 'assistant', type: 'message', content, usage } });
  return [
    state('mode', { mode: 'normal' }),
    state('permission-mode', { permissionMode: 'default' }),
    JSON.stringify({ type: 'file-history-snapshot', messageId: `u${n}`, snapshot: { messageId: `u${n}`, trackedFileBackups: {}, timestamp: at() }, isSnapshotUpdate: false }),
    rec('user', `u${n}`, parent, { message: { role: 'user', content: `question ${n} about WebNM` }, permissionMode: 'default', promptId: `p${n}` }),
    rec('attachment', `at${n}`, `u${n}`, { attachment: { type: 'total_tokens_reminder', text: `Tokens used: ${n}` } }),
    state('ai-title', { aiTitle: title }),
    reply(0, [{ type: 'thinking', thinking: 'Look at the module first.', signature: '' }]),
    reply(1, [{ type: 'text', text: `answer ${n}` }]),
    state('last-prompt', { lastPrompt: `question ${n} about WebNM`, leafUuid: `a${n}.1` }),
  ];
}

const body = (...extra: string[]) => {
  clock = 0;
  return [
    ...turn(1, null, 'WebNM module'),
    system('s1', 'a1.1', 'turn_duration', { durationMs: 5000 }),
    system('s2', 's1', 'away_summary', { content: 'Goal: read the module. Next: the build. (disable recaps in /config)' }),
    system('s3', 's2', 'local_command', { content: '<command-name>/remote-control</command-name>', level: 'info' }),
    state('bridge-session', { bridgeSessionId: 'session_01', lastSequenceNum: 3 }),
    system('s4', 's3', 'bridge_status', { content: '/remote-control is active', url: 'https://claude.ai/code/session_01' }),
    system('s5', 's4', 'informational', { content: 'Auto mode lets Claude handle permission prompts automatically.' }),
    system('s6', 's5', 'api_error', { level: 'error', error: {}, retryInMs: 500, retryAttempt: 1, maxRetries: 10 }),
    ...extra,
    ...turn(2, 's6', TITLE),
    JSON.stringify({ type: 'file-history-delta', messageId: 'u2', snapshotMessageId: 'u1', trackingPath: 'src/webnm.c', backup: { backupFileName: 'ddb7@v1', version: 1 }, timestamp: at() }),
    state('pr-link', { prNumber: 7, prRepository: 'moxa/dl', prUrl: 'https://github.com/moxa/dl/pull/7', timestamp: at() }),
    ...turn(3, 'a2.1', TITLE),
  ].join('\n');
};

describe('claudeCode: harness-state records of 2.1.92 on', () => {
  const text = body();
  const parsed = parseDocument('state.jsonl', text);

  it('detects the file as Claude Code with full confidence', () => {
    if (!parsed.ok) throw new Error('fixture does not parse');
    expect(claudeCode.sniff(parsed.doc)).toBe(0.95);
  });

  it('counts each record type and system note, reads none as conversation, and reports no problem', () => {
    const { sessions, issues } = loadText('state.jsonl', text);
    const s = sessions[0]!;
    expect(issues).toEqual([]);
    expect(s.skipped).toMatchObject({ mode: 3, 'permission-mode': 3, 'ai-title': 3, 'last-prompt': 3, 'bridge-session': 1, 'file-history-delta': 1, 'pr-link': 1 });
    for (const sub of ['turn_duration', 'away_summary', 'local_command', 'bridge_status', 'informational', 'api_error']) expect(s.skipped[`system:${sub}`]).toBe(1);
    expect(s.items.map((i) => i.role)).not.toContain('system');
  });

  it('reads the last `ai-title` as the title where there is no other', () => {
    expect(loadText('state.jsonl', text).sessions[0]!.title).toBe(TITLE);
    // A title the person gave wins (`custom-title`, with the `agent-name` 2.1.222 writes beside it).
    const named = body(state('custom-title', { customTitle: 'snmp-plan-E reopen 1' }), state('agent-name', { agentName: 'snmp-plan-E reopen 1' }));
    expect(loadText('state.jsonl', named).sessions[0]!.title).toBe('snmp-plan-E reopen 1');
  });

  it("keeps every call's usage as the file states it, read the plain way", () => {
    const s = loadText('state.jsonl', text).sessions[0]!;
    const plain = billedResponses(text);
    expect(s.responses.map((r) => [r.id, r.usage && promptTokens(r.usage), r.usage?.output])).toEqual(plain.map((r) => [r.id, plainPrompt(r.usage), r.usage['output_tokens']]));
    expect(plain).toHaveLength(3);
  });
});
