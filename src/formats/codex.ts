// Codex CLI rollout JSONL (~/.codex/sessions/…/rollout-*.jsonl): `{timestamp, type, payload}` lines; and the
// `codex exec --json` event stream (codex-exec.ts).
import { recordsOf, type Document } from '../load/document';
import { get, isObject, numAt, obj, str, type JsonObject } from '../model/narrow';
import { redactionHint } from '../model/markers';
import type { Item, ModelResponse, Session, Usage } from '../model/types';
import { cacheInsideUsage } from '../model/usage';
import { emptySession, idFromFile, type FormatAdapter, type ParseContext } from './adapter';
import { CodexCompactions } from './codex-compaction';
import { execStreamScore, parseExecStream } from './codex-exec';
import { ForkedHistory } from './codex-fork';
import { CODEX_PRIVATE_ITEMS, codexItem } from './codex-items';
import { countKey } from '../model/dictionary';
import { thousands } from '../model/thousands';

const LINE_TYPES = new Set(['session_meta', 'response_item', 'turn_context', 'event_msg', 'compacted']);

function describe(v: unknown): string {
  if (v === undefined) return 'nothing';
  if (v === null) return 'null';
  return Array.isArray(v) ? 'an array' : typeof v;
}

/** Parses one rollout; state that spans lines (open model response, context) lives here. */
class RolloutParser {
  readonly session: Session;
  private readonly compactions: CodexCompactions;
  private open: ModelResponse | null = null;
  /**
   * Where each token_count sits against the response it measures: `after` it (current rollouts), or
   * `before` it (2025 rollouts, CLI 0.4x: the items of a turn were recorded when it ended). Decided by the
   * first token_count that carries usage: a response not yet measured since the last user message means `after`.
   */
  private usageOrder: 'after' | 'before' | null = null;
  /**
   * `after` order: the latest response no token_count has measured yet. Its own tool outputs may stand between it
   * and its token_count (CLI 0.14x records parallel calls' outputs before the response completes); a user or
   * developer message does not.
   */
  private unmeasured: ModelResponse | null = null;
  /** `before` order: the usage the next response gets, and the response the last token_count measured. */
  private pendingUsage: Usage | null = null;
  private measured: ModelResponse | null = null;
  /** The last cumulative total seen: a token_count that repeats it measures nothing new. */
  private lastTotal: string | null = null;
  /** The prompt (input tokens) of the last token_count that measured a call. */
  private lastPrompt: number | null = null;
  private readonly usedIds = new Set<string>();
  private metaSeen = false;
  private readonly fork = new ForkedHistory();
  /** What a `thread_rolled_back` took out, until the next item carries it. */
  private rolledBack: string[] = [];

  constructor(private readonly ctx: ParseContext) {
    this.session = emptySession('codex', ctx.file, idFromFile(ctx.file));
    this.compactions = new CodexCompactions(this.session, ctx);
  }

  private skip(key: string): void {
    countKey(this.session.skipped, key);
  }

  /** The payload's own id when it has one (and it is unused), else the line. */
  private idFor(p: JsonObject, line: number): string {
    const own = str(p, 'id');
    const id = own && !this.usedIds.has(own) ? own : `L${line}`;
    this.usedIds.add(id);
    return id;
  }

  private push(item: Item, timestamp: string | undefined): void {
    if (timestamp) item.timestamp = timestamp;
    this.append(item);
    this.compactions.add(item);
  }

  /** Adds an item to the session; the first after a rollback carries what the rollback took out (replay.ts). */
  private append(item: Item): void {
    if (this.rolledBack.length > 0) {
      item.rollsBack = this.rolledBack;
      this.rolledBack = [];
    }
    this.session.items.push(item);
  }

  line(line: number, v: unknown): void {
    if (!isObject(v)) {
      this.ctx.error({ line }, `expected a JSON object line, got ${describe(v)}`);
      return;
    }
    const type = get(v, 'type');
    const p = get(v, 'payload');
    const timestamp = str(v, 'timestamp');
    if (typeof type !== 'string') {
      this.ctx.error({ line, path: ['type'] }, `line has no string \`type\` (got ${describe(type)})`);
      return;
    }
    if (!LINE_TYPES.has(type)) {
      this.skip(type);
      return;
    }
    if (!isObject(p)) {
      this.ctx.error({ line, path: ['payload'] }, `${type} line has no payload object (got ${describe(p)})`);
      return;
    }
    switch (type) {
      case 'session_meta':
        return this.sessionMeta(p, line, timestamp);
      case 'response_item':
        return this.responseItem(p, line, timestamp);
      case 'turn_context': {
        this.fork.turn(p);
        const model = str(p, 'model');
        if (model) this.session.model = model;
        this.skip('turn_context');
        return;
      }
      case 'event_msg':
        return this.event(p, line, timestamp);
      case 'compacted':
        this.close();
        this.measured = null;
        this.unmeasured = null;
        for (const item of this.compactions.compacted(p, line, timestamp)) this.append(item);
        return;
    }
  }

