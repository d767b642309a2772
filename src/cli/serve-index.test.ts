// The serve table's index (issue 33): a second visit answers every row from it, and a file whose size or time
// changed is measured again. The server is run for real on a folder of fixtures, with a measurer that counts.
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync, appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { httpGet } from '../test/http-get';
import type { InputFile } from '../load/loader';
import { measureGlance, type GlanceMeasurer } from './serve-glance';
import { openGlanceIndex } from './serve-index';
import { openRoots } from './serve-listing';
import { startServer, type RunningServer } from './serve';

const fixture = (name: string) => new URL(`../formats/__fixtures__/${name}`, import.meta.url).pathname;

let tmp: string;
let sessions: string;
let indexFile: string;

const get = (srv: RunningServer, path: string) => httpGet(srv.port, path);

/** Measures in this thread and records which files it was asked to measure. */
function countingMeasurer(): GlanceMeasurer & { measured: string[] } {
  const measured: string[] = [];
  return {
    measured,
    measure: async (inputs: InputFile[]) => {
      measured.push(...inputs.map((i) => i.name));
      return measureGlance(inputs);
    },
    close: async () => {},
  };
}

/** One visit: a server started on the index file, the listing, then a glance for every row the listing lacked. */
async function visit() {
  const measurer = countingMeasurer();
  const index = openGlanceIndex(indexFile, 'engine-1');
  const srv = await startServer({ roots: openRoots([{ dir: sessions, harness: null }]).roots, dist: join(tmp, 'dist'), port: 0, token: 't', index, measurer });
  try {
    const listing = JSON.parse((await get(srv, '/api/sessions?token=t')).body) as { sessions: { id: string; path: string; glance?: { ok: boolean; glance?: { calls: number } } }[] };
    const filled = Object.fromEntries(listing.sessions.filter((s) => s.glance).map((s) => [s.path, s.glance!]));
    for (const s of listing.sessions.filter((x) => !x.glance)) {
      const r = await get(srv, `/api/glance?token=t&id=${encodeURIComponent(s.id)}`);
      expect(r.status).toBe(200);
      filled[s.path] = JSON.parse(r.body);
    }
    return { listed: listing.sessions.map((s) => s.path).sort(), fromListing: listing.sessions.filter((s) => s.glance).map((s) => s.path).sort(), filled, measured: measurer.measured.sort(), stats: { ...index.stats } };
  } finally {
    await srv.close();
  }
}

beforeEach(() => {
  tmp = mkdtempSync(join(tmpdir(), 'ci-serve-index-'));
  sessions = join(tmp, 'sessions');
  mkdirSync(join(sessions, 'proj'), { recursive: true });
  mkdirSync(join(tmp, 'dist'));
  writeFileSync(join(tmp, 'dist', 'index.html'), '<!doctype html>');
  copyFileSync(fixture('claude-code-session.jsonl'), join(sessions, 'proj', 'claude.jsonl'));
  copyFileSync(fixture('openai-chat-course.json'), join(sessions, 'course.json'));
  indexFile = join(tmp, 'cache', 'serve-index.json');
});

afterEach(() => rmSync(tmp, { recursive: true, force: true }));

describe('the serve index', () => {
  it('lists every row with its figures on a second visit, measuring nothing again', async () => {
    const first = await visit();
    expect(first.listed).toEqual(['course.json', 'proj/claude.jsonl']);
    expect(first.fromListing).toEqual([]);
    expect(first.measured).toEqual(['claude.jsonl', 'course.json']);
    // The figures the app shows for the Claude Code fixture (its header and `inspect` say the same).
    expect(first.filled['proj/claude.jsonl']).toMatchObject({ ok: true, glance: { format: 'claude-code', calls: 6, compactions: 2 } });
    expect(readFileSync(indexFile, 'utf8')).toContain('claude.jsonl');

    const second = await visit();
    expect(second.fromListing).toEqual(['course.json', 'proj/claude.jsonl']);
    expect(second.measured).toEqual([]);
    expect(second.stats).toEqual({ hits: 2, misses: 0 });
    expect(second.filled).toEqual(first.filled);
  });

  it('measures a file again when its size or its modification time changed, and only that file', async () => {
    await visit();
    appendFileSync(join(sessions, 'proj', 'claude.jsonl'), '\n');
    const grown = await visit();
    expect(grown.fromListing).toEqual(['course.json']);
    expect(grown.measured).toEqual(['claude.jsonl']);

    const course = join(sessions, 'course.json');
    const t = statSync(course).mtime.getTime() / 1000 + 60;
    utimesSync(course, t, t);
    const touched = await visit();
    expect(touched.fromListing).toEqual(['proj/claude.jsonl']);
    expect(touched.measured).toEqual(['course.json']);
  });

  it('is not read by another engine', () => {
    const a = openGlanceIndex(indexFile, 'engine-1');
    a.put('/x', 1, 2, { ok: false, message: 'm' });
    a.flush();
    expect(openGlanceIndex(indexFile, 'engine-1').get('/x', 1, 2)).toEqual({ ok: false, message: 'm' });
    expect(openGlanceIndex(indexFile, 'engine-2').get('/x', 1, 2)).toBeNull();
    expect(openGlanceIndex(indexFile, 'engine-1').get('/x', 1, 3)).toBeNull();
  });
});
