// `codex exec --json` streams: one event per line (`thread.started`, `turn.started`, `item.started|updated|
// completed`, `turn.completed` with usage, `turn.failed`, `error`), as openai/codex docs/exec.md documents them.
// The stream holds no prompt and reports usage per turn (summed over the turn's model calls), so each turn
// is one model response here; the session says so in `meta.usageScope`.
import { recordsOf, type Document } from '../load/document';
import { arr, asText, get, isObject, num, obj, str, type JsonObject } from '../model/narrow';
import type { Item, ModelResponse, Session } from '../model/types';
import { cacheInsideUsage } from '../model/usage';
import { emptySession, idFromFile, type ParseContext } from './adapter';

const EXEC_EVENTS = new Set(['thread.started', 'turn.started', 'turn.completed', 'turn.failed', 'item.started', 'item.updated', 'item.completed', 'error']);

/** Share of lines that are exec events, when some line names the stream's own events; else 0. */
export function execStreamScore(doc: Document): number {
  const records = recordsOf(doc).slice(0, 50);
  let objects = 0;
  let events = 0;
  let telling = false;
  for (const { value: v } of records) {
    if (!isObject(v)) continue;
    objects++;
    const type = str(v, 'type');
    if (type === undefined || !EXEC_EVENTS.has(type)) continue;
    events++;
    if (type === 'thread.started' || type === 'turn.completed' || (type.startsWith('item.') && isObject(get(v, 'item')))) telling = true;
  }
  return objects > 0 && telling && events / objects >= 0.8 ? 0.9 : 0;
}

/** Text of an MCP tool result: its text content blocks, else the structured content. */
function mcpResultText(item: JsonObject): string {
  const error = obj(item, 'error');
  if (error) return str(error, 'message') ?? asText(error);
  const result = obj(item, 'result');
  if (!result) return '';
  const texts = (arr(result, 'content') ?? []).map((b) => (isObject(b) ? (str(b, 'text') ?? `[${str(b, 'type') ?? 'block'}]`) : '')).filter(Boolean);
  return texts.length ? texts.join('\n') : asText(get(result, 'structured_content'));
}

class ExecParser {
  readonly session: Session;
  private turn: ModelResponse | null = null;
  private readonly used = new Set<string>();

  constructor(private readonly ctx: ParseContext) {
    this.session = emptySession('codex', ctx.file, idFromFile(ctx.file));
    this.session.meta['source'] = 'exec';
    this.session.meta['usageScope'] = 'turn';
  }

  private skip(key: string): void {
    this.session.skipped[key] = (this.session.skipped[key] ?? 0) + 1;
  }

  private unique(want: string): string {
    let id = want;
    for (let n = 2; this.used.has(id); n++) id = `${want}~${n}`;
    this.used.add(id);
    return id;
  }

  /** The turn's response, opened by its first model item. */
  private produced(item: Item, line: number): void {
    if (!this.turn) {
      this.turn = { id: `turn${this.session.responses.length + 1}`, index: this.session.responses.length, itemIds: [], usage: null, model: null, source: { file: this.ctx.file, line } };
      this.session.responses.push(this.turn);
    }
    this.turn.itemIds.push(item.id);
    item.responseId = this.turn.id;
    this.session.items.push(item);
  }

  line(line: number, v: unknown): void {
    if (!isObject(v)) {
      this.ctx.error({ line }, `expected a JSON object event, got ${v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v}`);
      return;
    }
    const type = str(v, 'type');
    switch (type) {
      case 'thread.started': {
        const id = str(v, 'thread_id');
        if (id) this.session.id = id;
        return;
      }
      case 'turn.started':
        this.turn = null;
        return;
      case 'turn.completed': {
        const usage = obj(v, 'usage');
        if (!usage) this.ctx.warn({ line, path: ['usage'] }, 'turn.completed has no usage object');
        else if (this.turn) {
          // Codex's input_tokens count the cached ones and the cache writes (OpenAI's convention), as in the rollout.
          this.turn.usage = cacheInsideUsage(num(usage, 'input_tokens') ?? null, num(usage, 'output_tokens') ?? null, num(usage, 'cached_input_tokens') ?? null, num(usage, 'cache_write_input_tokens') ?? null);
        }
        this.turn = null;
        return;
      }
      case 'item.completed':
        return this.item(v, line);
      case 'turn.failed':
      case 'error':
      case 'item.started':
      case 'item.updated':
        // In-progress states and failures: the completed item (or its absence) is what the model saw.
        this.skip(type);
        return;
      default:
        this.ctx.warn({ line, path: ['type'] }, `unknown exec event type ${JSON.stringify(type ?? null)} skipped`);
        this.skip(type ?? 'unknown');
    }
  }

  private item(v: JsonObject, line: number): void {
    const raw = obj(v, 'item');
    if (!raw) {
      this.ctx.error({ line, path: ['item'] }, 'item.completed has no item object');
      return;
    }
    const type = str(raw, 'type');
    const id = this.unique(str(raw, 'id') ?? `L${line}`);
    const source = { file: this.ctx.file, line };
    const status = str(raw, 'status');
    const failed = status === 'failed' || status === 'declined';
    const call = (name: string, text: string): Item => ({ id, kind: 'tool_call', role: 'assistant', name, callId: id, text, source });
    const result = (text: string, isError: boolean): Item => ({ id: this.unique(`${id}.result`), kind: 'tool_result', role: 'tool', callId: id, text, source, ...(isError ? { isError: true } : {}) });
    switch (type) {
      case 'agent_message':
        this.produced({ id, kind: 'message', role: 'assistant', text: str(raw, 'text') ?? '', source }, line);
        return;
      case 'reasoning':
        this.produced({ id, kind: 'thinking', role: 'assistant', text: str(raw, 'text') ?? '', source }, line);
        return;
      case 'command_execution': {
        this.produced(call('shell', str(raw, 'command') ?? ''), line);
        const exit = num(raw, 'exit_code');
        const r = result(str(raw, 'aggregated_output') ?? '', failed || (exit !== undefined && exit !== 0));
        if (exit !== undefined) r.meta = { exitCode: exit };
        this.session.items.push(r);
        return;
      }
      case 'file_change': {
        const changes = (arr(raw, 'changes') ?? []).filter(isObject).map((c) => `${str(c, 'kind') ?? 'change'} ${str(c, 'path') ?? '?'}`);
        this.produced(call('apply_patch', changes.join('\n')), line);
        this.session.items.push(result(status ?? 'completed', failed));
        return;
      }
      case 'mcp_tool_call': {
        const name = [str(raw, 'server'), str(raw, 'tool')].filter(Boolean).join('.') || 'mcp_tool_call';
        const args = get(raw, 'arguments');
        this.produced(call(name, args === undefined || args === null ? '' : asText(args)), line);
        this.session.items.push(result(mcpResultText(raw), failed || obj(raw, 'error') !== undefined));
        return;
      }
      case 'web_search':
        this.produced(call('web_search', str(raw, 'query') ?? ''), line);
        return;
      case 'todo_list':
      case 'error':
        // The plan is UI state; an error item is a notice to the user, not model input.
        this.skip(`item:${type}`);
        return;
      default:
        this.used.delete(id);
        this.ctx.warn({ line, path: ['item', 'type'] }, `unknown exec item type ${JSON.stringify(type ?? null)} skipped`);
        this.skip(`item:${type ?? 'unknown'}`);
    }
  }
}

export function parseExecStream(doc: Document, ctx: ParseContext): Session {
  const parser = new ExecParser(ctx);
  for (const { line, value } of recordsOf(doc)) parser.line(line, value);
  return parser.session;
}
