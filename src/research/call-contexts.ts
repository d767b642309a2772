// What each model call of a research trajectory was sent, read from the one replay every surface uses: the
// inspector passes its AnalysisView (the context view's own calls and counts), corpus mode and tests replay
// the session here. A research panel's per-segment or per-iteration figure is then a call's counted tokens,
// never a sum of its own that could disagree with the context view.
import { replayTranscript } from '../analysis/replay';
import type { Session } from '../model/types';
import { itemCounter, type TokenSource } from './token-source';

export interface SentCall {
  /** 0-based call index. */
  index: number;
  /** Ids of the items the call was sent, in order. */
  ids: string[];
  /** Their tokens: the call's counted tokens (research trajectories record no tool schemas). */
  tokens: number;
  /** Ids of what the call wrote. */
  outputIds: string[];
}

/** An AnalysisView's calls, as far as this module reads them. */
export interface ViewCalls {
  readonly calls: readonly { readonly entries: readonly { readonly id: string; readonly tokens: number }[]; readonly outputIds: readonly string[] }[];
}

const hasCalls = (source: TokenSource): source is TokenSource & ViewCalls => typeof source === 'object' && Array.isArray((source as Partial<ViewCalls>).calls);

export function sentCalls(session: Session, tokens: TokenSource): SentCall[] {
  if (hasCalls(tokens)) {
    return tokens.calls.map((c, index) => ({ index, ids: c.entries.map((e) => e.id), tokens: c.entries.reduce((n, e) => n + e.tokens, 0), outputIds: [...c.outputIds] }));
  }
  const tok = itemCounter(tokens);
  return replayTranscript(session).calls.map((c) => {
    const entries = c.entries;
    return { index: c.index, ids: entries.map((e) => e.item.id), tokens: entries.reduce((n, e) => n + tok(e.item), 0), outputIds: c.output.map((o) => o.id) };
  });
}

/** The call that wrote each item. */
export function callByOutput(calls: readonly SentCall[]): Map<string, SentCall> {
  const out = new Map<string, SentCall>();
  for (const c of calls) for (const id of c.outputIds) if (!out.has(id)) out.set(id, c);
  return out;
}
