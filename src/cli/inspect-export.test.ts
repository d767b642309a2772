import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { run } from './main';
import { loadText } from '../load/loader';
import { memoryIo } from '../test/memory-io';

const fixture = (name: string) => readFileSync(new URL(`../formats/__fixtures__/${name}`, import.meta.url), 'utf8');

const fakeIo = (files: Record<string, string>) => memoryIo(files);

describe('inspect --otlp / --atif', () => {
  const files = { 'trace.json': fixture('otlp-openinference-langgraph.json') };

  it('writes the analysis as OTLP spans and ATIF beside the report, with the figures --json prints', async () => {
    const { io, out, err, written } = fakeIo(files);
    expect(await run(['inspect', 'trace.json', '--json', '--otlp', 'out.otlp.json', '--atif=out.atif.json', '--no-cache'], io)).toBe(0);
    expect([...written.keys()]).toEqual(['out.otlp.json', 'out.atif.json']);
    expect(err).toEqual(['wrote 7 spans (1 session) as OTLP JSON to out.otlp.json', 'wrote 1 session as ATIF to out.atif.json']);
    // stdout stays the JSON report.
    const report = JSON.parse(out.join('\n')) as { sessions: { calls: { missTokens: number | null; cause: string | null }[] }[] };
    const spans = (JSON.parse(written.get('out.otlp.json')!) as { resourceSpans: { scopeSpans: { spans: { name: string; attributes: { key: string; value: Record<string, unknown> }[] }[] }[] }[] }).resourceSpans[0]!.scopeSpans[0]!.spans;
    const calls = spans.filter((s) => s.name.startsWith('chat '));
    const attr = (s: (typeof spans)[number], key: string) => {
      const v = s.attributes.find((a) => a.key === key)?.value;
      return v === undefined ? null : 'intValue' in v ? Number(v['intValue']) : (Object.values(v)[0] as unknown);
    };
    expect(calls.map((s) => [attr(s, 'compaction_inspector.cache.miss_tokens'), attr(s, 'compaction_inspector.cache.cause')])).toEqual(report.sessions[0]!.calls.map((c) => [c.missTokens, c.cause]));
    // Both files open again as sessions.
    expect(loadText('out.otlp.json', written.get('out.otlp.json')!).sessions[0]!.requests).toHaveLength(5);
    expect(loadText('out.atif.json', written.get('out.atif.json')!).sessions[0]!.format).toBe('atif');
  });

  it('is a usage error without a file to write', async () => {
    const { io, err } = fakeIo(files);
    expect(await run(['inspect', 'trace.json', '--otlp='], io)).toBe(2);
    expect(err.join('\n')).toContain('--otlp needs a file to write');
  });

  it('exits 1 and says so when the file cannot be written', async () => {
    const { io, err } = fakeIo(files);
    io.writeFile = () => {
      throw new Error('EACCES: permission denied');
    };
    expect(await run(['inspect', 'trace.json', '--otlp', '/ro/out.json', '--no-cache'], io)).toBe(1);
    expect(err.join('\n')).toContain('cannot write /ro/out.json: EACCES: permission denied');
  });
});
