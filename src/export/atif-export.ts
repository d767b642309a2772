// A session as an ATIF trajectory (Harbor's Agent Trajectory Interchange Format, RFC 0001), the shape
// formats/atif.ts reads, so a session opened here can be evaluated where ATIF is read:
//   {schema_version, session_id, agent: {name, version, model_name}, steps, final_metrics}
// Steps are built from what the model calls saw, whatever the source format: each call's output is an `agent` step
// (message, reasoning_content, tool_calls, metrics with `prompt_tokens` counting the cache as the RFC says, the cache
// read as `cached_tokens`, the cache write in `metrics.extra`); what a call was sent for the first time comes before
// it as `user` / `system` steps, and tool results as the observation of the agent step that asked for them. A
// summarizing compaction is a `system` step with `extra.context_management` (ATIF v1.6), followed by the summary the
// next call read; every compaction is listed in the trajectory's `extra.compactions` with the step it came before.
import type { AnalysisView } from '../analysis/analysis-view';
import type { Item, Session } from '../model/types';

export const ATIF_VERSION = 'ATIF-v1.6';

interface AtifToolCall {
  tool_call_id: string;
  function_name: string;
  arguments: unknown;
}

interface AtifStep {
  step_id: number;
  timestamp?: string;
  source: 'system' | 'user' | 'agent';
  message: string;
  model_name?: string;
  reasoning_content?: string;
  tool_calls?: AtifToolCall[];
  observation?: { results: { source_call_id?: string; content: string }[] };
  metrics?: { prompt_tokens?: number; completion_tokens?: number; cached_tokens?: number; extra?: Record<string, number> };
  extra?: Record<string, unknown>;
}

export interface AtifTrajectory {
  schema_version: string;
  session_id: string;
  agent: { name: string; version: string; model_name?: string; extra: Record<string, unknown> };
  steps: AtifStep[];
  final_metrics: { total_prompt_tokens: number; total_completion_tokens: number; total_cached_tokens: number; total_steps: number };
  extra: Record<string, unknown>;
}

/** Tool arguments as ATIF writes them: the JSON object where the text is one, else the text under `input`. */
function argumentsOf(text: string): unknown {
  try {
    const v: unknown = JSON.parse(text);
    if (v && typeof v === 'object' && !Array.isArray(v)) return v;
  } catch {
    // not JSON: kept as text
  }
  return { input: text };
}

