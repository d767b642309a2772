import { describe, expect, it } from 'vitest';
import { chatCompletionsUrl } from './endpoint-url';

describe('chatCompletionsUrl', () => {
  it('adds /v1/chat/completions to a bare origin', () => {
    expect(chatCompletionsUrl('http://127.0.0.1:11434')).toEqual({ ok: true, url: 'http://127.0.0.1:11434/v1/chat/completions', shown: 'http://127.0.0.1:11434/v1/chat/completions' });
    expect(chatCompletionsUrl(' http://localhost:8080/ ')).toMatchObject({ ok: true, url: 'http://localhost:8080/v1/chat/completions' });
  });

  it('adds /chat/completions to a base URL with a path, with or without /v1 and trailing slashes', () => {
    expect(chatCompletionsUrl('http://127.0.0.1:8000/v1')).toMatchObject({ url: 'http://127.0.0.1:8000/v1/chat/completions' });
    expect(chatCompletionsUrl('https://openrouter.ai/api/v1/')).toMatchObject({ url: 'https://openrouter.ai/api/v1/chat/completions' });
    expect(chatCompletionsUrl('https://example.com/openai//')).toMatchObject({ url: 'https://example.com/openai/chat/completions' });
  });

  it('uses a full /chat/completions URL as given', () => {
    expect(chatCompletionsUrl('http://127.0.0.1:8000/v1/chat/completions/')).toMatchObject({ url: 'http://127.0.0.1:8000/v1/chat/completions' });
  });

  it('keeps a query but leaves it out of the form shown in messages, and drops the fragment', () => {
    expect(chatCompletionsUrl('https://x.example/openai/v1?api-version=2024-10-01#frag')).toEqual({
      ok: true,
      url: 'https://x.example/openai/v1/chat/completions?api-version=2024-10-01',
      shown: 'https://x.example/openai/v1/chat/completions',
    });
  });

  it('refuses empty, unparsable and non-http URLs', () => {
    expect(chatCompletionsUrl('  ')).toEqual({ ok: false, reason: 'no base URL is set' });
    expect(chatCompletionsUrl('localhost:11434/v1')).toEqual({ ok: false, reason: 'the base URL must start with http:// or https://' });
    expect(chatCompletionsUrl('127.0.0.1:11434')).toEqual({ ok: false, reason: 'the base URL is not a valid URL (expected e.g. http://127.0.0.1:11434/v1)' });
    expect(chatCompletionsUrl('ftp://x.example/v1')).toEqual({ ok: false, reason: 'the base URL must start with http:// or https:// (got ftp://)' });
  });

  it('refuses credentials in the URL', () => {
    expect(chatCompletionsUrl('http://user:sk-secret@127.0.0.1/v1')).toEqual({ ok: false, reason: 'the base URL must not contain a user name or password; put the key in the API key field' });
  });
});
