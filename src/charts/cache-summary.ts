// What the cache panel says about a call's prompt-cache report, and about the whole session, in words and numbers.
import type { CacheBreakCause, CacheReport } from '../cache';
import type { CacheSummary } from '../cache/forensics';
import { CAUSE_TAXONOMY, READ_NOTES } from '../cache/cause-taxonomy';
import { thousands as fmt } from '../model/thousands';

export const CAUSE_LABEL: Record<CacheBreakCause, string> = Object.fromEntries(Object.entries(CAUSE_TAXONOMY).map(([k, v]) => [k, v.label])) as Record<CacheBreakCause, string>;

/**
 * The session's unread share of the unrecorded prefix (`CacheSummary.unrecordedNotRead`) in words, lower-case, for the
 * panel and `inspect`; null when no call has one.
 */
export function unreadPrefixSentence(u: { calls: number; tokens: number }, fmt: (n: number) => string): string | null {
  if (u.calls === 0) return null;
  return `at ${fmt(u.calls)} call${u.calls === 1 ? '' : 's'} the provider did not read ${fmt(u.tokens)} tokens of the unrecorded system prompt and tools from its cache (part of them changed, or no cache breakpoint covered them)`;
}

/**
 * What the session's misses cost, in the words every surface uses (`inspect`, `check`, the HTML report, the panel):
 * lost to misses (breaks), the compactions' cost (apart from misses), uncached tails (no breaks), and calls that
 * were never cached (no breakpoint). `usd` formats dollars.
 */
export function missCostParts(c: CacheSummary, fmt: (n: number) => string, usd: (v: number) => string): string[] {
  const plural = (n: number, w: string) => `${fmt(n)} ${w}${n === 1 ? '' : 's'}`;
  const money = (v: number | null, tokens: number) => (v !== null ? usd(v) : `${fmt(tokens)} tokens`);
  const out = [c.missTokens === 0 ? 'nothing lost to misses' : `${money(c.missCostUsd, c.missTokens)} lost to misses`];
  if (c.compactionMiss.calls > 0) out.push(`${money(c.compactionMiss.costUsd, c.compactionMiss.tokens)} at ${plural(c.compactionMiss.calls, 'compaction')} (${fmt(c.compactionMiss.tokens)} tokens processed again; ${fmt(c.compactionMiss.droppedTokens)} cached tokens dropped, not processed again)`);
  if (c.shortfalls.calls > 0) out.push(`${money(c.shortfalls.costUsd, c.shortfalls.tokens)} in uncached tails at ${plural(c.shortfalls.calls, 'call')} (shortfalls, not breaks)`);
  if (c.notCached > 0) out.push(`${plural(c.notCached, 'call')} not cached: no cache breakpoint`);
  return out;
}

/** Milliseconds as people read a gap: `45 s`, `6 min 20 s`, `2 h 5 min`. */
export function formatDuration(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return s % 60 === 0 ? `${m} min` : `${m} min ${s % 60} s`;
  const h = Math.floor(m / 60);
  return m % 60 === 0 ? `${h} h` : `${h} h ${m % 60} min`;
}


/** How far the reported prompt moved from what the previous call left cached, in words: `12,000 fewer prompt tokens …`. */
function promptChange(report: Partial<Pick<CacheReport, 'reportedPrompt' | 'previousCacheable'>>, way: 'fewer' | 'more'): string {
  const { reportedPrompt, previousCacheable } = report;
  const by = reportedPrompt != null && previousCacheable != null ? `${fmt(Math.abs(reportedPrompt - previousCacheable))} ` : 'far ';
  return `${by}${way} prompt tokens than the previous call left cached`;
}

