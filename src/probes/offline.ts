// Offline probe scores: each probe answered from the summary text alone, deterministically, by how many of its keys
// (identifiers and files of the evicted content) the summary still holds. The same matching as the summary audit
// (a host:port found as host and port, a path by its full text), so a probe and the audit never disagree on a value.
import { foundIn, haystack, type Haystack } from '../audit';
import { PROBE_KINDS, type Probe, type ProbeKind } from './generate';

export interface ProbeScore {
  probe: Probe;
  /** Keys the summary holds, and those it does not. */
  held: string[];
  missing: string[];
  /** held / keys, 0–1. */
  score: number;
}

export type KindScores = Record<ProbeKind, { mean: number; n: number } | null>;

function holds(hay: Haystack, key: Probe['keys'][number]): boolean {
  if (key.kind === 'word') return hay.lower.includes(key.value.toLowerCase());
  return foundIn({ value: key.value, kind: key.kind, index: 0 }, hay);
}

export function scoreOffline(probes: readonly Probe[], summary: string): ProbeScore[] {
  const hay = haystack(summary);
  return probes.map((probe) => {
    const held: string[] = [];
    const missing: string[] = [];
    for (const k of probe.keys) (holds(hay, k) ? held : missing).push(k.value);
    return { probe, held, missing, score: probe.keys.length ? held.length / probe.keys.length : 0 };
  });
}

/** Mean score per probe kind (null where the compaction had no probe of that kind). */
export function kindScores(scores: readonly { probe: Probe; score: number }[]): KindScores {
  const out = {} as KindScores;
  for (const kind of PROBE_KINDS) {
    const of = scores.filter((s) => s.probe.kind === kind);
    out[kind] = of.length ? { mean: of.reduce((n, s) => n + s.score, 0) / of.length, n: of.length } : null;
  }
  return out;
}

/** Means per kind over several compactions, weighted by their probes. */
export function mergeKindScores(all: readonly KindScores[]): KindScores {
  const out = {} as KindScores;
  for (const kind of PROBE_KINDS) {
    let sum = 0;
    let n = 0;
    for (const s of all) {
      const k = s[kind];
      if (!k) continue;
      sum += k.mean * k.n;
      n += k.n;
    }
    out[kind] = n ? { mean: sum / n, n } : null;
  }
  return out;
}
