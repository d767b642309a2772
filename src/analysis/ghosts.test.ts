import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadText } from '../load/loader';
import { estimateTokens } from '../tokens';
import { buildAnalysisView } from './analysis-view';
import { ghostsAt, lazyGhosts } from './ghosts';

const count = (t: string) => estimateTokens(t, 'o200k_base');

// Every fixture and demo: transcripts with compactions, request logs with inferred ones, omissions, masking.
function sessions() {
  return ['src/formats/__fixtures__', 'public/demos'].flatMap((dir) => readdirSync(dir).flatMap((f) => loadText(f, readFileSync(join(dir, f), 'utf8')).sessions));
}

describe('ghostsAt', () => {
  it('rebuilds, call by call, exactly the ghost rows the view builds up front', () => {
    let withGhosts = 0;
    for (const s of sessions()) {
      const eager = buildAnalysisView(s, { count });
      const lazy = buildAnalysisView(s, { count, ghosts: false });
      expect(lazy.ghosts).toEqual([]);
      expect({ ...lazy, ghosts: eager.ghosts }).toEqual(eager);
      eager.ghosts.forEach((rows, ci) => expect(ghostsAt(lazy, ci)).toEqual(rows));
      withGhosts += eager.ghosts.filter((g) => g.length > 0).length;
    }
    expect(withGhosts).toBeGreaterThan(10);
  });
});

describe('lazyGhosts', () => {
  it('reads like the up-front array and returns the same rows on every read', () => {
    const s = loadText('c.jsonl', readFileSync('src/formats/__fixtures__/claude-code-session.jsonl', 'utf8')).sessions[0]!;
    const eager = buildAnalysisView(s, { count });
    const ghosts = lazyGhosts(buildAnalysisView(s, { count, ghosts: false }));
    expect(ghosts).toHaveLength(eager.ghosts.length);
    const last = eager.ghosts.length - 1;
    expect(ghosts[last]).toEqual(eager.ghosts[last]);
    expect(ghosts[last]!.length).toBeGreaterThan(0);
    expect(ghosts[last]).toBe(ghosts[last]);
    expect([...ghosts]).toEqual(eager.ghosts);
  });
});
