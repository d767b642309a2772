import { describe, expect, it } from 'vitest';
import { reportedHitRate } from '../cache/forensics';
import { readFileSync } from 'node:fs';
import { loadFiles, loadText } from '../load/loader';
import { unplacedUsageIssue } from './usage-checks';

// An OpenAI chat log whose `prompt_tokens` leaves the cache out (no provider writes that): the load warns, naming
// the file and the first such call, instead of showing a hit rate above 100%.
const line = (prompt: number, cached: number) =>
  JSON.stringify({ request: { model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] }, response: { choices: [{ message: { role: 'assistant', content: 'ok' } }], usage: { prompt_tokens: prompt, completion_tokens: 3, prompt_tokens_details: { cached_tokens: cached } } } });

describe('usage no provider reports', () => {
  it('warns when a prompt that counts the cache holds fewer tokens than its cache reads', () => {
    const r = loadText('log.jsonl', [line(10, 0), line(10, 9000)].join('\n'));
    const warning = r.sessions[0]!.issues.find((i) => i.field === 'usage');
    expect(warning).toMatchObject({ file: 'log.jsonl', severity: 'warning' });
    expect(warning!.message).toContain('1 of 2 calls report more cached tokens than prompt tokens (call 2: 9,000 cached of 10)');
  });

  it('says nothing when every prompt holds its cache reads', () => {
    const r = loadText('log.jsonl', [line(10, 0), line(9500, 9000)].join('\n'));
    expect(r.sessions[0]!.issues.filter((i) => i.field === 'usage')).toEqual([]);
  });
});

describe('the hit rate beside such usage', () => {
  it('leaves out the calls whose reads exceed their prompt', () => {
    const call = (input: number, cacheRead: number) => ({ api: 'openai-chat' as const, model: 'gpt-4o', usage: { input, output: 3, cacheRead, cacheWrite: null, inputIncludesCache: true } });
    expect(reportedHitRate([call(1000, 500), call(10, 9000)])).toBe(0.5);
    expect(reportedHitRate([call(10, 9000)])).toBeNull();
  });
});

describe('usage no call can hold', () => {
  const fixture = (name: string) => ({ name, bytes: new Uint8Array(readFileSync(new URL(`../formats/__fixtures__/${name}`, import.meta.url))) });

  // The Cline panel file of haram-333/fineye's shape: the second request (349 prompt tokens) ends in an error retry, so
  // the panel shows no reply for it and no call stands for it.
  it('warns when a response reports usage but holds no item the transcript places, naming the file and the response', () => {
    const r = loadFiles([fixture('cline-panel-ui_messages.json')]);
    const issue = r.sessions[0]!.issues.find((i) => /hold no reply/.test(i.message));
    expect(issue).toMatchObject({ file: 'cline-panel-ui_messages.json', field: 'usage', severity: 'warning' });
    expect(issue!.message).toContain('1 of 3 responses report usage but hold no reply this reader could place (the first: response 2)');
    expect(r.issues.filter((i) => /hold no reply/.test(i.message))).toHaveLength(1);
  });

  it('says nothing once the files that hold the replies are joined, nor of a request log', () => {
    const joined = loadFiles([fixture('cline-anthropic-ui_messages.json'), fixture('cline-anthropic-api_conversation_history.json')]);
    expect(joined.issues.filter((i) => /hold no reply/.test(i.message))).toEqual([]);
    const log = loadText('log.jsonl', [line(10, 0), line(20, 0)].join('\n')).sessions[0]!;
    expect(unplacedUsageIssue(log)).toBeNull();
  });
});
