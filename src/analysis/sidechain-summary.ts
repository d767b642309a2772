// The sidechains of a session in one summary each, for the CLI report and the session header: a subagent's
// calls and usage, the parent call that started it (1-based) and what its result cost the parent's context.
import { modelCalls } from './calls';
import type { Session, Sidechain, Usage } from '../model/types';
import { promptTokens } from '../model/usage';

export interface SidechainSummary {
  id: string;
  purpose: 'compaction' | 'subagent';
  file: string;
  items: number;
  /** The sidechain's own model calls. */
  calls: number;
  /** Reported usage summed over its calls; a field is null when no call reports it. */
  usage: Usage;
  /** Whole prompts summed over its calls that report one (`promptTokens`, each call by its own convention). */
  promptTokens: number | null;
  /** 1-based number of the parent call whose tool call started it; null when not linked. */
  parentCall: number | null;
  toolUseId: string | null;
  agentType: string | null;
  description: string | null;
  /** Tokens of the tool result the parent received (counted); null without a counter or a result. */
  resultTokens: number | null;
  /** The harness's own total for the subagent run (`toolUseResult.totalTokens`). */
  reportedTotalTokens: number | null;
}

function sumUsage(list: (Usage | null)[]): Usage {
  const add = (key: 'input' | 'output' | 'cacheRead' | 'cacheWrite') => {
    const values = list.map((u) => u?.[key] ?? null).filter((v): v is number => v !== null);
    return values.length ? values.reduce((a, b) => a + b, 0) : null;
  };
  return { input: add('input'), output: add('output'), cacheRead: add('cacheRead'), cacheWrite: add('cacheWrite') };
}

function sumPrompts(list: (Usage | null)[]): number | null {
  const prompts = list.map((u) => (u ? promptTokens(u) : null)).filter((v): v is number => v !== null);
  return prompts.length ? prompts.reduce((a, b) => a + b, 0) : null;
}

export function sidechainSummaries(session: Session, count?: (text: string) => number): SidechainSummary[] {
  // Most sessions have none: no maps of every call and item for them.
  if (session.sidechains.length === 0) return [];
  const calls = modelCalls(session);
  const callOf = new Map<string, number>();
  for (const c of calls) for (const id of c.itemIds) callOf.set(id, c.index);
  const byId = new Map(session.items.map((it) => [it.id, it]));
  return session.sidechains.map((s) => {
    const responses = s.responses ?? [];
    const p = s.parent;
    const callIndex = p?.callItemId ? callOf.get(p.callItemId) : undefined;
    const result = p?.resultItemId ? byId.get(p.resultItemId) : undefined;
    return {
      id: s.id,
      purpose: s.purpose,
      file: s.file,
      items: s.items.length,
      calls: responses.length,
      usage: sumUsage(responses.map((r) => r.usage)),
      promptTokens: sumPrompts(responses.map((r) => r.usage)),
      parentCall: callIndex === undefined ? null : callIndex + 1,
      toolUseId: p?.toolUseId ?? null,
      agentType: p?.agentType ?? null,
      description: p?.description ?? null,
      resultTokens: result && count ? count(result.text) : null,
      reportedTotalTokens: p?.reportedTotalTokens ?? null,
    };
  });
}

/**
 * A sidechain as a session of its own, so its calls and contexts can be inspected like any session: its items,
 * its model calls with their usage, the parent's format (which decides what the format leaves unrecorded).
 */
export function sidechainSession(parent: Session, sidechain: Sidechain): Session {
  const responses = sidechain.responses ?? [];
  const described = sidechain.parent?.description ? `: ${sidechain.parent.description}` : '';
  return {
    id: `${parent.id}/${sidechain.id}`,
    format: parent.format,
    title: `${sidechain.purpose === 'subagent' ? 'Subagent' : 'Compaction summarizer'} ${sidechain.id}${described} (of ${parent.title})`,
    files: sidechain.file ? [sidechain.file] : [],
    items: sidechain.items,
    compactions: [],
    requests: [],
    responses,
    sidechains: [],
    model: responses.find((r) => r.model)?.model ?? null,
    contextWindow: parent.contextWindow,
    skipped: {},
    issues: [],
    meta: { parentSession: parent.id, agentId: sidechain.id },
  };
}
