// Issue 31 #7: provider-side compaction at the edges of a request log (fixtures in ./__fixtures__, see README).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { sessionContexts } from '../analysis/session-analysis';
import { loadText } from '../load/loader';

const load = (name: string) => loadText(name, readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), 'utf8'));

describe('server-side compaction at the edges of a request log', () => {
  it('reports an Anthropic compaction in the last call\'s response, though no later request carries it', () => {
    const { sessions, issues } = load('request-log-anthropic-compaction-last.jsonl');
    expect(issues).toEqual([]);
    const s = sessions[0]!;
    // usage.iterations: the compaction pass read 50,210 tokens, the message pass 251.
    expect(s.compactions.map((c) => [c.kind, c.tokensBefore, c.tokensAfter])).toEqual([['server', 50_210, 251]]);
    // No call comes after it in the log.
    expect(sessionContexts(s).calls.map((c) => c.compactionId)).toEqual([null, null, null]);
  });

  it('places an OpenAI `[message, compaction]` output before the next call: before is that call\'s prompt plus output, after the next prompt', () => {
    const s = load('request-log-responses-compaction-edge.jsonl').sessions[0]!;
    // Call 2 read 1,610 tokens and wrote 31, then compacted; call 3 sent 435. Not a compaction that grows 1,520 → 1,610.
    expect(s.compactions.map((c) => [c.kind, c.tokensBefore, c.tokensAfter])).toEqual([['server', 1_610 + 31, 435]]);
    expect(sessionContexts(s).calls.map((c) => c.compactionId)).toEqual([null, null, 'server-cmp_edge']);
  });
});
