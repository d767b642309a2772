// The corpus on a real cluster engine: a Dask LocalCluster of 2 worker processes (scheduler and workers talking TCP on
// 127.0.0.1) reads a JSONL corpus with dask.bag.read_text into several partitions and pipes each through
// `npx compaction-inspector corpus --stdin --jsonl --estimate`; the rows equal a single-process run over the same file
// (`line`, which counts within a partition, aside). A Parquet dataset runs as the --shard recipe: one task per shard.
//
// Needs Debian's python3-distributed (Dask distributed, for /usr/bin/python3). .ci/run installs it; in CI (CI or
// REQUIRE_DASK set) its absence fails the test, elsewhere the test is skipped with the reason printed.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { syntheticJsonl } from '../corpus/synthetic';
import { mixedFormatLines } from '../test/mixed-corpus';
import { openHandsParquet, sweAgentParquet } from '../test/parquet-datasets';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** The CLI as the recipe runs it; `--no-install` so the test never asks the registry (the checkout's own bin runs). */
const CLI = ['npx', '--no-install', 'compaction-inspector', 'corpus'];
const required = Boolean(process.env['CI'] || process.env['REQUIRE_DASK']);

/** A Python that imports Dask distributed: $DASK_PYTHON, Debian's /usr/bin/python3, or python3 on the PATH. */
function daskPython(): string | null {
  for (const py of [process.env['DASK_PYTHON'], '/usr/bin/python3', 'python3']) {
    if (py && spawnSync(py, ['-c', 'import dask.bag, distributed'], { stdio: 'ignore' }).status === 0) return py;
  }
  return null;
}

const PYTHON = daskPython();
const MISSING = 'Dask distributed is not installed for /usr/bin/python3: install it with `apt-get install -y python3-distributed` (.ci/run does), or point DASK_PYTHON at a Python that has it';
if (!PYTHON && !required) console.warn(`skipping the Dask test: ${MISSING}`);

const SCRIPT = `
import json, logging, os, subprocess, sys
import dask.bag as db
from dask.distributed import Client, LocalCluster

def run(cmd, cwd, text=None):
    p = subprocess.run(cmd, input=text, capture_output=True, text=True, cwd=cwd)
    if p.returncode not in (0, 1):
        raise RuntimeError("%s exited %d: %s" % (" ".join(cmd), p.returncode, p.stderr))
    return [json.loads(l) for l in p.stdout.splitlines() if l.strip()]

if __name__ == "__main__":
    cfg = json.loads(sys.argv[1])
    cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                           dashboard_address=None, silence_logs=logging.ERROR)
    client = Client(cluster)
    try:
        workers = client.run(os.getpid)
        stdin = cfg["cli"] + ["--stdin", "--jsonl", "--estimate"]
        # The JSONL recipe: partitions of lines, each piped through one corpus --stdin process.
        bag = db.read_text(cfg["jsonl"], blocksize=cfg["blocksize"])
        parts = bag.map_partitions(lambda lines: [{"pid": os.getpid(), "rows": run(stdin, cfg["cwd"], "".join(lines))}]).compute()
        # The Parquet recipe: one task per shard, each reading its own row groups of every file.
        n = cfg["shards"]
        tasks = db.from_sequence(range(1, n + 1), npartitions=n)
        shards = tasks.map(lambda i: run(cfg["cli"] + [cfg["parquet"], "--jsonl", "--estimate", "--shard", "%d/%d" % (i, n)], cfg["cwd"])).compute()
        print(json.dumps({"workers": list(workers.values()), "npartitions": bag.npartitions, "parts": parts, "shards": shards}))
    finally:
        client.close()
        cluster.close()
`;

let dir = '';
let lines: string[] = [];

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'dask-pipe-'));
  // Every single-document format, research trajectories, and one bad line (an error row, the others go on).
  lines = [...mixedFormatLines().map((l) => JSON.stringify(l.value)), ...syntheticJsonl(24, 35).trim().split('\n')];
  lines.splice(17, 0, '{"messages": [');
  writeFileSync(join(dir, 'trajectories.jsonl'), `${lines.join('\n')}\n`);
  mkdirSync(join(dir, 'dataset'));
  writeFileSync(join(dir, 'dataset', 'train-00000-of-00002.parquet'), sweAgentParquet(9, 2));
  writeFileSync(join(dir, 'dataset', 'train-00001-of-00002.parquet'), openHandsParquet(7, 2));
  writeFileSync(join(dir, 'pipe.py'), SCRIPT);
});

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

