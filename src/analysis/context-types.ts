// The per-call view of a session: what the model saw at each call, split into regions.
import type { Item, Usage } from '../model/types';

/** Where an item sits in the context of one call. */
export type RegionName = 'head' | 'summary' | 'middle' | 'tail';

/** What happened to an original item as of one call. */
// `cleared`: the user's `/clear` emptied the conversation; `rolled-back`: the user took the last turns back (Codex's
// thread rollback); no compaction took either.
export type EvictionLabel = 'verbatim' | 'summarized' | 'omitted' | 'masked' | 'dropped' | 'cleared' | 'rolled-back';

export interface ContextEntry {
  item: Item;
  region: RegionName;
}

/** One model call and the exact list of items it was sent. */
export interface CallContext {
  /** 0-based call number. */
  index: number;
  /** Response or request id this call comes from. */
  id: string;
  entries: ContextEntry[];
  /** What the model produced (not part of this call's input, part of the next one's). */
  output: Item[];
  /** Serialized tool schemas sent with the call, when recorded. */
  tools: string | null;
  usage: Usage | null;
  timestamp?: string;
  model: string | null;
  /** Provider API of the call, which decides cache rules; null when unknown. */
  api: 'openai-chat' | 'openai-responses' | 'anthropic' | null;
  /**
   * True when the format leaves out part of what was sent (a system prompt or tool schemas the
   * session file never records); the unseen prefix is then estimated from reported usage.
   */
  prefixUnrecorded: boolean;
  /** Compaction applied between the previous call and this one, if any. */
  compactionId: string | null;
  /** True when the context comes from a request log (ground truth), false when rebuilt by replay. */
  recorded: boolean;
  /**
   * The harness process that sent the call, where the file tells (Claude Code: session id and version): a new one
   * after a restart or resume starts with an empty cache.
   */
  process?: string;
}
