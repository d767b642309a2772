import { describe, expect, it } from 'vitest';
import { nativeEncoding, pickEncoding } from './encoding';

describe('pickEncoding', () => {
  it.each([
    ['gpt-4o', 'o200k_base'],
    ['gpt-4o-mini-2024-07-18', 'o200k_base'],
    ['chatgpt-4o-latest', 'o200k_base'],
    ['gpt-4.1-nano', 'o200k_base'],
    ['gpt-4.5-preview', 'o200k_base'],
    ['gpt-5', 'o200k_base'],
    ['gpt-5-codex', 'o200k_base'],
    ['o1', 'o200k_base'],
    ['o1-mini', 'o200k_base'],
    ['o3-2025-04-16', 'o200k_base'],
    ['o4-mini', 'o200k_base'],
    ['gpt-oss-120b', 'o200k_base'],
    ['openai/gpt-4o', 'o200k_base'],
    ['ft:gpt-4o-mini:acme::abc123', 'o200k_base'],
    ['GPT-4O', 'o200k_base'],
    ['gpt-4', 'cl100k_base'],
    ['gpt-4-0613', 'cl100k_base'],
    ['gpt-4-turbo-2024-04-09', 'cl100k_base'],
    ['gpt-4-32k', 'cl100k_base'],
    ['gpt-3.5-turbo', 'cl100k_base'],
    ['gpt-35-turbo', 'cl100k_base'],
    ['text-embedding-3-small', 'cl100k_base'],
    ['text-embedding-ada-002', 'cl100k_base'],
  ] as const)('counts %s with its own encoding, %s, exactly', (model, encoding) => {
    expect(pickEncoding(model)).toMatchObject({ encoding, approximate: false });
  });

  it.each(['claude-sonnet-4-5-20250929', 'claude-3-5-haiku', 'gemini-2.5-pro', 'llama-3.1-70b', 'deepseek-chat', 'o10-preview', 'gpt-40'])(
    'counts %s with o200k_base as an approximation',
    (model) => {
      expect(pickEncoding(model)).toMatchObject({ encoding: 'o200k_base', approximate: true });
      expect(nativeEncoding(model)).toBeNull();
    },
  );

  it('treats a missing model name as unknown and approximate', () => {
    expect(pickEncoding(null)).toMatchObject({ encoding: 'o200k_base', approximate: true, reason: expect.stringContaining('unknown model') });
    expect(pickEncoding('  ')).toMatchObject({ encoding: 'o200k_base', approximate: true });
  });

  it("honours the user's choice, exact only when it is the model's own encoding", () => {
    expect(pickEncoding('gpt-4o', 'cl100k_base')).toMatchObject({ encoding: 'cl100k_base', approximate: true });
    expect(pickEncoding('gpt-4', 'cl100k_base')).toMatchObject({ encoding: 'cl100k_base', approximate: false });
    expect(pickEncoding('claude-opus-4', 'cl100k_base')).toMatchObject({ encoding: 'cl100k_base', approximate: true });
  });
});