type Row = Record<string, unknown>;
const parse = (out: string): Row[] =>
  out
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Row);
const key = (r: Row) => `${String(r['id'])}\u0000${String(r['error'])}`;
/** Rows sorted by id (error rows by their message), without the partition-relative line. */
const byId = (rows: Row[]) => rows.map(({ line: _line, ...r }) => r).sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));

describe('Dask distributed: a LocalCluster of 2 worker processes runs the corpus', () => {
  it.skipIf(!PYTHON && !required)(
    'gives, partition by partition, the rows of a single-process run; and the --shard recipe over a Parquet dataset',
    () => {
      if (!PYTHON) throw new Error(MISSING);
      const jsonl = join(dir, 'trajectories.jsonl');
      const cfg = { cli: CLI, cwd: ROOT, jsonl, blocksize: Math.ceil(Buffer.byteLength(`${lines.join('\n')}\n`) / 3), parquet: join(dir, 'dataset'), shards: 2 };
      const out = execFileSync(PYTHON, [join(dir, 'pipe.py'), JSON.stringify(cfg)], { cwd: dir, encoding: 'utf8', maxBuffer: 1 << 28, timeout: 840_000 });
      const result = JSON.parse(out.trim().split('\n').pop()!) as { workers: number[]; npartitions: number; parts: { pid: number; rows: Row[] }[]; shards: Row[][] };

      // Two worker processes, other than this one and the scheduler's; several partitions, each run on one of them.
      expect(new Set(result.workers).size).toBe(2);
      expect(result.npartitions).toBeGreaterThanOrEqual(3);
      expect(result.parts).toHaveLength(result.npartitions);
      for (const p of result.parts) expect(result.workers).toContain(p.pid);

      const single = spawnSync(CLI[0]!, [...CLI.slice(1), '--stdin', '--jsonl', '--estimate'], { cwd: ROOT, input: `${lines.join('\n')}\n`, encoding: 'utf8', maxBuffer: 1 << 28 });
      expect(single.status).toBe(0);
      const whole = parse(single.stdout);
      expect(whole).toHaveLength(lines.length);
      const piped = result.parts.flatMap((p) => p.rows);
      expect(piped).toHaveLength(lines.length);
      expect(byId(piped)).toEqual(byId(whole));
      // The bad line is an error row in both; every format is measured.
      expect(piped.filter((r) => r['error'] !== null)).toHaveLength(1);
      expect(new Set(piped.map((r) => r['format']))).toEqual(new Set([null, ...mixedFormatLines().map((l) => l.format), 'agent-omit', 'reasoning-trace']));

      // --shard i/n over a Parquet folder: the shards' rows are exactly the rows of one run over the folder.
      const folder = spawnSync(CLI[0]!, [...CLI.slice(1), join(dir, 'dataset'), '--jsonl', '--estimate'], { cwd: ROOT, encoding: 'utf8', maxBuffer: 1 << 28 });
      expect(folder.status).toBe(0);
      const all = parse(folder.stdout);
      expect(all).toHaveLength(16);
      const at = (r: Row) => `${String(r['file'])}:${String(r['line']).padStart(4, '0')}`;
      const sorted = (rows: Row[]) => [...rows].sort((a, b) => (at(a) < at(b) ? -1 : 1));
      expect(result.shards.filter((s) => s.length > 0).length).toBeGreaterThan(1);
      expect(sorted(result.shards.flat())).toEqual(sorted(all));
    },
    // Each task starts a CLI through npx; on a busy 2-core machine the whole run took 6 minutes.
    900_000,
  );
});
