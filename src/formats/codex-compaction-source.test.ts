import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { analyzeSession } from '../analysis/analyze-session';
import { loadText } from '../load/loader';

// A Codex `compacted` record holds no size (39 in public rollouts of CLI 0.139 to 0.146: `message`,
// `replacement_history` and, since 0.142, window ids; e.g. doudouqie66/CommonTools@1bbc8e028f24ed37db971fb71475cabbd2cb48b2
// .codex/sessions/2026/07/27/rollout-2026-07-27T14-35-28-019fa249-1d82-7151-bc2f-b80722092642.jsonl). Its tokens
// before are the last prompt a token_count reported, which session-facts labels `reported`; `recorded` is for a size
// the harness wrote with the compaction (Claude Code's `preTokens`).
const fixture = (name: string) => readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), 'utf8');

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- a reader pokes into plain JSON

/** The plain reading: the input of the last token_count that measured a call (input above 0) before each `compacted`. */
function promptsBefore(text: string): number[] {
  const out: number[] = [];
  let last = 0;
  for (const r of text.split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l) as Json)) {
    const u = r.type === 'event_msg' && r.payload.type === 'token_count' ? r.payload.info?.last_token_usage : null;
    if (u?.input_tokens) last = u.input_tokens;
    if (r.type === 'compacted') out.push(last);
  }
  return out;
}

describe('codex compaction tokens before', () => {
  it.each(['codex-rollout.jsonl', 'codex-rollout-compaction-0.107.jsonl'])('%s: the last reported prompt, labelled reported', (name) => {
    const text = fixture(name);
    const s = loadText('rollout.jsonl', text).sessions[0]!;
    // Nothing recorded on the event itself.
    expect(s.compactions.map((c) => c.tokensBefore)).toEqual([null]);
    const a = analyzeSession(s, { count: (t) => Math.ceil(t.length / 4) });
    expect(a.compactions.map((c) => [c.tokensBefore, c.tokensBeforeSource])).toEqual(promptsBefore(text).map((p) => [p, 'reported']));
  });
});
