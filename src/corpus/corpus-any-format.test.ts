// A JSONL corpus may hold one trajectory per line in any format the app reads from one JSON document. Each line is
// sniffed on its own with the format registry; a bad line is an error row with its line number and the others go on.
// The lines are the project's own format fixtures (see ../test/mixed-corpus.ts), each put on one line.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCorpus } from '../cli/corpus';
import type { ParseIssue } from '../model/types';
import { isTrajectoryJsonlText, loadCorpusLine, sniffCorpusLine } from './corpus-jsonl';
import { mixedFormatLines } from '../test/mixed-corpus';
import { processCorpusFile, textChunks } from './corpus-stream';

const F = join(import.meta.dirname, '../formats/__fixtures__');
const json = (f: string): unknown => JSON.parse(readFileSync(join(F, f), 'utf8'));
const text = (f: string) => readFileSync(join(F, f), 'utf8');
const tau = json('tau-bench-airline.json') as unknown[];
const sdkEvents = text('openhands-sdk-events.jsonl').split('\n').filter(Boolean).map((l) => JSON.parse(l) as unknown);

const LINES: [format: string, value: unknown][] = mixedFormatLines().map((l) => [l.format, l.value]);
const mixed = LINES.map(([, v]) => JSON.stringify(v));

async function stdinRun(lines: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCorpus(['--stdin', '--jsonl', '--estimate'], { out: (t) => out.push(t), err: (t) => err.push(t), stdin: textChunks(`${lines.join('\n')}\n`, 4096) });
  return { code, rows: out.map((l) => JSON.parse(l) as Record<string, unknown>), err: err.map((l) => JSON.parse(l) as ParseIssue) };
}

