// The normalized model every format adapter produces. Raw wire shapes stay private to adapters.

export const FORMAT_IDS = [
  'claude-code',
  'codex',
  'openhands',
  'openhands-sdk',
  'livekit',
  'openai-chat',
  'openai-responses',
  'anthropic',
  'self-sum',
  'agent-omit',
  'sharegpt',
  'reasoning-trace',
  'compaction-log',
  'request-log',
  'swe-agent',
  'mini-swe-agent',
  'atif',
  'tau-bench',
  'inspect',
  'gemini-cli',
  'cline',
  'otlp',
] as const;
export type FormatId = (typeof FORMAT_IDS)[number];

export type Role = 'system' | 'developer' | 'user' | 'assistant' | 'tool' | 'environment';

export type ItemKind =
  | 'message'
  | 'thinking'
  | 'tool_call'
  | 'tool_result'
  | 'summary'
  | 'omission'
  | 'handoff'
  | 'compaction';

/** Where in the input an item or problem came from. `line` is 1-based; null when unknown. */
export interface SourceRef {
  file: string;
  line: number | null;
}

/**
 * Usage as the provider reported it. Never overwritten by counted tokens.
 * `input` is kept as reported: OpenAI, Codex, Gemini and LiteLLM count cached tokens inside it, Anthropic (and
 * Claude Code) count only the uncached rest. `inputIncludesCache` says which; use `promptTokens` for the whole prompt.
 */
export interface Usage {
  input: number | null;
  /** Tokens the model generated, as reported (reasoning or thinking included where the provider bills it as output). */
  output: number | null;
  cacheRead: number | null;
  cacheWrite: number | null;
  /**
   * The harness's usage convention, set by the adapter from the harness's own code: true when `input` already
   * counts the cache reads and writes (OpenAI, Codex, Gemini, LiteLLM), false when it is the uncached rest
   * (Anthropic, Claude Code). Absent on usage built by hand, where the provider decides (see `promptTokens`).
   */
  inputIncludesCache?: boolean;
  /** Context window the harness reported with this usage, when it did (Codex). */
  contextWindow?: number | null;
  /** Anthropic's split of `cacheWrite` by lifetime (`cache_creation.ephemeral_5m/1h_input_tokens`), when reported. */
  cacheWrite5m?: number | null;
  cacheWrite1h?: number | null;
  /**
   * The provider's own cache verdict for this call, when the log carries it: the Claude API's cache
   * diagnostics `cache_miss_reason.type` (`model_changed`, `system_changed`, `tools_changed`,
   * `messages_changed`, `previous_message_not_found`, `unavailable`), or `hit` when it found no divergence.
   */
  diagnostic?: string | null;
}

/** A text that a redacting exporter replaced, e.g. `[REDACTED_TEXT len=3017 sha=f3ffd0ed]`. */
export interface RedactionHint {
  len: number;
  sha: string | null;
}

export interface Item {
  /** Stable within a session: derived from the source's own ids, else from position. */
  id: string;
  kind: ItemKind;
  role: Role;
  text: string;
  /** Tool name for tool calls/results, agent names for handoffs. */
  name?: string;
  /** Provider call id that links a tool call to its result. */
  callId?: string;
  /** Id of the paired tool call / result, set by `pairToolCalls`. */
  pairId?: string;
  timestamp?: string;
  source: SourceRef;
  /** Groups the items of one model response (Claude Code splits one response over many lines). */
  responseId?: string;
  redacted?: RedactionHint;
  /** Set on omission items and on items whose content was cleared in place. */
  omission?: OmissionInfo;
  /** Error flag on tool results. */
  isError?: boolean;
  /** Small, format-specific facts worth showing (never large payloads). */
  meta?: Record<string, string | number | boolean | null>;
  /**
   * An earlier item this one replaces in every context from here on, in its place (the OpenHands SDK's
   * SystemPromptUpdateEvent replaces the system prompt). Not a compaction: nothing is summarized or dropped.
   */
  supersedes?: string;
  /**
   * Items the user took back just before this one (Codex's thread rollback): no context holds them from here on. Not a
   * compaction: nothing stands in for them.
   */
  rollsBack?: string[];
}

