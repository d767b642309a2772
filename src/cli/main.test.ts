import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { run, type CliIo } from './main';

function fakeIo(files: Record<string, string>) {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = {
    out: (t) => out.push(t),
    err: (t) => err.push(t),
    readFile: (p) => {
      if (!(p in files)) throw new Error('ENOENT: no such file');
      return new TextEncoder().encode(files[p]);
    },
    listDir: (p) => Object.keys(files).filter((f) => f.startsWith(`${p}/`)).map((f) => f.slice(p.length + 1)),
    isDir: () => false,
    exists: (p) => Object.keys(files).some((f) => f === p || f.startsWith(`${p}/`)),
  };
  return { io, out, err };
}

const course = readFileSync(new URL('../formats/__fixtures__/openai-chat-course.json', import.meta.url), 'utf8');

describe('run inspect', () => {
  it('prints the documented JSON report and exits 0 when everything loads', async () => {
    const { io, out } = fakeIo({ 'a.json': course });
    expect(await run(['inspect', 'a.json', '--json'], io)).toBe(0);
    const report = JSON.parse(out.join('\n'));
    expect(report.errors).toEqual([]);
    expect(report.warnings).toEqual([]);
    expect(report.sessions).toEqual([
      expect.objectContaining({ id: 'a', format: 'openai-chat', files: ['a.json'], items: 7, toolCalls: 1, compactions: [], audits: [], prefixUnrecorded: false }),
    ]);
    // One model call (the read_file tool call); its context is the system prompt and the first user message.
    expect(report.sessions[0].calls).toEqual([
      { index: 0, contextTokens: expect.any(Number), reportedInput: null, reportedCacheRead: null, reportedCacheWrite: null, predictedCached: 0, cacheBreak: false, cause: null, divergence: null, unseenPrefixTokens: 0 },
    ]);
    expect(report.sessions[0].calls[0].contextTokens).toBeGreaterThan(10);
    // The summary and the marker come after the last call, so no context shows them.
    expect(report.sessions[0].lints).toEqual([]);
  });

  it('gives each lint its severity and what it applies to, and takes rule settings from --rules', async () => {
    const demo = readFileSync(new URL('../../public/demos/acme-audio-plain-summary.livekit.json', import.meta.url), 'utf8');
    const plain = fakeIo({ 'acme.json': demo });
    expect(await run(['inspect', '--json', 'acme.json'], plain.io)).toBe(0);
    expect(JSON.parse(plain.out.join('\n')).sessions[0].lints).toEqual([
      { rule: 'causal-order', item: expect.any(String), message: expect.stringContaining('user message placed after the tool call'), severity: 'warning', appliesTo: { styles: 'all', harnesses: 'all' } },
    ]);
    const muted = fakeIo({ 'acme.json': demo, 'rules.json': JSON.stringify({ version: 1, rules: { 'causal-order': { livekit: { muted: true } }, 'no-such-rule': {} } }) });
    expect(await run(['inspect', '--json', 'acme.json', '--rules', 'rules.json'], muted.io)).toBe(0);
    expect(JSON.parse(muted.out.join('\n')).sessions[0].lints).toEqual([]);
    expect(muted.err).toEqual(['--rules rules.json: unknown rule "no-such-rule"']);
    const broken = fakeIo({ 'acme.json': demo, 'rules.json': '{"version":1,' });
    expect(await run(['inspect', '--json', 'acme.json', '--rules', 'rules.json'], broken.io)).toBe(2);
    expect(broken.err[0]).toMatch(/^--rules rules\.json: /);
  });

  it('exits 1 and still reports what loaded when one input is broken', async () => {
    const { io, out } = fakeIo({ 'a.json': course, 'b.jsonl': '{"strange": true}\n{"strange": false}\n' });
    expect(await run(['inspect', '--json', 'a.json', 'b.jsonl'], io)).toBe(1);
    const report = JSON.parse(out.join('\n'));
    expect(report.sessions).toHaveLength(1);
    expect(report.errors).toEqual([{ file: 'b.jsonl', line: 1, field: null, message: expect.stringContaining('unrecognized format') }]);
  });

  it('exits 2 on bad usage: no command, no files, unknown option, unreadable file', async () => {
    expect(await run([], fakeIo({}).io)).toBe(2);
    expect(await run(['inspect'], fakeIo({}).io)).toBe(2);
    expect(await run(['inspect', 'a.json', '--yaml'], fakeIo({ 'a.json': course }).io)).toBe(2);
    expect(await run(['inspect', 'a.json', '--provider', 'azure'], fakeIo({ 'a.json': course }).io)).toBe(2);
    const missing = fakeIo({});
    expect(await run(['inspect', 'nope.json'], missing.io)).toBe(2);
    expect(missing.err.join('\n')).toContain('cannot read nope.json');
  });

  it('prints a readable summary without --json', async () => {
    const { io, out } = fakeIo({ 'a.json': course });
    await run(['inspect', 'a.json'], io);
    expect(out.join('\n')).toContain('7 items · 1 tool call · 0 compactions');
  });
});

describe('run check-samples', () => {
  it('fails when any file in the folder has an error', async () => {
    const { io } = fakeIo({ '/s/good.json': course, '/s/bad.json': '{"messages": [{"role": "wizard", "content": "x"}]}', '/s/README.md': '# no' });
    expect(await run(['check-samples', '/s'], io)).toBe(1);
  });
  it('passes when every file loads', async () => {
    const { io, out } = fakeIo({ '/s/good.json': course });
    expect(await run(['check-samples', '/s'], io)).toBe(0);
    expect(out.join('\n')).toContain('All samples loaded without errors.');
  });
});
