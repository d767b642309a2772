// A Claude Code session whose person writes in Portuguese and whose compaction summary, in English, says what the
// user wanted: a claim no user message can be compared with word by word. Record shapes follow
// src/formats/__fixtures__/claude-code-session.jsonl (Claude Code 2.1.39).

const CWD = '/home/dev/loja';
const SESSION = '5e1f0c2a-8b7d-4e3a-9c10-0a11ce5e0002';
export const FOREIGN_CLAIM = 'The user wanted all acceptance criteria fulfilled and a separate branch created.';

export function foreignLanguageSession(): string {
  const lines: string[] = [];
  let parent: string | null = null;
  let n = 0;
  const stamp = () => new Date(Date.UTC(2026, 2, 2, 2, 0, n)).toISOString();
  const push = (record: Record<string, unknown>) => {
    n += 1;
    const uuid = `r-${String(n).padStart(4, '0')}`;
    lines.push(JSON.stringify({ parentUuid: parent, isSidechain: false, userType: 'external', cwd: CWD, sessionId: SESSION, version: '2.1.39', uuid, timestamp: stamp(), ...record }));
    parent = uuid;
    return uuid;
  };
  const usage = () => ({ input_tokens: 3, cache_creation_input_tokens: 300, cache_read_input_tokens: 2000 + n * 40, output_tokens: 20 });
  const assistant = (content: unknown[]) => push({ type: 'assistant', requestId: `req_${n}`, message: { model: 'claude-opus-4-6', id: `msg_${n}`, type: 'message', role: 'assistant', content, usage: usage() } });
  const user = (content: unknown) => push({ type: 'user', message: { role: 'user', content } });

  user('Realize a tarefa da issue, com todos os critérios de aceite sendo preenchidos, testes validados, e crie uma branch separada.');
  assistant([{ type: 'tool_use', id: 'toolu_1', name: 'Bash', input: { command: 'git checkout -b issue-42' } }]);
  user([{ type: 'tool_result', tool_use_id: 'toolu_1', content: "Switched to a new branch 'issue-42'" }]);
  assistant([{ type: 'text', text: 'Criei a branch issue-42.' }]);
  const last = parent;
  n += 1;
  lines.push(JSON.stringify({ parentUuid: null, logicalParentUuid: last, isSidechain: false, userType: 'external', cwd: CWD, sessionId: SESSION, version: '2.1.39', type: 'system', subtype: 'compact_boundary', content: 'Conversation compacted', isMeta: false, level: 'info', compactMetadata: { trigger: 'manual', preTokens: 4000 }, uuid: 'compact-1', timestamp: stamp() }));
  parent = 'compact-1';
  push({ type: 'user', isCompactSummary: true, isVisibleInTranscriptOnly: true, message: { role: 'user', content: `This session is being continued from a previous conversation that ran out of context. The summary below covers the earlier portion of the conversation.\n\n## Summary\n- ${FOREIGN_CLAIM}\n- The agent created the branch issue-42.` } });
  assistant([{ type: 'text', text: 'Continuando: a branch issue-42 existe.' }]);
  return `${lines.join('\n')}\n`;
}
