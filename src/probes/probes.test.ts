import { describe, expect, it } from 'vitest';
import { asst, toolCall, toolResult, user } from '../cache/test-builders';
import { generateProbes, judgeProbe, kindScores, parseProbeScore, renderItems, scoreOffline, type ProbeMessage } from '.';

const slice = [
  user('u1', 'The nightly job fails on the database at db-prod-1:5432. Fix the pool size.'),
  toolCall('c1', 'Read', '{"file_path":"config/db.yaml"}', 't1'),
  toolResult('r1', 'Read', 'host: db-prod-1\nport: 5432\npool_size: 5', 't1'),
  asst('a1', 'I raise pool_size to 20 rather than 50 because the database allows 64 connections in total.'),
  toolCall('c2', 'Edit', '{"file_path":"config/db.yaml","old_string":"pool_size: 5","new_string":"pool_size: 20"}', 't2'),
  toolResult('r2', 'Edit', 'The file config/db.yaml has been updated.', 't2'),
];
const later = [user('u2', 'Now deploy it.'), toolCall('c3', 'Bash', '{"command":"kubectl apply -f config/db.yaml"}', 't3')];

describe('probes', () => {
  it('asks what the evicted slice said: a fact, the files changed, the next step and a decision, each with its keys', () => {
    const probes = generateProbes({ slice, later });
    const byKind = (k: string) => probes.filter((p) => p.kind === k);
    expect(byKind('recall')[0]).toMatchObject({ keys: [{ value: 'db-prod-1:5432', kind: 'host-port' }], sourceIds: ['u1'] });
    expect(byKind('recall')[0]!.question).toContain('____');
    expect(byKind('recall')[0]!.question).not.toContain('db-prod-1:5432');
    expect(byKind('artifact')[0]).toMatchObject({ keys: [{ value: 'config/db.yaml', kind: 'path' }], evidence: 'config/db.yaml (Edit)' });
    expect(byKind('continuation')[0]!.keys.map((k) => k.value)).toContain('config/db.yaml');
    expect(byKind('decision')[0]!.question).toContain('I raise pool_size to 20');
    expect(byKind('decision')[0]!.keys.length).toBeGreaterThan(0);
  });

  it('scores offline by the keys the summary holds, per kind', () => {
    const probes = generateProbes({ slice, later });
    const kept = scoreOffline(probes, '## Summary\n- raised pool_size to 20 in config/db.yaml; the database (db-prod-1, port 5432) allows 64 connections in total');
    const lost = scoreOffline(probes, '[Earlier messages truncated]');
    expect(kept.find((s) => s.probe.kind === 'recall')!.score).toBe(1);
    expect(kept.find((s) => s.probe.kind === 'artifact')).toMatchObject({ score: 1, held: ['config/db.yaml'], missing: [] });
    expect(lost.every((s) => s.score === 0)).toBe(true);
    const k = kindScores(kept);
    expect(k.artifact).toEqual({ mean: 1, n: 1 });
    expect(kindScores(lost).recall!.mean).toBe(0);
  });

  it('asks twice and judges 0–5 at an endpoint, and answers a repeated probe from the cache', async () => {
    const [probe] = generateProbes({ slice, later });
    const sent: ProbeMessage[][] = [];
    const complete = async (m: ProbeMessage[]) => {
      sent.push(m);
      if (m[0]!.content.startsWith('You grade')) return { ok: true as const, text: 'Sure: {"score": 4, "reason": "same host, port missing"}' };
      return { ok: true as const, text: m[1]!.content.includes('db-prod-1:5432') ? 'db-prod-1:5432' : 'db-prod-1' };
    };
    const memory = new Map<string, string>();
    const store = { get: async (k: string) => memory.get(k), set: async (k: string, v: string) => void memory.set(k, v) };
    const material = { compacted: renderItems([asst('s', '## Summary\n- the job uses db-prod-1')]), evicted: renderItems(slice) };
    const first = await judgeProbe(probe!, material, { complete, store, model: 'm' });
    expect(first).toMatchObject({ compactedAnswer: 'db-prod-1', fullAnswer: 'db-prod-1:5432', score: 4, sent: 3, cached: 0, error: null });
    expect(sent[0]![1]!.content).toContain('the job uses db-prod-1');
    expect(sent[1]![1]!.content).toContain('db-prod-1:5432');
    const again = await judgeProbe(probe!, material, { complete, store, model: 'm' });
    expect(again).toMatchObject({ score: 4, sent: 0, cached: 3 });
    expect(sent).toHaveLength(3);
  });

  it('reads the judge score, and says why when it cannot', () => {
    expect(parseProbeScore('```json\n{"score": 3, "reason": "partly"}\n```')).toEqual({ ok: true, score: 3, reason: 'partly' });
    expect(parseProbeScore('{"score": 9}').ok).toBe(false);
    expect(parseProbeScore('no idea').ok).toBe(false);
  });
});
