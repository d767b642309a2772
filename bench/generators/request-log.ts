// (b) A request log of an agent on the OpenAI Chat Completions API, one `{request, response}` record per
// line, as a logging proxy writes it (see src/formats/request-log.ts and its fixture request-log-chat.jsonl).
//
// Prefix sharing as a real agent loop has it: every call re-sends the previous call's messages, then the
// previous reply (an assistant message with a tool call) and that tool's result, now and then a user message.
// `compactions` times, evenly spaced, the harness compacts: the next call sends the system prompt, a
// `## Conversation Summary` user message and the last few messages, so the log implies a summarizing
// compaction there. Tool outputs are sized so the calls average `avgTokens` prompt tokens (estimated as
// characters / 4). Each response reports usage with `prompt_tokens_details.cached_tokens` (OpenAI's rule:
// nothing below 1,024, then 128-token steps of the prefix shared with the previous call).
import { random, type Random } from './random';
import { fact, grepOutput, listing, path, prose, shellOutput } from './text';

export interface RequestLogSpec {
  seed: number;
  calls: number;
  /** Average prompt size over the calls, in (estimated) tokens. */
  avgTokens: number;
  compactions: number;
}

export const REQUEST_LOG_BENCH: RequestLogSpec = { seed: 2, calls: 500, avgTokens: 60_000, compactions: 3 };

const MODEL = 'gpt-4.1';
const START = Date.UTC(2026, 2, 3, 9, 0, 0);
/** Messages kept verbatim after the summary when the harness compacts. */
const TAIL = 4;

interface Msg {
  role: string;
  content: string | null;
  tool_calls?: { id: string; type: 'function'; function: { name: string; arguments: string } }[];
  tool_call_id?: string;
}

const TOOLS = [
  { type: 'function', function: { name: 'read_file', description: 'Read a file of the repository.', parameters: { type: 'object', properties: { path: { type: 'string' }, offset: { type: 'integer' } }, required: ['path'] } } },
  { type: 'function', function: { name: 'run', description: 'Run a shell command in the sandbox and return its output.', parameters: { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] } } },
  { type: 'function', function: { name: 'search', description: 'Search the repository for a pattern.', parameters: { type: 'object', properties: { pattern: { type: 'string' }, path: { type: 'string' } }, required: ['pattern'] } } },
];

const tokensOf = (m: Msg) => Math.ceil(((m.content?.length ?? 0) + (m.tool_calls ? JSON.stringify(m.tool_calls).length : 0)) / 4) + 4;

function toolCall(r: Random): { name: string; args: Record<string, unknown> } {
  const name = r.pick(['read_file', 'run', 'search']);
  if (name === 'read_file') return { name, args: { path: path(r) } };
  if (name === 'run') return { name, args: { command: r.pick(['npm test', 'pytest -q', 'make lint', 'git diff --stat', 'tail -100 logs/worker.log']) } };
  return { name, args: { pattern: r.pick(['pool_size', 'retry', 'TODO', 'timeout']), path: r.pick(['src', 'lib', 'config']) } };
}

function output(r: Random, name: string, chars: number): string {
  if (name === 'read_file') return listing(r, Math.max(1, Math.round(chars / 62)));
  if (name === 'run') return shellOutput(r, Math.max(1, Math.round(chars / 70)));
  return grepOutput(r, Math.max(1, Math.round(chars / 75)));
}

/** Common-prefix tokens of two calls' messages (a message re-sent is the same object here). */
function sharedPrefix(a: Msg[], b: Msg[]): number {
  let n = 0;
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    if (a[i] !== b[i]) break;
    n += tokensOf(a[i]!);
  }
  return n;
}

/** The file's lines, in order. */
export function* requestLogLines(spec: RequestLogSpec): Generator<string> {
  const r = random(spec.seed);
  const sessionId = `sess-${r.hex(12)}`;
  const system: Msg = { role: 'system', content: `You are a coding agent working in a repository. ${prose(r, 8000)}` };
  let messages: Msg[] = [system, { role: 'user', content: prose(r, r.int(200, 800)) }];
  const segment = spec.calls / (spec.compactions + 1);
  const marks = new Set(Array.from({ length: spec.compactions }, (_, k) => Math.round(segment * (k + 1))));
  let prev: Msg[] = [];
  let time = START;
  let growth = 0;
  for (let c = 0; c < spec.calls; c++) {
    if (marks.has(c)) {
      // The harness summarizes everything but the system prompt and the tail.
      const tail = messages.slice(-TAIL);
      while (tail.length && tail[0]!.role === 'tool') tail.shift();
      const facts = Array.from({ length: 10 }, () => fact(r)).join(', ');
      const summary = `## Conversation Summary\n- **Decisions:** ${prose(r, 500)}\n- **Entities:** ${facts}\n- **Facts:** ${prose(r, 900)}\n- **Open Items:** ${prose(r, 300)}`;
      messages = [system, { role: 'user', content: summary }, ...tail];
    }
    const tokens = messages.reduce((n, m) => n + tokensOf(m), 0);
    if (c === 0 || marks.has(c)) {
      // Grow linearly through the segment so its calls average the target size.
      const len = Math.max(1, Math.round(segment));
      growth = Math.max(200, (2 * (spec.avgTokens - tokens)) / len);
    }
    const call = toolCall(r);
    const callId = `call_${r.base62(24)}`;
    const say = r.chance(0.6) ? prose(r, r.int(60, 500)) : null;
    const reply: Msg = { role: 'assistant', content: say, tool_calls: [{ id: callId, type: 'function', function: { name: call.name, arguments: JSON.stringify(call.args) } }] };
    const shared = c === 0 ? 0 : sharedPrefix(prev, messages);
    const cached = shared < 1024 ? 0 : Math.floor(shared / 128) * 128;
    time += r.int(2000, 40_000);
    const record = {
      timestamp: new Date(time).toISOString(),
      request_id: `req_${c + 1}`,
      metadata: { session_id: sessionId },
      request: { model: MODEL, messages, tools: TOOLS, temperature: 0 },
      response: {
        id: `chatcmpl-${r.base62(29)}`,
        object: 'chat.completion',
        created: Math.floor(time / 1000),
        model: `${MODEL}-2025-04-14`,
        choices: [{ index: 0, message: reply, finish_reason: 'tool_calls' }],
        usage: { prompt_tokens: tokens + TOOLS.length * 60, completion_tokens: tokensOf(reply), total_tokens: tokens + tokensOf(reply), prompt_tokens_details: { cached_tokens: Math.min(cached, tokens) } },
      },
    };
    yield JSON.stringify(record);
    prev = messages;
    // The next call re-sends everything, plus the reply and the tool's result (and sometimes the user).
    const size = Math.max(40, Math.round((growth - tokensOf(reply)) * 4 * (0.3 + 1.4 * r.next())));
    messages = [...messages, reply, { role: 'tool', tool_call_id: callId, content: output(r, call.name, size) }];
    if (r.chance(0.08)) messages.push({ role: 'user', content: prose(r, r.int(40, 400)) });
  }
}

export function requestLog(spec: RequestLogSpec): string {
  let text = '';
  for (const line of requestLogLines(spec)) text += `${line}\n`;
  return text;
}
