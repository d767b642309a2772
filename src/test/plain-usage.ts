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

export interface PlainTotals {
  responses: number;
  input: number;
  cacheRead: number;
  cacheWrite: number;
  output: number;
}

/**
 * Every response the file says was sent and billed, with no tree: each assistant record's usage once per message id
 * (the last part's), Claude Code's `<synthetic>` replies and subagents' sidechain records left out. What a billing
 * view (ccusage) adds up.
 */
export function plainBilled(text: string): PlainTotals {
  const seen = new Map<string, Record<string, number>>();
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    const r = JSON.parse(line) as { type?: string; isSidechain?: boolean; message?: { id?: string; model?: string; usage?: Record<string, number> } };
    const u = r.message?.usage;
    if (r.type === 'assistant' && !r.isSidechain && r.message?.id && r.message.model !== '<synthetic>' && u) seen.set(r.message.id, u);
  }
  const t: PlainTotals = { responses: seen.size, input: 0, cacheRead: 0, cacheWrite: 0, output: 0 };
  for (const u of seen.values()) {
    t.input += u['input_tokens'] ?? 0;
    t.cacheRead += u['cache_read_input_tokens'] ?? 0;
    t.cacheWrite += u['cache_creation_input_tokens'] ?? 0;
    t.output += u['output_tokens'] ?? 0;
  }
  return t;
}
