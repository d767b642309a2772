// The billed responses a session's timeline leaves out (Session.offBranch), summed: what the header's line about
// them, the CLI and corpus rows say, and what session-cost.ts prices.
import type { OffBranchResponse } from '../model/types';
import { promptTokens, uncachedTokens } from '../model/usage';

export interface OffBranchFacts {
  /** Responses on abandoned branches, each counted once. */
  responses: number;
  /** Reported usage summed over them; `input` is the uncached rest of the prompt, whatever the harness's convention. */
  input: number;
  cacheRead: number;
  cacheWrite: number;
  output: number;
  /** Their whole prompts: input, cache reads and cache writes. */
  prompt: number;
  /** The models they ran on, with their number of responses, in order of first use. */
  models: { model: string; responses: number }[];
}

export function offBranchFacts(responses: readonly OffBranchResponse[] | undefined): OffBranchFacts | null {
  if (!responses || responses.length === 0) return null;
  const f: OffBranchFacts = { responses: responses.length, input: 0, cacheRead: 0, cacheWrite: 0, output: 0, prompt: 0, models: [] };
  const models = new Map<string, number>();
  for (const r of responses) {
    const u = r.usage;
    f.input += uncachedTokens(u) ?? 0;
    f.cacheRead += u.cacheRead ?? 0;
    f.cacheWrite += u.cacheWrite ?? 0;
    f.output += u.output ?? 0;
    f.prompt += promptTokens(u) ?? 0;
    if (r.model) models.set(r.model, (models.get(r.model) ?? 0) + 1);
  }
  f.models = [...models].map(([model, n]) => ({ model, responses: n }));
  return f;
}
