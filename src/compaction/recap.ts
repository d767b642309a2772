// The items a compaction inserts, and the one call to the summarizer every summarizing strategy makes.
import { SCHEMA_HEADER, TRUNCATION_MARKER } from '../model/markers';
import type { Item, SourceRef } from '../model/types';
import type { SummarizeRequest, SummarizeResult } from './summarizer';
import type { CompactionDeps, SummarizerCall } from './types';

/** Items made by a rerun are not in any file. */
export const RERUN_SOURCE: SourceRef = { file: '(rerun)', line: null };

/** The recap goes in as `assistant`: a non-first `system` message is dropped by role validators (course unit). */
export function summaryItem(id: string, text: string, strategy: string, extra: Item['meta'] = {}): Item {
  return { id, kind: 'summary', role: 'assistant', text, source: RERUN_SOURCE, meta: { compaction: strategy, ...extra } };
}

/** The static marker: its bytes never change, so the cached prefix keeps matching across turns. */
export function markerItem(id: string, refs: string[], strategy: string, text: string = TRUNCATION_MARKER): Item {
  return { id, kind: 'omission', role: 'assistant', text, source: RERUN_SOURCE, omission: { target: 'turns', refs, marker: text }, meta: { compaction: strategy } };
}

/** Earlier summaries among `items` (markers hold nothing to fold), joined oldest first; null when none. */
export function priorSummaryText(items: readonly Item[]): string | null {
  const texts = items.filter((it) => it.kind === 'summary' && it.text.trim() !== '').map((it) => it.text.trim());
  return texts.length > 0 ? texts.join('\n\n') : null;
}

export const startsWithSchema = (text: string) => text.trimStart().startsWith(SCHEMA_HEADER);

export interface SummarizerAnswer {
  result: SummarizeResult;
  call: SummarizerCall;
}

/**
 * Calls the summarizer and never throws: a summarizer that throws counts as a failure, an aborted signal
 * as `cancelled`. Prompt and output tokens are counted for the cost estimate.
 */
export async function callSummarizer(deps: CompactionDeps, req: Omit<SummarizeRequest, 'signal' | 'onText'>): Promise<SummarizerAnswer> {
  const promptTokens = req.messages.reduce((n, m) => n + deps.count(m.content), 0);
  if (deps.signal?.aborted) return { result: { ok: false, failure: 'cancelled', reason: 'cancelled before the summarizer was called' }, call: { promptTokens: 0, outputTokens: 0, ok: false } };
  let result: SummarizeResult;
  try {
    result = await deps.summarizer.summarize({ ...req, ...(deps.signal ? { signal: deps.signal } : {}), ...(deps.onText ? { onText: deps.onText } : {}) });
  } catch (e) {
    const aborted = deps.signal?.aborted === true;
    result = aborted
      ? { ok: false, failure: 'cancelled', reason: 'cancelled' }
      : { ok: false, failure: 'garbage', reason: `summarizer ${deps.summarizer.name} threw: ${e instanceof Error ? e.message : String(e)}` };
  }
  if (result.ok && deps.signal?.aborted) result = { ok: false, failure: 'cancelled', reason: 'cancelled' };
  return { result, call: { promptTokens, outputTokens: result.ok ? deps.count(result.text) : 0, ok: result.ok } };
}
