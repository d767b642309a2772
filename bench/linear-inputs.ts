// Inputs that once took minutes because a pass rescanned them (a walk to the root per record, a pattern retried at
// every position): each is timed at a tenth of its size and at its size in one run, in CPU time, and the time per
// unit at full size must stay within 1.5× of the time per unit at a tenth. These were wall-clock budgets in unit
// tests (claude-code-tree, redact, identifiers); the tests now hold the behaviour, the budgets live here.
import { abandonedLines, type TreeRecord } from '../src/formats/claude-code-tree';
import { extractIdentifiers } from '../src/audit/identifiers';
import { redactSecrets } from '../src/share/redact';

export interface LinearRow {
  name: string;
  /** Size of the small and the full input (records or characters). */
  small: number;
  full: number;
  smallMs: number;
  fullMs: number;
  /** Time per unit at full size over time per unit at the small size. */
  growth: number;
  ok: boolean;
}

const GROWTH_BUDGET = 1.5;

function cpuMs(f: () => void): number {
  const t = process.cpuUsage();
  f();
  const u = process.cpuUsage(t);
  return (u.user + u.system) / 1000;
}

/** Best of three passes, after one to warm the JIT. */
function best(f: () => void): number {
  f();
  return Math.min(cpuMs(f), cpuMs(f), cpuMs(f));
}

function chain(n: number): TreeRecord[] {
  const records: TreeRecord[] = [];
  for (let i = 0; i < n; i++) records.push({ line: i + 1, value: { type: i % 2 ? 'assistant' : 'user', uuid: `u${i}`, parentUuid: i ? `u${i - 1}` : null, message: { id: `m${i}`, content: [] } } });
  return records;
}

const base64 = (bytes: number) => Buffer.from(new Uint8Array(bytes).map((_, i) => (i * 7919) & 255)).toString('base64');

/** The pathological runs of identifiers.test.ts, scaled: spaces, path characters, labels and digits. */
const identifierRuns = (k: number) => [' '.repeat(100_000 * k) + 'in 2023', 'a@'.repeat(50_000 * k), 'port' + ' '.repeat(50_000 * k) + 'x', 'host' + ' '.repeat(50_000 * k) + 'x', 'ab/'.repeat(40_000 * k), '1'.repeat(100_000 * k)];

function row(name: string, small: number, full: number, at: (size: number) => () => void): LinearRow {
  const smallMs = best(at(small));
  const fullMs = best(at(full));
  // A floor of 1 ms on the small run keeps timer grain from reading as growth.
  const growth = fullMs / full / (Math.max(smallMs, 1) / small);
  return { name, small, full, smallMs, fullMs, growth, ok: growth <= GROWTH_BUDGET };
}

export function benchLinearInputs(): LinearRow[] {
  return [
    row('claude-code-tree: abandonedLines on a record chain', 10_000, 100_000, (n) => {
      const records = chain(n);
      return () => void abandonedLines(records);
    }),
    row('redactSecrets on a base64 blob (bytes)', 300_000, 3_000_000, (n) => {
      const blob = base64(n);
      return () => void redactSecrets(blob);
    }),
    row('extractIdentifiers on pathological runs (×k)', 1, 10, (k) => {
      const inputs = identifierRuns(k / 10);
      return () => inputs.forEach((t) => extractIdentifiers(t));
    }),
  ];
}

export function printLinearRows(rows: readonly LinearRow[]): void {
  console.log(`\n## Linear on pathological inputs (CPU time, best of 3; time per unit at full size ≤ ${GROWTH_BUDGET}× that at a tenth)`);
  for (const r of rows) console.log(`  ${r.name}: ${r.small.toLocaleString('en')} → ${r.full.toLocaleString('en')}: ${r.smallMs.toFixed(1)} → ${r.fullMs.toFixed(1)} ms, ${r.growth.toFixed(2)}× per unit: ${r.ok ? 'ok' : 'MISSED'}`);
}
