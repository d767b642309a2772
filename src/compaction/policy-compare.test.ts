import { describe, expect, it } from 'vitest';
import { toolResult } from '../cache/test-builders';
import { type SummaryAudit } from '../audit';
import { emptySurvival } from '../audit/survival';
import { auditColumns, LaterToolText } from './audit-columns';
import { corpusComparison, type PolicyComparison, type PolicyRow } from './policy-compare';

const none = { recall: null, artifact: null, continuation: null, decision: null };
function row(id: string, totalUsd: number | null, input: number, extra: Partial<PolicyRow> = {}): PolicyRow {
  return { id, label: id, baseline: id === 'recorded', trigger: '', status: 'done', notes: [], compactions: 1, compactionCalls: [], peakTokens: input / 10, totalInputTokens: input, estimatedCalls: 0, peakBand: 0, inputBand: 0, cacheReadTokens: 0, cacheWriteTokens: 0, inputUsd: totalUsd, summarizerPromptTokens: 0, summarizerOutputTokens: 0, summarizerUsd: 0, totalUsd, lostNeeded: 1, lostRefetched: 0, auditSource: 'none', survival: {}, probes: none, recordedMatch: [], ...extra };
}
const session = (rows: PolicyRow[]): PolicyComparison => ({ sessionId: 's', format: 'claude-code', model: null, calls: 10, rows, priceLabel: null, status: 'done' });

describe('corpusComparison', () => {
  it('gives each policy its median and total over the sessions, the recorded runs first, and counts the cheapest', () => {
    const rows = corpusComparison([
      session([row('recorded', 3, 300), row('codex', 2, 200), row('openhands', 1, 100)]),
      session([row('recorded', 5, 500), row('codex', 6, 600), row('openhands', 7, 700)]),
      session([row('recorded', 4, 400), row('openhands', 2, 200), row('codex', null, 900)]),
    ]);
    expect(rows.map((r) => r.id)).toEqual(['recorded', 'codex', 'openhands']);
    expect(rows[0]).toMatchObject({ sessions: 3, median: { totalUsd: 4, totalInputTokens: 400 }, total: { totalUsd: 12, totalInputTokens: 1200 }, cheapest: 1 });
    // A session without a price leaves that figure out of the median, never as zero.
    expect(rows[1]).toMatchObject({ sessions: 3, median: { totalUsd: 4, totalInputTokens: 600 }, total: { totalUsd: 8 }, cheapest: 0 });
    expect(rows[2]).toMatchObject({ median: { totalUsd: 2 }, cheapest: 2 });
  });

  it('counts a session for no policy when every policy costs the same there, and for each of a tie otherwise', () => {
    const rows = corpusComparison([
      session([row('recorded', 1.82, 300), row('codex', 1.82, 300), row('openhands', 1.82, 300)]),
      session([row('recorded', 5, 500), row('codex', 4, 400), row('openhands', 4, 400)]),
    ]);
    expect(rows.map((r) => r.cheapest)).toEqual([0, 1, 1]);
  });
});

describe('auditColumns', () => {
  const base = { kept: ['config/db.yaml'], lost: ['db-prod-1:5432', 'FRE-512'], lostReferencedLater: [{ value: 'FRE-512', itemId: 'u9', via: 'mention' as const }], invented: [], instructionLike: [], inventedInstructions: [], kinds: { 'config/db.yaml': 'path' as const, 'db-prod-1:5432': 'host-port' as const, 'FRE-512': 'ticket' as const } };
  const later = new LaterToolText([[], [], [toolResult('r1', 'Read', 'host: DB-PROD-1:5432', 't1')]]);

  it('reads the audit’s own re-fetch and survival fields', () => {
    const survival = { ...emptySurvival(), commands: { evicted: 3, kept: 1 }, paths: { evicted: 2, kept: 2 } };
    const own: SummaryAudit = { ...base, lostRefetchedLater: [{ value: 'FRE-512', itemId: 'r2', via: 'refetch', usedIn: null }], survival };
    const c = auditColumns([{ audit: own, callIndex: 0 }, { audit: own, callIndex: 1 }], later);
    // Kinds with nothing evicted are left out; the same kinds add up over the run's compactions.
    expect(c).toEqual({ lostNeeded: ['FRE-512'], lostRefetched: ['FRE-512'], survival: { commands: { evicted: 6, kept: 2 }, paths: { evicted: 4, kept: 4 } }, source: 'audit' });
  });

  it('works them out, under the audit’s kind names, for an audit stored before it had them', () => {
    const c = auditColumns([{ audit: base, callIndex: 0 }], later);
    expect(c).toEqual({ lostNeeded: ['FRE-512'], lostRefetched: ['db-prod-1:5432'], survival: { paths: { evicted: 1, kept: 1 }, urls: { evicted: 1, kept: 0 }, identifiers: { evicted: 1, kept: 0 } }, source: 'derived' });
    // A value fetched again before the compaction does not count.
    expect(auditColumns([{ audit: base, callIndex: 2 }], later).lostRefetched).toEqual([]);
  });
});
