// The cache-cause taxonomy, written once: the cache panel's help, docs/cache.md (checked against this table by a
// test) and the short labels of the panel, `inspect`, `check` and the HTML report all come from here.
import type { CacheBreakCause } from './cause';

export interface CauseEntry {
  /** Short label for lists and reports. */
  label: string;
  /** What it means for the user. */
  meaning: string;
  /** What in the file sets it. */
  evidence: string;
}

export const CAUSE_TAXONOMY: Record<CacheBreakCause, CauseEntry> = {
  compaction: {
    label: 'compaction',
    meaning: 'A compaction replaced earlier items with a summary or marker; everything from there on is sent anew. Its miss is the compaction\'s cost, reported with the compaction, apart from misses.',
    evidence: 'A compaction recorded or inferred just before the call, or a summary/marker standing where other items were.',
  },
  cleared: {
    label: 'conversation cleared (/clear)',
    meaning: 'The user\'s /clear emptied the conversation: everything after the system prompt and tools is sent anew. No compaction did it, so its miss counts with the misses.',
    evidence: 'The prompt holds a Claude Code /clear echo the previous prompt did not (Claude Code 1.0 wrote on in the same file after a /clear).',
  },
  'rolled-back': {
    label: 'turns taken back',
    meaning: "The user took back the last turns (Codex's thread rollback, to edit a message): the prompt goes on from an earlier point and what follows is sent anew. No compaction did it, so its miss counts with the misses.",
    evidence: 'This prompt holds the first item after a `thread_rolled_back`, and the previous prompt held some of what the rollback took out.',
  },
  'recap-regenerated': {
    label: 'regenerated recap',
    meaning: 'A recap at the same position was rewritten, so every item after it is read again although those items did not change.',
    evidence: 'A summary at the same position in both prompts, with different text, and no compaction recorded for the call (a recorded one owns the miss).',
  },
  edited: {
    label: 'edited earlier item',
    meaning: 'An item the previous call already sent was changed in place, which invalidates everything after it.',
    evidence: 'The first item that differs is present in both prompts with different content.',
  },
  masked: {
    label: 'masked tool result',
    meaning: 'An old tool result was replaced by a placeholder (observation masking), so the prompt stops matching there.',
    evidence: 'A tool result that now holds a placeholder ("[Old tool result content cleared]", <MASKED>, …).',
  },
  'tools-changed': {
    label: 'tool list changed',
    meaning: 'The tool list changed (MCP servers connected or disconnected, a new system prompt with other tools); tools lead the prompt, so little or nothing is read.',
    evidence: 'The recorded tool schemas differ, a Claude Code `/mcp` command, or an event that updates the tools (OpenHands SystemPromptUpdateEvent).',
  },
  'model-changed': {
    label: 'model changed',
    meaning: 'Caches are kept per model, so a switch reads nothing.',
    evidence: 'The call names another model than the previous one.',
  },
  'thinking-dropped': {
    label: 'thinking dropped at a new turn',
    meaning: 'At a new human turn the API drops earlier thinking (reasoning) blocks: the prompt shrinks by their size. When the read still covers the prompt, nothing is processed again and it is no miss; when it falls back, what follows the first dropped block is sent anew.',
    evidence: 'A new user message in this call, and a reported prompt smaller than what the previous call left cached.',
  },
  ttl: {
    label: 'time gap beyond the cache TTL',
    meaning: 'The cache expired between the two calls. An expired cache serves nearly nothing, so only a read that falls to about nothing is called ttl.',
    evidence: 'The gap between the calls\' timestamps exceeds the lifetime (from the usage\'s 5m/1h writes, a breakpoint\'s ttl, else 5 minutes), and the read fell to what the session\'s first call read or less, or to the unrecorded prefix (system prompt and tools, which other sessions of the harness keep warm).',
  },
  restart: {
    label: 'new process (restart or resume)',
    meaning: 'The harness was restarted or the session resumed: a new process sends a new prompt and reads about nothing.',
    evidence: 'The process that wrote the call changed (Claude Code session id or version), and the read fell to about nothing.',
  },
  'gap-unknown': {
    label: 'time gap unknown',
    meaning: 'The timestamps repeat or go backwards (a resumed or archived session), so the gap cannot be told; the read fell to about nothing, as after an expiry or a restart.',
    evidence: 'This call\'s timestamp equals or precedes the previous call\'s, and the read fell to about nothing.',
  },
  'unrecorded-removal': {
    label: 'content removed unrecorded',
    meaning: 'The harness took content out of what it sent that the file still holds (Claude Code\'s microcompact clears old tool results so): everything after the first removal is sent anew, and from here the file is not what the model saw. It counts with the misses.',
    evidence: 'The reported prompt fell by a quarter or more (and 2,000 tokens) below what the previous call left cached, with no compaction recorded, no model change and no change the content analysis sees (the `unrecorded-drop` lint reads the same figures).',
  },
  'unrecorded-return': {
    label: 'removed content sent again',
    meaning: 'Content the harness had left out of what it sent, which the file held all along, was sent again (Claude Code puts back the old tool results its microcompact had cleared): everything after the first of it is sent anew. It counts with the misses.',
    evidence: 'The reported prompt rose over the previous one by a quarter or more of it (and 2,000 tokens) beyond what the file adds, the previous prompt having been at least half that much below what counting the file explains, with no compaction recorded, no model change and no change the content analysis sees.',
  },
  'unrecorded-prefix': {
    label: 'change in the unrecorded prefix',
    meaning: 'The recorded conversation is unchanged; the provider re-read only about as much as the system prompt and tools the file does not record, so what changed is just after them.',
    evidence: 'The read is within 15 % of the unrecorded prefix (measured at a session\'s first call where it holds little else), and the content analysis sees no change.',
  },
  'provider-miss': {
    label: 'provider miss (best-effort cache)',
    meaning: 'The prompt did not change and the gap was within the lifetime, yet the provider served well below what it had cached (a collapse): routing to another server, or eviction.',
    evidence: 'A reported read below what the previous call itself read, with no content change, no expiry and no new process.',
  },
  'below-minimum': {
    label: 'below the minimum cacheable length',
    meaning: 'The previous prompt was shorter than the provider\'s minimum, so it was never cached.',
    evidence: 'What the previous call left cacheable is below the minimum (OpenAI 1,024; Anthropic 1,024–4,096 by model).',
  },
  unknown: {
    label: 'unknown',
    meaning: 'The prompt stops matching, but nothing above explains it (for example, the prompt simply ends earlier).',
    evidence: 'A divergence none of the rules above recognize.',
  },
};

