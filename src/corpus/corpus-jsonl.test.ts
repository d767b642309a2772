import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { corpusLineName, isTrajectoryJsonl, isTrajectoryJsonlText, loadCorpusLine, looksLikeGrowingRequests, parseCorpusLineName, splitCorpusJsonl } from './corpus-jsonl';

const DIR = join(import.meta.dirname, '__fixtures__');
const FORMATS = join(import.meta.dirname, '../formats/__fixtures__');
const oneLine = (file: string) => JSON.stringify(JSON.parse(readFileSync(join(FORMATS, file), 'utf8')));

describe('isTrajectoryJsonl', () => {
  it('takes a JSONL of Self-Sum, Agent-Omit, ShareGPT or reasoning-trace trajectories for a corpus', () => {
    for (const f of ['self-sum-sciworld.json', 'agent-omit-webshop.json', 'sharegpt-agentgym.json', 'reasoning-trace-aime.json']) {
      expect(isTrajectoryJsonl(oneLine(f), oneLine(f)), f).toBe(true);
    }
  });

  it('leaves JSONL sessions and logs to the ordinary loader', () => {
    for (const f of ['claude-code-session.jsonl', 'codex-rollout.jsonl', 'request-log-chat.jsonl', 'compaction-log-course.jsonl']) {
      expect(isTrajectoryJsonlText(readFileSync(join(FORMATS, f), 'utf8')), f).toBe(false);
    }
  });

  it('needs a second line: a one-line file is one trajectory, not a corpus', () => {
    expect(isTrajectoryJsonl(oneLine('self-sum-sciworld.json'), null)).toBe(false);
  });

  it('tells a request log of a tagged agent (each line repeats the last and adds to it) from a corpus', () => {
    const turns = [
      { role: 'user', content: 'Task: boil water.' },
      { role: 'assistant', content: '<think>Go.</think><action>go to kitchen</action>' },
    ];
    const first = JSON.stringify({ messages: turns });
    const second = JSON.stringify({ messages: [...turns, { role: 'user', content: 'You are in the kitchen.' }, { role: 'assistant', content: '<think>Look.</think><action>look</action>' }] });
    expect(looksLikeGrowingRequests(JSON.parse(first), JSON.parse(second))).toBe(true);
    expect(isTrajectoryJsonl(first, second)).toBe(false);
    expect(isTrajectoryJsonl(first, first)).toBe(true);
  });
});

describe('splitCorpusJsonl', () => {
  it('gives every non-empty line with its 1-based number, without a trailing \\r', () => {
    expect(splitCorpusJsonl('{"a":1}\r\n\n  \n{"b":2}\n')).toEqual([
      { line: 1, text: '{"a":1}' },
      { line: 4, text: '{"b":2}' },
    ]);
  });
});

describe('loadCorpusLine', () => {
  it('loads a line as its own trajectory named file#Ln, with issues naming the corpus file and line', () => {
    const lines = splitCorpusJsonl(readFileSync(join(DIR, 'self-sum-corpus.jsonl'), 'utf8'));
    const r = loadCorpusLine('corpus.jsonl', lines[1]!.line, lines[1]!.text);
    expect(r.sessions.map((s) => [s.id, s.format, s.files])).toEqual([['alf_002', 'self-sum', ['corpus.jsonl#L2']]]);
    expect(r.sessions[0]!.items[0]!.source).toEqual({ file: 'corpus.jsonl#L2', line: null });
    const turns = [{ from: 'robot', value: 'hi' }, ...Array.from({ length: 5 }, () => ({ from: 'gpt', value: '<think>x</think><action>y</action>' }))];
    const bad = loadCorpusLine('corpus.jsonl', 7, JSON.stringify({ conversations: turns }));
    expect(bad.issues.filter((i) => i.severity === 'error').map((i) => [i.file, i.line, i.field])).toEqual([['corpus.jsonl', 7, 'conversations[0].from']]);
  });

  it('round-trips the synthetic name', () => {
    expect(parseCorpusLineName(corpusLineName('a/b#c.jsonl', 12))).toEqual({ file: 'a/b#c.jsonl', line: 12 });
    expect(parseCorpusLineName('plain.json')).toBeNull();
  });
});