  private sessionMeta(p: JsonObject, line: number, timestamp: string | undefined): void {
    const meta = this.session.meta;
    // Forked and resumed rollouts repeat session_meta lines; the first is this session's.
    if (this.metaSeen) {
      this.skip('session_meta');
      return;
    }
    this.metaSeen = true;
    this.fork.start(p);
    const id = str(p, 'id');
    if (id) this.session.id = id;
    const parent = str(p, 'forked_from_id');
    if (parent) meta['forkedFromId'] = parent;
    for (const [key, field] of [['cwd', 'cwd'], ['cliVersion', 'cli_version'], ['modelProvider', 'model_provider'], ['originator', 'originator'], ['source', 'source']] as const) {
      const value = str(p, field);
      if (value) meta[key] = value;
    }
    const branch = str(obj(p, 'git') ?? {}, 'branch');
    if (branch) meta['gitBranch'] = branch;
    // The base instructions are the system prompt every request carries.
    const base = get(p, 'base_instructions');
    const text = typeof base === 'string' ? base : isObject(base) ? str(base, 'text') : str(p, 'instructions');
    if (text) {
      const item: Item = { id: `L${line}`, kind: 'message', role: 'system', text, source: { file: this.ctx.file, line }, meta: { baseInstructions: true } };
      const hint = redactionHint(text);
      if (hint) item.redacted = hint;
      if (timestamp) item.timestamp = timestamp;
      // Sent as `instructions` with every request, so no compaction ever replaces it.
      this.session.items.push(item);
    }
  }

  private responseItem(p: JsonObject, line: number, timestamp: string | undefined): void {
    const itemType = get(p, 'type');
    if (typeof itemType !== 'string') {
      this.ctx.error({ line, path: ['payload', 'type'] }, `response_item has no string type (got ${describe(itemType)})`);
      return;
    }
    const converted = codexItem(p, this.idFor(p, line), line, this.ctx, ['payload']);
    if (!converted) {
      if (itemType === 'message') return; // a broken message: codexItem reported it
      this.skip(`response_item:${itemType}`);
      if (!CODEX_PRIVATE_ITEMS.has(itemType)) {
        this.ctx.warn({ line, path: ['payload', 'type'] }, `response item type ${JSON.stringify(itemType)} is not known; it was left out of the conversation`);
      }
      return;
    }
    const { item, fromModel } = converted;
    // The parent's responses copied into a fork are what the child was sent, not calls of the child's.
    if (fromModel && this.fork.copiedFrom !== null) {
      item.meta = { ...item.meta, forkedFrom: this.fork.copiedFrom };
      this.push(item, timestamp);
      return;
    }
    // Consecutive model-side items form one response; the next token_count closes it with its usage.
    // In `before` order every model item up to the next token_count is that one response, tool outputs between.
    if (fromModel) {
      if (!this.open && this.usageOrder === 'before' && this.measured) this.open = this.measured;
      if (!this.open) {
        this.open = { id: `r${this.session.responses.length}`, index: this.session.responses.length, itemIds: [], usage: null, model: this.session.model, source: { file: this.ctx.file, line } };
        if (timestamp) this.open.timestamp = timestamp;
        this.session.responses.push(this.open);
        this.unmeasured = this.open;
        if (this.usageOrder === 'before') {
          this.open.usage = this.pendingUsage;
          this.pendingUsage = null;
          this.measured = this.open;
        }
      }
      this.open.itemIds.push(item.id);
      item.responseId = this.open.id;
    } else if (item.meta?.['agentMessage'] !== true) {
      // (Another agent's message arrives when it is sent, within a response of this one too: it is input to the next
      // request, and ends neither that response nor its measurement.)
      this.close();
      // A new user or developer message starts a new request, which the next token_count measures.
      if (item.kind !== 'tool_result') {
        this.measured = null;
        this.unmeasured = null;
      }
    }
    this.push(item, timestamp);
  }

  private close(): void {
    this.open = null;
  }

