// Geometry of the research panels' small charts: the Self-Sum segment strip and the Agent-Omit
// thought/action/observation bars (the paper's Fig. 2). Pure, so the panels only draw.
import type { OmitTurn } from './agent-omit-metrics';

export interface StripCell {
  index: number;
  /** Left edge and width, in percent of the strip. */
  left: number;
  width: number;
}

/**
 * Widths proportional to `values` (a segment's steps), each at least `minShare` percent so a short
 * segment stays clickable; the rest is shared in proportion. The floors never take more than half the
 * strip, so many cells still differ in width. All zero → equal widths.
 */
export function stripCells(values: readonly number[], minShare = 6): StripCell[] {
  const n = values.length;
  if (n === 0) return [];
  const floor = Math.min(minShare, 50 / n);
  const total = values.reduce((a, b) => a + Math.max(0, b), 0);
  const spare = 100 - floor * n;
  let left = 0;
  return values.map((v, index) => {
    const width = floor + (total > 0 ? (Math.max(0, v) / total) * spare : spare / n);
    const cell = { index, left, width };
    left += width;
    return cell;
  });
}

export type ShareKey = 'thought' | 'action' | 'observation';
export const SHARE_ORDER: readonly ShareKey[] = ['thought', 'action', 'observation'];

export interface ShareSegment {
  key: ShareKey;
  value: number;
  from: number;
  to: number;
}

/**
 * What a turn's bar stacks. `produced`: the thought and action the agent wrote and the observation it got
 * back. `context`: the observations the turn was written from instead (they stack up turn after turn
 * until omitted, the paper's "linear growth"), with the turn's own thought and action.
 */
export type ShareMode = 'produced' | 'context';

export function turnShareStack(turn: OmitTurn, mode: ShareMode): ShareSegment[] {
  const values: Record<ShareKey, number> = {
    thought: turn.thoughtTokens,
    action: turn.actionTokens,
    observation: mode === 'produced' ? turn.observationTokens : turn.observationsInContext,
  };
  let from = 0;
  return SHARE_ORDER.map((key) => {
    const seg = { key, value: values[key], from, to: from + values[key] };
    from = seg.to;
    return seg;
  });
}

export function turnShareTotal(turn: OmitTurn, mode: ShareMode): number {
  return turn.thoughtTokens + turn.actionTokens + (mode === 'produced' ? turn.observationTokens : turn.observationsInContext);
}

/** Percentages that add up to 100 (largest remainder), for a legend like the paper's 45.1 / 2.7 / 52.2. */
export function percentShares(values: Readonly<Record<ShareKey, number>>, decimals = 1): Record<ShareKey, number> {
  const total = SHARE_ORDER.reduce((n, k) => n + values[k], 0);
  const out: Record<ShareKey, number> = { thought: 0, action: 0, observation: 0 };
  if (total <= 0) return out;
  const unit = 10 ** decimals;
  const raw = SHARE_ORDER.map((k) => (values[k] / total) * 100 * unit);
  const floors = raw.map(Math.floor);
  let left = 100 * unit - floors.reduce((a, b) => a + b, 0);
  const byRemainder = raw.map((r, i) => [r - floors[i]!, i] as const).sort((a, b) => b[0] - a[0]);
  for (const [, i] of byRemainder) {
    if (left <= 0) break;
    floors[i]!++;
    left--;
  }
  SHARE_ORDER.forEach((k, i) => (out[k] = floors[i]! / unit));
  return out;
}

/**
 * The omission matrix (observation N × agent turn M): not there yet, returned by this turn's action, in the
 * context this turn was written from, omitted by this turn's command, or gone from the context after it.
 */
export type OmitCell = 'absent' | 'received' | 'present' | 'omitted-here' | 'gone';

export function omitCell(obs: { turn: number | null; omittedAtTurn: number | null; placeholder: boolean }, turn: number): OmitCell {
  const received = obs.turn ?? 0;
  // o_t answers turn t, so turn t+1 is the first written with it in the context.
  if (turn < received) return 'absent';
  if (turn === received) return 'received';
  if (obs.omittedAtTurn !== null) {
    if (turn === obs.omittedAtTurn) return 'omitted-here';
    if (turn > obs.omittedAtTurn) return 'gone';
  }
  return 'present';
}
