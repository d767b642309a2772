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

const src = { file: 'test', line: null };
const msg = (id: string, role: Item['role'], text: string): Item => ({ id, role, kind: 'message', text, source: src });
const call = (id: string, name: string, args: string, callId: string): Item => ({ id, role: 'assistant', kind: 'tool_call', name, text: args, callId, pairId: `${id.replace('.call', '.out')}`, source: src });
const output = (id: string, name: string, text: string, callId: string): Item => ({ id, role: 'tool', kind: 'tool_result', name, text, callId, pairId: id.replace('.out', '.call'), source: src });

/** A support chat modelled on the LiveKit PR #5099 example (Acme Audio): messages, three tool pairs, a handoff. */
export function acmeContext(): Item[] {
  return [
    msg('i1', 'system', 'You are SupportGPT, a customer service agent for Acme Audio.'),
    msg('i2', 'user', 'Hi, the earbuds I got last week keep disconnecting and the left side sounds crackly.'),
    msg('i3', 'assistant', 'Could you share your full name and the email you used at checkout?'),
    msg('i4', 'user', "I'm Maya Chen, and I used maya.chen@example.com. Order #LK-4821936, bought on October 7."),
    call('i5.call', 'lookup_order', '{"order_number": "LK-4821936", "customer_email": "maya.chen@example.com"}', 'k1'),
    output('i5.out', 'lookup_order', '{"order_number":"LK-4821936","customer_name":"Maya Chen","purchase_date":"2025-10-07","delivered":"2025-10-08"}', 'k1'),
    msg('i6', 'assistant', 'I found your order LK-4821936 for Acme Buds Pro. Which device are you pairing with?'),
    msg('i7', 'user', 'iPhone 14 Pro, iOS 18.0.1. I tried re-pairing twice.'),
    call('i8.call', 'check_warranty', '{"serial":"ACB-PRO-7F29D4","purchase_date":"2025-10-07"}', 'k2'),
    output('i8.out', 'check_warranty', '{"eligible":true,"warranty_expires":"2026-10-07"}', 'k2'),
    msg('i9', 'assistant', "You're under warranty until 2026-10-07. I will set up a free replacement. Could you confirm your shipping address?"),
    msg('i10', 'user', 'Ship to 2150 Grove St, Apt 4B, Oakland, CA 94612.'),
    call('i11.call', 'create_rma', '{"order_number":"LK-4821936","serial":"ACB-PRO-7F29D4"}', 'k3'),
    output('i11.out', 'create_rma', '{"rma_id":"RMA-90721","replacement_eta_days":2}', 'k3'),
    msg('i12', 'assistant', "All set! I've created RMA #RMA-90721 linked to order LK-4821936."),
  ];
}

/**
 * A coding-agent transcript modelled on the course example: the host, port and ticket appear early, the
 * user asks for them again at the end. Five model calls (each run of assistant output is one).
 */
export function courseTranscript(): Session {
  const items: Item[] = [
    msg('s', 'system', 'You are a coding agent for the payments team.'),
    msg('u1', 'user', 'The nightly ledger-reconcile job fails (FRE-512). Check the database config.'),
    { ...call('a1.call', 'read_file', '{"path":"config/db.yaml"}', 'k1'), pairId: 'r1.out' },
    { ...output('r1.out', 'read_file', 'host: db-prod-1\nport: 5432\npool_size: 20', 'k1'), pairId: 'a1.call' },
    msg('a2', 'assistant', 'The job connects to db-prod-1:5432 with pool_size 20. I will look at jobs/reconcile.py next.'),
    msg('u2', 'user', 'Go ahead, and keep pool_size as it is.'),
    { ...call('a3.call', 'read_file', '{"path":"jobs/reconcile.py"}', 'k2'), pairId: 'r3.out' },
    { ...output('r3.out', 'read_file', 'conn = pool.getconn()  # line 88, never returned', 'k2'), pairId: 'a3.call' },
    msg('a4', 'assistant', 'Found it: reconcile_ledger() never returns its connection. I fixed jobs/reconcile.py.'),
    msg('u3', 'user', 'Which host and port was the db on, and what is the ticket?'),
    msg('a5', 'assistant', 'db-prod-1:5432, ticket FRE-512.'),
  ];
  return transcript(items, { id: 'course', model: 'gpt-4.1-mini' });
}
