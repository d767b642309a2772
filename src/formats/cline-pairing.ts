// Which panel request (`api_req_started`) each assistant message of a Cline / Roo Code API history answers, by
// time. Both write `ts: Date.now()` on API messages (Roo's Task.addToApiConversationHistory; Cline 3.x's
// ClineStorageMessage.ts) and say `api_req_started` before they send, so a request starts before the message that
// answers it and after the one before. Needed where the two lists differ in length: Roo's condense of 2025
// (summarizeConversation) deleted the assistant messages it summarized, while the panel keeps every request.
import type { ModelResponse } from '../model/types';

/** A record's time in ms; NaN when it has none. */
export const timeOf = (r: { timestamp?: string }): number => (r.timestamp ? Date.parse(r.timestamp) : NaN);

/**
 * For each assistant message, the index of the request it answers: the last one started before it, if no earlier
 * message took it (else null: the panel holds no request for it). Null when a message or a request has no time.
 */
export function pairByTime(messages: readonly ModelResponse[], requests: readonly ModelResponse[]): (number | null)[] | null {
  const starts = requests.map(timeOf);
  const answered = messages.map(timeOf);
  if (starts.some(Number.isNaN) || answered.some(Number.isNaN)) return null;
  let taken = -1;
  let next = 0;
  return answered.map((t) => {
    while (next < starts.length && starts[next]! <= t) next++;
    const k = next - 1;
    if (k <= taken) return null;
    taken = k;
    return k;
  });
}
