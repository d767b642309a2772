import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadFiles } from '../load/loader';
import { estimateTokens } from '../tokens';
import { analyzeSession } from './analyze-session';
import { sessionGlance } from './session-glance';

const load = (name: string) => loadFiles([{ name, bytes: readFileSync(new URL(`../formats/__fixtures__/${name}`, import.meta.url)) }]).sessions[0]!;

describe('sessionGlance', () => {
  it('reads calls, compactions and the reported hit rate from the session facts, and the first and last timestamps', () => {
    const s = load('claude-code-session.jsonl');
    const g = sessionGlance(s, estimateTokens);
    const { facts } = analyzeSession(s, { count: estimateTokens, rule: 'auto' });
    expect(g).toMatchObject({ format: 'claude-code', calls: facts.calls, compactions: 2, hitRate: facts.cache!.hitRate });
    expect(g.hitRate).toBeGreaterThan(0);
    const stamps = s.items.map((i) => i.timestamp).filter((t): t is string => !!t);
    expect(g.started).toBe(stamps[0]);
    expect(g.lastActivity).toBe(stamps[stamps.length - 1]);
  });

  it('leaves the hit rate and times null when the file reports neither', () => {
    const g = sessionGlance(load('openai-chat-course.json'), estimateTokens);
    expect(g).toMatchObject({ format: 'openai-chat', calls: 1, compactions: 0, hitRate: null, started: null, lastActivity: null });
  });
});
