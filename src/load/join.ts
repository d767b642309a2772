// Joins files that belong together: sidechains to their session, compaction and request logs to their transcript.
import { joinClineTasks } from '../formats/cline-join';
import { joinOpenHandsSdk } from '../formats/openhands-sdk-join';
import { joinCompletionLogs } from '../formats/request-log-join';
import type { ParseIssue, Session, Sidechain } from '../model/types';
import { pushAll } from '../model/arrays';

const LOG_FORMATS = new Set(['compaction-log', 'request-log']);

function sidechainOf(s: Session): string | null {
  const v = s.meta['sidechainOf'];
  return typeof v === 'string' ? v : null;
}

function logTarget(s: Session): string | null {
  const v = s.meta['joinSessionId'];
  return typeof v === 'string' ? v : null;
}

function lastAssistantText(s: Session): string {
  for (let i = s.items.length - 1; i >= 0; i--) {
    const it = s.items[i]!;
    if (it.role === 'assistant' && (it.kind === 'message' || it.kind === 'summary') && it.text.trim()) return it.text;
  }
  return '';
}

/** Strips the `<analysis>` preamble Claude Code's summarizer writes before the summary it keeps. */
function summaryCore(text: string): string {
  return text.replace(/<analysis>[\s\S]*?<\/analysis>/, '').replace(/<\/?summary>/g, '').trim().slice(0, 200);
}

function attachSidechain(main: Session, side: Session): void {
  const agentId = String(side.meta['agentId'] ?? side.id);
  const purpose: Sidechain['purpose'] = agentId.startsWith('acompact') ? 'compaction' : 'subagent';
  let compactionId: string | null = null;
  if (purpose === 'compaction') {
    const core = summaryCore(lastAssistantText(side));
    const byText = main.compactions.find((c) => {
      const summary = main.items.find((it) => it.id === c.summaryId);
      return core && summary && summary.text.includes(core.slice(0, 120));
    });
    compactionId = (byText ?? main.compactions.find((c) => c.kind === 'compact'))?.id ?? null;
  }
  // A subagent the parent already knows (from its progress records or its Task result) takes the file's
  // transcript, which is the complete one, and keeps its link to the Task call.
  const known = purpose === 'subagent' ? main.sidechains.find((s) => s.id === agentId && s.purpose === 'subagent') : undefined;
  if (known) Object.assign(known, { file: side.files[0] ?? '', items: side.items, responses: side.responses });
  else main.sidechains.push({ id: agentId, purpose, file: side.files[0] ?? '', items: side.items, compactionId, responses: side.responses });
  main.files.push(...side.files);
  pushAll(main.issues, side.issues);
}

function attachLog(target: Session, log: Session): void {
  // The log's own marker and summary items stay in the log; its events keep only ids the transcript has, or
  // (a request log's provider-side compaction) ids its requests carry, since those become the calls' contexts.
  const known = new Set(target.items.map((i) => i.id));
  for (const r of log.requests) for (const it of [...r.items, ...r.output]) known.add(it.id);
  const keep = (id: string | null) => (id !== null && known.has(id) ? id : null);
  const offset = target.compactions.length;
  for (const c of log.compactions) {
    target.compactions.push({ ...c, index: offset + c.index, summaryId: keep(c.summaryId), atItemId: keep(c.atItemId), replacedIds: c.replacedIds.filter((id) => known.has(id)), keptIds: c.keptIds.filter((id) => known.has(id)) });
  }
  const rOffset = target.requests.length;
  for (const r of log.requests) target.requests.push({ ...r, index: rOffset + r.index });
  if (target.responses.length === 0) pushAll(target.responses, log.responses);
  target.files.push(...log.files);
  pushAll(target.issues, log.issues);
  if (target.model === null) target.model = log.model;
}

/**
 * Sessions loaded together are joined where they belong together:
 * - the parts of an OpenHands SDK conversation (one event per file, base_state.json) become one session;
 * - completion log files (one call each) that continue one another become one request log;
 * - a Claude Code sidechain (`meta.sidechainOf`) goes into the session with that id;
 * - a Cline / Roo Code task's API history, panel messages and metadata become one session;
 * - a compaction or request log goes to the transcript whose id matches its `meta.joinSessionId`,
 *   or to the only transcript loaded.
 * Anything that finds no partner stays a session of its own. Problems a join finds go to `issues`.
 */
export function joinSessions(loaded: Session[], issues?: ParseIssue[]): Session[] {
  // A Cline / Roo task's files, an OpenHands SDK conversation's event files and chained completion logs each
  // become one transcript before anything joins to it.
  const sessions = joinCompletionLogs(joinOpenHandsSdk(joinClineTasks(loaded, issues), issues));
  const transcripts = sessions.filter((s) => !LOG_FORMATS.has(s.format) && !sidechainOf(s));
  const byId = new Map(transcripts.map((s) => [s.id, s]));
  const out: Session[] = [...transcripts];
  for (const s of sessions) {
    const parent = sidechainOf(s);
    if (parent === null) continue;
    const main = byId.get(parent);
    if (main) attachSidechain(main, s);
    else out.push(s);
  }
  const logs = sessions.filter((s) => LOG_FORMATS.has(s.format));
  // Compaction logs first so a request log joined to the same transcript sees them.
  logs.sort((a, b) => (a.format === b.format ? 0 : a.format === 'compaction-log' ? -1 : 1));
  for (const log of logs) {
    const wanted = logTarget(log);
    const target = (wanted !== null ? byId.get(wanted) : undefined) ?? (transcripts.length === 1 ? transcripts[0] : undefined);
    if (target) attachLog(target, log);
    else out.push(log);
  }
  return out;
}
