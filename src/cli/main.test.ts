import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { run, type CliIo } from './main';
import { memoryIo } from '../test/memory-io';

const fakeIo = (files: Record<string, string>) => memoryIo(files);

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
      {
        index: 0,
        call: 1,
        countedTokens: expect.any(Number),
        contextTokens: expect.any(Number),
        estimated: false,
        reportedPrompt: null,
        reportedInput: null,
        reportedCacheRead: null,
        reportedCacheWrite: null,
        reportedOutput: null,
        model: 'gpt-4o-mini',
        previousCacheable: null,
        predictedCached: 0,
        reportedMiss: null,
        predictedBreak: false,
        cacheBreak: false,
        cause: null,
        predictedCause: null,
        ttlMs: 300_000,
        missTokens: null,
        missCostUsd: null,
        missCharge: null,
        droppedTokens: null,
        readNote: null,
        gapUnknown: false,
        diagnostic: null,
        divergence: null,
        unseenPrefixTokens: 0,
        unrecordedNotRead: null,
      },
    ]);
    // Without reported usage the context is the count itself, and the session's facts say the same.
    const [c] = report.sessions[0].calls;
    expect(c.contextTokens).toBeGreaterThan(10);
    expect(c.contextTokens).toBe(c.countedTokens);
    expect(report.sessions[0].facts).toMatchObject({ calls: 1, items: 7, toolCalls: 1, compactions: { recorded: 0, inferred: 0, total: 0 }, peakContextTokens: c.contextTokens, peakCall: 1, reportedInputTokens: null });
    // The summary and the marker come after the last call, so no context shows them.
    expect(report.sessions[0].lints).toEqual([]);
  });

  it('shows every model with its calls, and each call its model and the output the file reports', async () => {
    // Calls 1–2 ran on Opus, 3–5 on Haiku; the header used to show one model only.
    const twoModels = readFileSync(new URL('../formats/__fixtures__/claude-code-two-models.jsonl', import.meta.url), 'utf8');
    const json = fakeIo({ 's.jsonl': twoModels });
    expect(await run(['inspect', '--json', 's.jsonl'], json.io)).toBe(0);
    const s = JSON.parse(json.out.join('\n')).sessions[0];
    expect(s.facts.models).toEqual([
      { model: 'claude-opus-4-6', calls: 2 },
      { model: 'claude-haiku-4-5-20251001', calls: 3 },
    ]);
    expect(s.calls.map((c: { model: string; reportedOutput: number }) => [c.model, c.reportedOutput])).toEqual([
      ['claude-opus-4-6', 58],
      ['claude-opus-4-6', 41],
      ['claude-haiku-4-5-20251001', 87],
      ['claude-haiku-4-5-20251001', 52],
      ['claude-haiku-4-5-20251001', 29],
    ]);
    expect([s.facts.outputTokens, s.facts.reportedOutputTokens, s.facts.reportedOutputCalls]).toEqual([267, 267, 5]);
    const text = fakeIo({ 's.jsonl': twoModels });
    expect(await run(['inspect', 's.jsonl'], text.io)).toBe(0);
    expect(text.out.join('\n')).toContain('  models claude-opus-4-6 (2 calls), claude-haiku-4-5-20251001 (3 calls)');
    expect(text.out.join('\n')).toContain('  output 267 tokens (reported on every call)');
  });

  it('reports the responses on abandoned branches apart from the model calls, and prices them as a part of the cost', async () => {
    const offBranch = readFileSync(new URL('../formats/__fixtures__/claude-code-off-branch.jsonl', import.meta.url), 'utf8');
    const json = fakeIo({ 's.jsonl': offBranch });
    expect(await run(['inspect', '--json', 's.jsonl'], json.io)).toBe(0);
    const f = JSON.parse(json.out.join('\n')).sessions[0].facts;
    expect(f.calls).toBe(4);
    expect(f.offBranch).toEqual({ responses: 2, input: 18, cacheRead: 36052, cacheWrite: 1639, output: 324, prompt: 37709, models: [{ model: 'claude-sonnet-4-5-20250929', responses: 2 }] });
    expect(f.cost).toMatchObject({ calls: { responses: 4, priced: 4 }, offBranch: { responses: 2, priced: 2 }, sidechains: null, unpriced: 0 });
    expect(f.cost.usd).toBeCloseTo(f.cost.calls.usd + f.cost.offBranch.usd, 6);
    const text = fakeIo({ 's.jsonl': offBranch });
    expect(await run(['inspect', 's.jsonl'], text.io)).toBe(0);
    expect(text.out.join('\n')).toContain('  +2 responses on abandoned branches (billed, not shown): 37,709 prompt and 324 output tokens, $0.03\n  cost $0.10 at the reported usage (calls $0.07 · abandoned branches $0.03)');
    // The user's prices price them too: $1 a million output tokens, everything else free.
    const free = { input: 0, cacheWrite5m: 0, cacheWrite1h: 0, cacheRead: 0, output: 1 };
    const priced = fakeIo({ 's.jsonl': offBranch, 'p.json': JSON.stringify({ 'claude-sonnet-4-5-20250929': free }) });
    expect(await run(['inspect', '--json', 's.jsonl', '--prices', 'p.json'], priced.io)).toBe(0);
    expect(JSON.parse(priced.out.join('\n')).sessions[0].facts.cost.offBranch.usd).toBeCloseTo(324 / 1e6, 9);
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
    expect(out.join('\n')).toContain('1 model call · 7 items · 1 tool call · 0 compactions');
  });

  it('reads a folder argument as its files, so an OpenHands SDK conversation folder is one session', async () => {
    const dir = fileURLToPath(new URL('../formats/__fixture-folders__/openhands-sdk-conversation/7d3c2a9e4b1f4e8a9c552f6d0b1a8e31', import.meta.url));
    const out: string[] = [];
    const io: CliIo = { out: (t) => out.push(t), err: () => {}, readFile: (p) => readFileSync(p), listDir: (p) => readdirSync(p), isDir: (p) => statSync(p).isDirectory(), exists: (p) => existsSync(p) };
    expect(await run(['inspect', '--json', dir], io)).toBe(0);
    const report = JSON.parse(out.join('\n'));
    expect(report.sessions).toHaveLength(1);
    expect(report.sessions[0]).toMatchObject({ id: '7d3c2a9e-4b1f-4e8a-9c55-2f6d0b1a8e31', format: 'openhands-sdk', toolCalls: 6 });
    expect(report.sessions[0].files[0]).toBe('7d3c2a9e4b1f4e8a9c552f6d0b1a8e31/base_state.json');
    expect(report.sessions[0].compactions.map((c: { kind: string }) => c.kind)).toEqual(['condensation', 'condensation']);
    expect(report.sessions[0].calls).toHaveLength(6);
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

describe('run --version and --help', () => {
  it('prints the version from package.json and a usage naming every command', async () => {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
    const v = fakeIo({});
    expect(await run(['--version'], v.io)).toBe(0);
    expect(v.out).toEqual([pkg.version]);
    const h = fakeIo({});
    expect(await run(['--help'], h.io)).toBe(0);
    for (const cmd of ['inspect', 'check', 'corpus', 'serve']) expect(h.out.join('\n')).toContain(`compaction-inspector ${cmd} `);
  });
});
