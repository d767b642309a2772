// Each harness's own compaction policy as a preset: which strategy, with which parameters, fired by which
// trigger, with the harness version and the source the numbers come from. Every number is a parameter the
// user can change (`resolvePolicy` reads them from a form, a URL or `--param k=v`). The strategies live beside
// this file (one per harness); Inspect's edit variant and the generic strategies come from ../strategies.
import type { FormatId, Session } from '../../model/types';
import { isObject, get } from '../../model/narrow';
import { INSPECT_EDIT_PLACEHOLDER } from './inspect';
import type { ParamSpec, StrategyId } from '../strategy-registry';
import type { Trigger } from '../triggers';
import { thousands } from '../../model/thousands';
import { claudeCodeTriggerValues } from './claude-code-trigger';

export const POLICY_IDS = ['claude-code', 'codex', 'openhands', 'inspect', 'anthropic-server', 'observation-masking'] as const;
export type PolicyId = (typeof POLICY_IDS)[number];

export interface PolicyPreset {
  id: PolicyId;
  label: string;
  /** Harness versions the numbers were checked against. */
  version: string;
  /** Where the numbers come from (repository paths or documentation pages). */
  sources: string[];
  /** One line: trigger and what is kept. */
  summary: string;
  /** Session formats this harness writes: a session in one of them defaults to this preset. */
  formats: FormatId[];
  /** Parameters of the policy itself (the trigger's numbers, a variant); the strategy's own come on top. */
  params: ParamSpec[];
  /** The strategy and its parameters for these policy values. */
  strategy(values: PolicyValues): { id: StrategyId; params: Record<string, unknown> };
  trigger(values: PolicyValues, sessionWindow: number | null): Trigger;
  /** How the trigger was worked out, for the UI and the CLI (`200000 − 20000 − 13000`). */
  explain(values: PolicyValues, sessionWindow: number | null): string;
  /**
   * When the harness measures its context: the prompt it is about to send, or the previous call's usage (prompt
   * plus output) once the response is back (rerun.ts `measureAt`).
   */
  measureAt: 'prompt' | 'last-response';
  /**
   * The harness's own values for the version and model that wrote a session, where they differ by version (Claude
   * Code's reserve and buffer): what the preset starts from for that session, before anything the user sets.
   */
  defaultsFor?(session: PolicySession): { values: Record<string, number>; rule: string };
}

/** What a preset may read of the session it replays. */
export interface PolicySession {
  /** The harness version that wrote it (Claude Code's `version`), null when the file names none. */
  version: string | null;
  model: string | null;
  window: number | null;
}

export type PolicyValues = Readonly<Record<string, number | string | null>>;

const windowParam = (fallback: number): ParamSpec => ({
  name: 'window',
  label: 'Context window',
  kind: 'int-or-null',
  default: null,
  min: 1000,
  help: `Tokens; empty uses the session's window, else ${fallback}.`,
});
const win = (v: PolicyValues, session: number | null, fallback: number) => (typeof v.window === 'number' ? v.window : (session ?? fallback));
const n = (v: PolicyValues, k: string) => (typeof v[k] === 'number' ? (v[k] as number) : 0);

