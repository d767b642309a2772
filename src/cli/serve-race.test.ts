// Issue 33: `serve` checked a path (its real path resolved), then reopened it by name, so a folder on that path
// swapped for a symlink in between handed out a file outside the listed folder (4.5% of answers). A child process
// swaps a folder of the listed one with a link to an outside folder as fast as it can while the server is asked for
// a file in it: no answer may carry the outside file.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openRoots } from './serve-listing';
import { startServer, type RunningServer } from './serve';

let tmp: string;
let srv: RunningServer;
let swapper: ChildProcess;

/** An answer, or status 0 when the server dropped the connection (a file that vanished mid-read). */
function get(path: string): Promise<{ status: number; body: string }> {
  return new Promise((done) => {
    const req = request({ host: '127.0.0.1', port: srv.port, path, headers: { host: `127.0.0.1:${srv.port}` } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (body += d));
      res.on('end', () => done({ status: res.statusCode ?? 0, body }));
      res.on('error', () => done({ status: 0, body }));
    });
    req.on('error', () => done({ status: 0, body: '' }));
    req.end();
  });
}

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'ci-serve-race-'));
  const sessions = join(tmp, 'sessions');
  mkdirSync(sessions);
  mkdirSync(join(tmp, 'dist'));
  writeFileSync(join(tmp, 'dist', 'index.html'), '<!doctype html>');
  mkdirSync(join(sessions, 'd'));
  writeFileSync(join(sessions, 'd', 'f.jsonl'), '{"inside":true}\n');
  mkdirSync(join(tmp, 'outside'));
  writeFileSync(join(tmp, 'outside', 'f.jsonl'), '{"secret":"outside the folder"}\n');
  symlinkSync(join(tmp, 'outside'), join(sessions, '.link'));
  const { roots } = openRoots([{ dir: sessions, harness: null }]);
  srv = await startServer({ roots, dist: join(tmp, 'dist'), port: 0, token: 'tok' });
  // `d` is the real folder, then a link to the outside one, then the real folder again, by renames.
  const script = `
    const fs = require('node:fs');
    const dir = process.argv[1];
    const mv = (a, b) => { try { fs.renameSync(dir + '/' + a, dir + '/' + b); } catch {} };
    let said = false;
    for (;;) {
      mv('d', '.real'); mv('.link', 'd'); mv('d', '.link'); mv('.real', 'd');
      if (!said) { said = true; process.stdout.write('swapping\\n'); }
    }`;
  swapper = spawn(process.execPath, ['-e', script, sessions], { stdio: ['ignore', 'pipe', 'ignore'] });
  // On a busy machine the child's Node can take seconds to start: the race begins only once it swaps.
  await new Promise<void>((ready) => swapper.stdout!.once('data', () => ready()));
});

afterAll(async () => {
  // The kill is only sent: until the child is gone it may still rename inside the folder being removed.
  if (swapper && swapper.exitCode === null && swapper.signalCode === null) {
    const gone = new Promise((done) => swapper.once('exit', done));
    swapper.kill('SIGKILL');
    await gone;
  }
  await srv?.close();
  rmSync(tmp, { recursive: true, force: true });
});

it('never serves the outside file while a folder on its path is swapped for a link', async () => {
  let served = 0;
  let refused = 0;
  const leaks: string[] = [];
  // At least 60 rounds, and on until both sides were met (a loaded machine may schedule the swapper rarely).
  for (let round = 0; round < 60 || ((served === 0 || refused === 0) && round < 2000); round++) {
    const answers = await Promise.all(Array.from({ length: 10 }, () => get('/api/file?token=tok&root=0&path=d%2Ff.jsonl')));
    for (const a of answers) {
      if (a.body.includes('outside the folder')) leaks.push(a.body);
      if (a.status === 200) served++;
      else refused++;
    }
  }
  expect(leaks).toEqual([]);
  // The race was run: both sides were met (the inside file served, the outside one refused).
  expect(served).toBeGreaterThan(0);
  expect(refused).toBeGreaterThan(0);
});
