// `compaction-inspector serve [dirs…] [--port N]`: the built app on 127.0.0.1, plus a read-only API that lists the
// sessions on this machine, hands their bytes to the page and says when a file grows. Everything is still parsed
// and measured in the browser; the server only lists and reads files.
//
// Security: loopback only; any Host header but this server's own is refused (DNS rebinding); the API wants the
// random token printed with the address; nothing but GET/HEAD; a file is opened once, the opened file's real path
// is checked to lie under a listed folder (or the app's own dist/), and its bytes are read from that same handle,
// so a symlink swapped between a check and a read cannot hand out a file outside. Anything else: 403 on the API,
// and on the app's route the same 404 whether the path exists or not (it tells nothing about the disk). The one
// read outside the listed folders is a listed session's instruction files (serve-instructions.ts): found by their
// fixed names from the working directory the session recorded, never from a path the request names.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { closeSync, constants as fsConstants, readFile, createReadStream, existsSync, fstatSync, openSync, readlinkSync, realpathSync, stat, statSync, type Stats } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { homedir } from 'node:os';
import { join, relative, resolve, sep } from 'node:path';
import { buildCsp } from '../security/page-policy';
import { packageRoot } from './cli-io';
import { mimeOf } from './mime-types';
import { pickPrecompressed } from './precompressed';
import { defaultRoots, inside, listSessions, openRoots, type ListedSession, type ServeRoot } from './serve-listing';
import { GLANCE_MAX_BYTES, glanceMeasurer, type GlanceMeasurer } from './serve-glance';
import { openGlanceIndex, type GlanceIndex, type GlanceOutcome } from './serve-index';
import { defaultCacheDir, engineId } from './result-cache';
import { readHead, servedInstructions, sessionOfHead } from './serve-instructions';
import type { InputFile } from '../load/loader';

export const SERVE_USAGE = `  compaction-inspector serve [folders…] [--port N]  serve the app on 127.0.0.1 (default port 4780; 0 = any free port)
                                                   and list the sessions under the folders, by default those of
                                                   Claude Code, Codex, OpenHands and Gemini CLI that exist; prints
                                                   the address with its access token; a session whose file grows
                                                   updates live; needs the built app (npx vite build)`;

export const DEFAULT_PORT = 4780;

/** The page's own policy, plus what only a header can say: no framing. */
export const SERVE_CSP = `${buildCsp({ connectOrigins: [] })}; frame-ancestors 'none'`;

export interface ServeOptions {
  roots: ServeRoot[];
  /** The built app's folder (its real path). */
  dist: string;
  port: number;
  token?: string;
  /** Polling interval of live follow, ms. */
  watchIntervalMs?: number;
  /** What the table shows of each session, kept between visits (serve-index.ts); in memory when absent. */
  index?: GlanceIndex;
  /** Measures a session for the table (default: a worker thread, serve-glance.ts). */
  measurer?: GlanceMeasurer;
  /** The user's home, where the harnesses keep their own instruction files (default: this user's). */
  home?: string | null;
}

export interface RunningServer {
  server: Server;
  port: number;
  token: string;
  url: string;
  close(): Promise<void>;
}

/** A file opened once and checked: read from `fd`, never reopened by name. */
export interface OpenedFile {
  fd: number;
  /** The opened file's real path (under the base it was checked against). */
  real: string;
  st: Stats;
}

/**
 * The real path of the file behind `fd`: what /proc says the descriptor points at (Linux), else the name's real
 * path, accepted only when it is the very file opened (same device and inode), so a swap in between is refused.
 */
function openedPath(fd: number, joined: string): string | null {
  try {
    const link = readlinkSync(`/proc/self/fd/${fd}`);
    if (link.startsWith('/') && !link.endsWith(' (deleted)')) return link;
  } catch {
    // No /proc here (macOS, Windows): compare inodes below.
  }
  const real = realpathSync(joined);
  const a = fstatSync(fd);
  const b = statSync(real);
  return a.dev === b.dev && a.ino === b.ino ? real : null;
}

/**
 * Opens the regular file a request names when it lies under `base` (a real path): opened first, then its real path
 * checked, so what is checked is what is read. null (→ 403/404) when it is outside, missing, or not a plain file.
 */
export function openInside(base: string, requested: string): OpenedFile | null {
  if (requested.includes('\0')) return null;
  const joined = resolve(base, requested);
  if (!inside(base, joined)) return null;
  let fd: number;
  try {
    // Non-blocking: opening a FIFO for reading would otherwise wait for a writer and hold a request forever.
    fd = openSync(joined, fsConstants.O_RDONLY | (fsConstants.O_NONBLOCK ?? 0));
  } catch {
    return null;
  }
  try {
    const real = openedPath(fd, joined);
    const st = fstatSync(fd);
    if (real && inside(base, real) && st.isFile()) return { fd, real, st };
  } catch {
    // Vanished or unreadable between the open and the check: refused like anything else.
  }
  closeSync(fd);
  return null;
}