export const POLICIES: readonly PolicyPreset[] = [
  {
    id: 'claude-code',
    label: 'Claude Code',
    version: 'Claude Code 1.0–2.1 (the trigger of the session\'s own version)',
    sources: [
      'Claude Code autoCompact.ts / compact.ts constants (AUTOCOMPACT_BUFFER_TOKENS, MAX_OUTPUT_TOKENS_FOR_SUMMARY, POST_COMPACT_*), as read from its bundle in github.com/ranpox/claude-code-navel-gazing and public constant tables',
      'npm @anthropic-ai/claude-code 1.0.21–2.1.92 cli.js, the threshold behind isAboveAutoCompactThreshold, version by version (claude-code-trigger.ts)',
    ],
    summary: 'auto-compacts at window − output reserve − buffer (155k of 200k before 2.1.21, 167k from it); one nine-section summary; re-attaches the 5 most recently read files',
    formats: ['claude-code'],
    params: [
      windowParam(200000),
      { name: 'outputReserve', label: 'Output reserve', kind: 'int', default: 20000, min: 0, help: 'Kept free for the summary: the max output (32,000) before 2.1.21, at most 20,000 (MAX_OUTPUT_TOKENS_FOR_SUMMARY) from it.' },
      { name: 'buffer', label: 'Auto-compact buffer', kind: 'int', default: 13000, min: 0, help: 'AUTOCOMPACT_BUFFER_TOKENS (13,000 from 1.0.71; 8% of the rest before).' },
    ],
    defaultsFor: (s) => {
      const t = claudeCodeTriggerValues(s.version, s.model, s.window ?? 200000);
      return { values: { outputReserve: t.outputReserve, buffer: t.buffer }, rule: t.rule };
    },
    strategy: () => ({ id: 'claude-code-compact', params: {} }),
    trigger: (v, s) => ({ kind: 'tokens', threshold: Math.max(1, win(v, s, 200000) - n(v, 'outputReserve') - n(v, 'buffer')) }),
    explain: (v, s) => `${thousands(win(v, s, 200000))} window − ${thousands(n(v, 'outputReserve'))} output reserve − ${thousands(n(v, 'buffer'))} buffer`,
    // tokenCountWithEstimation: the last response's usage (prompt + output) plus an estimate of what came after it,
    // i.e. the prompt about to be sent; checked before each request.
    measureAt: 'prompt',
  },
  {
    id: 'codex',
    label: 'Codex CLI',
    version: 'codex-rs 0.40–0.6x',
    sources: ['openai/codex codex-rs/core/src/compact.rs (COMPACT_USER_MESSAGE_MAX_TOKENS = 20_000, build_compacted_history)', 'codex-rs model info auto_compact_token_limit (context_window × 9 / 10), config model_auto_compact_token_limit'],
    summary: 'compacts at the auto-compact token limit (90% of the window); keeps the initial context and the newest user messages up to 20k tokens; handoff summary',
    formats: ['codex'],
    params: [
      windowParam(272000),
      { name: 'autoCompactLimit', label: 'Auto-compact limit', kind: 'int-or-null', default: null, min: 1, help: 'model_auto_compact_token_limit; empty: 90% of the window.' },
    ],
    strategy: () => ({ id: 'codex-compact', params: {} }),
    trigger: (v, s) => ({ kind: 'tokens', threshold: typeof v.autoCompactLimit === 'number' ? v.autoCompactLimit : Math.floor((win(v, s, 272000) * 9) / 10) }),
    explain: (v, s) => (typeof v.autoCompactLimit === 'number' ? `model_auto_compact_token_limit ${v.autoCompactLimit}` : `90% of a ${thousands(win(v, s, 272000))}-token window`),
    // codex.rs: after each sampling request, `total_usage_tokens >= auto_compact_limit` (the response's prompt plus
    // output) compacts before the next request.
    measureAt: 'last-response',
  },
  {
    id: 'openhands',
    label: 'OpenHands',
    version: 'OpenHands software-agent-sdk 1.x (get_default_condenser)',
    sources: ['OpenHands/software-agent-sdk openhands-sdk/openhands/sdk/context/condenser/llm_summarizing_condenser.py', 'openhands-tools/openhands/tools/preset/default.py get_default_condenser(max_size=80, keep_first=4)'],
    summary: 'condenses when the view holds more than 80 events; keeps the first 4 and the newest 35; summary at offset 4',
    formats: ['openhands', 'openhands-sdk'],
    params: [
      { name: 'maxSize', label: 'Max events', kind: 'int', default: 80, min: 2, help: 'max_size: condense when the context holds more items than this.' },
      { name: 'keepFirst', label: 'Keep first', kind: 'int', default: 4, min: 0, help: 'keep_first.' },
    ],
    strategy: (v) => ({ id: 'openhands-condenser', params: { maxSize: n(v, 'maxSize'), keepFirst: n(v, 'keepFirst') } }),
    trigger: (v) => ({ kind: 'items', max: Math.max(1, n(v, 'maxSize')) }),
    explain: (v) => `more than ${thousands(n(v, 'maxSize'))} events`,
    measureAt: 'prompt',
  },
  {
    id: 'inspect',
    label: 'Inspect AI',
    version: 'inspect_ai 0.3.15x',
    sources: ['UKGovernmentBEIS/inspect_ai src/inspect_ai/model/_compaction/{summary,edit,trim}.py', 'inspect.aisi.org.uk/compaction.html (threshold default 0.9)'],
    summary: 'compacts at 90% of the window; summary (keep system + input), edit (clear tool results but the last 3) or trim (keep the newest 80%)',
    formats: ['inspect'],
    params: [
      { name: 'thresholdPercent', label: 'Threshold %', kind: 'int', default: 90, min: 1, max: 100, help: 'threshold as a share of the window.' },
      windowParam(200000),
      { name: 'compaction', label: 'Strategy', kind: 'choice', default: 'summary', options: ['summary', 'edit', 'trim'], help: 'CompactionSummary, CompactionEdit or CompactionTrim.' },
      { name: 'keepToolUses', label: 'Keep tool uses', kind: 'int', default: 3, min: 0, help: 'edit: keep_tool_uses.' },
      { name: 'preservePercent', label: 'Preserve %', kind: 'int', default: 80, min: 0, max: 100, help: 'trim: preserve.' },
    ],
    strategy: (v) =>
      v.compaction === 'edit'
        ? { id: 'observation-masking', params: { keepLast: n(v, 'keepToolUses'), placeholder: INSPECT_EDIT_PLACEHOLDER } }
        : v.compaction === 'trim'
          ? { id: 'inspect-trim', params: { preservePercent: n(v, 'preservePercent') } }
          : { id: 'summarize-middle', params: { head: 1, tail: 0, unit: 'step' } },
    trigger: (v, s) => ({ kind: 'tokens', threshold: Math.max(1, Math.floor((win(v, s, 200000) * n(v, 'thresholdPercent')) / 100)) }),
    explain: (v, s) => `${n(v, 'thresholdPercent')}% of a ${thousands(win(v, s, 200000))}-token window`,
    measureAt: 'prompt',
  },
  {
    id: 'anthropic-server',
    label: 'Anthropic API server-side',
    version: 'context_management compact_20260112 (beta compact-2026-01-12)',
    sources: ['platform.claude.com/docs/en/build-with-claude/compaction (trigger default 150,000 input tokens, minimum 50,000)'],
    summary: 'the server compacts at 150k input tokens; a compaction block replaces everything before it',
    formats: [],
    params: [{ name: 'trigger', label: 'Trigger tokens', kind: 'int', default: 150000, min: 50000, help: 'trigger.value in input_tokens (at least 50,000).' }],
    strategy: () => ({ id: 'server-compact', params: {} }),
    trigger: (v) => ({ kind: 'tokens', threshold: n(v, 'trigger') }),
    explain: (v) => `${thousands(n(v, 'trigger'))} input tokens`,
    // The server compacts the request it receives.
    measureAt: 'prompt',
  },
  {
    id: 'observation-masking',
    label: 'Observation masking',
    version: 'Lindenbauer et al. 2025, “The Complexity Trap” (SWE-agent, M = 10)',
    sources: ['arXiv:2508.21433 (observation masking keeps the last M = 10 turns’ observations; cost about halved at an equal solve rate against LLM summarization)', 'SWE-agent history_processors.py LastNObservations'],
    summary: 'every call, replaces all tool outputs but the last 10 with a fixed placeholder; no summarizer',
    formats: [],
    params: [{ name: 'keepLast', label: 'Observations kept', kind: 'int', default: 10, min: 0, help: 'M: the newest tool outputs kept verbatim.' }],
    strategy: (v) => ({ id: 'observation-masking', params: { keepLast: n(v, 'keepLast') } }),
    trigger: () => ({ kind: 'turns', every: 1 }),
    explain: (v) => `every call, keep the last ${n(v, 'keepLast')} observations`,
    measureAt: 'prompt',
  },
];

