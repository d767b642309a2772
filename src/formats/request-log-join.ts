// Chains completion log files (one model call per file) into one request log, in time order, where the calls
// continue one another: a later call's messages start with an earlier call's messages, or, after a harness
// condensed its history, with the same system prompt and first user message.
import { pairToolCalls } from '../model/pairing';
import type { Item, ModelResponse, RecordedRequest, Session } from '../model/types';
import { emptySession } from './adapter';
import { COMPLETION_LOG, ContentIds } from './request-log';

const keyOf = (it: Item) => [it.role, it.kind, it.text, it.callId ?? ''].join('\u0000');

function startsWith(longer: Item[], prefix: Item[]): boolean {
  return prefix.length <= longer.length && prefix.every((it, i) => keyOf(it) === keyOf(longer[i]!));
}

/** The opening a condensation keeps: the system prompt and the first user message. */
function sameOpening(a: Item[], b: Item[]): boolean {
  const open = (items: Item[]) => {
    const system = items[0];
    const user = items.find((it) => it.role === 'user');
    return system && system.role === 'system' && user ? [system, user] : null;
  };
  const x = open(a);
  const y = open(b);
  return !!x && !!y && keyOf(x[0]!) === keyOf(y[0]!) && keyOf(x[1]!) === keyOf(y[1]!);
}

/** Rebuilds a chain's calls as one log: content seen in an earlier file keeps the id it got there. */
function mergeChain(chain: Session[]): Session {
  const first = chain[0]!;
  const s = emptySession('request-log', first.files[0] ?? '', first.id);
  s.files = chain.flatMap((c) => c.files);
  s.meta = { ...first.meta };
  const ids = new ContentIds();
  const taken = new Set<string>();
  for (const member of chain) {
    s.issues.push(...member.issues);
    for (const [k, n] of Object.entries(member.skipped)) s.skipped[k] = (Object.prototype.hasOwnProperty.call(s.skipped, k) ? s.skipped[k]! : 0) + n;
    member.requests.forEach((r, j) => {
      const index = s.requests.length;
      const base = `r${index}.`;
      // Positional ids are renumbered for this call; provider ids stay (ContentIds keys on them).
      const rebase = (it: Item): Item => {
        const { pairId: _stale, ...rest } = it;
        return { ...rest, id: it.id.replace(/^r\d+\./, base) };
      };
      const counts = new Map<string, number>();
      const items = ids.canonical(r.items.map(rebase), counts, base, {});
      const output = ids.canonical(r.output.map(rebase), counts, base, {});
      pairToolCalls(items);
      let id = /^r\d+$/.test(r.id) ? `r${index}` : r.id;
      for (let m = 2; taken.has(id); m++) id = `${r.id}~${m}`;
      taken.add(id);
      const request: RecordedRequest = { ...r, id, index, items, output };
      s.requests.push(request);
      const own: ModelResponse | undefined = member.responses.length === member.requests.length ? member.responses[j] : undefined;
      if (own) s.responses.push({ ...own, index: s.responses.length, itemIds: output.map((it) => it.id) });
    });
  }
  s.items = ids.firstSeen;
  s.model = s.requests[0]?.model ?? null;
  return s;
}

/** Completion log sessions are chained where they continue one another; every other session is left as it is. */
export function joinCompletionLogs(sessions: Session[]): Session[] {
  const logs = sessions
    .map((s, i) => ({ s, i }))
    .filter(({ s }) => s.format === 'request-log' && s.meta[COMPLETION_LOG] === true && s.requests.length === 1);
  // The flag only serves this join.
  for (const { s } of logs) delete s.meta[COMPLETION_LOG];
  if (logs.length < 2) return sessions;
  // Time order; a call without a timestamp keeps its place after the timed ones.
  logs.sort((a, b) => (a.s.requests[0]!.timestamp ?? '\uffff').localeCompare(b.s.requests[0]!.timestamp ?? '\uffff') || a.i - b.i);
  const chains: Session[][] = [];
  for (const { s } of logs) {
    const items = s.requests[0]!.items;
    const lastOf = (c: Session[]) => c[c.length - 1]!.requests[0]!;
    let best: Session[] | null = null;
    for (const c of chains) {
      const last = lastOf(c);
      if (startsWith(items, last.items) && (!best || last.items.length > lastOf(best).items.length)) best = c;
    }
    best ??= chains.find((c) => sameOpening(c[0]!.requests[0]!.items, items)) ?? null;
    if (best) best.push(s);
    else chains.push([s]);
  }
  const mergedAt = new Map<Session, Session | null>();
  for (const c of chains) {
    if (c.length < 2) continue;
    mergedAt.set(c[0]!, mergeChain(c));
    for (const s of c.slice(1)) mergedAt.set(s, null);
  }
  const out: Session[] = [];
  for (const s of sessions) {
    const m = mergedAt.get(s);
    if (m === undefined) out.push(s);
    else if (m !== null) out.push(m);
  }
  return out;
}