  /** A token_count measures one response: the open one (`after` order) or the next one (`before` order). */
  private tokenCount(p: JsonObject, line: number): void {
    // Since CLI 0.3x: `info: {total_token_usage, last_token_usage, model_context_window}` (null before any call);
    // earlier the payload itself held one call's usage.
    const info = obj(p, 'info') ?? null;
    const window = info ? numAt(info, 'model_context_window') : null;
    if (window !== null) this.session.contextWindow = window;
    const last = info ? obj(info, 'last_token_usage') : numAt(p, 'input_tokens') !== null ? p : undefined;
    if (!last) return;
    const cumulative = info ? get(info, 'total_token_usage') : undefined;
    // A fork's copied token_counts measured the parent's calls: none of them is the child's, nor decides the order.
    if (this.fork.copiedFrom !== null) {
      if (cumulative !== undefined) this.lastTotal = JSON.stringify(cumulative);
      return;
    }
    const input = numAt(last, 'input_tokens');
    const output = numAt(last, 'output_tokens');
    const total = numAt(last, 'total_tokens');
    // codex-rs `recompute_token_usage` (after a compaction, a rollback, a resume) writes no call's usage: input and
    // output 0, and total_tokens an estimate of the history, which in CLI 0.10x can be a running total above the
    // window. It measures no call and is not the context before the compaction.
    if (!input && !output) {
      if (total) {
        const running = isObject(cumulative) && numAt(cumulative, 'total_tokens') === total && this.lastPrompt !== null;
        const above = window !== null && total > window;
        if (running || above) {
          const why = above ? `above the ${thousands(window!)}-token window` : 'the running total of the session';
          const instead = this.lastPrompt !== null ? `; the last reported prompt (${thousands(this.lastPrompt)}) stands for the context` : '';
          this.ctx.warn({ line, path: ['payload', 'info', 'last_token_usage', 'total_tokens'] }, `token_count with no input or output reports total_tokens ${thousands(total)}, ${why}: not the context, and no call's usage${instead}`);
        }
      }
      return;
    }
    if (input !== null) this.lastPrompt = input;
    // Codex repeats the last token_count after tool outputs: the same cumulative total measures nothing new.
    const key = cumulative === undefined ? null : JSON.stringify(cumulative);
    if (key !== null && key === this.lastTotal) return;
    if (key !== null) this.lastTotal = key;
    // codex-rs TokenUsage: input_tokens count the cached ones and, since `cache_write_input_tokens` (the Responses
    // API's input_tokens_details.cache_write_tokens), the ones written to the cache too (OpenAI's convention).
    const usage: Usage = { ...cacheInsideUsage(input, output, numAt(last, 'cached_input_tokens'), numAt(last, 'cache_write_input_tokens')), contextWindow: window };
    this.usageOrder ??= this.unmeasured ? 'after' : 'before';
    if (this.usageOrder === 'before') {
      this.pendingUsage = usage;
      this.measured = null;
      this.close();
      return;
    }
    const measured = this.unmeasured;
    this.unmeasured = null;
    this.close();
    if (measured) measured.usage = usage;
  }

  private event(p: JsonObject, line: number, timestamp: string | undefined): void {
    const kind = str(p, 'type') ?? 'unknown';
    this.skip(`event_msg:${kind}`);
    if (kind === 'task_started') {
      this.fork.turn(p);
      const window = numAt(p, 'model_context_window');
      if (window !== null) this.session.contextWindow = window;
    } else if (kind === 'token_count') {
      this.tokenCount(p, line);
    } else if (kind === 'context_compacted') {
      this.close();
      this.measured = null;
      this.unmeasured = null;
      for (const item of this.compactions.contextCompacted(line, timestamp)) this.append(item);
    } else if (kind === 'thread_rolled_back') {
      // codex-rs drop_last_n_user_turns: the next request is sent the history without the last turns.
      this.rolledBack.push(...this.compactions.rollBack(numAt(p, 'num_turns') ?? 0));
    }
    // agent_message, agent_reasoning, user_message repeat response items; the rest is UI state.
  }
}

export const codex: FormatAdapter = {
  id: 'codex',
  label: 'Codex CLI rollout',
  sniff(doc: Document) {
    const records = recordsOf(doc).slice(0, 50);
    let objects = 0;
    let shaped = 0;
    for (const { value: v } of records) {
      if (!isObject(v)) continue;
      objects++;
      const type = get(v, 'type');
      if (typeof type === 'string' && LINE_TYPES.has(type) && isObject(get(v, 'payload')) && typeof get(v, 'timestamp') === 'string') shaped++;
    }
    if (objects === 0 || shaped === 0) return execStreamScore(doc);
    const ratio = shaped / objects;
    return ratio >= 0.8 ? 0.95 : ratio >= 0.5 ? 0.7 : 0;
  },
  parse(doc, ctx) {
    // `codex exec --json` writes events, not a rollout: no line of it has a rollout shape.
    if (execStreamScore(doc) > 0) return [parseExecStream(doc, ctx)];
    const parser = new RolloutParser(ctx);
    for (const { line, value } of recordsOf(doc)) parser.line(line, value);
    return [parser.session];
  },
};
