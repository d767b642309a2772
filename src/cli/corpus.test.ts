// `compaction-inspector corpus` end to end on a temporary corpus: ordered JSONL rows, stderr issues, shards,
// and the worker-thread path (workers load the TypeScript worker module through tsx).
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CORPUS_COLUMNS } from '../corpus/corpus-row';
import { shardOf } from '../corpus/shard';
import { syntheticCorpus, syntheticJsonl } from '../corpus/synthetic';
import { openHandsParquet, sweAgentParquet } from '../test/parquet-datasets';
import { runCorpus, walkCorpus } from './corpus';
import { run } from './main';

let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'corpus-cli-'));
  const files = syntheticCorpus(30, 11);
  mkdirSync(join(dir, 'a', 'deeper'), { recursive: true });
  mkdirSync(join(dir, '.hidden'));
  files.forEach((f, i) => writeFileSync(join(dir, i % 2 ? 'a' : join('a', 'deeper'), f.name), f.text));
  writeFileSync(join(dir, 'rollouts.jsonl'), syntheticJsonl(5, 3));
  writeFileSync(join(dir, 'notes.md'), '# not a transcript');
  writeFileSync(join(dir, '.hidden', 'skip.json'), '{}');
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function corpus(...args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCorpus(args, { out: (t) => out.push(t), err: (t) => err.push(t) });
  return { code, out, err };
}

describe('walkCorpus', () => {
  it('finds .json/.jsonl files in folders recursively, sorted, keyed relative to the folder, skipping dot-folders', () => {
    const { files, missing } = walkCorpus([dir]);
    expect(missing).toEqual([]);
    expect(files).toHaveLength(31);
    expect(files.at(-1)).toEqual({ path: join(dir, 'rollouts.jsonl'), key: 'rollouts.jsonl' });
    expect(files[0]!.key).toMatch(/^a\/agent-omit-\d+\.json$/);
    expect(files.some((f) => f.key.includes('deeper/'))).toBe(true);
    expect(files.some((f) => f.path.includes('.hidden'))).toBe(false);
  });
});

