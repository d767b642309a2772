// What a list of sessions shows of each before one is opened (the `serve` landing table): read from the same
// analysis and facts the open session shows, with the audits and lints left out since no column needs them.
import type { Session } from '../model/types';
import { analyzeSession } from './analyze-session';

export interface SessionGlance {
  format: Session['format'];
  title: string;
  model: string | null;
  /** Timestamps of the first and last items that carry one (ISO strings as recorded); null when none does. */
  started: string | null;
  lastActivity: string | null;
  calls: number;
  compactions: number;
  /** The provider's reported cache hit rate (facts.cache.hitRate); null when no call reports cache usage. */
  hitRate: number | null;
}

/** What measuring a session gave: its glance, or why there is none (unreadable, or too big to measure unopened). */
export type GlanceOutcome = { ok: true; glance: SessionGlance } | { ok: false; message: string } | { ok: false; skipped: true; message: string };

export function sessionGlance(session: Session, count: (text: string) => number): SessionGlance {
  const { facts } = analyzeSession(session, { count, rule: 'auto', defer: ['audits', 'lints'] });
  let started: string | null = null;
  let last: string | null = null;
  for (const item of session.items) {
    if (!item.timestamp) continue;
    started ??= item.timestamp;
    last = item.timestamp;
  }
  return {
    format: session.format,
    title: session.title,
    model: session.model ?? null,
    started,
    lastActivity: last,
    calls: facts.calls,
    compactions: facts.compactions.total,
    hitRate: facts.cache?.hitRate ?? null,
  };
}