describe('corpus --stdin: one trajectory per line, in any single-document format', () => {
  it('reads a JSONL mixing every format, one row per line in line order, each line sniffed on its own', async () => {
    const { code, rows, err } = await stdinRun(mixed);
    expect(err).toEqual([]);
    expect(code).toBe(0);
    expect(rows.map((r) => [r['line'], r['format'], r['error']])).toEqual(LINES.map(([f], i) => [i + 1, f, null]));
    for (const r of rows) expect(r['turns'] as number, String(r['format'])).toBeGreaterThan(0);
    // tau-bench's reward and success come through from both line shapes.
    expect(rows.filter((r) => r['format'] === 'tau-bench').map((r) => [r['success'], r['reward']])).toEqual([
      [true, 1],
      [false, 0],
    ]);
  });

  it('gives a bad line an error row with its line number and goes on with the others', async () => {
    const claudeRecord = text('claude-code-session.jsonl').split('\n').filter(Boolean)[2]!;
    const lines = [mixed[0]!, '{"messages": [', mixed[1]!, '{"hello": "world"}', claudeRecord, mixed[2]!];
    const { code, rows, err } = await stdinRun(lines);
    // Exit 0: the input was read to its end, so a batch job's task does not fail on one bad line.
    expect(code).toBe(0);
    expect(rows.map((r) => [r['line'], r['format']])).toEqual([
      [1, 'openai-chat'],
      [2, null],
      [3, 'openai-responses'],
      [4, null],
      [5, null],
      [6, 'anthropic'],
    ]);
    expect(rows[1]!['error']).toMatch(/^invalid JSON/);
    expect(rows[3]!['error']).toMatch(/unrecognized format/);
    expect(rows[4]!['error']).toMatch(/one record of a Claude Code .* log, not a whole trajectory/);
    expect(err.map((i) => [i.file, i.line])).toEqual([
      ['stdin', 2],
      ['stdin', 4],
      ['stdin', 5],
    ]);
  });

  it('names a trajectory that records no id by a hash of its line, the same at any line and in any partition', async () => {
    const a = await stdinRun([mixed[0]!, mixed[4]!]);
    const b = await stdinRun([mixed[3]!, mixed[4]!, mixed[0]!]);
    const ids = (rows: Record<string, unknown>[]) => Object.fromEntries(rows.map((r) => [r['format'], r['id']]));
    expect(ids(a.rows)['openai-chat']).toMatch(/^stdin#[0-9a-f]{14}$/);
    expect(ids(b.rows)['openai-chat']).toBe(ids(a.rows)['openai-chat']);
    expect(ids(b.rows)['mini-swe-agent']).toBe(ids(a.rows)['mini-swe-agent']);
    // An id the trajectory records is kept.
    expect(ids(b.rows)['atif']).toBe('hello-world-summarized');
  });
});

describe('a JSONL file of such lines is a corpus', () => {
  it('is read line by line as a file too, with the formats of the stdin run', async () => {
    const whole = `${mixed.join('\n')}\n`;
    expect(isTrajectoryJsonlText(whole)).toBe(true);
    const formats: string[] = [];
    const outcome = await processCorpusFile('mixed.jsonl', textChunks(whole, 1000), { count: (t: string) => t.length, counter: 'chars' }, { row: (r) => formats.push(r.format), issue: () => {} });
    expect(outcome.mode).toBe('jsonl-corpus');
    expect(formats).toEqual(LINES.map(([f]) => f));
  });

  it('takes a JSONL of one-element tau-bench result lists for a corpus (it used to fail whole as invalid JSON)', async () => {
    const lines = tau.map((t) => JSON.stringify([t]));
    expect(isTrajectoryJsonlText(lines.join('\n'))).toBe(true);
    const rows: string[] = [];
    const issues: ParseIssue[] = [];
    await processCorpusFile('tau.jsonl', textChunks(lines.join('\n')), { count: () => 1, counter: 'one' }, { row: (r) => rows.push(`${r.line}:${r.id}`), issue: (i) => issues.push(i) });
    expect(rows).toEqual(tau.map((t, i) => `${i + 1}:tau.jsonl#L${i + 1}#task-${String((t as { task_id: number }).task_id)}`));
  });

  it('leaves logs whose lines are records of one session to the ordinary loader', () => {
    for (const f of ['openhands-sdk-events.jsonl', 'claude-code-session.jsonl', 'codex-rollout.jsonl', 'request-log-chat.jsonl', 'request-log-mixed.jsonl', 'compaction-log-course.jsonl']) {
      expect(isTrajectoryJsonlText(text(f)), f).toBe(false);
    }
    // Bare chat request bodies, each repeating the last and adding to it, are one request log, not a corpus.
    const turns = [
      { role: 'system', content: 'You are terse.' },
      { role: 'user', content: 'Port?' },
    ];
    const growing = [{ messages: turns }, { messages: [...turns, { role: 'assistant', content: '8080' }, { role: 'user', content: 'Host?' }] }];
    expect(isTrajectoryJsonlText(growing.map((g) => JSON.stringify(g)).join('\n'))).toBe(false);
    // Also when the first call held the user's message alone, and for Responses request bodies.
    const first = [{ role: 'user', content: 'Port?' }];
    expect(isTrajectoryJsonlText([{ model: 'gpt-4.1', messages: first }, { model: 'gpt-4.1', messages: [...first, { role: 'assistant', content: '8080' }, { role: 'user', content: 'Host?' }] }].map((g) => JSON.stringify(g)).join('\n'))).toBe(false);
    const input = [{ type: 'message', role: 'user', content: 'Port?' }];
    const responses = [{ model: 'gpt-5', input }, { model: 'gpt-5', input: [...input, { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: '8080' }] }, { type: 'message', role: 'user', content: 'Host?' }] }];
    expect(isTrajectoryJsonlText(responses.map((g) => JSON.stringify(g)).join('\n'))).toBe(false);
    // Two independent chat trajectories are a corpus.
    expect(isTrajectoryJsonlText([growing[1], { messages: [{ role: 'user', content: 'Other task.' }, { role: 'assistant', content: 'Done.' }] }].map((g) => JSON.stringify(g)).join('\n'))).toBe(true);
  });

  it('tells a whole trajectory from one record of a log spanning lines', () => {
    expect(sniffCorpusLine(JSON.stringify(sdkEvents)).kind).toBe('trajectory');
    expect(sniffCorpusLine(JSON.stringify(sdkEvents[0])).kind).toBe('record');
    expect(sniffCorpusLine('{"x": 1}').kind).toBe('unrecognized');
    expect(sniffCorpusLine('{"x": ').kind).toBe('invalid');
    const r = loadCorpusLine('c.jsonl', 9, JSON.stringify(sdkEvents[0]));
    expect([r.sessions.length, r.issues.map((i) => [i.file, i.line, i.severity])]).toEqual([0, [['c.jsonl', 9, 'error']]]);
  });
});
