// The file layout of a persisted OpenHands SDK conversation: `<conversation>/base_state.json` and
// `<conversation>/events/event-NNNNN-<event id>.json`, one event per file. Light on purpose: the app imports it.

const EVENT_FILE = /(?:^|[\\/])event-(\d+)-[^\\/]*\.json$/i;
const BASE_STATE = /(?:^|[\\/])base_state\.json$/i;

/** True for a file that belongs to a persisted OpenHands SDK conversation, judged by its name. */
export function isOpenHandsConversationFile(name: string): boolean {
  return EVENT_FILE.test(name) || BASE_STATE.test(name);
}

/** The event's position in its conversation, from `event-00012-….json`; null for other names. */
export function eventFileNumber(name: string): number | null {
  const m = EVENT_FILE.exec(name);
  return m ? Number(m[1]) : null;
}

/**
 * The conversation folder a file sits in, when its name carries the path (`<conv>/events/event-…`,
 * `<conv>/base_state.json`); null for a bare file name.
 */
export function conversationFolderOf(name: string): string | null {
  const parts = name.split(/[\\/]/);
  if (BASE_STATE.test(name)) return parts.length >= 2 ? parts[parts.length - 2]! : null;
  if (EVENT_FILE.test(name) && parts.length >= 3 && parts[parts.length - 2]!.toLowerCase() === 'events') return parts[parts.length - 3]!;
  return null;
}

/** Conversation ids are written with dashes in base_state.json and without them in folder names. */
export function conversationKey(id: string): string {
  return id.replace(/-/g, '').toLowerCase();
}

/** The distinct conversations that these paths belong to (folder keys; bare names count as none). */
export function conversationKeysOf(paths: readonly string[]): Set<string> {
  const keys = new Set<string>();
  for (const p of paths) {
    const folder = conversationFolderOf(p);
    if (folder) keys.add(conversationKey(folder));
  }
  return keys;
}
