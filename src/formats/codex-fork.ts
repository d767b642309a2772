// A forked Codex rollout (session_meta `forked_from_id`: a sub-agent spawned with the parent's history, `/fork`).
// codex-rs `record_initial_history` with `InitialHistory::Forked` persists the parent's rollout items as they are
// right after the child's session_meta (the parent's session_meta, messages, token_count events) and seeds the
// child's token info from the last of them. That copy is the history the child starts with, so its messages are
// context; but its token_counts measured the parent's calls and its model items are the parent's responses.
import { get, numAt, str, type JsonObject } from '../model/narrow';

/** Milliseconds a UUIDv7 (Codex thread and turn ids) was made at; null for any other id. */
function uuidV7Ms(id: string | undefined): number | null {
  const m = id ? /^([0-9a-f]{8})-([0-9a-f]{4})-7[0-9a-f]{3}-/i.exec(id) : null;
  return m ? parseInt(m[1]! + m[2]!, 16) : null;
}

/** Where the copied parent history of a forked rollout ends: at the first turn the child itself started. */
export class ForkedHistory {
  /** The parent's thread id, while the lines read are its copied history; null otherwise. */
  private parent: string | null = null;
  private forkedAt: number | null = null;

  /** The child's session_meta (the first line): a fork's starts the copy. */
  start(meta: JsonObject): void {
    const parent = str(meta, 'forked_from_id');
    if (!parent) return;
    this.parent = parent;
    const at = get(meta, 'timestamp');
    this.forkedAt = uuidV7Ms(str(meta, 'id')) ?? (typeof at === 'string' && !Number.isNaN(Date.parse(at)) ? Date.parse(at) : null);
  }

  /** The parent this line's history was copied from; null once the child's own lines begin. */
  get copiedFrom(): string | null {
    return this.parent;
  }

  /**
   * A turn starts (`task_started`, `turn_context`): one that began before the fork is the parent's, copied; the
   * first that did not ends the copy. A turn whose start cannot be dated ends it too (the reading before forks).
   */
  turn(p: JsonObject): void {
    if (this.parent === null) return;
    const fork = this.forkedAt;
    const byId = uuidV7Ms(str(p, 'turn_id'));
    const startedAt = numAt(p, 'started_at');
    // `started_at` is whole seconds: only a second that ended before the fork is surely the parent's.
    const before = fork === null ? false : byId !== null ? byId < fork : startedAt !== null ? (startedAt + 1) * 1000 <= fork : false;
    if (!before) this.parent = null;
  }
}
