// The strategies a rerun can pick: ids, labels and parameter specs the UI builds its form from, parameter
// validation for values that come from forms, URLs or sweeps, and one entry point to run any of them.
import { isObject, get } from '../model/narrow';
import type { Item } from '../model/types';
import { placeholdersOf } from './prompts';
import { DROP_OLDEST_DEFAULTS, dropOldest, type DropOldestParams } from './strategies/drop-oldest';
import { ITERATED_DEFAULTS, ITERATED_METHODS, iterated, iteratedPrompt, type IteratedParams } from './strategies/iterated';
import { OBSERVATION_MASKING_DEFAULTS, observationMasking, type ObservationMaskingParams } from './strategies/observation-masking';
import { OMISSION_DEFAULTS, omission, type OmissionParams } from './strategies/omission';
import { SUMMARIZE_MIDDLE_DEFAULTS, summarizeMiddle, summarizeMiddlePrompts, type SummarizeMiddleParams } from './strategies/summarize-middle';
import type { CompactionDeps, CompactionOutcome } from './types';
import { SERVER_COMPACT_DEFAULTS, SERVER_COMPACT_PROMPT, serverCompact, type ServerCompactParams } from './policies/anthropic-server';
import { CLAUDE_CODE_DEFAULTS, CLAUDE_CODE_SYSTEM_PROMPT, CLAUDE_CODE_USER_PROMPT, claudeCodeCompact, type ClaudeCodeParams } from './policies/claude-code';
import { CODEX_DEFAULTS, CODEX_SYSTEM_PROMPT, CODEX_USER_PROMPT, codexCompact, type CodexParams } from './policies/codex';
import { INSPECT_TRIM_DEFAULTS, inspectTrim, type InspectTrimParams } from './policies/inspect';
import { OPENHANDS_DEFAULTS, OPENHANDS_SYSTEM_PROMPT, OPENHANDS_USER_PROMPT, openhandsCondense, type OpenHandsParams } from './policies/openhands';

export const STRATEGY_IDS = ['drop-oldest', 'summarize-middle', 'observation-masking', 'omission', 'iterated', 'claude-code-compact', 'codex-compact', 'openhands-condenser', 'inspect-trim', 'server-compact'] as const;
export type StrategyId = (typeof STRATEGY_IDS)[number];

export interface StrategyParamsMap {
  'drop-oldest': DropOldestParams;
  'summarize-middle': SummarizeMiddleParams;
  'observation-masking': ObservationMaskingParams;
  omission: OmissionParams;
  iterated: IteratedParams;
  'claude-code-compact': ClaudeCodeParams;
  'codex-compact': CodexParams;
  'openhands-condenser': OpenHandsParams;
  'inspect-trim': InspectTrimParams;
  'server-compact': ServerCompactParams;
}
export type AnyStrategyParams = StrategyParamsMap[StrategyId];

export const STRATEGY_DEFAULTS: { readonly [K in StrategyId]: StrategyParamsMap[K] } = {
  'drop-oldest': DROP_OLDEST_DEFAULTS,
  'summarize-middle': SUMMARIZE_MIDDLE_DEFAULTS,
  'observation-masking': OBSERVATION_MASKING_DEFAULTS,
  omission: OMISSION_DEFAULTS,
  iterated: ITERATED_DEFAULTS,
  'claude-code-compact': CLAUDE_CODE_DEFAULTS,
  'codex-compact': CODEX_DEFAULTS,
  'openhands-condenser': OPENHANDS_DEFAULTS,
  'inspect-trim': INSPECT_TRIM_DEFAULTS,
  'server-compact': SERVER_COMPACT_DEFAULTS,
};

interface SpecBase {
  name: string;
  label: string;
  help: string;
}
export type ParamSpec =
  | (SpecBase & { kind: 'int'; default: number; min: number; max?: number })
  | (SpecBase & { kind: 'int-or-null'; default: number | null; min: number })
  | (SpecBase & { kind: 'bool'; default: boolean })
  | (SpecBase & { kind: 'choice'; default: string; options: readonly string[] })
  /** A prompt or placeholder text; `null` (when allowed) means the default shown by `effectivePrompts`. */
  | (SpecBase & { kind: 'text'; default: string | null; nullable: boolean; prompt: boolean });