describe('corpus --jsonl', () => {
  it('writes one parsable JSON line per trajectory, keys in the documented order, numbers as numbers', async () => {
    const { code, out, err } = await corpus(dir, '--jsonl', '--threads', '0', '--estimate');
    expect(err).toEqual([]);
    expect(code).toBe(0);
    // 30 files of one trajectory each, and a JSONL corpus of 5 lines.
    expect(out).toHaveLength(35);
    const rows = out.map((l) => JSON.parse(l) as Record<string, unknown>);
    for (const r of rows) {
      expect(Object.keys(r)).toEqual(CORPUS_COLUMNS.map((c) => c.key));
      for (const k of ['turns', 'total_tokens', 'peak_context_tokens', 'tokens_saved', 'lints']) expect(typeof r[k]).toBe('number');
      expect(Array.isArray(r['summary_turns'])).toBe(true);
      expect(r['token_counter']).toBe('estimate');
    }
    expect(rows.filter((r) => r['file'] === join(dir, 'rollouts.jsonl')).map((r) => r['line'])).toEqual([1, 2, 3, 4, 5]);
    expect(new Set(rows.map((r) => r['format']))).toEqual(new Set(['self-sum', 'agent-omit', 'reasoning-trace']));
  });

  it('gives the same lines in the same order with worker threads as without', async () => {
    const inline = await corpus(dir, '--jsonl', '--threads', '0');
    const threaded = await corpus(dir, '--jsonl', '--threads=2');
    expect(threaded.err).toEqual([]);
    expect(threaded.code).toBe(0);
    expect(threaded.out).toEqual(inline.out);
    expect(JSON.parse(threaded.out[0]!).token_counter).toBe('o200k_base');
  });

  it('splits the corpus into shards that partition it exactly, the same way every run', async () => {
    const all = (await corpus(dir, '--jsonl', '--threads', '0', '--estimate')).out;
    const shards = [];
    for (const i of [1, 2, 3]) shards.push((await corpus(dir, '--jsonl', '--threads', '0', '--estimate', '--shard', `${i}/3`)).out);
    expect(shards.every((s) => s.length > 0)).toBe(true);
    expect(shards.flat().sort()).toEqual([...all].sort());
    expect(new Set(shards.flat()).size).toBe(all.length);
    const again = (await corpus(dir, '--jsonl', '--threads', '0', '--estimate', '--shard=2/3')).out;
    expect(again).toEqual(shards[1]);
    // Keys are relative to the folder: the same corpus under another path shards the same way.
    const moved = mkdtempSync(join(tmpdir(), 'corpus-moved-'));
    try {
      for (const f of walkCorpus([dir]).files) {
        mkdirSync(join(moved, f.key, '..'), { recursive: true });
        writeFileSync(join(moved, f.key), '');
      }
      const shardKeys = (root: string) => walkCorpus([root]).files.map((f) => [f.key, shardOf(f.key, 3)]);
      expect(shardKeys(moved)).toEqual(shardKeys(dir));
    } finally {
      rmSync(moved, { recursive: true, force: true });
    }
  });

  it('writes problems to stderr as JSON lines and exits 1, still writing the good rows and an error row per bad place', async () => {
    const bad = mkdtempSync(join(tmpdir(), 'corpus-bad-'));
    try {
      const [good] = syntheticCorpus(1, 2);
      writeFileSync(join(bad, good!.name), good!.text);
      writeFileSync(join(bad, 'broken.json'), '{"messages": [');
      const lines = syntheticJsonl(3, 9).trim().split('\n');
      writeFileSync(join(bad, 'mixed.jsonl'), [lines[0], lines[1], '{"conversations": [', lines[2]].join('\n'));
      const { code, out, err } = await corpus(bad, '--jsonl', '--threads', '0', '--estimate');
      expect(code).toBe(1);
      const rows = out.map((l) => JSON.parse(l) as Record<string, unknown>);
      expect(rows.map((r) => [r['file'], r['line'], r['error'] === null])).toEqual([
        [join(bad, 'broken.json'), null, false],
        [join(bad, 'mixed.jsonl'), 1, true],
        [join(bad, 'mixed.jsonl'), 2, true],
        [join(bad, 'mixed.jsonl'), 3, false],
        [join(bad, 'mixed.jsonl'), 4, true],
        [join(bad, good!.name), null, true],
      ]);
      // An error row has every key of a row, its measures null.
      const errorRow = rows[3]!;
      expect(Object.keys(errorRow)).toEqual(CORPUS_COLUMNS.map((c) => c.key));
      expect([errorRow['id'], errorRow['turns'], errorRow['total_tokens'], errorRow['errors']]).toEqual([null, null, null, 1]);
      expect(errorRow['error']).toMatch(/invalid JSON/);
      const issues = err.map((l) => JSON.parse(l));
      expect(issues.map((i) => [i.file, i.line, i.severity])).toEqual([
        [join(bad, 'broken.json'), 1, 'error'],
        [join(bad, 'mixed.jsonl'), 3, 'error'],
      ]);
    } finally {
      rmSync(bad, { recursive: true, force: true });
    }
  });

  it('prints per-format totals without --jsonl', async () => {
    const { code, out } = await corpus(dir, '--threads', '0', '--estimate');
    expect(code).toBe(0);
    expect(out.join('\n')).toMatch(/^format +trajectories/);
    expect(out.join('\n')).toContain('35 trajectories from 31 files.');
  });

  it('refuses bad usage with exit status 2, through the main command too', async () => {
    expect((await corpus()).code).toBe(2);
    expect((await corpus(dir, '--shard', '4/3')).err[0]).toMatch(/^--shard 4\/3: i must be between 1 and n/);
    expect((await corpus(dir, '--threads', 'many')).code).toBe(2);
    expect((await corpus(join(dir, 'nope'))).code).toBe(2);
    const err: string[] = [];
    const code = await run(['corpus', dir, '--bogus'], { out: () => {}, err: (t) => err.push(t), readFile: () => new Uint8Array(), listDir: () => [], isDir: () => false, exists: () => false });
    expect(code).toBe(2);
    expect(err[0]).toMatch(/^unknown option --bogus/);
  });
});

describe('corpus --stdin --jsonl', () => {
  async function* chunks(text: string, size: number): AsyncGenerator<Uint8Array> {
    const bytes = new TextEncoder().encode(text);
    for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
  }

  it('writes the same rows as a file run over the same lines, however the input is chunked', async () => {
    const text = syntheticJsonl(7, 5);
    const path = join(dir, 'piped.jsonl');
    writeFileSync(path, text);
    const fromFile = await corpus(path, '--jsonl', '--threads', '0', '--estimate');
    expect(fromFile.code).toBe(0);
    expect(fromFile.out).toHaveLength(7);
    for (const size of [1 << 16, 97]) {
      const out: string[] = [];
      const err: string[] = [];
      const code = await runCorpus(['--stdin', '--stdin-name', path, '--jsonl', '--estimate'], { out: (t) => out.push(t), err: (t) => err.push(t), stdin: chunks(text, size) });
      expect(err).toEqual([]);
      expect(code).toBe(0);
      expect(out).toEqual(fromFile.out);
    }
  });

  it('names rows `stdin` by default and refuses paths or --shard beside --stdin', async () => {
    const out: string[] = [];
    expect(await runCorpus(['--stdin', '--jsonl', '--estimate'], { out: (t) => out.push(t), err: () => {}, stdin: chunks(syntheticJsonl(2, 1), 1 << 16) })).toBe(0);
    expect(out.map((l) => JSON.parse(l).file)).toEqual(['stdin', 'stdin']);
    expect((await corpus('--stdin', dir)).code).toBe(2);
    expect((await corpus('--stdin', '--shard', '1/2')).code).toBe(2);
  });
});

