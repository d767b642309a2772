import { describe, expect, it } from 'vitest';
import { auditSummary } from './audit-summary';
import { extractIdentifiers, type IdentifierKind } from './identifiers';
import { bySpecificity, daysOf, isNoise, specificity } from './noise';
import { containsWholePath, haystack, referencedIn } from './normalize';

const id = (kind: IdentifierKind, value: string) => ({ kind, value, index: 0 });

describe('isNoise', () => {
  it('drops the classes real coding sessions are full of', () => {
    const days = new Set(['2026-02-11']);
    for (const [kind, value] of [
      ['path', '/dev/null'],
      ['path', '/sessions/'],
      ['path', 'compile/test/credo'],
      ['number', '100644'],
      ['number', '10000'],
      ['date', '2026-02-11'],
      ['date', '2026-02-11T21:33:39Z'],
      // The day either side: a person writes their local date, the timestamps are UTC.
      ['date', '2026-02-12'],
      ['date', '2026-02-10'],
      // A no-reply address reaches no one (a commit trailer's).
      ['email', 'noreply@anthropic.com'],
      ['email', '12345+someone@users.noreply.github.com'],
      // A template's address, a blank to fill in (an .env.example's OWNER_EMAIL, pool study part: om-796f117a).
      ['email', 'your@email.com'],
      ['email', 'your.name@company.com'],
      ['host', 'github.com'],
      ['url', 'https://github.com/'],
      ['host', 'log.info'],
      // Loopback and the unspecified bind address name no machine, as `localhost` does (a Django ALLOWED_HOSTS default,
      // uvicorn's `--host 0.0.0.0`, a Rust CLI's `127.0.0.1:3002` default: studied part of the pool, session 59).
      ['host', '127.0.0.1'],
      ['host', '127.0.1.1'],
      ['host', '0.0.0.0'],
      ['function', 'trim()'],
      ['function', 'mounted()'],
      // A name of one letter (an entireio/cli test's fixture source `func C() {}`, session 46).
      ['function', 'C()'],
      ['function', 'is_binary()'],
      ['function', 'Process.send_after()'],
      ['quantity', '0.3s'],
      ['quantity', '0.9 seconds'],
    ] as [IdentifierKind, string][]) {
      expect(isNoise(id(kind, value), { sessionDays: days }), `${kind} ${value}`).toBe(true);
    }
  });

  it('drops the default ports of the web and ssh (every server’s), not a port the work chose', () => {
    // Modelled on Safecast/safecast-map-MCP (the pool's study part): `curl -v` prints `:443`, nginx configs `listen 443`.
    for (const port of ['443', '80', '22']) expect(isNoise(id('port', port), {}), port).toBe(true);
    for (const port of ['3333', '8443', '5432']) expect(isNoise(id('port', port), {}), port).toBe(false);
    const audit = auditSummary({
      summary: 'Checked the endpoint.',
      sources: ['* Connected to maps.example.org (3.164.143.121) port 443'],
      sourceMeta: [{ role: 'tool', kind: 'tool_result', target: { tool: 'Bash', target: 'curl -v https://maps.example.org', file: null, writes: false, kind: 'command' } }],
      later: [{ id: 'c', role: 'assistant', kind: 'tool_call', text: 'Bash({"command":"cat > /etc/nginx/sites-available/origin << EOF\nserver { listen 443 ssl; }\nEOF"})' }],
      project: { cwd: '/home/u/app' },
    });
    expect(audit.lost).not.toContain('443');
    expect(audit.lostReferencedLater).toEqual([]);
  });

  it('keeps what pins one thing down, and the demos\' findings', () => {
    const days = new Set(['2026-02-11']);
    for (const [kind, value] of [
      ['path', 'lib/spotter/services/waiting_summary.ex'],
      ['path', 'config/db.yaml'],
      ['path', 'src/components/ui'],
      ['url', 'https://github.com/rrrene/credo/issues'],
      ['host', 'db-prod-1'],
      ['host', '10.10.10.20'],
      ['host-port', '127.0.0.1:3002'],
      ['port', '5432'],
      ['ticket', 'FRE-512'],
      ['date', '2023'],
      ['date', '2026-02-14'],
      ['email', 'ops@acme.io'],
      ['number', '4,821,936'],
      ['number', '(510) 555-0136'],
      ['function', 'highlightTranscriptCode()'],
      ['function', 'load_annotations()'],
      ['function', 'Tmux.capture_pane()'],
      ['quantity', '30s'],
      ['quantity', 'pool_size: 20'],
    ] as [IdentifierKind, string][]) {
      expect(isNoise(id(kind, value), { sessionDays: days }), `${kind} ${value}`).toBe(false);
    }
  });
});

