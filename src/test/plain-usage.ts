// A Claude Code session's usage read the plain way, with no tree and none of the adapter's code: the cross-check the
// loader's tests compare the engine's responses with.

/** Every assistant record's whole prompt (input + cache read + cache write), once per message id, in file order. */
export function plainPrompts(text: string): number[] {
  const seen = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    const r = JSON.parse(line) as { type?: string; message?: { id?: string; usage?: Record<string, number> } };
    const u = r.message?.usage;
    if (r.type === 'assistant' && r.message?.id && u) seen.set(r.message.id, (u['input_tokens'] ?? 0) + (u['cache_read_input_tokens'] ?? 0) + (u['cache_creation_input_tokens'] ?? 0));
  }
  return [...seen.values()];
}
