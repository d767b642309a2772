// The stable JSON report of `compaction-inspector inspect --json`, and its readable form.
import type { LoadResult } from '../load/loader';
import type { FormatId, ParseIssue, Session } from '../model/types';
import { CAUSE_LABEL, formatUsd, missCostParts, unreadPrefixSentence } from '../charts/cache-summary';
import { costSentence, offBranchSentence } from '../charts/cost-summary';
import type { SessionMetrics } from './session-metrics';
import { sidechainSummaries, type SidechainSummary } from '../analysis/sidechain-summary';
import { isConversationItem } from '../analysis/eviction-map';
import { thousands } from '../model/thousands';
import { oneLine } from './terminal-text';

export interface InspectIssue {
  file: string;
  line: number | null;
  field: string | null;
  message: string;
}

export interface InspectCompaction {
  index: number;
  kind: string;
  trigger: string | null;
  /** 1-based call the compaction precedes (set once the session is analysed). */
  call?: number | null;
  tokensBefore: number | null;
  tokensAfter: number | null;
  /** The summary is encrypted by the provider: no audit can read it. */
  opaque: boolean;
  /** Set once analysed: tokens the next call processed again (the compaction's cost), their price, and the cached tokens it dropped. */
  cacheMissTokens?: number | null;
  cacheMissCostUsd?: number | null;
  cacheDroppedTokens?: number | null;
}

export interface InspectSession extends Partial<Omit<SessionMetrics, 'compactions'>> {
  id: string;
  format: FormatId;
  files: string[];
  items: number;
  toolCalls: number;
  compactions: InspectCompaction[];
  /** Joined side conversations: subagents and compaction summarizers. */
  sidechains: SidechainSummary[];
  /** Why the analysis could not finish, when it could not (the rest of the report still stands). */
  analysisError?: string;
}

export interface InspectReport {
  sessions: InspectSession[];
  errors: InspectIssue[];
  warnings: InspectIssue[];
}

const issue = (i: ParseIssue): InspectIssue => ({ file: i.file, line: i.line, field: i.field, message: i.message });

export function sessionReport(s: Session): InspectSession {
  return {
    id: s.id,
    format: s.format,
    files: [...s.files],
    items: s.items.filter(isConversationItem).length,
    toolCalls: s.items.filter((i) => i.kind === 'tool_call').length,
    compactions: s.compactions.map((c) => ({ index: c.index, kind: c.kind, trigger: c.trigger, tokensBefore: c.tokensBefore, tokensAfter: c.tokensAfter, opaque: c.opaque === true })),
    sidechains: sidechainSummaries(s),
  };
}

export function inspectReport(result: LoadResult): InspectReport {
  return {
    sessions: result.sessions.map(sessionReport),
    errors: result.issues.filter((i) => i.severity === 'error').map(issue),
    warnings: result.issues.filter((i) => i.severity === 'warning').map(issue),
  };
}

const n = (v: number | null) => (v === null ? '?' : thousands(v));

export function formatIssue(i: InspectIssue): string {
  const where = [i.file, i.line !== null ? `line ${i.line}` : null, i.field !== null ? `field ${i.field}` : null].filter(Boolean).join(' · ');
  return oneLine(`${where}: ${i.message}`);
}