/** The whole of an opened file, read from its handle. */
function readFd(fd: number): Promise<Uint8Array> {
  return new Promise((resolveRead, reject) => readFile(fd, (e, data) => (e ? reject(e) : resolveRead(data))));
}

/** Only this server's own name: a page on another name that resolves here (DNS rebinding) is refused. */
export function hostAllowed(host: string | undefined, port: number): boolean {
  return host === `127.0.0.1:${port}` || host === `localhost:${port}`;
}

function tokenMatches(given: string | null, token: string): boolean {
  if (!given) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

function baseHeaders(extra: Record<string, string> = {}): Record<string, string> {
  return {
    'Content-Security-Policy': SERVE_CSP,
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'Cross-Origin-Resource-Policy': 'same-origin',
    'X-Frame-Options': 'DENY',
    ...extra,
  };
}

function send(res: ServerResponse, status: number, body: string, type = 'text/plain; charset=utf-8'): void {
  res.writeHead(status, baseHeaders({ 'Content-Type': type, 'Cache-Control': 'no-store' }));
  res.end(body);
}

/** Sends an opened file from its handle (closed once sent), with the size it had when opened. */
function sendOpened(req: IncomingMessage, res: ServerResponse, file: OpenedFile, headers: Record<string, string>): void {
  res.writeHead(200, baseHeaders({ ...headers, 'Content-Length': String(file.st.size) }));
  if (req.method === 'HEAD' || file.st.size === 0) {
    closeSync(file.fd);
    return void res.end();
  }
  // `end`: a file that grows while it is sent is cut at the announced length.
  createReadStream('', { fd: file.fd, start: 0, end: file.st.size - 1, autoClose: true })
    .on('error', () => res.destroy())
    .pipe(res);
}

/** A built file, as its .br/.gz copy when the build wrote one and the browser takes it (opened and checked alike). */
function sendBuilt(req: IncomingMessage, res: ServerResponse, dist: string, file: OpenedFile, type: string, cache: string): void {
  const copy = pickPrecompressed(file.real, req.headers['accept-encoding']);
  const opened = copy ? openInside(dist, relative(dist, copy.path)) : null;
  if (!copy || !opened) return sendOpened(req, res, file, { 'Content-Type': type, 'Cache-Control': cache });
  closeSync(file.fd);
  sendOpened(req, res, opened, { 'Content-Type': type, 'Cache-Control': cache, 'Content-Encoding': copy.encoding, Vary: 'Accept-Encoding' });
}

export function startServer(opts: ServeOptions): Promise<RunningServer> {
  const token = opts.token ?? randomBytes(18).toString('base64url');
  const interval = opts.watchIntervalMs ?? 250;
  let port = opts.port;
  const dist = realpathSync(opts.dist);
  const index = opts.index ?? openGlanceIndex(null, 'memory');
  const measurer = opts.measurer ?? glanceMeasurer();
  const home = opts.home === undefined ? homedir() : opts.home;
  /** The last listing, by id: a glance request names a listed session. */
  let listed = new Map<string, ListedSession>();
  const indexKey = (s: ListedSession) => `${opts.roots[s.root]!.real}${sep}${s.path}`;
  /** Every session at once, from names, sizes and dates; the measured columns where the index has them. */
  const sessions = (): (ListedSession & { glance?: GlanceOutcome })[] => {
    const all = listSessions(opts.roots);
    listed = new Map(all.map((s) => [s.id, s]));
    return all.map((s) => {
      const glance = index.get(indexKey(s), s.size, s.modified);
      return glance ? { ...s, glance } : s;
    });
  };
  const measuring = new Map<string, Promise<GlanceOutcome>>();
  /** A listed session's glance: from the index, else measured now (once, however many ask) and kept. */
  const glanceOf = (s: ListedSession): Promise<GlanceOutcome> => {
    const key = indexKey(s);
    const known = index.get(key, s.size, s.modified);
    if (known) return Promise.resolve(known);
    if (s.size > GLANCE_MAX_BYTES) return Promise.resolve({ ok: false, skipped: true, message: 'too big to measure before it is opened' });
    const running = measuring.get(key);
    if (running) return running;
    const job = (async (): Promise<GlanceOutcome> => {
      const root = opts.roots[s.root]!;
      const inputs: InputFile[] = [];
      // Named as the page names them when it opens the session (a conversation folder keeps its paths).
      const folder = s.files.length > 1 || s.files[0] !== s.path;
      for (const f of s.files) {
        const file = openInside(root.real, f);
        if (!file) return { ok: false, message: `${f} can no longer be read` };
        try {
          inputs.push({ name: folder ? f.slice(s.path.lastIndexOf('/') + 1) : f.split('/').pop()!, bytes: await readFd(file.fd) });
        } finally {
          closeSync(file.fd);
        }
      }
      const outcome = await measurer.measure(inputs);
      index.put(key, s.size, s.modified, outcome);
      return outcome;
    })().finally(() => measuring.delete(key));
    measuring.set(key, job);
    return job;
  };

  /** A listed root's file, by root index and path inside it, opened and checked. */
  const sessionFile = (url: URL): OpenedFile | null => {
    const root = opts.roots[Number(url.searchParams.get('root'))];
    const path = url.searchParams.get('path');
    if (!root || path === null || path === '') return null;
    return openInside(root.real, path);
  };

  const api = (req: IncomingMessage, res: ServerResponse, url: URL) => {
    const given = url.searchParams.get('token') ?? (req.headers.authorization?.startsWith('Bearer ') ? req.headers.authorization.slice(7) : null);
    if (!tokenMatches(given, token)) return send(res, 403, 'a valid token is required');
    if (url.pathname === '/api/sessions') {
      const body = { roots: opts.roots.map((r) => ({ dir: r.dir, harness: r.harness })), sessions: sessions() };
      return send(res, 200, JSON.stringify(body), 'application/json');
    }
    if (url.pathname === '/api/glance') {
      const id = url.searchParams.get('id') ?? '';
      if (!listed.has(id)) sessions();
      const s = listed.get(id);
      if (!s) return send(res, 404, 'no such session in the list');
      void glanceOf(s).then(
        (outcome) => send(res, 200, JSON.stringify(outcome), 'application/json'),
        (e: unknown) => send(res, 500, e instanceof Error ? e.message : String(e)),
      );
      return;
    }
    if (url.pathname === '/api/instructions') {
      // Only a listed folder's file names a session; what is read follows from its recorded cwd (serve-instructions.ts).
      const file = sessionFile(url);
      if (!file) return send(res, 403, 'that path is not a file inside a listed folder');
      let head: string;
      try {
        head = readHead(file.fd, file.st.size);
      } finally {
        closeSync(file.fd);
      }
      const session = sessionOfHead(file.real.split(sep).pop()!, head);
      const files = session ? servedInstructions(session, home) : [];
      return send(res, 200, JSON.stringify({ files }), 'application/json');
    }
    if (url.pathname === '/api/file' || url.pathname === '/api/events') {
      const file = sessionFile(url);
      if (!file) return send(res, 403, 'that path is not a file inside a listed folder');
      if (url.pathname === '/api/file') return sendOpened(req, res, file, { 'Content-Type': 'application/octet-stream', 'Cache-Control': 'no-store' });
      // Followed by its real path: the stream tells sizes and times, never bytes.
      closeSync(file.fd);
      return follow(req, res, file.real, file.st);
    }
    return send(res, 404, 'no such API');
  };

  /** Server-sent events: one `change` event each time the file's size or time changes. */
  const follow = (req: IncomingMessage, res: ServerResponse, file: string, st: Stats) => {
    res.writeHead(200, baseHeaders({ 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-store', Connection: 'keep-alive' }));
    const event = (s: { size: number; mtimeMs: number }) => `event: change\ndata: ${JSON.stringify({ size: s.size, modified: s.mtimeMs })}\n\n`;
    res.write(`retry: 1000\n${event(st)}`);
    // Each poll compares with what was last SENT, not with the poll before (fs.watchFile's baseline is its own first
    // stat, taken after this event: an append between the two was never reported, and the page never re-read).
    let sent = { size: st.size, mtimeMs: st.mtimeMs };
    let closed = false;
    const poll = setInterval(() => {
      stat(file, (err, cur) => {
        if (closed) return;
        const now = err ? { size: 0, mtimeMs: 0 } : { size: cur.size, mtimeMs: cur.mtimeMs };
        if (now.size === sent.size && now.mtimeMs === sent.mtimeMs) return;
        sent = now;
        res.write(event(now));
      });
    }, interval);
    poll.unref();
    // A comment now and then keeps proxies and idle timeouts from closing the stream.
    const ping = setInterval(() => res.write(': ping\n\n'), 15_000);
    req.on('close', () => {
      closed = true;
      clearInterval(ping);
      clearInterval(poll);
    });
  };

  const statics = (req: IncomingMessage, res: ServerResponse, url: URL) => {
    let rel: string;
    try {
      rel = url.pathname === '/' ? 'index.html' : decodeURIComponent(url.pathname).replace(/^\/+/, '');
    } catch {
      return send(res, 404, 'not found');
    }
    // Outside dist, missing, or a folder: the same answer, so the route cannot probe what exists on the disk.
    const file = openInside(dist, rel);
    if (!file) return send(res, 404, 'not found');
    // Hashed assets never change; the page itself must be re-read.
    const cache = rel.startsWith('assets/') ? 'public, max-age=31536000, immutable' : 'no-cache';
    sendBuilt(req, res, dist, file, mimeOf(file.real), cache);
  };

  const server = createServer((req, res) => {
    if (!hostAllowed(req.headers.host, port)) return send(res, 403, 'this server answers only to its own address');
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(res, 405, 'read-only');
    let url: URL;
    try {
      url = new URL(req.url ?? '/', `http://127.0.0.1:${port}`);
    } catch {
      return send(res, 400, 'bad request');
    }
    try {
      if (url.pathname.startsWith('/api/')) return api(req, res, url);
      return statics(req, res, url);
    } catch (e) {
      return send(res, 500, e instanceof Error ? e.message : String(e));
    }
  });

  return new Promise((resolvePromise, reject) => {
    server.once('error', reject);
    server.listen(opts.port, '127.0.0.1', () => {
      const addr = server.address();
      port = typeof addr === 'object' && addr ? addr.port : opts.port;
      const url = `http://127.0.0.1:${port}/?token=${token}`;
      resolvePromise({
        server,
        port,
        token,
        url,
        close: async () => {
          await new Promise<void>((done) => {
            server.closeAllConnections();
            server.close(() => done());
          });
          index.flush();
          if (!opts.measurer) await measurer.close();
        },
      });
    });
  });
}

export interface ServeIo {
  out(text: string): void;
  err(text: string): void;
}

function parseServeArgs(argv: string[]): { dirs: string[]; port: number } | { error: string } {
  const dirs: string[] = [];
  let port = DEFAULT_PORT;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--port' || a.startsWith('--port=')) {
      const v = a.includes('=') ? a.slice(a.indexOf('=') + 1) : argv[++i];
      const n = Number(v);
      if (!v || !Number.isInteger(n) || n < 0 || n > 65535) return { error: `--port expects a port number 0–65535, got ${JSON.stringify(v ?? '')}` };
      port = n;
    } else if (a.startsWith('--')) return { error: `unknown option ${a}` };
    else dirs.push(a);
  }
  return { dirs, port };
}

/** Runs until the process is stopped; resolves only on a usage or start-up error. */
export async function runServe(argv: string[], io: ServeIo, usage: string): Promise<number> {
  const parsed = parseServeArgs(argv);
  if ('error' in parsed) {
    io.err(`${parsed.error}\n\n${usage}`);
    return 2;
  }
  const distDir = join(packageRoot(), 'dist') + sep;
  if (!existsSync(resolve(distDir, 'index.html'))) {
    io.err(`The built app is missing (${distDir}index.html). Build it first: npx vite build`);
    return 2;
  }
  const named = parsed.dirs.length > 0;
  const candidates = named ? parsed.dirs.map((dir) => ({ dir: resolve(dir), harness: null })) : defaultRoots();
  const { roots, missing } = openRoots(candidates);
  if (named && missing.length) {
    for (const m of missing) io.err(`cannot serve ${m}`);
    return 2;
  }
  let running: RunningServer;
  try {
    // The table's measured columns are kept beside the result cache, so a second visit lists every row at once.
    const index = openGlanceIndex(join(defaultCacheDir(), 'serve-index.json'), engineId());
    running = await startServer({ roots, dist: realpathSync(distDir), port: parsed.port, index });
  } catch (e) {
    io.err(`cannot listen on 127.0.0.1:${parsed.port}: ${e instanceof Error ? e.message : String(e)}`);
    return 1;
  }
  io.out(`Compaction Inspector: ${running.url}`);
  io.out(roots.length ? `Listing sessions under:\n${roots.map((r) => `  ${r.dir}`).join('\n')}` : 'No session folder found (looked for ~/.claude/projects, ~/.codex/sessions, ~/.openhands/conversations, ~/.gemini/tmp); name one: compaction-inspector serve <folder>');
  io.out('Read-only, on this machine only. Stop with Ctrl+C.');
  await new Promise<void>((done) => {
    const stop = () => void running.close().then(done);
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  return 0;
}
