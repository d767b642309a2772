// Responses on branches the conversation left: sent and billed, in no later call's context. The fixture
// (__fixtures__/claude-code-off-branch.jsonl, Claude Code 2.1.32) joins two real shapes: terrylica/claude-config's
// 03ecb450-….jsonl (1.0.53), a prompt whose Task call the user interrupted, then the prompt written again under the
// same parent, the first response's two records (thinking, tool use) sharing a message id; and sam-fakhreddine/wfc's
// Entire checkpoint 98/10adea4e2a/3 (2.1.32), a response cut off after its thinking, then the session resumed: a
// `<synthetic>` "No response requested." under the same parent, and the conversation going on from it.
// The test reads the file's usage the plain way too, with no tree, and compares.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyzeSession } from '../analysis/analyze-session';
import { loadText } from '../load/loader';
import { plainBilled } from '../test/plain-usage';

const file = readFileSync(join(import.meta.dirname, '__fixtures__', 'claude-code-off-branch.jsonl'), 'utf8');
const count = (t: string) => Math.ceil(t.length / 4);

describe('claudeCode.parse on a file with abandoned branches', () => {
  const s = loadText('claude-code-off-branch.jsonl', file).sessions[0]!;

  it('keeps the usage of the responses on abandoned branches, once per message id, out of the timeline', () => {
    expect(s.offBranch?.map((r) => [r.id, r.source.line])).toEqual([
      ['msg_01SyncTask0000000000003', 7],
      ['msg_01SyncCut00000000000004', 12],
    ]);
    // The last part's usage: the interrupted Task call's full output.
    expect(s.offBranch?.[0]?.usage).toMatchObject({ input: 10, cacheRead: 18026, cacheWrite: 906, output: 318 });
    const timeline = new Set(s.responses.map((r) => r.id));
    expect(s.offBranch?.some((r) => timeline.has(r.id))).toBe(false);
    expect(s.items.some((it) => it.source.line === 7 || it.source.line === 12)).toBe(false);
  });

  it("adds up, kept and off-branch, to the file's usage read the plain way", () => {
    const plain = plainBilled(file);
    const f = analyzeSession(s, { count }).facts;
    expect(f.calls).toBe(4);
    expect(f.offBranch).toMatchObject({ responses: 2, models: [{ model: 'claude-sonnet-4-5-20250929', responses: 2 }] });
    const kept = (k: 'input' | 'cacheRead' | 'cacheWrite' | 'output') => s.responses.reduce((n, r) => n + (r.usage?.[k] ?? 0), 0);
    expect({
      responses: f.calls + f.offBranch!.responses,
      input: kept('input') + f.offBranch!.input,
      cacheRead: kept('cacheRead') + f.offBranch!.cacheRead,
      cacheWrite: kept('cacheWrite') + f.offBranch!.cacheWrite,
      output: kept('output') + f.offBranch!.output,
    }).toEqual(plain);
    expect(f.offBranch!.prompt).toBe(f.offBranch!.input + f.offBranch!.cacheRead + f.offBranch!.cacheWrite);
  });

  it('prices them as a part of the session cost of their own', () => {
    const cost = analyzeSession(s, { count }).facts.cost;
    // Sonnet 4.5: input $3, 1-hour writes $6, reads $0.30, output $15 per million.
    const price = (i: number, w: number, r: number, o: number) => (i * 3 + w * 6 + r * 0.3 + o * 15) / 1e6;
    expect(cost.offBranch).toEqual({ responses: 2, priced: 2, usd: expect.closeTo(price(10, 906, 18026, 318) + price(8, 733, 18026, 6), 6) });
    expect(cost.usd).toBeCloseTo(cost.calls.usd! + cost.offBranch!.usd!, 6);
    expect(cost.unpriced).toBe(0);
  });
});