export function isPolicyId(v: unknown): v is PolicyId {
  return typeof v === 'string' && (POLICY_IDS as readonly string[]).includes(v);
}

export function policyInfo(id: PolicyId): PolicyPreset {
  return POLICIES.find((p) => p.id === id)!;
}

/** The preset matching a session's format; null when no harness writes that format. */
export function policyForFormat(format: string | null | undefined): PolicyPreset | null {
  return POLICIES.find((p) => (p.formats as string[]).includes(format ?? '')) ?? null;
}

/** What a preset reads of a session: the version its file names (Claude Code's `version`), its model and window. */
export function policySession(session: Pick<Session, 'meta' | 'model'>, window: number | null): PolicySession {
  const v = session.meta['version'];
  return { version: typeof v === 'string' ? v : null, model: session.model, window };
}

/** The preset's values for this session's harness version (none where they do not depend on it), under the user's. */
export function policyDefaults(id: PolicyId, session: PolicySession): Record<string, number> {
  return policyInfo(id).defaultsFor?.(session).values ?? {};
}

/** The version rule those values follow, in a few words; null where the preset has one rule. */
export function policyDefaultsRule(id: PolicyId, session: PolicySession): string | null {
  return policyInfo(id).defaultsFor?.(session).rule ?? null;
}

