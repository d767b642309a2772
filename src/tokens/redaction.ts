// Redacting exporters (Codex rollouts shared publicly) replace a text with `[REDACTED_TEXT len=13131 sha=…]`.
// Counting the placeholder would make a 13,131-character system prompt 18 tokens; the length hint is the
// better evidence, so each placeholder counts as its hidden length at an average characters-per-token rate.

/** Characters per token of English prose and code under o200k/cl100k: the usual rule of thumb. */
export const REDACTED_CHARS_PER_TOKEN = 4;

const PLACEHOLDER = /\[REDACTED_[A-Z_]+ len=(\d+)(?: sha=[0-9a-f]+)?\]/g;

/** True when a text holds at least one length-hinted placeholder (its count is then an estimate). */
export function hasRedactionHint(text: string): boolean {
  return text.includes('[REDACTED_') && new RegExp(PLACEHOLDER.source).test(text);
}

/**
 * Tokens of `text` with every length-hinted placeholder counted from its hint and the rest by `count`.
 * Texts without a placeholder go straight to `count`.
 */
export function countWithRedactions(text: string, count: (text: string) => number): number {
  if (!text.includes('[REDACTED_')) return count(text);
  let tokens = 0;
  let last = 0;
  for (const m of text.matchAll(PLACEHOLDER)) {
    if (m.index > last) tokens += count(text.slice(last, m.index));
    tokens += Math.ceil(Number(m[1]) / REDACTED_CHARS_PER_TOKEN);
    last = m.index + m[0].length;
  }
  if (last === 0) return count(text);
  if (last < text.length) tokens += count(text.slice(last));
  return tokens;
}