/** One sentence on why the cache could not serve the previous prompt. */
export function causeSentence(report: Pick<CacheReport, 'cause' | 'gapMs' | 'ttlMs' | 'ttlSource' | 'reportedCacheRead' | 'previousCacheable' | 'missKind' | 'rule'> & Partial<Pick<CacheReport, 'readNote' | 'missTokens' | 'droppedTokens' | 'reportedPrompt'>>): string | null {
  const reRead = report.reportedCacheRead !== null && report.previousCacheable !== null ? `The provider read ${fmt(report.reportedCacheRead)} of the ${fmt(report.previousCacheable)} tokens the previous call left cached` : null;
  const lifetime = `${formatDuration(report.ttlMs)} cache lifetime${report.ttlSource === 'usage' ? ' (from the reported cache writes)' : report.ttlSource === 'cache-control' ? ' (asked for by a cache breakpoint)' : ''}`;
  switch (report.cause) {
    case null:
      return readNoteSentence(report);
    case 'compaction':
      return `A compaction replaced earlier items with a summary or marker, so everything from that point on was sent anew.${report.missTokens ? ` The ${fmt(report.missTokens)} tokens processed again are the compaction's cost, not a miss` : ''}${report.droppedTokens ? `${report.missTokens ? ';' : ''} the ${fmt(report.droppedTokens)} cached tokens it dropped were never processed again` : ''}${report.missTokens || report.droppedTokens ? '.' : ''}`;
    case 'tools-changed':
      return `The tool list changed since the previous call (MCP servers connected or disconnected, or a system-prompt update with other tools). Tools lead the prompt, so the cache breaks there.${reRead ? ` ${reRead}.` : ''}`;
    case 'thinking-dropped':
      return `This call starts a new human turn, and the API drops earlier thinking blocks at a new turn: the prompt shrank below what was cached, and the provider fell back to an earlier cache entry.${reRead ? ` ${reRead}.` : ''}`;
    case 'restart':
      return `A new process sent this call (the harness was restarted or the session resumed), and it read about nothing from the cache.${reRead ? ` ${reRead}.` : ''}`;
    case 'gap-unknown':
      return `The timestamps repeat or go backwards here (a resumed or archived session), so the time since the previous call is unknown; the read fell to about nothing, as after an expired cache or a restart.${reRead ? ` ${reRead}.` : ''}`;
    case 'rolled-back':
      return `The user took back the last turns before this call (a rollback, to edit a message): the prompt goes on from an earlier point, and what follows it was sent anew.${reRead ? ` ${reRead}.` : ''}`;
    case 'cleared':
      return `The user's /clear emptied the conversation before this call, so everything after the system prompt and tools was sent anew.${reRead ? ` ${reRead}.` : ''}`;
    case 'recap-regenerated':
      return 'A recap at the same position was rewritten, so every item after it had to be read again although the items themselves did not change.';
    case 'edited':
      return 'An item (or the tool schemas) the previous call already sent was changed in place, which invalidates everything after it.';
    case 'masked':
      return 'An old tool result was replaced by a placeholder (observation masking), so the prompt stops matching at that result.';
    case 'model-changed':
      return 'The model changed since the previous call; caches are kept per model, so nothing could be read.';
    case 'ttl': {
      // A ttl read is at most the start every request of the harness shares, which other requests keep warm.
      const warm = report.reportedCacheRead ? ` The ${fmt(report.reportedCacheRead)} tokens still read are the start other requests share (system prompt, tools), kept warm by them.` : '';
      return report.gapMs !== null
        ? `${formatDuration(report.gapMs)} passed since the previous call, more than the ${lifetime}, so the cache had expired although the prefix matched.${warm}`
        : `More than the ${lifetime} passed since the previous call, so the cache had expired although the prefix matched.${warm}`;
    }
    case 'unrecorded-removal':
      return `The provider counted ${promptChange(report, 'fewer')}, yet the file keeps every earlier item and records no compaction: the harness took content out of what it sent (Claude Code's microcompact clears old tool results so), and everything after the first removal was sent anew.${reRead ? ` ${reRead}.` : ''}`;
    case 'unrecorded-return':
      return `The provider counted ${promptChange(report, 'more')}, far more than this call adds: content the harness had left out of what it sent (the file held it throughout; Claude Code's microcompact clears old tool results so) was sent again, and everything from the first of it on was sent anew.${reRead ? ` ${reRead}.` : ''}`;
    case 'unrecorded-prefix':
      return `${reRead ?? 'The provider re-read only the start of the prompt'}: about the size of the system prompt and tools this file does not record. The recorded conversation did not change; what changed is in the unrecorded part of the prompt, just after it.`;
    case 'provider-miss':
      return `${reRead ?? 'The provider served less than the previous prompt'}, less than it had already served a call ago, although the prompt did not change${report.gapMs !== null && report.gapMs > report.ttlMs ? '' : `, the gap was within the ${lifetime}`} and it was above the minimum. ${report.rule === 'openai' ? 'OpenAI caching is best-effort: routing to another server or eviction causes misses no content comparison can predict.' : 'The provider missed its own cache (best-effort caching, eviction or routing).'}${report.missKind === 'full' ? ' Nothing was served.' : report.missKind === 'partial' ? ' Part of it was served.' : ''}`;
    case 'below-minimum':
      return `The previous prompt was shorter than the provider's minimum cacheable length, so it was never cached.${reRead ? ` ${reRead}.` : ''}`;
    case 'unknown':
      return 'The prompt stops matching here, but no compaction, recap, edit or masking explains it (for example, this prompt simply ends earlier).';
  }
}