describe('corpus data.parquet', () => {
  let pq: string;
  beforeAll(() => {
    pq = mkdtempSync(join(tmpdir(), 'corpus-parquet-'));
    mkdirSync(join(pq, 'data'));
    writeFileSync(join(pq, 'data', 'train-00000-of-00002.parquet'), sweAgentParquet(7, 2));
    writeFileSync(join(pq, 'data', 'train-00001-of-00002.parquet'), openHandsParquet(5, 2));
  });
  afterAll(() => rmSync(pq, { recursive: true, force: true }));

  it('reads the Parquet files of a dataset folder, one row per dataset row, the same with worker threads', async () => {
    const inline = await corpus(pq, '--jsonl', '--threads', '0', '--estimate');
    expect(inline.err).toEqual([]);
    expect(inline.code).toBe(0);
    const rows = inline.out.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(rows.map((r) => [String(r['file']).split('/').pop(), r['line']])).toEqual([
      ...Array.from({ length: 7 }, (_, i) => ['train-00000-of-00002.parquet', i + 1]),
      ...Array.from({ length: 5 }, (_, i) => ['train-00001-of-00002.parquet', i + 1]),
    ]);
    expect(rows.every((r) => r['format'] === 'openai-chat' && r['error'] === null && (r['turns'] as number) > 0)).toBe(true);
    const threaded = await corpus(pq, '--jsonl', '--threads', '2', '--estimate');
    expect(threaded.out).toEqual(inline.out);
  });

  it('takes --column, and says on stderr why a file gave nothing', async () => {
    const one = join(pq, 'data', 'train-00000-of-00002.parquet');
    const picked = await corpus(one, '--jsonl', '--threads', '0', '--estimate', '--column', 'trajectory');
    expect(picked.out).toHaveLength(7);
    const wrong = await corpus(one, '--jsonl', '--threads', '0', '--estimate', '--column', 'messages');
    expect(wrong.code).toBe(1);
    expect(wrong.out.map((l) => JSON.parse(l).error)).toEqual([expect.stringMatching(/^no column named "messages"; the columns are instance_id/)]);
    expect(JSON.parse(wrong.err[0]!)).toMatchObject({ file: one, line: null, severity: 'error' });
    expect((await corpus('--stdin', '--column', 'x')).code).toBe(2);
  });

  it('shares a Parquet file out by row groups under --shard: the shards partition its rows exactly', async () => {
    const all = (await corpus(pq, '--jsonl', '--threads', '0', '--estimate')).out;
    const shards: string[][] = [];
    for (const i of [1, 2, 3]) shards.push((await corpus(pq, '--jsonl', '--threads', '0', '--estimate', '--shard', `${i}/3`)).out);
    // Both files have rows in more than one shard: the split is by row group, not by file.
    for (const f of ['train-00000-of-00002.parquet', 'train-00001-of-00002.parquet']) expect(shards.filter((s) => s.some((l) => l.includes(f))).length).toBeGreaterThan(1);
    expect(shards.flat().sort()).toEqual([...all].sort());
  });
});

describe('corpus --instructions', () => {
  // The fixture's compaction loses the ticket FRE-512, which the person asks for after the summary.
  const session = readFileSync(new URL('../formats/__fixtures__/claude-code-session.jsonl', import.meta.url), 'utf8');
  const neededOf = (out: string[]) => out.map((l) => JSON.parse(l) as { lost_needed_later?: number }).filter((r) => r.lost_needed_later !== undefined).map((r) => r.lost_needed_later);

  it('gives every trajectory’s audit the files, in this thread and in workers, as inspect does', async () => {
    const here = mkdtempSync(join(tmpdir(), 'corpus-instr-'));
    try {
      writeFileSync(join(here, 's.jsonl'), session);
      writeFileSync(join(here, 'CLAUDE.md'), 'The open ticket is FRE-512.');
      const without = await corpus(join(here, 's.jsonl'), '--jsonl', '--estimate', '--threads', '0');
      const before = neededOf(without.out);
      expect(before).toHaveLength(1);
      expect(before[0]).toBeGreaterThan(0);
      for (const threads of ['0', '1']) {
        const withFile = await corpus(join(here, 's.jsonl'), '--jsonl', '--estimate', '--threads', threads, '--instructions', join(here, 'CLAUDE.md'));
        expect(neededOf(withFile.out)).toEqual([before[0]! - 1]);
      }
      const missing = await corpus(join(here, 's.jsonl'), '--jsonl', '--instructions', join(here, 'nope.md'));
      expect(missing.code).toBe(2);
      expect(missing.err.join('\n')).toMatch(/--instructions .*nope\.md: no such file or folder/);
    } finally {
      rmSync(here, { recursive: true, force: true });
    }
  });
});
