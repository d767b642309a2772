import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadText } from '../load/loader';
import { defaultPrompt } from './reasoning-trace';

// The fixture follows our own reasoning-trace shape, with outputs written like DeepSeek-R1-Distill's
// (one without the opening <think>) and backtracking summaries as in the iterated-summarization paper.
const fixture = (name: string) => readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), 'utf8');

describe('reasoningTrace', () => {
  it('turns each iteration into prompt, thinking, answer and summary', () => {
    const { sessions, issues } = loadText('aime.json', fixture('reasoning-trace-aime.json'));
    expect(issues).toEqual([]);
    const s = sessions[0]!;
    expect(s.format).toBe('reasoning-trace');
    expect(s.id).toBe('aime-style-2pow2025');
    expect(s.model).toBe('DeepSeek-R1-Distill-Qwen-14B');
    expect(s.meta).toEqual({ success: true, summarizer: 'backtracking', iterations: 3 });
    expect(s.items.map((i) => [i.id, i.role, i.kind, i.meta?.['iteration']])).toEqual([
      ['i1.prompt', 'user', 'message', 1],
      ['i1.think', 'assistant', 'thinking', 1],
      ['i1.answer', 'assistant', 'message', 1],
      ['i1.summary', 'assistant', 'summary', 1],
      ['i2.prompt', 'user', 'message', 2],
      ['i2.think', 'assistant', 'thinking', 2],
      ['i2.answer', 'assistant', 'message', 2],
      ['i2.summary', 'assistant', 'summary', 2],
      ['i3.prompt', 'user', 'message', 3],
      ['i3.think', 'assistant', 'thinking', 3],
      ['i3.answer', 'assistant', 'message', 3],
    ]);
    const byId = new Map(s.items.map((i) => [i.id, i]));
    expect(byId.get('i1.answer')).toMatchObject({ text: 'Using the Chinese remainder theorem, the remainder is \\boxed{182}.', meta: { iteration: 1, finalAnswer: '182', correct: false } });
    expect(byId.get('i2.think')!.text.startsWith('Okay, the previous attempt never checked')).toBe(true);
    expect(byId.get('i2.answer')!.text).toBe('The remainder is \\boxed{432}.');
    expect(byId.get('i1.prompt')!.meta).toEqual({ iteration: 1, promptDefault: false });
    expect(byId.get('i3.prompt')).toMatchObject({
      text: defaultPrompt('Find the remainder when 2^2025 is divided by 1000.', [byId.get('i1.summary')!.text, byId.get('i2.summary')!.text]),
      meta: { iteration: 3, promptDefault: true },
    });
    expect(byId.get('i2.prompt')!.text).toContain('Here are summaries of your previous solution attempts:\n\nThe attempt first considered');
  });

  it('makes each summary replace its iteration reasoning and answer, keeping the question, restated in the next prompt', () => {
    const s = loadText('aime.json', fixture('reasoning-trace-aime.json')).sessions[0]!;
    expect(s.compactions).toEqual([
      { id: 'c0', index: 0, kind: 'summary', trigger: 'backtracking', tokensBefore: null, tokensAfter: null, replacedIds: ['i1.think', 'i1.answer'], keptIds: ['i1.prompt'], summaryId: 'i1.summary', atItemId: 'i1.summary', source: { file: 'aime.json', line: null }, restatedIn: 'i2.prompt' },
      { id: 'c1', index: 1, kind: 'summary', trigger: 'backtracking', tokensBefore: null, tokensAfter: null, replacedIds: ['i2.think', 'i2.answer'], keptIds: ['i1.prompt'], summaryId: 'i2.summary', atItemId: 'i2.summary', source: { file: 'aime.json', line: null }, restatedIn: 'i3.prompt' },
    ]);
  });

  it('reports an iteration without output and an unknown summarizer, and keeps the rest', () => {
    const text = '{\n  "problem": "p",\n  "summarizer": "vibes",\n  "iterations": [\n    {"output": "<think>r</think>a", "summary": "s"},\n    {"answer": "7"}\n  ]\n}';
    const { sessions, issues } = loadText('t.json', text);
    const s = sessions[0]!;
    expect(s.items.map((i) => i.id)).toEqual(['i1.prompt', 'i1.think', 'i1.answer', 'i1.summary', 'i2.prompt', 'i2.answer']);
    expect(s.items[5]!.text).toBe('7');
    expect(issues).toEqual([
      { file: 't.json', line: 3, field: 'summarizer', message: expect.stringContaining('unknown summarizer "vibes"'), severity: 'warning' },
      { file: 't.json', line: 6, field: 'iterations[1].output', message: 'iteration has no `output` or `reasoning` text', severity: 'error' },
    ]);
  });
});
