// One trajectory per line in every single-document format the app reads, from the project's own format fixtures
// (see src/formats/__fixtures__/README.md): the corpus of the per-line tests and of the Dask test.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const F = join(import.meta.dirname, '../formats/__fixtures__');
const json = (f: string): unknown => JSON.parse(readFileSync(join(F, f), 'utf8'));

/** Each line's value, and the format the registry must find on it. */
export function mixedFormatLines(): { format: string; value: unknown }[] {
  const tau = json('tau-bench-airline.json') as unknown[];
  const sdkEvents = readFileSync(join(F, 'openhands-sdk-events.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as unknown);
  return [
    { format: 'openai-chat', value: json('openai-chat-course.json') },
    { format: 'openai-responses', value: json('openai-responses-request.json') },
    { format: 'anthropic', value: json('anthropic-request.json') },
    { format: 'atif', value: json('atif-terminus-summarization.json') },
    { format: 'mini-swe-agent', value: json('mini-swe-agent-division.traj.json') },
    { format: 'swe-agent', value: json('swe-agent-division.traj') },
    // tau-bench writes a list of results: one-element lists per line, and bare results per line.
    { format: 'tau-bench', value: [tau[0]] },
    { format: 'tau-bench', value: tau[1] },
    { format: 'openhands-sdk', value: sdkEvents },
    { format: 'inspect', value: (json('inspect-compaction.json') as { samples: unknown[] }).samples[0] },
    { format: 'openhands', value: json('openhands-condensation.json') },
    { format: 'self-sum', value: json('self-sum-sciworld.json') },
    { format: 'sharegpt', value: json('sharegpt-agentgym.json') },
  ];
}
