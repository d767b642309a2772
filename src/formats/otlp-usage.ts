// Usage on an LLM span. Both conventions count the cache inside the prompt:
//  - GenAI semantic conventions: `gen_ai.usage.input_tokens` "SHOULD include all types of input tokens, including
//    cached tokens"; `gen_ai.usage.cache_read.input_tokens` and `gen_ai.usage.cache_creation.input_tokens` are parts
//    of it (`cache_write` in the newer registry; OpenLLMetry's `cache_read_input_tokens` / `cache_creation_input_tokens`;
//    `prompt_tokens` / `completion_tokens` before v1.27). OpenLLMetry's Anthropic instrumentation adds the cache to
//    the API's input_tokens before writing it (its prompt-caching test: 4 uncached + 1163 written → 1167).
//  - OpenInference: `llm.token_count.prompt` is input + cache read + cache write (its Anthropic instrumentation sums
//    them); `llm.token_count.prompt_details.cache_read` / `cache_write` are parts of it.
// Not every emitter follows the convention (Strands wrote the uncached rest as `input_tokens`), so the span's own
// arithmetic decides where it can: with a total, the prompt is total − output; and a prompt smaller than its own
// cache parts cannot contain them.
import type { Usage } from '../model/types';
import { firstNum, type Attributes } from './otlp-spans';

const INPUT = ['gen_ai.usage.input_tokens', 'gen_ai.usage.prompt_tokens', 'llm.token_count.prompt'];
const OUTPUT = ['gen_ai.usage.output_tokens', 'gen_ai.usage.completion_tokens', 'llm.token_count.completion'];
const READ = [
  'gen_ai.usage.cache_read.input_tokens',
  'gen_ai.usage.cache_read_input_tokens',
  'gen_ai.usage.input_tokens.cached',
  'gen_ai.usage.details.cache_read_tokens',
  'llm.token_count.prompt_details.cache_read',
];
const WRITE = [
  'gen_ai.usage.cache_creation.input_tokens',
  'gen_ai.usage.cache_write.input_tokens',
  'gen_ai.usage.cache_creation_input_tokens',
  'gen_ai.usage.cache_write_input_tokens',
  'gen_ai.usage.input_tokens.cache_write',
  'gen_ai.usage.details.cache_write_tokens',
  'llm.token_count.prompt_details.cache_write',
];
const TOTAL = ['gen_ai.usage.total_tokens', 'llm.usage.total_tokens', 'llm.token_count.total'];

/** Our own export's split of cache writes by lifetime (the TTL the cache analysis reads). */
export const CACHE_WRITE_5M = 'compaction_inspector.usage.cache_creation.ephemeral_5m_input_tokens';
export const CACHE_WRITE_1H = 'compaction_inspector.usage.cache_creation.ephemeral_1h_input_tokens';

/** Whether the span's input count holds its cache parts, by its own figures where they tell, else by the convention. */
function includesCache(input: number, output: number | null, read: number, write: number, total: number | null): boolean {
  if (total !== null && output !== null) {
    const prompt = total - output;
    if (prompt === input) return true;
    if (read + write > 0 && prompt === input + read + write) return false;
  }
  return read + write <= input;
}

export function spanUsage(attrs: Attributes): Usage | null {
  const input = firstNum(attrs, INPUT);
  const output = firstNum(attrs, OUTPUT);
  if (input === null && output === null) return null;
  const cacheRead = firstNum(attrs, READ);
  const cacheWrite = firstNum(attrs, WRITE);
  const usage: Usage = { input, output, cacheRead, cacheWrite };
  if (input !== null) usage.inputIncludesCache = includesCache(input, output, cacheRead ?? 0, cacheWrite ?? 0, firstNum(attrs, TOTAL));
  const w5 = firstNum(attrs, [CACHE_WRITE_5M]);
  const w1 = firstNum(attrs, [CACHE_WRITE_1H]);
  if (w5 !== null) usage.cacheWrite5m = w5;
  if (w1 !== null) usage.cacheWrite1h = w1;
  return usage;
}
