// Parquet datasets as corpora: the column that holds trajectories is found with the format registry (or named),
// rows are read one row group at a time, each row is one trajectory row or one error row, and row groups shard.
// The datasets are written here with hyparquet-writer in the shapes of two public datasets (see __fixtures__/README.md).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ParseIssue } from '../model/types';
import { openHandsParquet, openHandsRows, sweAgentParquet, sweAgentRows } from '../test/parquet-datasets';
import { writeParquet } from '../test/parquet-write';
import { loadCorpusLine, parseCorpusLineName } from './corpus-jsonl';
import type { CorpusRow } from './corpus-row';
import type { RowLocation } from './corpus-stream';
import { processParquetFile } from './parquet-corpus';
import { readParquetMetadata, readParquetTrajectory, rowGroups, type AsyncBuffer } from './parquet-rows';
import { parseShard, type Shard } from './shard';

const FORMATS = join(import.meta.dirname, '../formats/__fixtures__');
const counter = { count: (t: string) => Math.ceil(t.length / 4), counter: 'chars/4' };

/** An in-memory file that records the byte ranges read from it. */
function ranges(bytes: Uint8Array): AsyncBuffer & { reads: [number, number][] } {
  const reads: [number, number][] = [];
  return {
    reads,
    byteLength: bytes.byteLength,
    slice(start, end = bytes.byteLength) {
      reads.push([start, end]);
      return bytes.slice(start, end).buffer;
    },
  };
}

async function run(bytes: Uint8Array, opts: { column?: string; shard?: Shard } = {}) {
  const rows: { row: CorpusRow; at: RowLocation }[] = [];
  const issues: ParseIssue[] = [];
  const notices: ParseIssue[] = [];
  const failed: { at: RowLocation; issue: ParseIssue }[] = [];
  const file = ranges(bytes);
  const outcome = await processParquetFile('data.parquet', file, counter, { row: (row, at) => rows.push({ row, at }), issue: (i) => issues.push(i), notice: (i) => notices.push(i), failed: (at, issue) => failed.push({ at, issue }) }, opts);
  return { rows, issues, notices, failed, outcome, reads: file.reads };
}

describe('a Parquet dataset of SWE-agent trajectories (nebius/SWE-agent-trajectories)', () => {
  it('gives one row per dataset row: the trajectory column found, roles read the chat way, id, model and outcome from the row', async () => {
    const source = sweAgentRows(5);
    const { rows, issues, notices, outcome } = await run(sweAgentParquet(5));
    expect(issues.filter((i) => i.severity === 'error')).toEqual([]);
    expect(notices).toEqual([]);
    expect(outcome).toMatchObject({ mode: 'parquet', trajectories: 5 });
    expect(rows.map((r) => [r.at.line, r.at.parquetColumn, r.row.line, r.row.format])).toEqual(source.map((_, i) => [i + 1, 'trajectory', i + 1, 'openai-chat']));
    expect(rows.map((r) => [r.row.id, r.row.model, r.row.success])).toEqual(source.map((s) => [`${String(s['instance_id'])}/${String(s['model_name'])}`, s['model_name'], s['target']]));
    // Each `ai` turn is a model call: the steps plus the final submit.
    expect(rows.map((r) => r.row.turns)).toEqual(source.map((s) => (s['trajectory'] as { role: string }[]).filter((m) => m.role === 'ai').length));
    expect(rows.every((r) => r.row.total_tokens > 0)).toBe(true);
  });
});

describe('a Parquet dataset of OpenHands trajectories (nebius/SWE-rebench-openhands-trajectories)', () => {
  it('reads the trajectory with its tool calls, leaves the tool definitions column alone, and takes resolved 0/1 as the outcome', async () => {
    const source = openHandsRows(4);
    const { rows, notices } = await run(openHandsParquet(4, 3));
    expect(notices).toEqual([]);
    expect(rows.map((r) => [r.row.id, r.row.format, r.row.success])).toEqual(source.map((s) => [s['trajectory_id'], 'openai-chat', s['resolved'] === 1n]));
    expect(rows.map((r) => r.row.tool_calls)).toEqual(source.map((s) => (s['trajectory'] as { role: string }[]).filter((m) => m.role === 'assistant').length));
    expect(rows.every((r) => r.row.errors === 0)).toBe(true);
  });
});

