// `corpus --stdin --jsonl` as Spark's RDD.pipe runs it: one process per partition, each fed its partition's lines.
// The rows of all partitions, put together, are the rows of one process over every line (only `line`, which counts
// within a partition, differs). The first test runs the CLI as pipe does, with Node alone; the second runs it under
// PySpark in local[2] mode when RUN_SPARK=1, installing pyspark (pip) and a JRE (apt-get) when they are missing.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { syntheticJsonl } from '../corpus/synthetic';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
let dir = '';
/** Node and a script that runs the built CLI: what `npx compaction-inspector` runs once installed, no TypeScript loader. */
let CMD: string[] = [];
let lines: string[] = [];

beforeAll(() => {
  execFileSync(process.execPath, ['bin/build-cli.mjs'], { cwd: ROOT });
  dir = mkdtempSync(join(tmpdir(), 'spark-pipe-'));
  CMD = [process.execPath, join(dir, 'compaction-inspector.mjs')];
  writeFileSync(CMD[1]!, `const m = await import(${JSON.stringify(pathToFileURL(join(ROOT, 'dist-cli', 'main.mjs')).href)}); process.exitCode = await m.run(process.argv.slice(2));\n`);
  lines = syntheticJsonl(12, 4).trim().split('\n');
});

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const ARGS = ['corpus', '--stdin', '--jsonl', '--estimate'];

function pipe(input: string[]): Record<string, unknown>[] {
  const r = spawnSync(CMD[0]!, [CMD[1]!, ...ARGS], { input: `${input.join('\n')}\n`, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`corpus --stdin exited ${r.status}: ${r.stderr}`);
  return r.stdout.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
}

/** Rows keyed by trajectory id, without the partition-relative line number. */
const byId = (rows: Record<string, unknown>[]) => Object.fromEntries(rows.map(({ line: _line, ...row }) => [String(row['id']), row]));

describe('corpus --stdin --jsonl in partitions', () => {
  it('gives, partition by partition, the rows of one run over every line', () => {
    const whole = pipe(lines);
    expect(whole).toHaveLength(12);
    const parts = [lines.slice(0, 5), lines.slice(5)];
    const piped = parts.flatMap(pipe);
    expect(byId(piped)).toEqual(byId(whole));
    expect(piped.map((r) => r['line'])).toEqual([1, 2, 3, 4, 5, 1, 2, 3, 4, 5, 6, 7]);
  });

  it.runIf(process.env['RUN_SPARK'] === '1')(
    'gives the same rows under PySpark in local[2] mode',
    () => {
      const has = (cmd: string, args: string[]) => spawnSync(cmd, args, { stdio: 'ignore' }).status === 0;
      if (!has('java', ['-version'])) execFileSync('apt-get', ['install', '-y', 'default-jre-headless'], { stdio: 'inherit' });
      if (!has('python3', ['-c', 'import pyspark'])) execFileSync('python3', ['-m', 'pip', 'install', 'pyspark'], { stdio: 'inherit' });
      const input = join(dir, 'trajectories.jsonl');
      writeFileSync(input, `${lines.join('\n')}\n`);
      const script = join(dir, 'pipe.py');
      writeFileSync(
        script,
        [
          'import json, shlex, sys',
          'from pyspark.sql import SparkSession',
          'spark = SparkSession.builder.master("local[2]").appName("compaction-inspector").getOrCreate()',
          `cmd = ${JSON.stringify([...CMD, ...ARGS].map((a) => a.replace(/'/g, "'\\''")).map((a) => `'${a}'`).join(' '))}`,
          'rows = spark.sparkContext.textFile(sys.argv[1], 2).pipe(cmd).map(json.loads).collect()',
          'print(json.dumps(rows))',
          'spark.stop()',
        ].join('\n'),
      );
      const out = execFileSync('python3', [script, input], { encoding: 'utf8', maxBuffer: 1 << 26 });
      const rows = JSON.parse(out.trim().split('\n').pop()!) as Record<string, unknown>[];
      expect(rows).toHaveLength(12);
      expect(byId(rows)).toEqual(byId(pipe(lines)));
    },
    600_000,
  );
});
