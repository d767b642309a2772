import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { run } from './main';
import { memoryIo } from '../test/memory-io';

const fixture = (name: string) => readFileSync(new URL(`../formats/__fixtures__/${name}`, import.meta.url), 'utf8');

function io(files: Record<string, string>) {
  const { io: cli, out } = memoryIo(files);
  return { cli, out };
}

describe('inspect sidechains and server compactions', () => {
  it('lists each subagent with its calls, usage, 1-based parent call and the tokens its result cost', async () => {
    const { cli, out } = io({ 'main.jsonl': fixture('claude-code-subagent.jsonl'), 'agent-a7e11f0.jsonl': fixture('claude-code-subagent.agent-a7e11f0.jsonl') });
    expect(await run(['inspect', '--json', 'main.jsonl', 'agent-a7e11f0.jsonl'], cli)).toBe(0);
    const [session] = JSON.parse(out.join('\n')).sessions;
    expect(session.sidechains.map((s: Record<string, unknown>) => [s['id'], s['calls'], s['parentCall'], s['toolUseId'], s['reportedTotalTokens']])).toEqual([
      ['a51c0de', 2, 1, 'toolu_T1', 10588],
      ['a7e11f0', 2, 2, 'toolu_T2', 4410],
    ]);
    expect(session.sidechains[0].usage).toEqual({ input: 8, output: 100, cacheRead: 5200, cacheWrite: 5280 });
    expect(session.sidechains[0].resultTokens).toBeGreaterThan(20);
  });

  it('prints the subagents and an opaque compaction in the readable summary', async () => {
    const { cli, out } = io({ 'main.jsonl': fixture('claude-code-subagent.jsonl') });
    await run(['inspect', 'main.jsonl'], cli);
    expect(out.join('\n')).toContain('subagent a51c0de (Explore): 4 items · 2 calls, started by call 1');
    const log = io({ 'log.jsonl': fixture('request-log-responses-compaction.jsonl') });
    await run(['inspect', 'log.jsonl'], log.cli);
    expect(log.out.join('\n')).toContain('compaction #1 server (responses/compact) before call 4: 1,702 → 702 tokens (opaque summary)');
  });
});
