// The responses Claude Code wrote on branches the conversation left (claude-code-tree.ts): sent and billed, though
// no later call saw them. Only their reported usage is kept, once per response, for the session's cost.
import { anthropicUsage } from './anthropic';
import { get, obj, str, type JsonObject } from '../model/narrow';
import type { OffBranchResponse } from '../model/types';

export class OffBranchResponses {
  private readonly byId = new Map<string, OffBranchResponse>();

  constructor(private readonly file: string) {}

  /** An assistant record on an abandoned branch. */
  add(v: JsonObject, line: number): void {
    // A subagent's records are its sidechain's calls, not this conversation's.
    if (get(v, 'isSidechain') === true) return;
    const message = obj(v, 'message');
    // Claude Code's own replies (`<synthetic>`: "No response requested.", API errors) reach no model.
    if (!message || get(message, 'model') === '<synthetic>') return;
    const usage = anthropicUsage(get(message, 'usage'));
    if (!usage) return;
    // One response is split over records sharing message.id; the last part has the final output count.
    const id = str(message, 'id') ?? str(v, 'uuid') ?? `L${line}`;
    const known = this.byId.get(id);
    if (known) {
      known.usage = usage;
      return;
    }
    const response: OffBranchResponse = { id, model: str(message, 'model') ?? null, usage, source: { file: this.file, line } };
    const ts = str(v, 'timestamp');
    if (ts) response.timestamp = ts;
    this.byId.set(id, response);
  }

  /** The responses, in file order, less those the kept conversation holds (a part of a kept response left aside). */
  notIn(kept: ReadonlyMap<string, unknown>): OffBranchResponse[] {
    return [...this.byId.values()].filter((r) => !kept.has(r.id));
  }
}
