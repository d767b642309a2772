// Summarizers and sessions for the compaction tests: no network, every answer chosen by the test.
import type { Item, Session } from '../model/types';
import type { SummarizeFailure, SummarizeRequest, Summarizer } from './summarizer';

export interface RecordingSummarizer extends Summarizer {
  requests: SummarizeRequest[];
}

/** Answers every request with `text` (streamed in two pieces) and records the requests. */
export function fixedSummarizer(text: string | ((req: SummarizeRequest, n: number) => string), name = 'test-model'): RecordingSummarizer {
  const requests: SummarizeRequest[] = [];
  return {
    name,
    requests,
    async summarize(req) {
      requests.push(req);
      const out = typeof text === 'function' ? text(req, requests.length) : text;
      req.onText?.(out.slice(0, Math.ceil(out.length / 2)));
      req.onText?.(out);
      return { ok: true, text: out, model: name };
    },
  };
}

export function failingSummarizer(failure: SummarizeFailure, reason: string): RecordingSummarizer {
  const requests: SummarizeRequest[] = [];
  return {
    name: 'failing',
    requests,
    async summarize(req) {
      requests.push(req);
      return { ok: false, failure, reason };
    },
  };
}

/** Aborts `controller` while it is asked, then reports the cancellation the way an endpoint would. */
export function abortingSummarizer(controller: AbortController): RecordingSummarizer {
  const requests: SummarizeRequest[] = [];
  return {
    name: 'aborting',
    requests,
    async summarize(req) {
      requests.push(req);
      controller.abort();
      return { ok: false, failure: 'cancelled', reason: 'cancelled by the user' };
    },
  };
}

/** A transcript session (openai-chat) holding `items`; its model calls are the runs of assistant output. */
export function transcript(items: Item[], extra: Partial<Session> = {}): Session {
  return {
    id: 't',
    format: 'openai-chat',
    title: 't',
    files: ['t.json'],
    items,
    compactions: [],
    requests: [],
    responses: [],
    sidechains: [],
    model: null,
    contextWindow: null,
    skipped: {},
    issues: [],
    meta: {},
    ...extra,
  };
}

/** Deterministic pseudo-random numbers in [0, 1) (mulberry32), so property tests replay exactly. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
