// What the cache panel says about a call's prompt-cache report, and about the whole session, in words and numbers.
import type { CacheBreakCause, CacheReport } from '../cache';

export const CAUSE_LABEL: Record<CacheBreakCause, string> = {
  compaction: 'compaction',
  'recap-regenerated': 'regenerated recap',
  edited: 'edited earlier item',
  masked: 'masked tool result',
  ttl: 'time gap beyond the cache TTL',
  unknown: 'unknown',
};

/** Milliseconds as people read a gap: `45 s`, `6 min 20 s`, `2 h 5 min`. */
export function formatDuration(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return s % 60 === 0 ? `${m} min` : `${m} min ${s % 60} s`;
  const h = Math.floor(m / 60);
  return m % 60 === 0 ? `${h} h` : `${h} h ${m % 60} min`;
}

const fmt = (n: number) => n.toLocaleString('en-US');

/** One sentence on why the cache could not serve the previous prompt. */
export function causeSentence(report: Pick<CacheReport, 'cause' | 'gapMs' | 'ttlMs'>): string | null {
  switch (report.cause) {
    case null:
      return null;
    case 'compaction':
      return 'A compaction replaced earlier items with a summary or marker, so everything from that point on was sent anew.';
    case 'recap-regenerated':
      return 'A recap at the same position was rewritten, so every item after it had to be read again although the items themselves did not change.';
    case 'edited':
      return 'An item (or the tool schemas) the previous call already sent was changed in place, which invalidates everything after it.';
    case 'masked':
      return 'An old tool result was replaced by a placeholder (observation masking), so the prompt stops matching at that result.';
    case 'ttl':
      return report.gapMs !== null
        ? `${formatDuration(report.gapMs)} passed since the previous call, more than the ${formatDuration(report.ttlMs)} cache lifetime, so the cache had expired although the prefix matched.`
        : `More than the ${formatDuration(report.ttlMs)} cache lifetime passed since the previous call, so the cache had expired although the prefix matched.`;
    case 'unknown':
      return 'The prompt stops matching here, but no compaction, recap, edit or masking explains it (for example, this prompt simply ends earlier).';
  }
}

export type HeadlineTone = 'first' | 'held' | 'broke' | 'expired';

export interface Headline {
  tone: HeadlineTone;
  text: string;
}

/**
 * The panel's first line. `itemLabel` names the diverging item (e.g. `item 3 (summary r6.m2)`);
 * the report's divergence item id is used when none is given.
 */
export function cacheHeadline(report: CacheReport, itemLabel?: string): Headline {
  if (report.previousContextTokens === null) return { tone: 'first', text: 'First call: there is no earlier prompt to reuse.' };
  if (report.cacheBreak) {
    const where = itemLabel ?? (report.divergence ? `item ${report.divergence.itemId}` : 'the end of the prompt');
    const why = report.cause ? CAUSE_LABEL[report.cause] : 'unknown';
    return { tone: 'broke', text: `Cache broke at ${where}: ${why}` };
  }
  if (report.ttlExpired) return { tone: 'expired', text: `Cache expired: ${report.gapMs !== null ? formatDuration(report.gapMs) : 'a'} gap, beyond the ${formatDuration(report.ttlMs)} TTL` };
  if (report.modelChanged) return { tone: 'expired', text: 'Cache not used: the model changed since the previous call' };
  return { tone: 'held', text: `Cache held: ${fmt(report.prefixTokens)} of ${fmt(report.contextTokens)} tokens reused` };
}

export interface PrefixBar {
  /** Tokens both prompts share. */
  reused: number;
  /** Tokens of the previous prompt after the divergence. */
  lost: number;
  /** Tokens of this prompt after the shared prefix. */
  added: number;
  /** The longer of the two prompts: the bar's full width. */
  scale: number;
}

/** The two rows of the prefix bar: previous prompt (reused + lost) and this prompt (reused + new). */
export function prefixBar(report: CacheReport): PrefixBar {
  const reused = Math.max(0, report.prefixTokens);
  const lost = Math.max(0, report.lostTokens);
  const added = Math.max(0, report.contextTokens - reused);
  return { reused, lost, added, scale: Math.max(1, reused + lost, reused + added) };
}

export interface PredictedVsReported {
  predicted: number;
  reported: number | null;
  /** predicted − reported; null when nothing was reported. */
  difference: number | null;
}

export function predictedVsReported(report: CacheReport): PredictedVsReported {
  const reported = report.reportedCacheRead;
  return { predicted: report.cachedPredicted, reported, difference: reported === null ? null : report.cachedPredicted - reported };
}

export interface CacheBreakEntry {
  index: number;
  cause: CacheBreakCause | null;
  lostTokens: number;
  itemId: string | null;
}

export interface SessionCacheSummary {
  calls: number;
  breaks: CacheBreakEntry[];
  /** Previous-prompt tokens the breaks made the provider read again. */
  tokensLostToBreaks: number;
  /** Calls whose cache expired with the prefix intact. */
  expired: number;
  predictedTotal: number;
  /** Sum of reported cache reads, over the calls that report one; null when none does. */
  reportedTotal: number | null;
  /** Calls that report a cache-read figure. */
  reportedCalls: number;
}

export function sessionCacheSummary(reports: readonly CacheReport[]): SessionCacheSummary {
  const breaks: CacheBreakEntry[] = [];
  let lost = 0;
  let expired = 0;
  let predicted = 0;
  let reported = 0;
  let reportedCalls = 0;
  for (const r of reports) {
    if (r.cacheBreak) {
      breaks.push({ index: r.index, cause: r.cause, lostTokens: r.lostTokens, itemId: r.divergence?.itemId ?? null });
      lost += r.lostTokens;
    } else if (r.ttlExpired && r.cause === 'ttl') expired++;
    predicted += r.cachedPredicted;
    if (r.reportedCacheRead !== null) {
      reported += r.reportedCacheRead;
      reportedCalls++;
    }
  }
  return { calls: reports.length, breaks, tokensLostToBreaks: lost, expired, predictedTotal: predicted, reportedTotal: reportedCalls > 0 ? reported : null, reportedCalls };
}
