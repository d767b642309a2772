// Re-runs the app's coding-agent demo (public/demos: transcript + compaction log + request log, the course
// example) offline: what the UI shows when a new user presses Run with no endpoint configured.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { countWords } from '../cache/test-builders';
import { loadFiles } from '../load/loader';
import { rerunSession } from './rerun';

function demo() {
  const names = ['coding-agent.transcript.json', 'coding-agent.compaction-log.jsonl', 'coding-agent.requests.jsonl'];
  const { sessions } = loadFiles(names.map((name) => ({ name, bytes: new Uint8Array(readFileSync(new URL(`../../public/demos/${name}`, import.meta.url))) })));
  return sessions[0]!;
}

describe('rerunSession on the coding-agent demo', () => {
  it('keeps with the offline summarizer what the original fallback lost and a later turn asked for', async () => {
    // A word counter cannot be calibrated against reported tokens: the trigger measures the bare count.
    const r = await rerunSession(demo(), { strategy: 'summarize-middle', trigger: { kind: 'tokens', threshold: 1500 }, count: countWords, measure: 'counted' });
    expect(r.calls).toHaveLength(14);
    expect(r.original).toMatchObject({ compactions: 2, fallbacks: 1 });
    // The fallback lost the version and the ticket. FRE-512 a later turn asks for; v2.14.3 comes back through a fresh
    // `git log` and is then used (re-fetched).
    expect(r.original.identifiers.lostValues).toEqual(expect.arrayContaining(['v2.14.3', 'FRE-512']));
    expect(r.original.identifiers.lostReferencedLaterValues).toEqual(expect.arrayContaining(['FRE-512']));
    expect(r.original.identifiers.lostRefetchedLaterValues).toEqual(expect.arrayContaining(['v2.14.3']));
    expect(r.rerun.compactions).toBe(10);
    expect(r.rerun.fallbacks).toBe(0);
    expect(r.rerun.identifiers.lostReferencedLaterValues).toEqual([]);
    expect(r.rerun.identifiers.invented).toBe(0);
    for (const c of r.calls) expect(c.context.filter((it) => it.kind === 'summary').length).toBeLessThanOrEqual(1);
    const last = r.calls[13]!.context.find((it) => it.kind === 'summary')!;
    for (const id of ['db-prod-1:5432', 'FRE-512', 'v2.14.3']) expect(last.text).toContain(id);
  });

  it('loses them with drop-oldest, and the audit says which later turn needed them', async () => {
    const r = await rerunSession(demo(), { strategy: 'drop-oldest', trigger: { kind: 'tokens', threshold: 1500 }, count: countWords });
    expect(r.rerun.identifiers.lostValues).toEqual(expect.arrayContaining(['v2.14.3', 'db-prod-1:5432', 'db-prod-1']));
    expect(r.rerun.identifiers.lostReferencedLaterValues).toEqual(expect.arrayContaining(['db-prod-1', '5432', 'config/db.yaml']));
    // The ticket is in the user's first message, which drop-oldest keeps as the head: the model never stops seeing it,
    // so no replayed compaction lost it (audited as a recorded compaction is, with what stays verbatim).
    expect(r.rerun.identifiers.lostValues).not.toContain('FRE-512');
    expect(r.rerun.totalInputTokens).toBeLessThan(r.original.totalInputTokens);
  });
});
