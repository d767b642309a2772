import { describe, expect, it } from 'vitest';
import { redactionHint } from '../model/markers';
import { createRedactor, previewRedaction, redactAnnotations, redactFiles, redactSecrets } from './redact';
import { note, onCall } from './test-builders';

// Fake secrets in the real shapes (AWS's documented example key; made-up others).
const OPENAI = 'sk-proj-FAKEfake0123456789abcdefFAKE';
const ANTHROPIC = 'sk-ant-api03-FAKEfake0123456789abcdef-FAKE';
const AWS = 'AKIAIOSFODNN7EXAMPLE';
const GITHUB = `ghp_${'A1b2C3d4E5'.repeat(4)}`;
const SLACK = 'xoxb-1234567890-FAKEFAKEfake';
const JWT = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U';

const enc = (s: string) => new TextEncoder().encode(s);
const dec = (b: Uint8Array) => new TextDecoder().decode(b);

describe('redactSecrets', () => {
  it('finds each kind of key and token and replaces it by a numbered placeholder', () => {
    const cases: [string, string, string, string][] = [
      [`key ${OPENAI} here`, 'openai', OPENAI, 'key [REDACTED_API_KEY_1] here'],
      [`key ${ANTHROPIC}.`, 'anthropic', ANTHROPIC, 'key [REDACTED_API_KEY_1].'],
      [`aws=${AWS}`, 'aws', AWS, 'aws=[REDACTED_API_KEY_1]'],
      [`token ${GITHUB}`, 'github', GITHUB, 'token [REDACTED_TOKEN_1]'],
      [`slack ${SLACK}`, 'slack', SLACK, 'slack [REDACTED_TOKEN_1]'],
      [`jwt: ${JWT}`, 'jwt', JWT, 'jwt: [REDACTED_TOKEN_1]'],
      ['Authorization: Bearer abcDEF123456ghiJKL789', 'bearer', 'abcDEF123456ghiJKL789', 'Authorization: Bearer [REDACTED_TOKEN_1]'],
      ['write to ana.lopez@example.com today', 'email', 'ana.lopez@example.com', 'write to [REDACTED_EMAIL_1] today'],
      ['DB_PASSWORD=hunter2hunter2', 'assignment', 'hunter2hunter2', 'DB_PASSWORD=[REDACTED_SECRET_1]'],
      ['{"client_secret": "abc123def456"}', 'assignment', 'abc123def456', '{"client_secret": "[REDACTED_SECRET_1]"}'],
      ['https://x.example/a.jsonl?token=Zx81kq0pLm2&x=1', 'url-query', 'Zx81kq0pLm2', 'https://x.example/a.jsonl?token=[REDACTED_SECRET_1]&x=1'],
      ['postgres://app:s3cretpw@db-prod-1:5432/app', 'url-password', 's3cretpw', 'postgres://app:[REDACTED_SECRET_1]@db-prod-1:5432/app'],
    ];
    for (const [text, rule, original, out] of cases) {
      const r = redactSecrets(text);
      expect(r.text).toBe(out);
      expect(r.replacements).toEqual([expect.objectContaining({ rule, original, index: text.indexOf(original) })]);
    }
  });

  it('leaves ordinary text alone', () => {
    const text = [
      'db-prod-1:5432',
      'FRE-512',
      'max_tokens: 4096',
      'const apiKey = process.env.OPENAI_API_KEY;',
      'password: string',
      'npm i fflate@0.8.3 @types/node@20.19.0',
      'task-management-service-for-our-team',
      'sk-learn is not a key',
      'The summary dropped the deadline (March 3) and port 8080.',
      'https://example.org/runs/run-1.jsonl?page=2',
      'Bearer token',
      '[REDACTED_EMAIL_1] stays as it is',
    ].join('\n');
    expect(redactSecrets(text)).toEqual({ text, replacements: [] });
  });

  it('gives the same secret the same placeholder and different secrets different numbers', () => {
    const r = redactSecrets(`${OPENAI} a@b.io ${OPENAI} c@d.io a@b.io`);
    expect(r.text).toBe('[REDACTED_API_KEY_1] [REDACTED_EMAIL_1] [REDACTED_API_KEY_1] [REDACTED_EMAIL_2] [REDACTED_EMAIL_1]');
  });

  it('only redacts the kinds switched on', () => {
    const text = `${OPENAI} ${JWT} a@b.io`;
    expect(redactSecrets(text, { apiKeys: false, tokens: false }).text).toBe(`${OPENAI} ${JWT} [REDACTED_EMAIL_1]`);
    expect(redactSecrets(text, { emails: false, tokens: false }).text).toBe('[REDACTED_API_KEY_1] ' + JWT + ' a@b.io');
  });

  it('hides chosen strings, also where they appear JSON-escaped, and ignores very short ones', () => {
    const text = '{"msg": "host acme-corp-db said \\"Ana Lopez\\""} Ana Lopez; ok';
    const r = redactSecrets(text, { custom: ['acme-corp-db', '"Ana Lopez"', 'Ana Lopez', 'ok', ' '] });
    expect(r.text).toBe('{"msg": "host [REDACTED_CUSTOM_1] said [REDACTED_CUSTOM_2]"} [REDACTED_CUSTOM_3]; ok');
    expect(JSON.parse(r.text.slice(0, r.text.indexOf('}') + 1))).toEqual({ msg: 'host [REDACTED_CUSTOM_1] said [REDACTED_CUSTOM_2]' });
  });

  it('keeps JSON valid when it redacts inside JSON strings', () => {
    const doc = JSON.stringify({ headers: { authorization: `Bearer ${OPENAI}` }, user: 'ana@example.com', env: `OPENAI_API_KEY=${OPENAI}\nX=1` });
    const r = redactSecrets(doc);
    expect(JSON.parse(r.text)).toEqual({ headers: { authorization: 'Bearer [REDACTED_API_KEY_1]' }, user: '[REDACTED_EMAIL_1]', env: 'OPENAI_API_KEY=[REDACTED_API_KEY_1]\nX=1' });
  });

  it('writes placeholders the loader does not take for an exporter redaction marker', () => {
    expect(redactionHint('[REDACTED_EMAIL_1]')).toBeUndefined();
    expect(redactionHint('[REDACTED_CUSTOM_2]')).toBeUndefined();
  });

  it('leaves a long base64 blob as it was (its time, linear in its length, is a bench row: bench/linear-inputs.ts)', () => {
    const blob = Buffer.from(new Uint8Array(3_000_000).map((_, i) => (i * 7919) & 255)).toString('base64');
    expect(redactSecrets(blob).text).toBe(blob);
  });
});