/** What a call's read shows when it is no break: each is explained the same way on every surface. */
export const READ_NOTES = {
  shortfall: {
    label: 'uncached tail (shortfall)',
    meaning: 'An OpenAI-style cache served everything it had served a call ago but not the newest tail (it grows in 128-token steps): a cost, not a break.',
    evidence: 'The read is short of the previous prompt by more than the provider\'s rounding, yet no lower than the previous call\'s own read, and above what the session\'s first call read.',
  },
  'no-breakpoint': {
    label: 'not cached: no cache breakpoint',
    meaning: 'Anthropic caches nothing without a cache_control breakpoint. A Claude model behind an OpenAI-compatible proxy sent none, so nothing was cached: no miss, no dollars lost. Add `cache_control: {"type": "ephemeral"}` to the last system block and to the last message (or set it on the request), and the proxy passes it on.',
    evidence: 'A Claude model, a request log that records the whole request with no cache_control on any block or on the request, and no cache read or write reported.',
  },
  'thinking-dropped': {
    label: 'thinking dropped at a new turn',
    meaning: CAUSE_TAXONOMY['thinking-dropped'].meaning,
    evidence: CAUSE_TAXONOMY['thinking-dropped'].evidence,
  },
} as const satisfies Record<string, CauseEntry>;

export type ReadNote = keyof typeof READ_NOTES;