export interface StrategyInfo {
  id: StrategyId;
  label: string;
  description: string;
  /** Whether it calls the summarizer (for some parameter values). */
  usesSummarizer: boolean;
  params: readonly ParamSpec[];
}

// Parameters the harness policies share.
const MAX_ITEM_CHARS: ParamSpec = { name: 'maxItemChars', label: 'Max characters per item', kind: 'int', default: 6000, min: 0, help: 'Longer items are cut in the middle before sending (0 = never).' };
const SYSTEM_PROMPT: ParamSpec = { name: 'systemPrompt', label: 'System prompt', kind: 'text', default: null, nullable: true, prompt: true, help: 'Empty uses the default.' };

const headTail: ParamSpec[] = [
  { name: 'head', label: 'Head steps', kind: 'int', default: 1, min: 0, help: 'Steps kept verbatim after the system prompt (1 = the first user message).' },
  { name: 'tail', label: 'Tail turns', kind: 'int', default: 2, min: 0, help: 'Most recent turns kept verbatim.' },
  { name: 'unit', label: 'Turn', kind: 'choice', default: 'auto', options: ['auto', 'user', 'step'], help: 'user: a user message and all that follows it; step: one model response with its tool results; auto: user, or step when that leaves nothing to compact.' },
];

export const STRATEGIES: readonly StrategyInfo[] = [
  {
    id: 'drop-oldest',
    label: 'Drop oldest',
    description: `Drops the oldest middle turns and leaves the static marker in their place.`,
    usesSummarizer: false,
    params: [
      ...headTail,
      { name: 'targetTokens', label: 'Target tokens', kind: 'int-or-null', default: null, min: 0, help: 'Stop dropping once the context fits; empty drops the whole middle.' },
      { name: 'marker', label: 'Marker', kind: 'text', default: DROP_OLDEST_DEFAULTS.marker, nullable: false, prompt: false, help: 'Static text standing for the dropped turns.' },
    ],
  },
  {
    id: 'summarize-middle',
    label: 'Summarize middle',
    description: 'Keeps head and tail, summarizes the middle into one folded recap (course schema, or action-aware XML rendering of tool calls).',
    usesSummarizer: true,
    params: [
      ...headTail,
      { name: 'render', label: 'Rendering', kind: 'choice', default: 'schema', options: ['schema', 'xml'], help: 'schema: course prompt over plain lines; xml: tool calls and results as XML (action-aware).' },
      { name: 'systemPrompt', label: 'System prompt', kind: 'text', default: null, nullable: true, prompt: true, help: 'Empty uses the default for the rendering.' },
      { name: 'userPrompt', label: 'User prompt', kind: 'text', default: null, nullable: true, prompt: true, help: 'Placeholders: {slice}, {prior_summary}.' },
      { name: 'maxItemChars', label: 'Max characters per item', kind: 'int', default: SUMMARIZE_MIDDLE_DEFAULTS.maxItemChars, min: 0, help: 'Longer items are cut in the middle before sending (0 = never).' },
    ],
  },
  {
    id: 'observation-masking',
    label: 'Observation masking',
    description: 'Replaces all but the last N tool outputs with a placeholder; calls stay, so pairs stay whole.',
    usesSummarizer: false,
    params: [
      { name: 'keepLast', label: 'Keep last outputs', kind: 'int', default: OBSERVATION_MASKING_DEFAULTS.keepLast, min: 0, help: 'Tool outputs kept verbatim, counted from the end.' },
      { name: 'placeholder', label: 'Placeholder', kind: 'text', default: OBSERVATION_MASKING_DEFAULTS.placeholder, nullable: false, prompt: false, help: 'Static text standing for a masked output.' },
    ],
  },
  {
    id: 'omission',
    label: 'Thought/observation omission',
    description: 'Agent-Omit style: empties thoughts and replaces observations of model steps older than the last N.',
    usesSummarizer: false,
    params: [
      { name: 'keepLast', label: 'Keep last steps', kind: 'int', default: OMISSION_DEFAULTS.keepLast, min: 0, help: 'Model steps at the end left whole.' },
      { name: 'keepFirst', label: 'Keep first thoughts', kind: 'int', default: OMISSION_DEFAULTS.keepFirst, min: 0, help: 'Model steps at the start whose thoughts stay (the plan).' },
      { name: 'thoughts', label: 'Omit thoughts', kind: 'bool', default: true, help: 'Empty old thoughts (<think> </think>).' },
      { name: 'observations', label: 'Omit observations', kind: 'bool', default: true, help: 'Replace old tool outputs with <omitted_tool_response_N>.' },
    ],
  },
  {
    id: 'iterated',
    label: 'Iterated summarization',
    description: 'Replaces each earlier attempt with a summary (base, backtracking, post-think, last-k, first-k, answer-only), all in one block after the question.',
    usesSummarizer: true,
    params: [
      { ...headTail[0]!, default: ITERATED_DEFAULTS.head } as ParamSpec,
      { ...headTail[1]!, default: ITERATED_DEFAULTS.tail } as ParamSpec,
      headTail[2]!,
      { name: 'method', label: 'Summarizer', kind: 'choice', default: ITERATED_DEFAULTS.method, options: ITERATED_METHODS, help: 'base and backtracking ask the summarizer; the others are plain functions of the attempt.' },
      { name: 'k', label: 'k tokens', kind: 'int', default: ITERATED_DEFAULTS.k, min: 1, help: 'Tokens kept by last-k and first-k; at most half the attempt\'s reasoning, so the two keep its start and its end.' },
      { name: 'prompt', label: 'Prompt', kind: 'text', default: null, nullable: true, prompt: true, help: 'base/backtracking; placeholders: {question}, {reasoning}. Empty uses the paper\'s.' },
      { name: 'systemPrompt', label: 'System prompt', kind: 'text', default: ITERATED_DEFAULTS.systemPrompt, nullable: false, prompt: true, help: 'Sent with base/backtracking; empty sends none.' },
      { name: 'blockTemplate', label: 'Summaries block', kind: 'text', default: ITERATED_DEFAULTS.blockTemplate, nullable: false, prompt: true, help: 'Placeholder: {summaries}.' },
      { name: 'answerTemplate', label: 'Answer-only text', kind: 'text', default: ITERATED_DEFAULTS.answerTemplate, nullable: false, prompt: true, help: 'Placeholder: {answer}.' },
      { name: 'maxItemChars', label: 'Max characters per attempt', kind: 'int', default: ITERATED_DEFAULTS.maxItemChars, min: 0, help: 'Longer attempts are cut in the middle before sending (0 = never).' },
    ],
  },
  {
    id: 'claude-code-compact',
    label: 'Claude Code compact',
    description: "Claude Code's auto-compact: everything after the system prompt becomes one nine-section summary (a user message), then the most recently read files are re-attached; optional microcompact clears old tool results on every call.",
    usesSummarizer: true,
    params: [
      { name: 'maxFiles', label: 'Files re-attached', kind: 'int', default: CLAUDE_CODE_DEFAULTS.maxFiles, min: 0, help: 'POST_COMPACT_MAX_FILES_TO_RESTORE: most recently read files put back after the summary.' },
      { name: 'fileTokens', label: 'Tokens per file', kind: 'int', default: CLAUDE_CODE_DEFAULTS.fileTokens, min: 0, help: 'POST_COMPACT_MAX_TOKENS_PER_FILE.' },
      { name: 'filesBudget', label: 'Files budget', kind: 'int', default: CLAUDE_CODE_DEFAULTS.filesBudget, min: 0, help: 'POST_COMPACT_TOKEN_BUDGET: tokens of all re-attached files.' },
      { name: 'microcompactAfter', label: 'Microcompact above', kind: 'int-or-null', default: null, min: 1, help: 'Clear old tool results once more than this many are in the context (empty: off, as in most recorded sessions).' },
      { name: 'microcompactKeep', label: 'Microcompact keeps', kind: 'int', default: CLAUDE_CODE_DEFAULTS.microcompactKeep, min: 0, help: 'Most recent tool results microcompact leaves whole.' },
      SYSTEM_PROMPT,
      { name: 'userPrompt', label: 'User prompt', kind: 'text', default: null, nullable: true, prompt: true, help: 'The nine sections; placeholders: {slice}, {prior_summary}.' },
      MAX_ITEM_CHARS,
    ],
  },
  {
    id: 'codex-compact',
    label: 'Codex compact',
    description: "Codex CLI's compaction: the initial context, the most recent user messages up to a token budget, then a handoff summary; assistant messages and tool output are dropped.",
    usesSummarizer: true,
    params: [
      { name: 'userBudget', label: 'User message budget', kind: 'int', default: CODEX_DEFAULTS.userBudget, min: 0, help: 'COMPACT_USER_MESSAGE_MAX_TOKENS: tokens of recent user messages kept verbatim.' },
      SYSTEM_PROMPT,
      { name: 'userPrompt', label: 'User prompt', kind: 'text', default: null, nullable: true, prompt: true, help: 'The handoff prompt; placeholders: {slice}, {prior_summary}.' },
      MAX_ITEM_CHARS,
    ],
  },
  {
    id: 'openhands-condenser',
    label: 'OpenHands condenser',
    description: "OpenHands' LLMSummarizingCondenser: keeps the first events and the newest max_size/2 − keep_first − 1, summarizes the forgotten middle at offset keep_first.",
    usesSummarizer: true,
    params: [
      { name: 'keepFirst', label: 'Keep first', kind: 'int', default: OPENHANDS_DEFAULTS.keepFirst, min: 0, help: 'keep_first: events kept from the start.' },
      { name: 'maxSize', label: 'Max size', kind: 'int', default: OPENHANDS_DEFAULTS.maxSize, min: 2, help: 'max_size: sets the tail kept (max_size // 2 − keep_first − 1); the trigger fires above it.' },
      SYSTEM_PROMPT,
      { name: 'userPrompt', label: 'User prompt', kind: 'text', default: null, nullable: true, prompt: true, help: 'Placeholders: {slice}, {prior_summary}.' },
      MAX_ITEM_CHARS,
    ],
  },
  {
    id: 'inspect-trim',
    label: 'Inspect trim',
    description: "Inspect AI's CompactionTrim: keeps system and input messages, then the newest share of the rest.",
    usesSummarizer: false,
    params: [{ name: 'preservePercent', label: 'Preserve %', kind: 'int', default: INSPECT_TRIM_DEFAULTS.preservePercent, min: 0, max: 100, help: 'preserve: share of the conversation messages kept.' }],
  },
  {
    id: 'server-compact',
    label: 'Anthropic server compaction',
    description: 'Anthropic API server-side compaction: a compaction block replaces everything after the system prompt.',
    usesSummarizer: true,
    params: [
      { name: 'instructions', label: 'Instructions', kind: 'text', default: null, nullable: true, prompt: true, help: 'Replaces the default summarization prompt; placeholders: {slice}, {prior_summary}.' },
      MAX_ITEM_CHARS,
    ],
  },
];

