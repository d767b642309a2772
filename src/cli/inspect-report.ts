// The stable JSON report of `compaction-inspector inspect --json`, and its readable form.
import type { LoadResult } from '../load/loader';
import type { FormatId, ParseIssue, Session } from '../model/types';
import { sidechainSummaries, type SidechainSummary } from '../analysis/sidechain-summary';

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
  tokensBefore: number | null;
  tokensAfter: number | null;
  /** The summary is encrypted by the provider: no audit can read it. */
  opaque: boolean;
}

export interface InspectSession {
  id: string;
  format: FormatId;
  files: string[];
  items: number;
  toolCalls: number;
  compactions: InspectCompaction[];
  /** Joined side conversations: subagents and compaction summarizers. */
  sidechains: SidechainSummary[];
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
    items: s.items.length,
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

const n = (v: number | null) => (v === null ? '?' : v.toLocaleString('en-US'));

export function formatIssue(i: InspectIssue): string {
  const where = [i.file, i.line !== null ? `line ${i.line}` : null, i.field !== null ? `field ${i.field}` : null].filter(Boolean).join(' · ');
  return `${where}: ${i.message}`;
}

export function renderText(report: InspectReport): string {
  const out: string[] = [];
  for (const s of report.sessions) {
    out.push(`${s.files.join(' + ')}  [${s.format}]  session ${s.id}`);
    out.push(`  ${n(s.items)} items · ${n(s.toolCalls)} tool call${s.toolCalls === 1 ? '' : 's'} · ${s.compactions.length} compaction${s.compactions.length === 1 ? '' : 's'}`);
    for (const c of s.compactions) {
      out.push(`  compaction #${c.index + 1} ${c.kind}${c.trigger ? ` (${c.trigger})` : ''}: ${n(c.tokensBefore)} → ${n(c.tokensAfter)} tokens${c.opaque ? ' (opaque summary)' : ''}`);
    }
    for (const sc of s.sidechains) {
      const from = sc.parentCall !== null ? `, started by call ${sc.parentCall}` : '';
      out.push(`  ${sc.purpose} ${sc.id}${sc.agentType ? ` (${sc.agentType})` : ''}: ${n(sc.items)} items · ${n(sc.calls)} call${sc.calls === 1 ? '' : 's'}${from}`);
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
