import { describe, expect, it } from 'vitest';
import { callTarget, targetKey } from './call-target';

const call = (name: string, args: unknown) => ({ kind: 'tool_call' as const, name, text: JSON.stringify(args) });

describe('callTarget', () => {
  it('names the main argument of Claude Code and Codex tools', () => {
    expect(callTarget(call('Read', { file_path: '/repo/lib/a.ex' }))).toEqual({ tool: 'Read', target: '/repo/lib/a.ex', file: '/repo/lib/a.ex', writes: false, kind: 'file' });
    expect(callTarget(call('Read', { file_path: '/repo/lib/a.ex', offset: 200, limit: 50 }))?.target).toBe('/repo/lib/a.ex');
    expect(callTarget(call('Edit', { file_path: '/repo/lib/a.ex', old_string: 'a', new_string: 'b' }))).toMatchObject({ file: '/repo/lib/a.ex', writes: true });
    expect(callTarget(call('Bash', { command: 'mix test', description: 'Run tests' }))?.target).toBe('mix test');
    expect(callTarget(call('shell', { command: ['bash', '-lc', 'ls -la src'] }))?.target).toBe('ls -la src');
    expect(callTarget(call('Grep', { pattern: 'def fire', path: 'lib/' }))?.target).toBe('def fire in lib/');
    expect(callTarget(call('WebFetch', { url: 'https://hexdocs.pm/ash', prompt: 'x' }))?.target).toBe('https://hexdocs.pm/ash');
    expect([call('Bash', { command: 'ls' }), call('Grep', { pattern: 'x' }), call('WebFetch', { url: 'https://a.dev' })].map((c) => callTarget(c)?.kind)).toEqual(['command', 'search', 'url']);
  });

  it('gives nothing for calls that fetch nothing, and for arguments that are not a JSON object', () => {
    expect(callTarget(call('TodoWrite', { todos: [] }))).toBeNull();
    expect(callTarget(call('Task', { prompt: 'explore' }))).toBeNull();
    expect(callTarget({ kind: 'tool_call', name: 'Read', text: '[REDACTED_ARGUMENTS len=83 sha=b4e1e5f7]' })).toBeNull();
    expect(callTarget({ kind: 'tool_result', name: 'Read', text: '{"file_path":"a"}' })).toBeNull();
  });

  it('keys the same tool and target alike, and other tools apart', () => {
    const a = callTarget(call('Read', { file_path: 'a.ts' }))!;
    const b = callTarget(call('Read', { file_path: 'a.ts', limit: 10 }))!;
    const c = callTarget(call('Bash', { command: 'a.ts' }))!;
    expect(targetKey(a)).toBe(targetKey(b));
    expect(targetKey(a)).not.toBe(targetKey(c));
  });
});
