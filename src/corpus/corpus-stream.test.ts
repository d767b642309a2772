import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ParseIssue } from '../model/types';
import type { CorpusRow } from './corpus-row';
import { processCorpusFile, textChunks, type RowLocation } from './corpus-stream';
import { syntheticJsonl } from './synthetic';

const DIR = join(import.meta.dirname, '__fixtures__');
const FORMATS = join(import.meta.dirname, '../formats/__fixtures__');
const one = { count: () => 1, counter: 'one' };

async function run(name: string, bytes: Uint8Array | string, chunk = 64) {
  const rows: { row: CorpusRow; at: RowLocation }[] = [];
  const issues: ParseIssue[] = [];
  const progress: number[] = [];
  const outcome = await processCorpusFile(name, textChunks(bytes, chunk), one, { row: (row, at) => rows.push({ row, at }), issue: (i) => issues.push(i), progress: (b) => progress.push(b) });
  return { rows, issues, progress, outcome };
}

describe('processCorpusFile', () => {
  it('measures a JSONL corpus line by line, each row locating its line by byte range', async () => {
    const bytes = readFileSync(join(DIR, 'self-sum-corpus.jsonl'));
    const { rows, outcome, progress } = await run('c.jsonl', bytes, 50);
    expect(outcome).toEqual({ mode: 'jsonl-corpus', trajectories: 3, bytes: bytes.length });
    expect(rows.map((r) => r.row.line)).toEqual([1, 2, 3]);
    for (const { row, at } of rows) expect(JSON.parse(bytes.subarray(at.start, at.end).toString('utf8')).item_id).toBe(row.id);
    expect(progress.at(-1)).toBe(bytes.length);
  });

  it('gives the same rows whatever the chunk size', async () => {
    const text = syntheticJsonl(12, 5);
    const a = await run('s.jsonl', text, 7);
    const b = await run('s.jsonl', text, 1 << 20);
    expect(a.rows.map((r) => r.row)).toEqual(b.rows.map((r) => r.row));
    expect(a.rows).toHaveLength(12);
  });

  it('loads a JSONL session (Claude Code) whole and gives one row for the file, with its issues', async () => {
    const bytes = readFileSync(join(FORMATS, 'claude-code-session.jsonl'));
    const { rows, issues, outcome } = await run('cc.jsonl', bytes);
    expect(outcome.mode).toBe('file');
    expect(rows.map((r) => [r.row.format, r.row.line, r.at])).toEqual([['claude-code', null, { line: null, start: 0, end: bytes.length }]]);
    expect(issues.filter((i) => i.severity === 'error').map((i) => [i.file, i.line])).toEqual([
      ['cc.jsonl', 21],
      ['cc.jsonl', 22],
    ]);
  });

  it('loads a pretty-printed JSON trajectory whole', async () => {
    const { rows, outcome } = await run('w.json', readFileSync(join(DIR, 'agent-omit-corpus/webshop-01.json')), 16);
    expect(outcome.mode).toBe('file');
    expect(rows.map((r) => [r.row.id, r.row.format])).toEqual([['w', 'agent-omit']]);
  });

  it('reports a bad corpus line with its file and line and goes on with the next', async () => {
    const lines = readFileSync(join(DIR, 'self-sum-corpus.jsonl'), 'utf8').trim().split('\n');
    const text = [lines[0], lines[1], '{"conversations": [', lines[2]].join('\n');
    const { rows, issues } = await run('bad.jsonl', text);
    expect(rows.map((r) => r.row.line)).toEqual([1, 2, 4]);
    expect(issues.map((i) => [i.file, i.line, i.severity])).toEqual([['bad.jsonl', 3, 'error']]);
  });

  it('hands UTF-16 and empty files to the loader, which decodes or reports them', async () => {
    const utf16 = new Uint8Array([0xff, 0xfe, ...new Uint8Array(Buffer.from(readFileSync(join(FORMATS, 'sharegpt-agentgym.json'), 'utf8'), 'utf16le'))]);
    const a = await run('u16.json', utf16);
    expect(a.rows.map((r) => r.row.format)).toEqual(['sharegpt']);
    const b = await run('empty.json', new Uint8Array(0));
    expect(b.rows).toEqual([]);
    expect(b.issues.map((i) => i.message)).toEqual(['the file is empty']);
  });
});
