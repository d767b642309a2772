// When a rerun compacts: a token threshold, a fraction of the context window, every N calls, more than N items, or
// where the recording compacted (to compare summarizers at the same points).
import { isObject, num, str } from '../model/narrow';
import { thousands } from '../model/thousands';

export type Trigger =
  /** The context reaches `threshold` tokens. */
  | { kind: 'tokens'; threshold: number }
  /** The context reaches `fraction` of the window (`window` overrides the session's). */
  | { kind: 'fraction'; fraction: number; window?: number | null }
  /** Every `every` model calls since the start or the last compaction ("turns" are the calls a rerun walks). */
  | { kind: 'turns'; every: number }
  /** The context holds more than `max` items (OpenHands condenses when its view exceeds `max_size` events). */
  | { kind: 'items'; max: number }
  /** Before the calls the recording compacted before (its own compactions, whatever triggered them). */
  | { kind: 'recorded' };

export const DEFAULT_TRIGGER: Trigger = { kind: 'fraction', fraction: 0.8 };

export interface TriggerState {
  /** Tokens of the live context before compaction. */
  tokens: number;
  /** The session's context window, when known. */
  window: number | null;
  /** Calls since the start or the last compaction, this one included. */
  callsSinceCompaction: number;
  /** Items in the live context (for the `items` trigger; 0 when unknown). */
  items?: number;
  /** The recording compacted right before this call (for the `recorded` trigger). */
  recordedHere?: boolean;
}

export interface TriggerDecision {
  fire: boolean;
  /** Why it fired or not, for the event list (`42000 ≥ 40000 tokens`). */
  reason: string;
}

/** The window a fraction trigger measures against; null when neither the trigger nor the session knows it. */
export function triggerWindow(t: Trigger, sessionWindow: number | null): number | null {
  if (t.kind !== 'fraction') return null;
  return t.window ?? sessionWindow;
}

export function shouldFire(t: Trigger, s: TriggerState): TriggerDecision {
  switch (t.kind) {
    case 'tokens':
      return { fire: s.tokens >= t.threshold, reason: `${s.tokens} ${s.tokens >= t.threshold ? '≥' : '<'} ${t.threshold} tokens` };
    case 'fraction': {
      const window = t.window ?? s.window;
      if (window === null || window <= 0) return { fire: false, reason: 'no context window known' };
      const limit = Math.floor(window * t.fraction);
      return { fire: s.tokens >= limit, reason: `${s.tokens} ${s.tokens >= limit ? '≥' : '<'} ${limit} tokens (${Math.round(t.fraction * 100)}% of ${window})` };
    }
    case 'turns': {
      const every = Math.max(1, Math.floor(t.every));
      const fire = s.callsSinceCompaction >= every;
      return { fire, reason: `${s.callsSinceCompaction} of every ${every} calls` };
    }
    case 'items': {
      const n = s.items ?? 0;
      return { fire: n > t.max, reason: `${n} ${n > t.max ? '>' : '≤'} ${t.max} items` };
    }
    case 'recorded':
      return { fire: s.recordedHere === true, reason: s.recordedHere ? 'the recording compacted here' : 'the recording did not compact here' };
  }
}

/** The token limit a trigger compares the prompt with; null for triggers that do not count tokens. */
export function tokenLimit(t: Trigger, sessionWindow: number | null): number | null {
  if (t.kind === 'tokens') return t.threshold;
  if (t.kind === 'fraction') {
    const window = t.window ?? sessionWindow;
    return window === null || window <= 0 ? null : Math.floor(window * t.fraction);
  }
  return null;
}

/** A short label for tables: `≥ 40,000 tokens`, `≥ 80% of window`, `every 5 calls`. */
export function describeTrigger(t: Trigger): string {
  switch (t.kind) {
    case 'tokens':
      return `≥ ${thousands(t.threshold)} tokens`;
    case 'fraction':
      return `≥ ${Math.round(t.fraction * 100)}% of ${t.window ? `${thousands(t.window)}-token window` : 'window'}`;
    case 'turns':
      return Math.max(1, Math.floor(t.every)) === 1 ? 'every call' : `every ${Math.floor(t.every)} calls`;
    case 'items':
      return `> ${t.max} items`;
    case 'recorded':
      return 'where the recording compacted';
  }
}

/** A trigger read from untrusted input (a URL, a saved sweep); null when it is not one. */
export function parseTrigger(v: unknown): Trigger | null {
  if (!isObject(v)) return null;
  const kind = str(v, 'kind');
  const finite = (key: string) => {
    const n = num(v, key);
    return n !== undefined && Number.isFinite(n) ? n : null;
  };
  if (kind === 'tokens') {
    const threshold = finite('threshold');
    return threshold !== null && threshold > 0 ? { kind, threshold } : null;
  }
  if (kind === 'fraction') {
    const fraction = finite('fraction');
    if (fraction === null || fraction <= 0 || fraction > 1) return null;
    const window = finite('window');
    return window !== null && window > 0 ? { kind, fraction, window } : { kind, fraction };
  }
  if (kind === 'turns') {
    const every = finite('every');
    return every !== null && every >= 1 ? { kind, every: Math.floor(every) } : null;
  }
  if (kind === 'items') {
    const max = finite('max');
    return max !== null && max >= 1 ? { kind, max: Math.floor(max) } : null;
  }
  if (kind === 'recorded') return { kind };
  return null;
}