export function isStrategyId(v: unknown): v is StrategyId {
  return typeof v === 'string' && (STRATEGY_IDS as readonly string[]).includes(v);
}

export function strategyInfo(id: StrategyId): StrategyInfo {
  return STRATEGIES.find((s) => s.id === id)!;
}

function readParam(spec: ParamSpec, v: unknown): unknown {
  switch (spec.kind) {
    case 'int':
      return typeof v === 'number' && Number.isFinite(v) ? Math.max(spec.min, spec.max === undefined ? Math.floor(v) : Math.min(spec.max, Math.floor(v))) : spec.default;
    case 'int-or-null':
      if (v === null) return null;
      return typeof v === 'number' && Number.isFinite(v) ? Math.max(spec.min, Math.floor(v)) : spec.default;
    case 'bool':
      return typeof v === 'boolean' ? v : spec.default;
    case 'choice':
      return typeof v === 'string' && spec.options.includes(v) ? v : spec.default;
    case 'text':
      if (typeof v === 'string') return v === '' && spec.nullable ? null : v;
      if (v === null && spec.nullable) return null;
      return spec.default;
  }
}

/** Full parameters of a strategy from partial, untrusted values: unknown keys dropped, bad values defaulted. */
export function resolveParams<S extends StrategyId>(id: S, raw: unknown = {}): StrategyParamsMap[S] {
  const out: Record<string, unknown> = {};
  for (const spec of strategyInfo(id).params) out[spec.name] = readParam(spec, isObject(raw) ? get(raw, spec.name) : undefined);
  // Every field of the params type has a spec above, and readParam returns the spec's type.
  return out as unknown as StrategyParamsMap[S];
}