export interface OmissionInfo {
  /** What was taken out of the context; `turns` for a marker standing in for dropped turns. */
  target: 'thought' | 'observation' | 'tool_result' | 'turns';
  /** Turn numbers (Agent-Omit) or item ids whose content the omission removes. */
  refs: string[];
  /** The omitting command (`<omit_tool_response_1_2>`) or placeholder as written. */
  marker?: string;
}

export type CompactionKind =
  | 'compact' // Claude Code compact_boundary + summary
  | 'microcompact' // Claude Code tool-result clearing
  | 'replacement' // Codex compacted.replacement_history
  | 'condensation' // OpenHands
  | 'summary' // LiveKit / Self-Sum / reasoning-trace summaries in place of earlier items
  | 'omission' // Agent-Omit observation omission
  | 'log' // a compaction-log record
  | 'server' // provider-side: an Anthropic `compaction` block or OpenAI `compaction` item in a request log
  | 'inferred'; // inferred between two logged requests

export interface CompactionEvent {
  id: string;
  /** 0-based order of compactions within the session. */
  index: number;
  kind: CompactionKind;
  /** `auto`, `manual`, a strategy name, … as recorded; null when not recorded. */
  trigger: string | null;
  tokensBefore: number | null;
  tokensAfter: number | null;
  /** Item ids the compaction took out of the context (summarized, dropped or omitted). */
  replacedIds: string[];
  /** Item ids the compaction kept verbatim (preserved segment, replacement history). */
  keptIds: string[];
  /** The summary or marker item that stands in for the replaced items. */
  summaryId: string | null;
  /** The item at which the compaction happened (boundary record, condensation event). */
  atItemId: string | null;
  timestamp?: string;
  source: SourceRef;
  /** Compaction-log fields, kept as recorded. */
  log?: CompactionLogFields;
  /**
   * The recorded request this compaction came just before, where a format records both (Inspect's
   * compaction events): the request-log replay completes it from what that call's input shows.
   */
  requestId?: string;
  /**
   * The summary covers turns this file does not hold (Claude Code: the boundary's `logicalParentUuid` is a record
   * of another file): what it says of them cannot be checked against them.
   */
  coversUnheldTurns?: boolean;
  /**
   * The summary cannot be read (an encrypted provider compaction): what it kept is unknown, so the
   * audit says "opaque" instead of counting every identifier as lost.
   */
  opaque?: boolean;
  /**
   * The item that carries the summary into the next context and restates what the compaction kept: a Self-Sum
   * segment's first user turn U^(k) = (q, s_k), an iterated-summarization prompt (the question and every earlier
   * summary). The next context then starts over from it: the replay sends that item, never the summary or the
   * kept items beside it, so nothing is counted twice.
   */
  restatedIn?: string;
}

export interface CompactionLogFields {
  strategy: string;
  evicted: number | null;
  fallback: boolean | null;
  keptIdentifiers: string[];
  lostIdentifiers: string[];
  summary: string | null;
  sessionId: string | null;
  turn: number | null;
  requestId: string | null;
}

/** One model call as it was sent, where the format records it (request logs). */
export interface RecordedRequest {
  id: string;
  index: number;
  timestamp?: string;
  model: string | null;
  /** Wire API of the body: decides tokenization and cache rules later. */
  api: 'openai-chat' | 'openai-responses' | 'anthropic';
  /** The items the model was sent, in order (system prompt first where the API has one). */
  items: Item[];
  /** Tool schemas sent with the call, serialized; counted as the "tools" band. */
  tools: string | null;
  /** Items the model produced in reply, when the log has the response. */
  output: Item[];
  usage: Usage | null;
  source: SourceRef;
  /**
   * The log leaves out part of what was sent (an OpenTelemetry span records the messages, not the system prompt
   * or tool schemas): that part is fitted from the reported usage, as for transcripts.
   */
  prefixUnrecorded?: boolean;
}

export interface ParseIssue {
  file: string;
  line: number | null;
  /** Dotted path of the offending field (`message.content[2].type`), null when the whole line is bad. */
  field: string | null;
  message: string;
  severity: 'error' | 'warning';
}