export function atifTrajectory(session: Session, view: AnalysisView, opts: { version?: string } = {}): AtifTrajectory {
  const byId = new Map(view.items.map((i) => [i.id, i]));
  const steps: AtifStep[] = [];
  const done = new Set<string>();
  /** The agent step that made each tool call, by provider call id: its result is that step's observation. */
  const stepOfCall = new Map<string, AtifStep>();
  const push = (s: Omit<AtifStep, 'step_id'>): AtifStep => {
    const step = { step_id: steps.length + 1, ...s };
    steps.push(step);
    return step;
  };
  const ts = (it: Item | undefined) => (it?.timestamp ? { timestamp: it.timestamp } : {});
  const summaries = new Set(view.compactions.flatMap((c) => (c.summaryId !== null ? [c.summaryId] : [])));

  /** Items a call was sent for the first time: user and system steps, or observations of earlier agent steps. */
  const addInput = (it: Item) => {
    if (done.has(it.id)) return;
    done.add(it.id);
    if (it.kind === 'tool_result' || (it.role === 'tool' && it.kind !== 'summary')) {
      const owner = it.callId ? stepOfCall.get(it.callId) : undefined;
      if (owner) {
        (owner.observation ??= { results: [] }).results.push({ source_call_id: it.callId!, content: it.text });
        return;
      }
    }
    if (summaries.has(it.id)) {
      // A compaction's summary, whoever wrote it, is the handoff the next agent reads: a user step (an agent step
      // would read as one more model call).
      push({ source: 'user', message: it.text, ...ts(it) });
      return;
    }
    if (it.kind === 'tool_call' || it.role === 'assistant') {
      // An assistant turn no call produced (a transcript's prefill, a log that starts mid-conversation).
      push({ source: 'agent', message: it.kind === 'tool_call' ? '' : it.text, ...ts(it) });
      return;
    }
    push({ source: it.role === 'system' || it.role === 'developer' ? 'system' : 'user', message: it.text, ...ts(it) });
  };

  const compactions: Record<string, unknown>[] = [];
  let prompt = 0;
  let completion = 0;
  let cached = 0;
  view.calls.forEach((call) => {
    const compaction = call.compactionId ? view.compactions.find((c) => c.id === call.compactionId) : undefined;
    if (compaction) {
      compactions.push({ kind: compaction.kind, trigger: compaction.trigger, before_step: steps.length + 1, tokens_before: compaction.tokensBefore, tokens_after: compaction.tokensAfter, replaced_items: compaction.replacedIds.length });
    }
    // ATIF says a compaction as a summarizing handoff: the system step, then the summary the next agent reads.
    // One without a summary (cleared tool results, dropped turns) has no such step; `extra.compactions` lists it.
    if (compaction && compaction.summaryId !== null) {
      push({
        source: 'system',
        message: `Context compaction (${compaction.kind}${compaction.trigger ? `, ${compaction.trigger}` : ''}): ${compaction.tokensBefore ?? '?'} → ${compaction.tokensAfter ?? '?'} tokens.`,
        ...(compaction.timestamp ? { timestamp: compaction.timestamp } : {}),
        extra: { context_management: { type: 'compaction', kind: compaction.kind, trigger: compaction.trigger, tokens_before: compaction.tokensBefore, tokens_after: compaction.tokensAfter, replaced_items: compaction.replacedIds.length } },
      });
    }
    for (const e of call.entries) {
      const it = byId.get(e.id);
      if (it) addInput(it);
    }
    const out = call.outputIds.map((id) => byId.get(id)).filter((x): x is Item => x !== undefined);
    for (const it of out) done.add(it.id);
    const u = call.usage;
    const step = push({
      source: 'agent',
      message: out.filter((i) => i.kind !== 'thinking' && i.kind !== 'tool_call').map((i) => i.text).join('\n'),
      ...ts(out[0]),
      ...(call.model ? { model_name: call.model } : {}),
    });
    const reasoning = out.filter((i) => i.kind === 'thinking').map((i) => i.text).join('\n');
    if (reasoning) step.reasoning_content = reasoning;
    const calls = out.filter((i) => i.kind === 'tool_call');
    if (calls.length) {
      step.tool_calls = calls.map((c, k) => ({ tool_call_id: c.callId ?? `${call.id}.call${k}`, function_name: c.name ?? '', arguments: argumentsOf(c.text) }));
      for (const [k, c] of calls.entries()) stepOfCall.set(c.callId ?? `${call.id}.call${k}`, step);
    }
    if (u) {
      step.metrics = {
        ...(call.reportedPrompt !== null ? { prompt_tokens: call.reportedPrompt } : {}),
        ...(u.output !== null ? { completion_tokens: u.output } : {}),
        ...(u.cacheRead !== null ? { cached_tokens: u.cacheRead } : {}),
        // ATIF has no field for the cache write: Anthropic's names for it and its split by lifetime (priced apart).
        ...(u.cacheWrite !== null
          ? {
              extra: {
                cache_creation_input_tokens: u.cacheWrite,
                ...(u.cacheWrite5m != null ? { ephemeral_5m_input_tokens: u.cacheWrite5m } : {}),
                ...(u.cacheWrite1h != null ? { ephemeral_1h_input_tokens: u.cacheWrite1h } : {}),
              },
            }
          : {}),
      };
      prompt += call.reportedPrompt ?? 0;
      completion += u.output ?? 0;
      cached += u.cacheRead ?? 0;
    }
  });
  // What the transcript holds after the last call (its last tool results, a closing message): the items after the
  // last one a call saw or wrote. Where the calls come from a request log beside the transcript, the transcript's
  // items are another record of the same turns, not more of them: none is added.
  let last = -1;
  session.items.forEach((it, k) => {
    if (done.has(it.id)) last = k;
  });
  if (last >= 0) for (const it of session.items.slice(last + 1)) if (!done.has(it.id) && it.kind !== 'compaction') addInput(it);

  return {
    schema_version: ATIF_VERSION,
    session_id: session.id,
    agent: { name: session.format, version: String(session.meta['version'] ?? session.meta['agent_version'] ?? 'unknown'), ...(session.model ? { model_name: session.model } : {}), extra: { source_format: session.format } },
    steps,
    final_metrics: { total_prompt_tokens: prompt, total_completion_tokens: completion, total_cached_tokens: cached, total_steps: steps.length },
    extra: { exported_by: 'compaction-inspector', exporter_version: opts.version ?? 'unknown', files: session.files, compactions },
  };
}

/** One session as a JSON document; several as JSONL, one trajectory per line (which opens as a corpus). */
export function atifText(inputs: readonly { session: Session; view: AnalysisView }[], opts: { version?: string } = {}): string {
  if (inputs.length === 1) return `${JSON.stringify(atifTrajectory(inputs[0]!.session, inputs[0]!.view, opts), null, 2)}\n`;
  return inputs.map((i) => `${JSON.stringify(atifTrajectory(i.session, i.view, opts))}\n`).join('');
}
