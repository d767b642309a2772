// One number, one source: the unrecorded prefix (the system prompt and tools a format never writes down) is the
// calibration's figure (`unrecordedPrefix`), and the context view, the budget bands, the cache analysis and the CLI's
// `inspect --json` all read it. A Cline task of gmfstu/Online-Card-Architecture once showed 6,896 tokens for it in
// the context view (that call's reported prompt less its items) and 6,605 in the cache panel (the segment's fit).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { sessionMetrics } from '../cli/session-metrics';
import { loadFiles } from '../load/loader';
import type { Session } from '../model/types';
import { fixtureTranscripts } from '../test/fixture-transcripts';
import { buildAnalysisView } from './analysis-view';
import { unrecordedPrefix } from './calibration';

const count = (t: string) => Math.ceil(t.length / 4);

/** The Cline task pair modelled on gmfstu/Online-Card-Architecture (src/formats/__fixtures__/README.md). */
function clineTask(): Session {
  const read = (name: string) => new Uint8Array(readFileSync(new URL(`../formats/__fixtures__/cline-anthropic-${name}`, import.meta.url)));
  return loadFiles(['api_conversation_history.json', 'ui_messages.json'].map((n) => ({ name: `tasks/1769053680585/${n}`, bytes: read(n) }))).sessions[0]!;
}

/** A Claude Code session whose calls leave the system prompt and tools out, with usage on each. */
function claudeCode(): Session {
  const text = readFileSync(new URL('../cache/__fixtures__/claude-code-compaction-miss.jsonl', import.meta.url), 'utf8');
  return loadFiles([{ name: 'session.jsonl', bytes: new TextEncoder().encode(text) }]).sessions[0]!;
}

/** Every figure for the unrecorded prefix a surface reads, per call. */
function readers(s: Session) {
  const v = buildAnalysisView(s, { count });
  const m = sessionMetrics(s, count, { rule: 'auto' });
  return {
    view: v.calls.map((c) => c.unrecordedPrefixTokens),
    cache: v.cache.map((r) => r.unseenPrefixTokens),
    cli: m.calls.map((c) => c.unseenPrefixTokens),
    v,
  };
}

describe('unrecordedPrefix', () => {
  it.each([
    ['a Cline task', clineTask],
    ['a Claude Code session', claudeCode],
  ])('gives the context view, the cache analysis and inspect --json one figure at every call of %s', (_, load) => {
    const s = load();
    const r = readers(s);
    expect(r.v.calls.some((c) => c.prefixUnrecorded && c.unrecordedPrefixTokens! > 0)).toBe(true);
    expect(r.view).toEqual(r.cache);
    expect(r.cli).toEqual(r.cache);
  });

  it('leaves in the tools band only the prefix and what the items at their fitted size do not account for', () => {
    const { v } = readers(clineTask());
    // A Cline task records no tool schemas: the tools band is the prefix plus the call's unaccounted part.
    for (const c of v.calls) expect(c.bands.tools).toBe(c.unrecordedPrefixTokens! + c.unaccountedTokens);
    expect(v.calls.some((c) => c.unaccountedTokens !== 0)).toBe(true);
  });

  it.each(fixtureTranscripts().map((f) => [f.name, f.session] as const))('is the figure the view and the cache read on %s', (_, s) => {
    const r = readers(s);
    expect(r.view).toEqual(r.cache);
  });

  it('is 0 for a call that records its whole prompt and null for one that does not, without usage to fit', () => {
    expect(unrecordedPrefix({ prefixUnrecorded: false }, undefined)).toBe(0);
    expect(unrecordedPrefix({ prefixUnrecorded: true }, { prefixTokens: 0, prefixFitted: false })).toBeNull();
    expect(unrecordedPrefix({ prefixUnrecorded: true }, { prefixTokens: 1200, prefixFitted: true })).toBe(1200);
  });
});