export interface Session {
  /** Stable id: the recorded session id if any, else derived from the file name. */
  id: string;
  format: FormatId;
  title: string;
  files: string[];
  items: Item[];
  compactions: CompactionEvent[];
  requests: RecordedRequest[];
  /** Model responses with their reported usage, in order (one per model call the transcript shows). */
  responses: ModelResponse[];
  /** Side conversations joined to this session, such as Claude Code's compaction summarizer call. */
  sidechains: Sidechain[];
  model: string | null;
  contextWindow: number | null;
  /** Records kept out of the conversation (progress, snapshots, unknown types), counted by type. */
  skipped: Record<string, number>;
  issues: ParseIssue[];
  /** Format-level facts: success/reward for trajectories, cwd, versions, … */
  meta: Record<string, string | number | boolean | null>;
  /** Totals the harness reported for the whole session, where it records them (SWE-agent's `model_stats`). */
  reportedTotals?: ReportedTotals;
  /**
   * Files the harness puts in every request without recording them (CLAUDE.md, AGENTS.md, GEMINI.md, auto memory),
   * as the user supplied them: what they hold was never out of the model's context.
   */
  instructionFiles?: readonly InstructionFile[];
  /**
   * Responses the provider sent and billed on branches the conversation left (Claude Code: a retry, an edited
   * message, an interrupted turn, a session resumed from an earlier message). Not in any call's context, so not in
   * `responses`: only their reported usage is carried, for the session's cost (analysis/off-branch.ts).
   */
  offBranch?: OffBranchResponse[];
}

/** A billed response on an abandoned branch: its reported usage, once per response. */
export interface OffBranchResponse {
  id: string;
  model: string | null;
  usage: Usage;
  timestamp?: string;
  source: SourceRef;
}

/** A project or user instruction file the harness loads unrecorded, with the text the user supplied. */
export interface InstructionFile {
  /** Where the user's copy came from (a path or a dropped file's name). */
  path: string;
  text: string;
}

/** A harness's own totals over a session's model calls, checked against the calls (session-facts.ts). */
export interface ReportedTotals {
  /** Prompt tokens summed over the calls (SWE-agent's `tokens_sent`). */
  promptTokens: number | null;
  /** Output tokens summed over the calls (`tokens_received`). */
  outputTokens: number | null;
  /** Model calls made (`api_calls`). */
  calls: number | null;
  /** Where the figures are in the file (`info.model_stats`). */
  source: string;
}

export interface Sidechain {
  id: string;
  /** `compaction` when the sidechain wrote a compaction summary (Claude Code `agent-acompact-*`). */
  purpose: 'compaction' | 'subagent';
  file: string;
  items: Item[];
  /** The compaction whose summary this sidechain produced, when known. */
  compactionId: string | null;
  /** The sidechain's own model calls with their reported usage, when its transcript records them. */
  responses?: ModelResponse[];
  /** A subagent's link to its parent: the tool call that started it and the result that came back. */
  parent?: SidechainParent;
}

export interface SidechainParent {
  /** Provider id of the parent's tool call (`toolu_…`), the `parentToolUseID` of its progress records. */
  toolUseId: string;
  /** Item id of that tool call in the parent session, when loaded. */
  callItemId: string | null;
  /** Item id of the tool result the parent received: what the subagent cost the parent's context. */
  resultItemId: string | null;
  /** `toolUseResult.totalTokens` as the harness reported it for the whole subagent run. */
  reportedTotalTokens: number | null;
  /** Subagent type and description from the tool call's input (`subagent_type`, `description`). */
  agentType: string | null;
  description: string | null;
}

/**
 * One model response as a transcript records it: the items it produced and the usage reported for it.
 * Claude Code splits one response over several lines sharing `message.id`; usage is counted once.
 */
export interface ModelResponse {
  id: string;
  index: number;
  /** Items the model produced in this response, in order. The call's context is what came before. */
  itemIds: string[];
  usage: Usage | null;
  model: string | null;
  timestamp?: string;
  /** The harness process that wrote the response, where the file tells (Claude Code: `sessionId@version`). */
  process?: string;
  source: SourceRef;
}
