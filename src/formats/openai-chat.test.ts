import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadText } from '../load/loader';

const fixture = (name: string) => readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), 'utf8');

describe('openaiChat', () => {
  it('turns messages, tool calls, results, summaries and markers into items in order', () => {
    const { sessions, issues } = loadText('course.json', fixture('openai-chat-course.json'));
    expect(issues).toEqual([]);
    const [s] = sessions;
    expect(s!.format).toBe('openai-chat');
    expect(s!.model).toBe('gpt-4o-mini');
    expect(s!.items.map((i) => [i.id, i.role, i.kind])).toEqual([
      ['m0', 'system', 'message'],
      ['m1', 'user', 'message'],
      ['m2.call0', 'assistant', 'tool_call'],
      ['m3', 'tool', 'tool_result'],
      ['m4', 'assistant', 'summary'],
      ['m5', 'assistant', 'omission'],
      ['m6', 'user', 'message'],
    ]);
    expect(s!.items[2]).toMatchObject({ name: 'read_file', callId: 'call_1', pairId: 'm3', text: '{"path":"config/db.yaml"}' });
    expect(s!.items[3]).toMatchObject({ name: 'read_file', pairId: 'm2.call0' });
    expect(s!.items[6]!.text).toBe('Which host and port again?\n[image_url]');
  });

  it('names the line and field of a message with an unknown role, and keeps the rest', () => {
    const text = '{\n  "messages": [\n    {"role": "user", "content": "hi"},\n    {"role": "wizard", "content": "x"}\n  ]\n}';
    const { sessions, issues } = loadText('bad.json', text);
    expect(issues).toEqual([
      { file: 'bad.json', line: 4, field: 'messages[1].role', message: expect.stringContaining('unknown role "wizard"'), severity: 'error' },
    ]);
    expect(sessions[0]!.items).toHaveLength(1);
  });
});
