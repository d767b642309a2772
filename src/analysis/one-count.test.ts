// Issue 31 #13: one count of items and of what a compaction replaced, read by the header, the context view's ghost
// rows and the Eviction map alike. The fixture's last tool result before the auto-compaction was never sent to a
// call (the compaction came first), as in the public Claude Code sessions the issue measured.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadFiles } from '../load/loader';
import { describeSamples, readSample } from '../test/shared-samples';
import { buildAnalysisView } from './analysis-view';
import { labelAt } from './eviction-runs';

const fixture = (name: string) => ({ name, bytes: new Uint8Array(readFileSync(new URL(`../cache/__fixtures__/${name}`, import.meta.url))) });
const count = (t: string) => Math.ceil(t.length / 4);

function counts(files: { name: string; bytes: Uint8Array }[]) {
  const v = buildAnalysisView(loadFiles(files).sessions[0]!, { count });
  return v.compactions.map((c) => {
    const ci = c.call! - 1;
    const ghosts = v.ghosts[ci]!.filter((g) => g.compactionId === c.id);
    const mapped = v.eviction.filter((r) => labelAt(r.runs, ci) !== null && labelAt(r.runs, ci) !== 'verbatim' && v.removedBy!.get(r.itemId) === c.id);
    return {
      header: c.replacedIds.length,
      headerTokens: c.replacedIds.reduce((n, id) => n + (v.tokens.get(id) ?? 0), 0),
      ghosts: ghosts.length,
      ghostTokens: ghosts.reduce((n, g) => n + g.tokens, 0),
      evictionMap: mapped.length,
      items: v.facts.items,
      evictionRows: v.eviction.length,
    };
  });
}

const agree = (c: ReturnType<typeof counts>[number]) => {
  expect(c.ghosts).toBe(c.header);
  expect(c.evictionMap).toBe(c.header);
  expect(c.ghostTokens).toBe(c.headerTokens);
  expect(c.evictionRows).toBe(c.items);
};

describe('one count of replaced items', () => {
  it('counts a tool result the compaction replaced before any call saw it on every surface', () => {
    const [c] = counts([fixture('claude-code-compaction-miss.jsonl')]);
    expect(c).toMatchObject({ header: 8, items: 12 });
    agree(c!);
  });
});

describeSamples('one count of replaced items on the shared sample', () => {
  it('agrees between the header, the ghost rows and the Eviction map', () => {
    const [c] = counts(['claude-code-compacted.jsonl', 'claude-code-compacted.agent-acompact.jsonl'].map(readSample));
    agree(c!);
  });
});
