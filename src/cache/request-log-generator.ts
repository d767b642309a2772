// A synthetic request log for cache-prefix checks and the benchmark.
import type { CallContext } from '../analysis/context-types';
import type { Item } from '../model/types';
import { asst, call, calls, summary, sys, user } from './test-builders';

// A request log as a proxy writes it: 500 calls whose prompts grow from ~10k to ~110k tokens (60k on
// average), one 200-token turn per call, with a recap regenerated every 50 calls. Every call is
// parsed from its own JSON line, so no two calls share item objects or strings.
export function requestLog(callCount = 500): CallContext[] {
  const para = (tag: string, n: number) => Array.from({ length: n }, (_, i) => `${tag}w${i % 97}`).join(' ');
  const system = sys('system', para('sys', 2000));
  const turns: Item[] = Array.from({ length: 540 }, (_, i) => (i % 2 ? asst : user)(`t${i}`, para(`t${i}`, 200)));
  const lines: string[] = [];
  for (let c = 0; c < callCount; c++) {
    const recap = summary('recap', `## Conversation Summary\n${para(`recap${Math.floor(c / 50)}`, 200)}`);
    lines.push(JSON.stringify([system, recap, ...turns.slice(0, 39 + c)]));
  }
  return calls(...lines.map((l) => call(JSON.parse(l) as Item[])));
}

