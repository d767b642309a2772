// Usage no provider can report: a prompt that counts the cache yet holds fewer tokens than its cache reads and
// writes. It means the adapter read the harness's convention wrong for this file (another version, another
// provider), so the load says so rather than showing a hit rate above 100%.
import type { ParseIssue, Session } from './types';
import { promptTokens } from './usage';

export function impossibleUsageIssue(session: Session): ParseIssue | null {
  const bad = session.responses.filter((r) => {
    const u = r.usage;
    const prompt = u ? promptTokens(u) : null;
    // Where input leaves the cache out, the prompt adds it: only a prompt said to count the cache can fall short.
    return prompt !== null && (u!.cacheRead ?? 0) + (u!.cacheWrite ?? 0) > prompt;
  });
  if (bad.length === 0) return null;
  const first = bad[0]!;
  const u = first.usage!;
  const cached = (u.cacheRead ?? 0) + (u.cacheWrite ?? 0);
  return {
    file: first.source.file,
    line: first.source.line,
    field: 'usage',
    message:
      `${bad.length} of ${session.responses.length} calls report more cached tokens than prompt tokens ` +
      `(call ${first.index + 1}: ${cached.toLocaleString('en-US')} cached of ${(u.input ?? 0).toLocaleString('en-US')}): ` +
      'this file may count its input without the cache, so its prompt figures are too low',
    severity: 'warning',
  };
}

/**
 * Responses of a transcript that report usage but hold no item of the session: no call can be placed for them (a call
 * is where its reply stands, replay.ts), so their usage would be in no figure, silently. The load says how many, and
 * where the first is.
 */
export function unplacedUsageIssue(session: Session): ParseIssue | null {
  // A request log's calls are its recorded requests, each with its own output: only a transcript places calls by items.
  if (session.responses.length === 0 || session.requests.length > 0) return null;
  const ids = new Set(session.items.map((it) => it.id));
  const lost = session.responses.filter((r) => r.usage !== null && !r.itemIds.some((id) => ids.has(id)));
  if (lost.length === 0) return null;
  const first = lost[0]!;
  return {
    file: first.source.file,
    line: first.source.line,
    field: 'usage',
    message:
      `${lost.length} of ${session.responses.length} responses report usage but hold no reply this reader could place ` +
      `(the first: response ${first.index + 1}): their tokens are in no call, total or cost`,
    severity: 'warning',
  };
}