/** A sentence for a call that is no break but whose read needs explaining: an uncached tail, dropped thinking, no breakpoint. */
export function readNoteSentence(report: Pick<CacheReport, 'reportedCacheRead'> & Partial<Pick<CacheReport, 'readNote' | 'missTokens' | 'droppedTokens'>>): string | null {
  switch (report.readNote) {
    case null:
    case undefined:
      return null;
    case 'shortfall':
      return `The provider read ${fmt(report.reportedCacheRead ?? 0)} tokens: all it had served a call ago, but not the newest ${fmt(report.missTokens ?? 0)} tokens of the previous prompt. An OpenAI-style cache leaves such an uncached tail (it grows in 128-token steps); it costs the difference, and it is not a cache break.`;
    case 'thinking-dropped':
      return `This call starts a new human turn, and the API drops earlier thinking blocks at a new turn: the prompt is ${fmt(report.droppedTokens ?? 0)} tokens smaller than what the previous call left cached, and the provider still read all of it. Nothing was processed again, so this is no miss.`;
    case 'no-breakpoint':
      return READ_NOTES['no-breakpoint'].meaning;
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
  if (report.readNote === 'no-breakpoint') return { tone: 'held', text: 'Not cached: no cache breakpoint (not a miss)' };
  if (report.readNote === 'shortfall' && report.reportedCacheRead !== null) {
    return { tone: 'held', text: `Cache held, short by an uncached tail: the provider read ${fmt(report.reportedCacheRead)}, ${fmt(report.missTokens ?? 0)} tokens not served` };
  }
  if (!report.cacheBreak && report.predictedCause === 'compaction' && report.reportedMiss === false && report.reportedCacheRead !== null) {
    return { tone: 'held', text: `Compaction, no miss: the provider read ${fmt(report.reportedCacheRead)} tokens, all the compaction kept${report.droppedTokens ? `; ${fmt(report.droppedTokens)} cached tokens dropped` : ''}` };
  }
  if (report.cacheBreak) {
    const why = report.cause ? CAUSE_LABEL[report.cause] : 'unknown';
    // The provider's figures lead: a reported miss is named as such, with what was served.
    if (report.reportedMiss && report.reportedCacheRead !== null && report.previousCacheable !== null) {
      if (report.missCharge === 'compaction') return { tone: 'broke', text: `Compaction: ${fmt(report.reportedCacheRead)} tokens read, ${fmt(report.missTokens ?? 0)} processed again (the compaction's cost)` };
      return { tone: 'broke', text: `Cache miss reported: ${fmt(report.reportedCacheRead)} of ${fmt(report.previousCacheable)} tokens read — ${why}` };
    }
    if (report.cause === 'ttl') return { tone: 'expired', text: `Cache expired: ${report.gapMs !== null ? formatDuration(report.gapMs) : 'a'} gap, beyond the ${formatDuration(report.ttlMs)} TTL` };
    if (report.cause === 'model-changed') return { tone: 'expired', text: 'Cache not used: the model changed since the previous call' };
    const where = itemLabel ?? (report.divergence ? `item ${report.divergence.itemId}` : 'the end of the prompt');
    return { tone: 'broke', text: `Cache broke at ${where}: ${why}` };
  }
  if (report.reportedMiss === false && report.reportedCacheRead !== null) {
    const gap = report.gapMs !== null && report.gapMs > 5 * 60_000 ? ` after a ${formatDuration(report.gapMs)} gap` : '';
    return { tone: 'held', text: `Cache held: the provider read ${fmt(report.reportedCacheRead)} tokens${gap}` };
  }
  return { tone: 'held', text: `Cache held: ${fmt(report.prefixTokens)} of ${fmt(report.contextTokens)} tokens reused${report.reportedMiss === null ? ' (predicted; no reported cache figures)' : ''}` };
}

/**
 * When the prediction and the provider's report disagree by more than the provider's granularity, a sentence on
 * why; null when they agree or nothing was reported.
 */
export function disagreementSentence(report: CacheReport): string | null {
  if (report.reportedMiss === null || report.previousContextTokens === null) return null;
  // A read the provider's rules explain (an uncached tail, dropped thinking, no breakpoint) has its own sentence.
  if (report.readNote !== null) return null;
  if (report.reportedMiss && !report.predictedBreak) return 'The content analysis found no change that would break the cache; the provider\'s figures show the miss, so they decide.';
  if (!report.reportedMiss && !report.cacheBreak && report.predictedCause === 'compaction') return `A compaction changed the prompt at the divergence below, but the provider read ${fmt(report.reportedCacheRead ?? 0)} tokens, everything before it (within its rounding): the compaction cost no cache miss, and the cached tokens it dropped were never processed again.`;
  if (!report.reportedMiss && report.predictedBreak && (report.ttlExpired || report.modelChanged)) return 'The content analysis expected a miss, but the provider reported a hit, so the cache was still there.';
  if (!report.reportedMiss && report.predictedBreak) return `The content changed at the divergence below, but the provider still read ${fmt(report.reportedCacheRead ?? 0)} tokens: the change came after its last cache breakpoint or within its rounding.`;
  return null;
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
  /** Tokens processed again (miss-cost.ts): at most the prompt less its read. */
  missTokens: number;
  /** Who pays them: a miss, or the compaction before the call. */
  charge: CacheReport['missCharge'];
  missCostUsd: number | null;
  reported: boolean;
  predicted: boolean;
  itemId: string | null;
}

/** The session's breaks, in call order, for the panel's list. */
export function cacheBreaks(reports: readonly CacheReport[]): CacheBreakEntry[] {
  return reports
    .filter((r) => r.cacheBreak)
    .map((r) => ({ index: r.index, cause: r.cause, missTokens: r.missTokens ?? 0, charge: r.missCharge, missCostUsd: r.missCostUsd, reported: r.reportedMiss === true, predicted: r.predictedBreak, itemId: r.divergence?.itemId ?? null }));
}

/** Dollars as a short figure: `$0.42`, `$12.30`, `<$0.01`. */
export function formatUsd(v: number): string {
  if (v > 0 && v < 0.01) return '<$0.01';
  return `$${v.toFixed(2)}`;
}
