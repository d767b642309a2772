import { appendFileSync, closeSync, copyFileSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpGet } from '../test/http-get';
import { writePrecompressed } from './precompressed';
import { openRoots } from './serve-listing';
import { hostAllowed, openInside, SERVE_CSP, startServer, type RunningServer } from './serve';

const fixture = (name: string) => new URL(`../formats/__fixtures__/${name}`, import.meta.url).pathname;

let tmp: string;
let srv: RunningServer;

function get(path: string, host = `127.0.0.1:${srv.port}`, method = 'GET', extra: Record<string, string> = {}) {
  return httpGet(srv.port, path, { host, method, headers: extra });
}

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'ci-serve-'));
  const sessions = join(tmp, 'sessions');
  const dist = join(tmp, 'dist');
  mkdirSync(join(sessions, 'proj'), { recursive: true });
  mkdirSync(join(dist, 'assets'), { recursive: true });
  copyFileSync(fixture('codex-rollout.jsonl'), join(sessions, 'proj', 'rollout.jsonl'));
  copyFileSync(fixture('openai-chat-course.json'), join(sessions, 'course.json'));
  writeFileSync(join(tmp, 'secret.jsonl'), '{"secret":true}\n');
  symlinkSync(join(tmp, 'secret.jsonl'), join(sessions, 'link-out.jsonl'));
  writeFileSync(join(dist, 'index.html'), '<!doctype html><title>app</title>');
  writeFileSync(join(dist, 'assets', 'a.js'), 'export {};');
  writeFileSync(join(dist, 'assets', 'big.js'), 'export const x = 1;\n'.repeat(200));
  writePrecompressed(dist);
  const { roots } = openRoots([{ dir: sessions, harness: null }]);
  srv = await startServer({ roots, dist, port: 0, token: 'tok-123', watchIntervalMs: 50 });
});

afterAll(async () => {
  await srv?.close();
  rmSync(tmp, { recursive: true, force: true });
});

