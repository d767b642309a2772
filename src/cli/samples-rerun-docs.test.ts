// docs/rerun.md tables what `rerun --policies` gives on the shared samples; the table must be what the command prints
// now, not a copy that drifts as the audit's rules, the summarizer and the presets change.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { describeSamples, SAMPLES_DIR } from '../test/shared-samples';
import { run, type CliIo } from './main';

const POLICIES = 'claude-code,codex,openhands,inspect,anthropic-server,observation-masking';
const doc = readFileSync(new URL('../../docs/rerun.md', import.meta.url), 'utf8');
const sample = (name: string) => fileURLToPath(new URL(name, SAMPLES_DIR));

interface Row { id: string; baseline: boolean; compactions: number; compactionCalls: number[]; peakTokens: number; totalInputTokens: number; totalUsd: number; lostNeeded: number; lostRefetched: number }

async function rows(files: string[]): Promise<Row[]> {
  const out: string[] = [];
  const io: CliIo = { out: (t) => out.push(t), err: () => {}, readFile: (p) => new Uint8Array(readFileSync(p)), listDir: () => [], isDir: () => false, exists: (p) => existsSync(p) };
  await run(['rerun', ...files, '--policies', POLICIES, '--json'], io);
  return (JSON.parse(out.join('\n')) as { sessions: { rows: Row[] }[] }).sessions[0]!.rows;
}

const n = (v: number) => Math.round(v).toLocaleString('en-US');
const usd = (v: number) => `$${v.toFixed(2)}`;

describeSamples('docs/rerun.md on the shared samples', () => {
  it('states each policy\'s row as rerun --policies gives it', async () => {
    const claude = await rows([sample('claude-code-compacted.jsonl'), sample('claude-code-compacted.agent-acompact.jsonl')]);
    const codex = await rows([sample('codex-rollout-cache.jsonl')]);
    const table = doc.slice(doc.indexOf('What the table says on the shared samples'));
    for (const c of claude) {
      const x = codex.find((r) => r.id === c.id)!;
      const name = c.baseline ? 'recorded run' : `\`${c.id}\``;
      const fired = c.compactions === 1 ? `1 (call ${c.compactionCalls[0]})` : String(c.compactions);
      expect(table).toContain(`| ${name} | ${fired} | ${n(c.peakTokens)} | ${n(c.totalInputTokens)} | ${usd(c.totalUsd)} | ${c.lostNeeded} | ${c.lostRefetched} | ${n(x.totalInputTokens)} | ${usd(x.totalUsd)} |`);
    }
  }, 180_000);
});
