// Claude Code subagents (the Task tool). Since 2.x their transcript is written twice: as `progress` records
// with `data.type:"agent_progress"` in the parent file (each carrying one subagent message, `parentToolUseID`
// naming the Task call), and as a sidechain file `<session>/subagents/agent-<id>.jsonl` (`isSidechain:true`,
// `agentId`). The Task's tool result carries `toolUseResult.agentId`, which links a sidechain file to its call.
import { arr, get, isObject, num, obj, str, type JsonObject } from '../model/narrow';
import type { Session, Sidechain } from '../model/types';
import type { At, ParseContext } from './adapter';
import type { TreeRecord } from './claude-code-tree';

/** True for a progress record that carries a subagent message. */
export function isAgentProgress(v: JsonObject): boolean {
  const data = obj(v, 'data');
  return get(v, 'type') === 'progress' && data !== undefined && get(data, 'type') === 'agent_progress';
}

interface ProgressMessage {
  agentId: string;
  toolUseId: string | null;
  record: TreeRecord;
}

/**
 * The subagent message of an `agent_progress` record, as a record of its own (the shape of a sidechain
 * file's line), or null when the record carries none (a bare progress tick).
 */
function progressMessage(v: JsonObject, line: number): ProgressMessage | null {
  const data = obj(v, 'data');
  const agentId = data ? str(data, 'agentId') : undefined;
  const message = data ? obj(data, 'message') : undefined;
  if (!agentId || !message) return null;
  const type = str(message, 'type');
  if (type !== 'user' && type !== 'assistant') return null;
  const timestamp = str(message, 'timestamp') ?? str(v, 'timestamp');
  const uuid = str(message, 'uuid') ?? str(v, 'uuid') ?? `L${line}`;
  const value: JsonObject = { type, uuid, isSidechain: true, agentId, message: get(message, 'message') ?? null, ...(timestamp ? { timestamp } : {}) };
  return { agentId, toolUseId: str(v, 'parentToolUseID') ?? null, record: { line, value } };
}

/** Problems in a progress record's message are reported at their real place, under `data.message`. */
export function nestedContext(ctx: ParseContext): ParseContext {
  const at = (a: At): At => ({ ...a, path: a.path ? ['data', 'message', ...a.path] : ['data', 'message'] });
  return { file: ctx.file, doc: ctx.doc, issues: ctx.issues, error: (a, m) => ctx.error(at(a), m), warn: (a, m) => ctx.warn(at(a), m) };
}

/** Each subagent's messages from the parent file's progress records, in file order, by agent id. */
export function progressTranscripts(records: TreeRecord[]): Map<string, { toolUseId: string | null; records: TreeRecord[] }> {
  const out = new Map<string, { toolUseId: string | null; records: TreeRecord[] }>();
  for (let k = 0; k < records.length; k++) {
    const r = records[k]!;
    if (!isAgentProgress(r.value)) continue;
    const p = progressMessage(r.value, r.line);
    if (!p) continue;
    const entry = out.get(p.agentId);
    if (entry) {
      entry.records.push(p.record);
      entry.toolUseId ??= p.toolUseId;
    } else out.set(p.agentId, { toolUseId: p.toolUseId, records: [p.record] });
  }
  return out;
}

interface TaskCall {
  agentType: string | null;
  description: string | null;
}

interface TaskResult {
  toolUseId: string;
  totalTokens: number | null;
}

/** What the parent file says of its subagents: each Task call's input, and each result's agent id. */
export class SubagentLinks {
  private readonly calls = new Map<string, TaskCall>();
  private readonly results = new Map<string, TaskResult>();

  constructor(records: TreeRecord[]) {
    // Indexed loops: this runs once per session, mostly unoptimized, where `for…of` allocates per element.
    for (let k = 0; k < records.length; k++) {
      const v = records[k]!.value;
      const message = obj(v, 'message');
      const content = message ? arr(message, 'content') : undefined;
      if (!content) continue;
      for (let b = 0; b < content.length; b++) {
        const block = content[b];
        if (!isObject(block)) continue;
        const input = obj(block, 'input');
        const id = str(block, 'id');
        if (get(block, 'type') === 'tool_use' && id && input && (get(input, 'subagent_type') !== undefined || str(block, 'name') === 'Task')) {
          this.calls.set(id, { agentType: str(input, 'subagent_type') ?? null, description: str(input, 'description') ?? null });
        }
      }
      const result = obj(v, 'toolUseResult');
      const agentId = result ? str(result, 'agentId') : undefined;
      const block = content.find((b) => isObject(b) && get(b, 'type') === 'tool_result');
      const toolUseId = isObject(block) ? str(block, 'tool_use_id') : undefined;
      if (result && agentId && toolUseId) this.results.set(agentId, { toolUseId, totalTokens: num(result, 'totalTokens') ?? null });
    }
  }

  /** Agent ids the parent's Task results name. */
  agentIds(): string[] {
    return [...this.results.keys()];
  }

  /** Links a subagent sidechain to the Task call that started it and the result the parent received. */
  link(session: Session, sidechain: Sidechain, progressToolUseId: string | null): void {
    const result = this.results.get(sidechain.id);
    const toolUseId = progressToolUseId ?? result?.toolUseId;
    if (!toolUseId) return;
    const call = this.calls.get(toolUseId);
    const callItem = session.items.find((it) => it.kind === 'tool_call' && it.callId === toolUseId);
    const resultItem = session.items.find((it) => it.kind === 'tool_result' && it.callId === toolUseId);
    sidechain.parent = {
      toolUseId,
      callItemId: callItem?.id ?? null,
      resultItemId: resultItem?.id ?? null,
      reportedTotalTokens: result?.toolUseId === toolUseId ? result.totalTokens : null,
      agentType: call?.agentType ?? null,
      description: call?.description ?? null,
    };
  }
}