describe('startServer', () => {
  it('serves the app with the page policy plus frame-ancestors, and its address carries the token', async () => {
    const r = await get('/');
    expect(r.status).toBe(200);
    expect(r.body).toContain('<title>app</title>');
    expect(r.headers['content-security-policy']).toBe(SERVE_CSP);
    expect(SERVE_CSP).toContain("frame-ancestors 'none'");
    expect(SERVE_CSP).toContain("script-src 'self'");
    expect(srv.url).toBe(`http://127.0.0.1:${srv.port}/?token=tok-123`);
  });

  it('refuses another Host header with 403, on the app and the API alike', async () => {
    expect((await get('/', 'evil.example')).status).toBe(403);
    expect((await get('/api/sessions?token=tok-123', `evil.example:${srv.port}`)).status).toBe(403);
    expect((await get('/', `localhost:${srv.port}`)).status).toBe(200);
  });

  it('wants the token on API requests', async () => {
    expect((await get('/api/sessions')).status).toBe(403);
    expect((await get('/api/sessions?token=tok-12')).status).toBe(403);
    expect((await get('/api/sessions?token=tok-123')).status).toBe(200);
  });

  it('lists the sessions under the folder, newest first, without the symlink that leads out', async () => {
    const body = JSON.parse((await get('/api/sessions?token=tok-123')).body);
    const paths = body.sessions.map((s: { path: string }) => s.path).sort();
    expect(paths).toEqual(['course.json', 'proj/rollout.jsonl']);
    const rollout = body.sessions.find((s: { path: string }) => s.path === 'proj/rollout.jsonl');
    expect(rollout).toMatchObject({ root: 0, files: ['proj/rollout.jsonl'], project: 'proj', harness: null });
    expect(rollout.size).toBeGreaterThan(0);
  });

  it('reads a listed file, and answers 403 for `..`, an absolute path and a symlink out', async () => {
    const ok = await get('/api/file?token=tok-123&root=0&path=course.json');
    expect(ok.status).toBe(200);
    expect(JSON.parse(ok.body)).toBeTruthy();
    for (const p of ['../secret.jsonl', 'proj/../../secret.jsonl', join(tmp, 'secret.jsonl'), 'link-out.jsonl', '/etc/passwd']) {
      const r = await get(`/api/file?token=tok-123&root=0&path=${encodeURIComponent(p)}`);
      expect(r.status, p).toBe(403);
      expect(r.body).not.toContain('secret');
    }
    expect((await get('/api/file?token=tok-123&root=7&path=course.json')).status).toBe(403);
  });

  it('keeps the app folder closed too: `..` out of dist is refused', async () => {
    expect((await get('/%2e%2e/secret.jsonl')).status).not.toBe(200);
    expect((await get('/assets/%2e%2e/%2e%2e/secret.jsonl')).status).not.toBe(200);
    expect((await get('/assets/a.js')).status).toBe(200);
  });

  it('without the token, answers the same for a path that exists and one that does not (no probing the disk)', async () => {
    const pairs: [string, string][] = [
      // An encoded slash survives the URL parser's dot-segment removal and reaches the path check.
      ['/..%2Fsecret.jsonl', '/..%2Fno-such-file.jsonl'],
      ['/..%2Fsessions%2Fcourse.json', '/..%2Fsessions%2Fnothing.json'],
      [`/${encodeURIComponent(join(tmp, 'secret.jsonl'))}`, `/${encodeURIComponent(join(tmp, 'absent.jsonl'))}`],
      ['/assets', '/nothing-here'],
      ['/api/file?root=0&path=..%2Fsecret.jsonl', '/api/file?root=0&path=..%2Fabsent.jsonl'],
      ['/api/file?root=0&path=course.json', '/api/file?root=0&path=absent.json'],
    ];
    for (const [exists, missing] of pairs) {
      const [a, b] = [await get(exists), await get(missing)];
      expect(a.status, exists).not.toBe(200);
      expect([a.status, a.body], exists).toEqual([b.status, b.body]);
    }
  });

  it('sends the build’s precompressed copy when the browser takes it, and the file itself otherwise', async () => {
    const plain = await get('/assets/big.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe('export const x = 1;\n'.repeat(200));
    const br = await get('/assets/big.js', undefined, 'GET', { 'accept-encoding': 'gzip, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(br.headers.vary).toBe('Accept-Encoding');
    expect(Number(br.headers['content-length'])).toBeLessThan(200);
    expect((await get('/assets/big.js', undefined, 'GET', { 'accept-encoding': 'gzip' })).headers['content-encoding']).toBe('gzip');
  });

  it('is read-only', async () => {
    expect((await get('/api/sessions?token=tok-123', undefined, 'POST')).status).toBe(405);
  });

  it('sends a change event when a followed file grows', async () => {
    const events: string[] = [];
    await new Promise<void>((done, fail) => {
      const req = request({ host: '127.0.0.1', port: srv.port, path: '/api/events?token=tok-123&root=0&path=proj%2Frollout.jsonl', headers: { host: `127.0.0.1:${srv.port}` } }, (res) => {
        expect(res.headers['content-type']).toBe('text/event-stream');
        res.setEncoding('utf8');
        res.on('data', (d: string) => {
          events.push(...d.split('\n').filter((l) => l.startsWith('data: ')));
          if (events.length === 1) setTimeout(() => appendFileSync(join(tmp, 'sessions', 'proj', 'rollout.jsonl'), '\n'), 100);
          if (events.length === 2) {
            req.destroy();
            done();
          }
        });
      });
      req.on('error', (e) => (events.length >= 2 ? done() : fail(e)));
      req.end();
    });
    const [first, second] = events.map((e) => JSON.parse(e.slice(6)));
    expect(second.size).toBe(first.size + 1);
  });

  it('reports an append made the moment the first event arrives (each poll compares with the size last sent)', async () => {
    const file = join(tmp, 'sessions', 'proj', 'rollout.jsonl');
    const sizes: number[] = [];
    await new Promise<void>((done, fail) => {
      const req = request({ host: '127.0.0.1', port: srv.port, path: '/api/events?token=tok-123&root=0&path=proj%2Frollout.jsonl', headers: { host: `127.0.0.1:${srv.port}` } }, (res) => {
        res.setEncoding('utf8');
        res.on('data', (d: string) => {
          for (const l of d.split('\n').filter((x) => x.startsWith('data: '))) sizes.push(JSON.parse(l.slice(6)).size);
          if (sizes.length === 1) appendFileSync(file, '\n');
          if (sizes.length === 2) {
            req.destroy();
            done();
          }
        });
      });
      req.on('error', (e) => (sizes.length >= 2 ? done() : fail(e)));
      req.end();
    });
    expect(sizes[1]).toBe(sizes[0]! + 1);
  });
});

describe('openInside', () => {
  const real = (p: string) => realpathSync(p);
  it('opens a file under its base and refuses what leaves it, what is missing, and what is not a file', () => {
    const ok = openInside(real(tmp), 'sessions/course.json');
    expect(ok?.real).toBe(join(real(tmp), 'sessions', 'course.json'));
    expect(ok?.st.isFile()).toBe(true);
    closeSync(ok!.fd);
    const base = real(join(tmp, 'sessions'));
    for (const p of ['../secret.jsonl', 'link-out.jsonl', 'missing.json', 'a\0b', 'proj', '/etc/passwd']) expect(openInside(base, p), p).toBeNull();
  });
});

describe('hostAllowed', () => {
  it('accepts only the loopback names with this port', () => {
    expect(hostAllowed('127.0.0.1:4210', 4210)).toBe(true);
    expect(hostAllowed('localhost:4210', 4210)).toBe(true);
    expect(hostAllowed('127.0.0.1:4211', 4210)).toBe(false);
    expect(hostAllowed('attacker.example:4210', 4210)).toBe(false);
    expect(hostAllowed(undefined, 4210)).toBe(false);
  });
});
