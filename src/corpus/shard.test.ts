import { describe, expect, it } from 'vitest';
import { corpusKey, fnv1a, inShard, parseShard, shardOf } from './shard';

describe('parseShard', () => {
  it('reads i/n with 1 ≤ i ≤ n', () => {
    expect(parseShard('2/4')).toEqual({ index: 2, count: 4 });
    expect(parseShard(' 1 / 1 ')).toEqual({ index: 1, count: 1 });
  });

  it('explains what is wrong otherwise', () => {
    expect(parseShard('0/4')).toEqual({ error: '--shard 0/4: i must be between 1 and n' });
    expect(parseShard('5/4')).toEqual({ error: '--shard 5/4: i must be between 1 and n' });
    expect(parseShard('half')).toEqual({ error: '--shard expects i/n (for example 1/4), got "half"' });
  });
});

describe('shardOf', () => {
  const keys = Array.from({ length: 1000 }, (_, i) => `runs/${i % 7}/rollout-${i}.jsonl`);

  it('puts every key in exactly one of n shards', () => {
    for (const n of [1, 2, 3, 8]) {
      const taken = Array.from({ length: n }, (_, i) => keys.filter((k) => inShard(k, { index: i + 1, count: n })));
      expect(taken.reduce((s, t) => s + t.length, 0)).toBe(keys.length);
      expect(new Set(taken.flat()).size).toBe(keys.length);
    }
  });

  it('is stable: pinned hashes, so shards agree across machines and releases', () => {
    expect(fnv1a('')).toBe(0x811c9dc5);
    expect(fnv1a('a')).toBe(0xe40c292c);
    expect(fnv1a('foobar')).toBe(0xbf9cf968);
    expect(shardOf('runs/0/rollout-0.jsonl', 4)).toBe(shardOf('runs/0/rollout-0.jsonl', 4));
  });

  it('spreads keys roughly evenly', () => {
    const counts = [0, 0, 0, 0];
    for (const k of keys) counts[shardOf(k, 4) - 1]!++;
    for (const c of counts) expect(c).toBeGreaterThan(200);
  });

  it('keys paths the same whatever the separator', () => {
    expect(corpusKey('a\\b\\c.json')).toBe('a/b/c.json');
    expect(corpusKey('./a/b.json')).toBe('a/b.json');
    expect(inShard('x', null)).toBe(true);
  });
});
