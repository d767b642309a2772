// A Claude Code session whose person writes in Portuguese and whose compaction summary, in English, says what the
// user wanted: a claim no user message can be compared with word by word.
import { claudeCodeRecords } from '../../src/test/claude-code-records';

export const FOREIGN_CLAIM = 'The user wanted all acceptance criteria fulfilled and a separate branch created.';

export function foreignLanguageSession(): string {
  const r = claudeCodeRecords('/home/dev/loja', '5e1f0c2a-8b7d-4e3a-9c10-0a11ce5e0002');
  r.user('Realize a tarefa da issue, com todos os critérios de aceite sendo preenchidos, testes validados, e crie uma branch separada.');
  r.assistant([{ type: 'tool_use', id: 'toolu_1', name: 'Bash', input: { command: 'git checkout -b issue-42' } }]);
  r.user([{ type: 'tool_result', tool_use_id: 'toolu_1', content: "Switched to a new branch 'issue-42'" }]);
  r.assistant([{ type: 'text', text: 'Criei a branch issue-42.' }]);
  r.compaction('manual', 4000, `## Summary\n- ${FOREIGN_CLAIM}\n- The agent created the branch issue-42.`);
  r.assistant([{ type: 'text', text: 'Continuando: a branch issue-42 existe.' }]);
  return r.text();
}