describe('daysOf', () => {
  it('reads the UTC day of each timestamp and skips what is not one', () => {
    expect([...daysOf(['2026-02-11T23:59:00.000Z', '2026-02-12T00:10:00+00:00', undefined, 'later'])]).toEqual(['2026-02-11', '2026-02-12']);
  });
});

describe('specificity', () => {
  it('ranks a path with a directory, a ticket or a hash above a bare name or a number', () => {
    const ranked = bySpecificity(
      [id('number', '123456'), id('path', 'dsl.ex'), id('ticket', 'FRE-512'), id('path', 'lib/ash/dsl.ex'), id('function', 'pane_dimensions()')],
      (x) => x,
    ).map((x) => x.value);
    expect(ranked).toEqual(['FRE-512', 'lib/ash/dsl.ex', 'pane_dimensions()', 'dsl.ex', '123456']);
    expect(specificity(id('uuid', '4d5611e5-241a-462a-8d15-5122611a9569'))).toBeGreaterThan(specificity(id('host', 'db-prod-1')));
  });
});

describe('containsWholePath', () => {
  it('finds a path as a whole, under a longer prefix, but not as the start of a longer path or a bare name in another folder', () => {
    expect(containsWholePath('see /app/config/db.yaml:12', 'config/db.yaml')).toBe(true);
    expect(containsWholePath('Grep path=deps/x/lib', 'deps/x/')).toBe(false);
    expect(containsWholePath('ls deps/x/ now', 'deps/x/')).toBe(true);
    // A bare name is the file a longer path ends with; relevance.ts drops a name several files share.
    expect(containsWholePath('Compiling lib/ash/resource/dsl.ex', 'dsl.ex')).toBe(true);
    expect(containsWholePath('Compiling lib/ash/resource/dsl.ex', 'resource.ex')).toBe(false);
    expect(containsWholePath('open dsl.ex', 'dsl.ex')).toBe(true);
    // A search pattern is not the file: `find -name "route.ts"`, `--include=*.ts`.
    expect(containsWholePath('find . -name "route.ts"', 'route.ts')).toBe(false);
  });

  it('is what referencedIn adds to foundIn for paths', () => {
    const [dsl] = extractIdentifiers('edit dsl.ex');
    expect(referencedIn(dsl!, haystack('Compiling lib/ash/resource/dsl_ext.ex'))).toBe(false);
    expect(referencedIn(dsl!, haystack('Read dsl.ex'))).toBe(true);
  });
});

describe('auditSummary on real-session noise', () => {
  it('does not count a harness notice or the agent\'s own prose as a later reference', () => {
    const audit = auditSummary({
      summary: 'Worked on the waiting summary.',
      sources: ['Background task b7c36e2f1 writes to lib/spotter/jobs/poll.ex'],
      later: [
        { id: 'n', role: 'user', kind: 'message', text: '<task-notification>\n<task-id>b7c36e2f1</task-id>\n</task-notification>' },
        { id: 't', role: 'assistant', kind: 'thinking', text: 'lib/spotter/jobs/poll.ex may be the culprit' },
        { id: 'u', role: 'user', kind: 'message', text: 'why does lib/spotter/jobs/poll.ex retry?' },
      ],
    });
    expect(audit.lostReferencedLater).toEqual([{ value: 'lib/spotter/jobs/poll.ex', itemId: 'u', via: 'mention' }]);
    expect(audit.lost).toEqual(['b7c36e2f1', 'lib/spotter/jobs/poll.ex']);
  });

  it('leaves out the session\'s own date and a device path, lost or invented', () => {
    const audit = auditSummary({
      summary: 'On 2026-02-11 the run piped to /dev/null.',
      sources: ['2026-02-11 21:33:39 run > /dev/null, seed 66112'],
      later: [{ id: 'u', role: 'user', text: 'rerun with seed 66112 on 2026-02-11' }],
      sessionDays: ['2026-02-11'],
    });
    expect(audit.lost).toEqual([]);
    expect(audit.lostReferencedLater).toEqual([]);
    expect(audit.invented).toEqual([]);
  });
});