describe('choosing the column', () => {
  const events = readFileSync(join(FORMATS, 'openhands-condensation.json'), 'utf8');
  const twoCandidates = () =>
    writeParquet(
      [
        { name: 'instance_id', type: 'string' },
        { name: 'messages', list: { name: 'element', struct: [{ name: 'role', type: 'string' }, { name: 'content', type: 'string' }] } },
        { name: 'trajectory', type: 'string' },
        { name: 'resolved', type: 'bool' },
      ],
      [0, 1, 2].map((i) => ({ instance_id: `task-${i}`, messages: [{ role: 'user', content: `Fix bug ${i}.` }, { role: 'assistant', content: 'Done.' }], trajectory: events, resolved: i === 1 })),
    );

  it('prefers the usual name among several candidates and says which others could hold trajectories', async () => {
    const { rows, notices } = await run(twoCandidates());
    expect(rows.map((r) => r.row.format)).toEqual(['openai-chat', 'openai-chat', 'openai-chat']);
    expect(notices.map((n) => [n.field, n.severity])).toEqual([['messages', 'warning']]);
    expect(notices[0]!.message).toMatch(/trajectory \(string\) could hold them too: pick one with --column NAME/);
  });

  it('reads the column --column names: here JSON text of OpenHands events', async () => {
    const { rows } = await run(twoCandidates(), { column: 'trajectory' });
    expect(rows.map((r) => [r.row.format, r.row.id, r.row.success])).toEqual([
      ['openhands', 'task-0', false],
      ['openhands', 'task-1', true],
      ['openhands', 'task-2', false],
    ]);
  });

  it('reads a JSON column holding whole trajectories', async () => {
    const doc = JSON.parse(readFileSync(join(FORMATS, 'self-sum-sciworld.json'), 'utf8')) as Record<string, unknown>;
    const bytes = writeParquet([{ name: 'row', type: 'json' }], [0, 1].map((i) => ({ row: { ...doc, item_id: `s${i}` } })));
    const { rows } = await run(bytes);
    expect(rows.map((r) => [r.row.id, r.row.format, r.row.reward])).toEqual([
      ['s0', 'self-sum', 0.4],
      ['s1', 'self-sum', 0.4],
    ]);
  });

  it('lists the columns when none holds trajectories, or when --column names none of them', async () => {
    const bytes = writeParquet(
      [
        { name: 'prompt', type: 'string' },
        { name: 'score', type: 'double' },
      ],
      [{ prompt: 'hello', score: 1 }],
    );
    const none = await run(bytes);
    expect(none.rows).toEqual([]);
    expect(none.failed.map((f) => [f.at.line, f.issue.file])).toEqual([[null, 'data.parquet']]);
    expect(none.failed[0]!.issue.message).toMatch(/^no column holds trajectories.*the columns are prompt \(string\), score \(double\)\. Name the one to read with --column NAME$/);
    const wrong = await run(sweAgentParquet(2), { column: 'messages' });
    expect(wrong.failed[0]!.issue.message).toMatch(/^no column named "messages"; the columns are instance_id \(string\), model_name \(string\), target \(boolean\), trajectory \(list<struct<cutoff_date, mask, role, system_prompt, text>>\)/);
  });

  it('gives a bad row an error row with its row number and the column, and goes on', async () => {
    const bytes = writeParquet(
      [
        { name: 'id', type: 'string' },
        { name: 'messages', type: 'string' },
      ],
      [
        { id: 'a', messages: JSON.stringify([{ role: 'user', content: 'one' }]) },
        { id: 'b', messages: '[{"role": "user", ' },
        { id: 'c', messages: null },
        { id: 'd', messages: JSON.stringify([{ role: 'user', content: 'four' }]) },
      ],
    );
    const { rows, failed } = await run(bytes);
    expect(rows.map((r) => [r.row.line, r.row.id])).toEqual([
      [1, 'a'],
      [4, 'd'],
    ]);
    expect(failed.map((f) => [f.at.line, f.issue.line, f.issue.field])).toEqual([
      [2, 2, 'messages'],
      [3, 3, 'messages'],
    ]);
    expect(failed.map((f) => f.issue.message)).toEqual([expect.stringMatching(/^the column's text is not JSON/), 'the column is empty in this row']);
  });
});

describe('reading row group by row group', () => {
  it('never reads more than one row group at a time beyond the footer', async () => {
    // Long observations that do not compress, so each row group is far larger than the footer read.
    let seed = 7;
    const noise = (n: number) => Array.from({ length: n }, () => ((seed = (seed * 48271) % 2147483647), (seed % 36).toString(36))).join('');
    const rows = sweAgentRows(24).map((r) => ({ ...r, trajectory: (r['trajectory'] as Record<string, unknown>[]).map((m) => (m['role'] === 'user' ? { ...m, text: `${String(m['text'])}\n${noise(20_000)}` } : m)) }));
    const bytes = writeParquet([{ name: 'instance_id', type: 'string' }, { name: 'target', type: 'bool' }, { name: 'trajectory', list: { name: 'element', struct: [{ name: 'role', type: 'string' }, { name: 'text', type: 'string' }] } }], rows, 3);
    const metadata = await readParquetMetadata({ byteLength: bytes.byteLength, slice: (s, e) => bytes.slice(s, e).buffer });
    const groups = rowGroups(metadata);
    expect(groups).toHaveLength(8);
    const largest = Math.max(...groups.map((g) => g.bytes));
    expect(bytes.byteLength).toBeGreaterThan(4 * largest);
    const { reads, outcome } = await run(bytes);
    expect(outcome.trajectories).toBe(24);
    // The first read is the footer (hyparquet asks for the file's tail); every read after it is within one row group.
    expect(reads.slice(1).every(([s, e]) => e - s <= largest)).toBe(true);
    expect(reads.length).toBeGreaterThan(groups.length);
  });

  it('splits a file into shards by row group: the shards partition the rows exactly', async () => {
    const bytes = sweAgentParquet(21, 2);
    const all = (await run(bytes)).rows.map((r) => r.row.line);
    const shards = [];
    for (const i of [1, 2, 3]) shards.push((await run(bytes, { shard: parseShard(`${i}/3`) as Shard })).rows.map((r) => r.row.line));
    expect(shards.every((s) => s.length > 0 && s.length < all.length)).toBe(true);
    expect(shards.flat().sort((a, b) => a! - b!)).toEqual(all);
  });
});

describe('opening one row again', () => {
  it('reads the row back as the text of a corpus line that loads to the same trajectory', async () => {
    const bytes = openHandsParquet(5, 2);
    const { rows } = await run(bytes);
    const row = rows[3]!;
    const again = await readParquetTrajectory('data.parquet', ranges(bytes), row.at.line!, row.at.parquetColumn!);
    expect(parseCorpusLineName(again.name)).toEqual({ file: 'data.parquet', line: 4 });
    const loaded = loadCorpusLine('data.parquet', 4, again.text);
    expect(loaded.sessions.map((s) => [s.id, s.format, s.items.length])).toEqual([[row.row.id, 'openai-chat', row.row.items]]);
  });
});