/** The policy's own values from untrusted input: unknown keys dropped, bad values defaulted. */
export function policyValues(id: PolicyId, raw: unknown = {}): Record<string, number | string | null> {
  const out: Record<string, number | string | null> = {};
  for (const spec of policyInfo(id).params) {
    const v = isObject(raw) ? get(raw, spec.name) : undefined;
    switch (spec.kind) {
      case 'int':
        out[spec.name] = typeof v === 'number' && Number.isFinite(v) ? Math.max(spec.min, spec.max === undefined ? Math.floor(v) : Math.min(spec.max, Math.floor(v))) : spec.default;
        break;
      case 'int-or-null':
        out[spec.name] = v === null ? null : typeof v === 'number' && Number.isFinite(v) ? Math.max(spec.min, Math.floor(v)) : spec.default;
        break;
      case 'choice':
        out[spec.name] = typeof v === 'string' && spec.options.includes(v) ? v : spec.default;
        break;
      default:
        break;
    }
  }
  return out;
}

export interface ResolvedPolicy {
  policy: PolicyId;
  values: Record<string, number | string | null>;
  strategy: StrategyId;
  /** The strategy's parameters: the preset's, then any the caller set (raw keys that are not policy keys). */
  params: Record<string, unknown>;
  trigger: Trigger;
  triggerExplained: string;
  measureAt: 'prompt' | 'last-response';
}

/**
 * A policy's strategy, parameters and trigger. `raw` mixes the policy's own keys (window, buffer…) and the
 * strategy's (maxFiles…): each goes where it belongs.
 */
export function resolvePolicy(id: PolicyId, raw: Record<string, unknown>, sessionWindow: number | null): ResolvedPolicy {
  const p = policyInfo(id);
  const values = policyValues(id, raw);
  const own = new Set(p.params.map((s) => s.name));
  const { id: strategy, params } = p.strategy(values);
  const extra = Object.fromEntries(Object.entries(raw).filter(([k]) => !own.has(k)));
  return { policy: id, values, strategy, params: { ...params, ...extra }, trigger: p.trigger(values, sessionWindow), triggerExplained: p.explain(values, sessionWindow), measureAt: p.measureAt };
}