describe('createRedactor', () => {
  it('keeps placeholders stable across texts and lists them', () => {
    const r = createRedactor();
    expect(r.redact('from a@b.io').text).toBe('from [REDACTED_EMAIL_1]');
    expect(r.redact('to c@d.io, cc a@b.io').text).toBe('to [REDACTED_EMAIL_2], cc [REDACTED_EMAIL_1]');
    expect([...r.placeholders]).toEqual([
      ['a@b.io', '[REDACTED_EMAIL_1]'],
      ['c@d.io', '[REDACTED_EMAIL_2]'],
    ]);
  });
});

describe('redactAnnotations', () => {
  it('redacts notes, tags and authors with the same placeholders as the files', () => {
    const r = createRedactor();
    r.redact('mail ana@example.com');
    const [a] = redactAnnotations([note('a1', onCall(1), 'ask ana@example.com', { tags: ['ana@example.com'], author: 'bob@example.com' })], r);
    expect(a).toEqual(note('a1', onCall(1), 'ask [REDACTED_EMAIL_1]', { tags: ['[REDACTED_EMAIL_1]'], author: '[REDACTED_EMAIL_2]' }));
  });
});

describe('redactFiles / previewRedaction', () => {
  const files = [
    { name: 'run.jsonl', bytes: enc(`{"role":"user","content":"my key is ${OPENAI}, mail ana@example.com"}\n{"role":"assistant","content":"noted ana@example.com"}\n`) },
    { name: 'requests.jsonl', bytes: enc(`{"headers":{"authorization":"Bearer ${OPENAI}"}}\n`) },
    { name: 'clean.json', bytes: enc('{"messages":[]}') },
    { name: 'blob.bin', bytes: new Uint8Array([0xff, 0xfe, 0x41]) },
  ];

  it('redacts every text file with one set of placeholders and passes binary and clean files through', () => {
    const out = redactFiles(files);
    expect(dec(out.files[0]!.bytes)).toBe('{"role":"user","content":"my key is [REDACTED_API_KEY_1], mail [REDACTED_EMAIL_1]"}\n{"role":"assistant","content":"noted [REDACTED_EMAIL_1]"}\n');
    expect(dec(out.files[1]!.bytes)).toBe('{"headers":{"authorization":"Bearer [REDACTED_API_KEY_1]"}}\n');
    expect(out.files[2]).toBe(files[2]);
    expect(out.files[3]).toBe(files[3]);
  });

  it('counts changes per file and kind and shows the first ones in context', () => {
    const p = previewRedaction(files, {}, 2);
    expect(p.total).toBe(4);
    expect(p.distinct).toBe(2);
    expect(p.files.map((f) => [f.name, f.binary, f.count])).toEqual([
      ['run.jsonl', false, 3],
      ['requests.jsonl', false, 1],
      ['clean.json', false, 0],
      ['blob.bin', true, 0],
    ]);
    expect(p.files[0]!.byKind).toEqual({ 'api-key': 1, token: 0, secret: 0, email: 2, custom: 0 });
    expect(p.files[1]!.snippets).toEqual([{ before: `{"headers":{"authorization":"Bearer ${OPENAI}"}} `, after: '{"headers":{"authorization":"Bearer [REDACTED_API_KEY_1]"}} ' }]);
    expect(p.files[0]!.snippets).toHaveLength(2);
  });

  it('cuts snippets to 40 characters either side, marking the cuts', () => {
    const line = `${'x'.repeat(50)} a@b.io ${'y'.repeat(50)}`;
    const [f] = previewRedaction([{ name: 'a.txt', bytes: enc(line) }]).files;
    expect(f!.snippets).toEqual([{ before: `…${'x'.repeat(39)} a@b.io ${'y'.repeat(39)}…`, after: `…${'x'.repeat(39)} [REDACTED_EMAIL_1] ${'y'.repeat(39)}…` }]);
  });
});