export function renderText(report: InspectReport): string {
  const out: string[] = [];
  for (const s of report.sessions) {
    // A conversation folder is one file per event: name the first and count the rest.
    // Every name below comes from the files: one line each (oneLine), so none can start a line of its own.
    const files = s.files.length > 4 ? `${s.files[0]} + ${s.files.length - 1} more files` : s.files.join(' + ');
    out.push(oneLine(`${files}  [${s.format}]  session ${s.id}`));
    const f = s.facts;
    const items = f?.items ?? s.items;
    const toolCalls = f?.toolCalls ?? s.toolCalls;
    const compactions = f ? f.compactions.total : s.compactions.length;
    out.push(`  ${f ? `${n(f.calls)} model call${f.calls === 1 ? '' : 's'} · ` : ''}${n(items)} items · ${n(toolCalls)} tool call${toolCalls === 1 ? '' : 's'} · ${compactions} compaction${compactions === 1 ? '' : 's'}${f && f.compactions.inferred ? ` (${f.compactions.inferred} inferred)` : ''}`);
    if (f && f.calls > 0) {
      const est = f.peakSource === 'reported' ? ' (reported)' : f.peakSource === 'estimated' ? ` (estimated ±${Math.max(1, Math.round(f.peakUncertainty * 100))}%)` : '';
      const input = f.reportedCalls === f.calls && f.calls > 0 ? ' (reported on every call)' : f.reportedInputTokens !== null ? ` (${n(f.reportedInputTokens)} reported on ${f.reportedCalls} of ${f.calls} calls)` : '';
      out.push(`  peak context ${n(f.peakContextTokens)} tokens at call ${f.peakCall}${est} · input ${n(f.totalInputTokens)} tokens${input}`);
      const output = f.reportedOutputCalls === f.calls ? ' (reported on every call)' : f.reportedOutputTokens !== null ? ` (${n(f.reportedOutputTokens)} reported on ${f.reportedOutputCalls} of ${f.calls} calls, the rest counted)` : ' (counted)';
      out.push(`  output ${n(f.outputTokens)} tokens${output}`);
      if (f.models.length) out.push(`  ${f.models.length === 1 ? 'model' : 'models'} ${f.models.map((m) => `${oneLine(m.model)} (${n(m.calls)} call${m.calls === 1 ? '' : 's'})`).join(', ')}`);
      if (f.totals?.warning) out.push(`  totals disagree: ${oneLine(f.totals.warning)}`);
    }
    if (f?.offBranch) out.push(`  ${offBranchSentence(f.offBranch, f.cost, n, formatUsd)}`);
    const cost = f ? costSentence(f.cost, n, formatUsd) : null;
    if (cost) out.push(`  cost ${cost}`);
    const c = s.cache;
    if (c) {
      const causes = Object.entries(c.byCause).map(([k, v]) => `${v} ${CAUSE_LABEL[k as keyof typeof CAUSE_LABEL]}`).join(', ');
      out.push(`  cache: ${c.hitRate !== null ? `hit rate ${(c.hitRate * 100).toFixed(1)}% · ` : ''}${c.breaks} break${c.breaks === 1 ? '' : 's'}${causes ? ` (${causes})` : ''} · ${c.reportedMisses} reported, ${c.predictedBreaks} predicted · ${missCostParts(c, n, formatUsd).join(' · ')}`);
      const unread = unreadPrefixSentence(c.unrecordedNotRead, n);
      if (unread) out.push(`  cache: ${unread}`);
    }
    for (const k of s.compactions) {
      const cost = k.cacheMissTokens != null ? ` · cache: ${n(k.cacheMissTokens)} tokens processed again${k.cacheMissCostUsd ? ` (${formatUsd(k.cacheMissCostUsd)})` : ''}, ${n(k.cacheDroppedTokens ?? 0)} cached tokens dropped` : '';
      out.push(`  compaction #${k.index + 1} ${k.kind}${k.trigger ? ` (${oneLine(k.trigger)})` : ''}${k.call ? ` before call ${k.call}` : ''}: ${n(k.tokensBefore)} → ${n(k.tokensAfter)} tokens${k.opaque ? ' (opaque summary)' : ''}${cost}`);
    }
    for (const sc of s.sidechains) {
      const from = sc.parentCall !== null ? `, started by call ${sc.parentCall}` : '';
      out.push(`  ${sc.purpose} ${oneLine(sc.id)}${sc.agentType ? ` (${oneLine(sc.agentType)})` : ''}: ${n(sc.items)} items · ${n(sc.calls)} call${sc.calls === 1 ? '' : 's'}${from}`);
    }
  }
  if (report.sessions.length === 0) out.push('No session loaded.');
  if (report.errors.length) {
    out.push('', `${report.errors.length} error${report.errors.length === 1 ? '' : 's'}:`);
    for (const e of report.errors) out.push(`  ${formatIssue(e)}`);
  }
  if (report.warnings.length) {
    out.push('', `${report.warnings.length} warning${report.warnings.length === 1 ? '' : 's'}:`);
    for (const w of report.warnings.slice(0, 20)) out.push(`  ${formatIssue(w)}`);
    if (report.warnings.length > 20) out.push(`  …and ${report.warnings.length - 20} more`);
  }
  return out.join('\n');
}