export interface EffectivePrompt {
  /** The parameter that holds it. */
  param: string;
  label: string;
  template: string;
  placeholders: string[];
}

/** The prompts a run with these parameters sends, defaults filled in (what the UI shows and lets users edit). */
export function effectivePrompts(id: StrategyId, raw: unknown = {}): EffectivePrompt[] {
  const make = (param: string, label: string, template: string): EffectivePrompt => ({ param, label, template, placeholders: placeholdersOf(template) });
  if (id === 'summarize-middle') {
    const p = summarizeMiddlePrompts(resolveParams('summarize-middle', raw));
    return [make('systemPrompt', 'System prompt', p.system), make('userPrompt', 'User prompt', p.user)];
  }
  if (id === 'claude-code-compact') {
    const p = resolveParams('claude-code-compact', raw);
    return [make('systemPrompt', 'System prompt', p.systemPrompt ?? CLAUDE_CODE_SYSTEM_PROMPT), make('userPrompt', 'User prompt', p.userPrompt ?? CLAUDE_CODE_USER_PROMPT)];
  }
  if (id === 'codex-compact') {
    const p = resolveParams('codex-compact', raw);
    return [make('systemPrompt', 'System prompt', p.systemPrompt ?? CODEX_SYSTEM_PROMPT), make('userPrompt', 'User prompt', p.userPrompt ?? CODEX_USER_PROMPT)];
  }
  if (id === 'openhands-condenser') {
    const p = resolveParams('openhands-condenser', raw);
    return [make('systemPrompt', 'System prompt', p.systemPrompt ?? OPENHANDS_SYSTEM_PROMPT), make('userPrompt', 'User prompt', p.userPrompt ?? OPENHANDS_USER_PROMPT)];
  }
  if (id === 'server-compact') {
    const p = resolveParams('server-compact', raw);
    return [make('instructions', 'Instructions', p.instructions ?? SERVER_COMPACT_PROMPT)];
  }
  if (id === 'iterated') {
    const p = resolveParams('iterated', raw);
    const prompt = iteratedPrompt(p);
    const out: EffectivePrompt[] = [];
    if (prompt !== null) out.push(make('systemPrompt', 'System prompt', p.systemPrompt), make('prompt', 'Prompt', prompt));
    if (p.method === 'answer-only') out.push(make('answerTemplate', 'Answer-only text', p.answerTemplate));
    out.push(make('blockTemplate', 'Summaries block', p.blockTemplate));
    return out;
  }
  return [];
}

/** Runs strategy `id` on a context with full parameters (see `resolveParams`). */
export function runStrategy(id: StrategyId, context: readonly Item[], params: AnyStrategyParams, deps: CompactionDeps): Promise<CompactionOutcome> {
  switch (id) {
    case 'drop-oldest':
      return dropOldest(context, params as DropOldestParams, deps);
    case 'summarize-middle':
      return summarizeMiddle(context, params as SummarizeMiddleParams, deps);
    case 'observation-masking':
      return observationMasking(context, params as ObservationMaskingParams, deps);
    case 'omission':
      return omission(context, params as OmissionParams, deps);
    case 'iterated':
      return iterated(context, params as IteratedParams, deps);
    case 'claude-code-compact':
      return claudeCodeCompact(context, params as ClaudeCodeParams, deps);
    case 'codex-compact':
      return codexCompact(context, params as CodexParams, deps);
    case 'openhands-condenser':
      return openhandsCondense(context, params as OpenHandsParams, deps);
    case 'inspect-trim':
      return inspectTrim(context, params as InspectTrimParams, deps);
    case 'server-compact':
      return serverCompact(context, params as ServerCompactParams, deps);
  }
}
