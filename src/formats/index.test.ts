import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadText } from '../load/loader';
import { parseDocument } from '../load/document';
import { AMBIGUITY_MARGIN, detectWithRival } from '.';

const dir = (rel: string) => new URL(rel, import.meta.url);

function detectText(name: string, text: string) {
  const parsed = parseDocument(name, text);
  if (!parsed.ok) throw new Error(parsed.issue.message);
  return detectWithRival(parsed.doc);
}

describe('detectWithRival', () => {
  it('warns, naming both formats, when a second format scores within the margin of the winner', () => {
    // Both a ShareGPT `conversations` list and a Chat Completions `messages` list: either reading is a guess.
    const text = JSON.stringify({
      conversations: [{ from: 'human', value: 'hi' }, { from: 'gpt', value: 'hello' }],
      messages: [{ role: 'system', content: 'be brief' }, { role: 'user', content: 'hi' }],
    });
    const d = detectText('both.json', text)!;
    expect([d.adapter.id, d.rival?.adapter.id]).toEqual(['sharegpt', 'openai-chat']);
    expect(d.score - d.rival!.score).toBeLessThanOrEqual(AMBIGUITY_MARGIN);
    const { sessions, issues } = loadText('both.json', text);
    expect(sessions[0]!.format).toBe('sharegpt');
    expect(issues).toEqual([
      {
        file: 'both.json',
        line: null,
        field: null,
        message: 'format guessed: read as ShareGPT conversations (sharegpt, 85%), but it also looks like OpenAI Chat Completions (openai-chat, 80%); check the calls and items below',
        severity: 'warning',
      },
    ]);
  });

  it('does not warn when the runner-up is far behind, or is the container the winner refines', () => {
    // Anthropic body: openai-chat also reads role/content messages, but far less surely.
    expect(detectText('a.json', readFileSync(dir('./__fixtures__/anthropic-request.json'), 'utf8'))!.rival).toBeNull();
    // Self-Sum and ShareGPT score 0.92 and 0.85 on the same file: Self-Sum refines ShareGPT.
    expect(detectText('s.json', readFileSync(dir('./__fixtures__/self-sum-sciworld.json'), 'utf8'))!.rival).toBeNull();
  });

  it('finds no rival for any fixture or demo the project ships', () => {
    const files = [
      ...readdirSync(dir('./__fixtures__/')).map((n) => dir(`./__fixtures__/${n}`)),
      ...readdirSync(dir('../../public/demos/')).map((n) => dir(`../../public/demos/${n}`)),
    ].filter((u) => /\.(jsonl?|traj)$/.test(u.pathname));
    expect(files.length).toBeGreaterThan(20);
    const rivals = files.flatMap((u) => {
      const d = detectText(u.pathname, readFileSync(u, 'utf8'));
      return d?.rival ? [`${u.pathname.split('/').pop()}: ${d.adapter.id} vs ${d.rival.adapter.id}`] : [];
    });
    expect(rivals).toEqual([]);
  });
});
