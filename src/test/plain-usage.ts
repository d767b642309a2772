// A Claude Code session's usage read the plain way, with no tree and none of the adapter's code: the cross-check the
// loader's tests and bench/usage-cross-check.ts compare the engine's responses with.

type Usage = Record<string, number>;

/** One response as its records state it: message id (else the record's uuid), first line, the last part's usage. */
export interface PlainResponse {
  id: string;
  line: number;
  usage: Usage;
  model: string | undefined;
  sidechain: boolean;
}

/** Every assistant record with usage, once per response (Claude Code splits one over records sharing its id), in file order. */
export function plainResponses(text: string): PlainResponse[] {
  const seen = new Map<string, PlainResponse>();
  text.split('\n').forEach((line, i) => {
    if (!line.includes('"usage"')) return;
    let r: { type?: string; uuid?: string; isSidechain?: boolean; message?: { id?: string; model?: string; usage?: Usage } };
    try {
      r = JSON.parse(line);
    } catch {
      return;
    }
    const m = r.message;
    const id = m?.id ?? r.uuid;
    if (r.type !== 'assistant' || !id || !m?.usage) return;
    seen.set(id, { id, line: seen.get(id)?.line ?? i + 1, usage: m.usage, model: m.model, sidechain: r.isSidechain === true });
  });
  return [...seen.values()];
}

/** A response's whole prompt: input + cache read + cache write. */
export const plainPrompt = (u: Usage): number => (u['input_tokens'] ?? 0) + (u['cache_read_input_tokens'] ?? 0) + (u['cache_creation_input_tokens'] ?? 0);

/** Every assistant record's whole prompt, once per response, in file order. */
export function plainPrompts(text: string): number[] {
  return plainResponses(text).map((r) => plainPrompt(r.usage));
}

/** A usage of zeros throughout (a proxy that passes none on writes it) measured no call: no call reads an empty prompt. */
const measuresNothing = (u: Usage): boolean => Object.values(u).every((v) => typeof v !== 'number' || v === 0);

/**
 * What was sent and billed: Claude Code's `<synthetic>` replies, subagents' sidechain records and usages of zeros
 * left out.
 */
export function billedResponses(text: string): PlainResponse[] {
  return plainResponses(text).filter((r) => !r.sidechain && r.model !== '<synthetic>' && !measuresNothing(r.usage));
}

export interface PlainTotals {
  responses: number;
  input: number;
  cacheRead: number;
  cacheWrite: number;
  output: number;
}

/** Every billed response's usage summed: what a billing view (ccusage) adds up. */
export function plainBilled(text: string): PlainTotals {
  const billed = billedResponses(text);
  const t: PlainTotals = { responses: billed.length, input: 0, cacheRead: 0, cacheWrite: 0, output: 0 };
  for (const { usage: u } of billed) {
    t.input += u['input_tokens'] ?? 0;
    t.cacheRead += u['cache_read_input_tokens'] ?? 0;
    t.cacheWrite += u['cache_creation_input_tokens'] ?? 0;
    t.output += u['output_tokens'] ?? 0;
  }
  return t;
}
