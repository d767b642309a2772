// (a) A Claude Code session JSONL of a given size: exactly `records` lines, about `bytes` bytes, `compactions`
// auto-compactions (a `compact_boundary` system record followed by an `isCompactSummary` user record).
//
// Shapes follow what Claude Code 2.1 writes (see src/formats/__fixtures__/claude-code-session.jsonl):
// one API response split over several `assistant` records sharing `message.id` (thinking, text, tool_use),
// each carrying the same `usage` with cache fields; tool results as `user` records whose structured copy in
// `toolUseResult` repeats the output (a Read's whole file, an Edit's `originalFile`); and the noise that makes
// up much of a real file: `progress` records (hooks, `bash_progress` with the growing `fullOutput`),
// `file-history-snapshot`, `system` `stop_hook_summary` / `turn_duration`. The chain is linear, as in a
// session without edits or retries, so nothing lands on an abandoned branch.
import { random, type Random } from './random';
import { fact, grepOutput, ident, listing, path, prose, sentence, shellOutput, source, vocabulary } from './text';

export interface ClaudeCodeSpec {
  seed: number;
  /** Lines in the file, exactly. */
  records: number;
  /** Approximate size in bytes (UTF-8); tool outputs are sized to reach it. */
  bytes: number;
  /** Auto-compactions, spread evenly over the records. */
  compactions: number;
  /**
   * How the shared sample's sessions look, where they differ from the defaults (sized for the 100 MB bench file):
   * `hook_progress` records per hook event (one per configured hook; the sample has ~5.7 per tool use), the share
   * of calls with thinking and with text, a project's fixed files and names instead of fresh ones, and a summary
   * of about `summaryChars` in Claude Code's numbered sections (besides the quoted messages below), naming files
   * and names the session used. With `quotesUsers`, the session opens with a request ("Work on …. Run … to …") and
   * the summary's "All user messages" section quotes every user message whole, then ends with Claude Code's
   * continuation line, as the sample's does. With `realSizes`, tools are drawn in the sample's mix and each
   * output's size from its tool's own heavy-tailed spread (see REAL_TOOLS), scaled together to the file's size.
   */
  shape?: { hooksPerEvent: number; thinking: number; text: number; paths: number; idents: number; summaryChars: number; quotesUsers: boolean; realSizes?: boolean };
}

export const CLAUDE_CODE_BENCH: ClaudeCodeSpec = { seed: 1, records: 20_000, bytes: 100_000_000, compactions: 3 };
/**
 * A typical real session, shaped like the shared 3 MB sample (claude-code-compacted.jsonl: 1,512 records, 139 model
 * calls, 150 tool uses, 852 hook_progress records, 112 distinct paths and 214 function names, a 15.7 KB summary):
 * about 1,500 records, 150 calls, one compaction.
 */
export const CLAUDE_CODE_TYPICAL: ClaudeCodeSpec = {
  seed: 3,
  records: 1_500,
  bytes: 3_000_000,
  compactions: 1,
  shape: { hooksPerEvent: 3, thinking: 0.1, text: 0.6, paths: 110, idents: 210, summaryChars: 12_500, quotesUsers: true },
};

/**
 * A long session of realistic shape (issue 33): 30k records, 25 MB, ~9k model calls, no compaction, no hooks
 * configured, tools in the real mix with outputs of their real spreads (REAL_TOOLS), one project's files and names.
 */
export const CLAUDE_CODE_LONG: ClaudeCodeSpec = {
  seed: 33,
  records: 30_000,
  bytes: 25_000_000,
  compactions: 0,
  shape: { hooksPerEvent: 0, thinking: 0.1, text: 0.5, paths: 300, idents: 600, summaryChars: 0, quotesUsers: true, realSizes: true },
};

/**
 * The tools of the shared sample's 150 tool uses (claude-code-compacted.jsonl) with the size of what each returns:
 * its share of uses, its median size relative to Bash's (Bash 226 characters, Grep 137, Read 5,101; an Edit
 * returns one line and Claude Code keeps the whole file in `originalFile`, median ~25 KB; a Write's file is in its
 * input, median 2,253), and the spread of sizes around it (σ of log size, from the sample's mean over median:
 * Bash 3.4×, Read 1.8×, Grep 4.4×, Write 2.9×). The sample's sessions are short; a 25 MB file of ~9k calls
 * keeps these ratios and spreads at a smaller scale (the generator fits the scale to the file's size).
 */
const REAL_TOOLS = [
  { kind: 'bash', share: 0.45, median: 1, sigma: 1.56 },
  { kind: 'read', share: 0.21, median: 22.6, sigma: 1.1 },
  { kind: 'edit', share: 0.21, median: 22.6, sigma: 1.1 },
  { kind: 'grep', share: 0.08, median: 0.6, sigma: 1.72 },
  { kind: 'write', share: 0.05, median: 10, sigma: 1.45 },
] as const;
type ToolKind = (typeof REAL_TOOLS)[number]['kind'];
/** The mix's mean size in units of Bash's median: sizes are drawn over it, so their mean is the step's budget. */
const REAL_MEAN = REAL_TOOLS.reduce((n, t) => n + t.share * t.median * Math.exp((t.sigma * t.sigma) / 2), 0);

/** A tool in the real mix and its output's size, around `budget` on average. */
function realTool(r: Random, budget: number): { kind: ToolKind; size: number } {
  let u = r.next();
  const tool = REAL_TOOLS.find((t) => (u -= t.share) < 0) ?? REAL_TOOLS[0];
  // A standard normal from two uniforms (Box–Muller), then the tool's log-normal size.
  const z = Math.sqrt(-2 * Math.log(1 - r.next())) * Math.cos(2 * Math.PI * r.next());
  return { kind: tool.kind, size: Math.max(8, Math.round((budget * tool.median * Math.exp(tool.sigma * z)) / REAL_MEAN)) };
}

const SESSION_START = Date.UTC(2026, 1, 12, 16, 0, 0);
const MODEL = 'claude-opus-4-6';
/** System prompt and tool schemas Claude Code sends but never writes to the file, in tokens. */
const UNRECORDED_PREFIX = 14_000;

type Rec = Record<string, unknown>;

interface State {
  r: Random;
  spec: ClaudeCodeSpec;
  sessionId: string;
  cwd: string;
  branch: string;
  time: number;
  parent: string | null;
  msg: number;
  tool: number;
  /** Tokens the model had in context (estimated as characters / 4 of what it was sent). */
  context: number;
  written: number;
  bytes: number;
  /** Running averages that size the next tool output so the file ends near `spec.bytes`. */
  steps: number;
  stepRecords: number;
  overhead: number;
  dup: number;
  /** The user's messages so far, for a summary that quotes them (`shape.quotesUsers`). */
  prompts: string[];
}

function envelope(s: State, type: string, extra: Rec): Rec {
  s.time += s.r.int(150, 9000);
  return {
    parentUuid: s.parent,
    isSidechain: false,
    userType: 'external',
    cwd: s.cwd,
    sessionId: s.sessionId,
    version: '2.1.39',
    gitBranch: s.branch,
    type,
    ...extra,
    uuid: s.r.uuid(),
    timestamp: new Date(s.time).toISOString(),
  };
}

const chars = (n: number) => Math.ceil(n / 4);

function usage(s: State, added: number, output: number): Rec {
  const read = s.context;
  s.context += added;
  return {
    input_tokens: s.r.int(1, 8),
    cache_creation_input_tokens: added,
    cache_read_input_tokens: read,
    cache_creation: { ephemeral_5m_input_tokens: added, ephemeral_1h_input_tokens: 0 },
    output_tokens: output,
    service_tier: 'standard',
  };
}

interface ToolRun {
  name: string;
  input: Rec;
  /** What the model sees. */
  content: string;
  /** Claude Code's structured copy of the result. */
  result: Rec;
  /** `bash_progress` updates while the command ran. */
  progress: string[];
}

function toolRun(s: State, size: number, real?: ToolKind): ToolRun {
  const r = s.r;
  const lines = (per: number) => Math.max(1, Math.round(size / per));
  if (real === 'write') {
    const file = `${s.cwd}/${path(r)}`;
    const content = source(r, lines(55));
    return { name: 'Write', input: { file_path: file, content }, content: `File created successfully at: ${file}`, result: { type: 'create', filePath: file, content, structuredPatch: [] }, progress: [] };
  }
  // The real mix picks the tool; otherwise one draw does, with these bounds.
  const kind = real === undefined ? r.next() : { read: 0, bash: 0.35, grep: 0.65, edit: 0.8 }[real];
  if (kind < 0.35) {
    const file = `${s.cwd}/${path(r)}`;
    const n = lines(62);
    const start = r.chance(0.7) ? 1 : r.int(1, 800);
    const content = listing(r, n, start);
    const raw = content.replace(/^ *\d+→/gm, '');
    return { name: 'Read', input: { file_path: file }, content, result: { type: 'text', file: { filePath: file, content: raw, numLines: n, startLine: start, totalLines: start + n + r.int(0, 300) } }, progress: [] };
  }
  if (kind < 0.65) {
    const command = r.pick(['npm test', 'pytest -q', 'go test ./...', 'mix test', 'cargo build', 'ls -la src', 'git log --oneline -20', 'tail -200 /var/log/nightly.log']);
    const out = shellOutput(r, lines(70));
    const progress: string[] = [];
    const parts = r.int(0, 3);
    for (let p = 1; p <= parts; p++) progress.push(out.slice(0, Math.floor((out.length * p) / (parts + 1))));
    return { name: 'Bash', input: { command, description: sentence(r).slice(0, 60) }, content: out, result: { stdout: out, stderr: '', interrupted: false, isImage: false, noOutputExpected: false }, progress };
  }
  if (kind < 0.8) {
    const out = grepOutput(r, lines(75));
    const n = out.split('\n').length;
    return { name: 'Grep', input: { pattern: r.pick(['TODO', 'pool_size', 'retry', 'ERROR', 'connect\\(']), path: s.cwd, output_mode: 'content' }, content: out, result: { mode: 'content', numFiles: r.int(1, 40), filenames: [], content: out, numLines: n }, progress: [] };
  }
  const file = `${s.cwd}/${path(r)}`;
  const original = source(r, lines(55));
  const oldString = original.slice(0, r.int(20, 200));
  const newString = `${oldString}\n${source(r, r.int(1, 6))}`;
  return {
    name: 'Edit',
    input: { file_path: file, old_string: oldString, new_string: newString },
    content: `The file ${file} has been updated successfully.`,
    result: { filePath: file, oldString, newString, originalFile: original, structuredPatch: [], userModified: false, replaceAll: false },
    progress: [],
  };
}

/** Emits records, counting lines and bytes. */
function emitter(s: State, out: string[]) {
  return (rec: Rec, chain = true): void => {
    const line = JSON.stringify(rec);
    out.push(line);
    s.written++;
    s.bytes += Buffer.byteLength(line) + 1;
    if (chain && typeof rec['uuid'] === 'string') s.parent = rec['uuid'];
  };
}

function hook(s: State, event: string, toolUseId: string): Rec {
  return envelope(s, 'progress', { data: { type: 'hook_progress', hookEvent: event, hookName: `${event}:${s.r.pick(['Read', 'Bash', 'Grep', 'Edit', 'startup'])}`, command: s.r.pick(['~/.claude/hooks/guard.sh', 'echo ready', 'bun run ./dist/on-tool.js']) }, parentToolUseID: toolUseId, toolUseID: toolUseId });
}

function userPrompt(s: State, emit: ReturnType<typeof emitter>, text: string): void {
  emit({ type: 'file-history-snapshot', messageId: s.r.uuid(), snapshot: { messageId: s.r.uuid(), trackedFileBackups: {}, timestamp: new Date(s.time).toISOString() }, isSnapshotUpdate: false }, false);
  s.context += chars(text.length);
  if (s.spec.shape?.quotesUsers) s.prompts.push(text);
  emit(envelope(s, 'user', { message: { role: 'user', content: text }, thinkingMetadata: { maxThinkingTokens: 31999 }, todos: [], permissionMode: 'default' }));
  const id = `hook-${s.r.uuid()}`;
  emit(hook(s, 'UserPromptSubmit', id), false);
}

/** One model call: thinking?, text?, tool_use records sharing message.id, then hooks, progress and the result. */
function toolStep(s: State, emit: ReturnType<typeof emitter>, toolChars: number, real?: ToolKind): void {
  const r = s.r;
  const msgId = `msg_01${r.base62(22)}`;
  const requestId = `req_011${r.base62(21)}`;
  const toolId = `toolu_01${r.base62(22)}`;
  const run = toolRun(s, toolChars, real);
  const thinking = r.chance(s.spec.shape?.thinking ?? 0.45) ? prose(r, r.int(80, 900)) : null;
  const text = r.chance(s.spec.shape?.text ?? 0.7) ? prose(r, r.int(40, 400)) : null;
  const outTokens = chars((thinking?.length ?? 0) + (text?.length ?? 0) + JSON.stringify(run.input).length);
  const u = usage(s, outTokens + chars(run.content.length), outTokens);
  const message = (content: Rec[]) => ({ model: MODEL, id: msgId, type: 'message', role: 'assistant', content, stop_reason: null, stop_sequence: null, usage: u });
  if (thinking) emit(envelope(s, 'assistant', { message: message([{ type: 'thinking', thinking, signature: r.base62(40) }]), requestId }));
  if (text) emit(envelope(s, 'assistant', { message: message([{ type: 'text', text }]), requestId }));
  emit(envelope(s, 'assistant', { message: message([{ type: 'tool_use', id: toolId, name: run.name, input: run.input }]), requestId }));
  const callRecord = s.parent;
  const sibling = (rec: Rec) => {
    rec['parentUuid'] = callRecord;
    emit(rec, false);
  };
  const hooks = s.spec.shape?.hooksPerEvent ?? 1;
  for (let h = 0; h < hooks; h++) sibling(hook(s, 'PreToolUse', toolId));
  for (const output of run.progress) {
    const lines = output.split('\n');
    sibling(envelope(s, 'progress', { data: { type: 'bash_progress', output: lines.slice(-5).join('\n'), fullOutput: output, elapsedTimeSeconds: r.int(1, 90), totalLines: lines.length }, parentToolUseID: toolId, toolUseID: `bash-progress-${r.int(0, 99)}` }));
  }
  const isError = run.name === 'Bash' && r.chance(0.08);
  const result = envelope(s, 'user', { message: { role: 'user', content: [{ tool_use_id: toolId, type: 'tool_result', content: run.content, ...(isError ? { is_error: true } : {}) }] }, toolUseResult: run.result, sourceToolAssistantUUID: callRecord });
  result['parentUuid'] = callRecord;
  emit(result);
  for (let h = 0; h < hooks; h++) sibling(hook(s, 'PostToolUse', toolId));
  s.parent = result['uuid'] as string;
}

function finalAnswer(s: State, emit: ReturnType<typeof emitter>): void {
  const r = s.r;
  const text = prose(r, r.int(150, 1200));
  const u = usage(s, chars(text.length), chars(text.length));
  emit(envelope(s, 'assistant', { message: { model: MODEL, id: `msg_01${r.base62(22)}`, type: 'message', role: 'assistant', content: [{ type: 'text', text }], stop_reason: 'end_turn', stop_sequence: null, usage: u }, requestId: `req_011${r.base62(21)}` }));
  emit(envelope(s, 'system', { subtype: 'stop_hook_summary', hookCount: 2, hookInfos: [{ command: '~/.claude/hooks/tmux-waiting.sh mark' }, { command: 'bun run ./dist/on-stop.js' }], hookErrors: [], preventedContinuation: false, stopReason: '', hasOutput: true, level: 'suggestion', toolUseID: r.uuid() }));
  emit(envelope(s, 'system', { subtype: 'turn_duration', durationMs: r.int(2000, 400_000), isMeta: false }));
}

function compaction(s: State, emit: ReturnType<typeof emitter>, n: number): void {
  const r = s.r;
  const boundary = envelope(s, 'system', { subtype: 'compact_boundary', content: 'Conversation compacted', isMeta: false, level: 'info', compactMetadata: { trigger: 'auto', preTokens: s.context + UNRECORDED_PREFIX } });
  boundary['logicalParentUuid'] = s.parent;
  boundary['parentUuid'] = null;
  emit(boundary);
  const summaryChars = s.spec.shape?.summaryChars;
  // Drawn for every compaction, used or not, so each spec's file keeps the bytes it was measured with.
  const facts = Array.from({ length: 12 }, () => fact(r));
  const summary = summaryChars ? claudeCodeSummary(r, summaryChars, s.spec.shape?.quotesUsers ? s.prompts : null) : schemaSummary(r, n, facts);
  s.context = chars(summary.length);
  emit(envelope(s, 'user', { message: { role: 'user', content: summary }, isCompactSummary: true, isVisibleInTranscriptOnly: true }));
}

/** A short summary in the course's schema, naming `facts` drawn afresh (the 100 MB file's). */
function schemaSummary(r: Random, n: number, facts: readonly string[]): string {
  return [
    'This session is being continued from a previous conversation that ran out of context. The summary below covers the earlier portion of the conversation.',
    '',
    `## Conversation Summary (compaction ${n})`,
    `- **Decisions:** ${prose(r, 400)}`,
    `- **Entities:** ${facts.slice(0, 6).join(', ')}`,
    `- **Facts:** ${prose(r, 600)} ${facts.slice(6).join('; ')}`,
    `- **Open Items:** ${prose(r, 300)}`,
  ].join('\n');
}

/**
 * A summary as Claude Code writes one (its numbered sections), of about `chars`, naming the project's files and
 * names: a summarizer keeps many of those the evicted turns used, and drops others.
 */
function claudeCodeSummary(r: Random, chars: number, prompts: readonly string[] | null): string {
  const sections = ['Primary Request and Intent', 'Key Technical Concepts', 'Files and Code Sections', 'Errors and fixes', 'Problem Solving', 'All user messages', 'Pending Tasks', 'Current Work', 'Optional Next Step'];
  const per = Math.max(200, Math.floor(chars / sections.length));
  const body = sections.map((title, i) => {
    if (prompts && title === 'All user messages') return `${i + 1}. ${title}:${prompts.map((p) => `\n   - "${p.replace(/\s+/g, ' ')}"`).join('')}`;
    let text = '';
    while (text.length < per) text += r.chance(0.4) ? `\n   - \`${path(r)}\`: ${sentence(r)} \`${ident(r)}()\`` : ` ${sentence(r)}`;
    return `${i + 1}. ${title}:${text}`;
  });
  const summary = ['This session is being continued from a previous conversation that ran out of context. The summary below covers the earlier portion of the conversation.', '', 'Analysis:', prose(r, 400), '', 'Summary:', ...body];
  if (prompts) summary.push('', 'Please continue the conversation from where we left off without asking the user any further questions. Continue with the last task that you were asked to work on.');
  return summary.join('\n');
}

/** A first request as a user writes one: a ticket, a command to run, what to do with it. */
function request(r: Random): string {
  const ticket = `${r.pick(['PAY', 'SRCH', 'ING', 'BILL'])}-${r.int(100, 999)}`;
  return `Work on ${ticket}. Run \`npm test -- ${path(r)}\` to see what fails, then fix it. ${prose(r, r.int(60, 400))}`;
}

/** The file's lines, in order. */
export function* claudeCodeLines(spec: ClaudeCodeSpec): Generator<string> {
  const r = random(spec.seed);
  if (spec.shape) r.vocabulary = vocabulary(r, spec.shape.paths, spec.shape.idents);
  const s: State = {
    r,
    spec,
    sessionId: r.uuid(),
    cwd: `/home/dev/${r.pick(['payments', 'search', 'billing', 'ingest'])}`,
    branch: `fix/${r.pick(['nightly-pool', 'cache-ttl', 'retry-storm'])}`,
    time: SESSION_START,
    parent: null,
    msg: 0,
    tool: 0,
    context: 0,
    written: 0,
    bytes: 0,
    steps: 0,
    stepRecords: 8,
    overhead: 2500,
    dup: 2.2,
    prompts: [],
  };
  const out: string[] = [];
  const emit = emitter(s, out);
  const flush = function* () {
    yield* out;
    out.length = 0;
  };
  // Compaction k happens once the file has passed k/(n+1) of its records.
  const marks = Array.from({ length: spec.compactions }, (_, k) => Math.floor((spec.records * (k + 1)) / (spec.compactions + 1)));
  let done = 0;
  const reserve = 24;

  emit(hook(s, 'SessionStart', `hook-${r.uuid()}`));
  userPrompt(s, emit, spec.shape?.quotesUsers ? request(r) : prose(r, r.int(80, 600)));
  yield* flush();
  let turnSteps = r.int(3, 14);
  while (spec.records - s.written > reserve) {
    if (done < marks.length && s.written >= marks[done]!) {
      compaction(s, emit, ++done);
      userPrompt(s, emit, prose(r, r.int(40, 300)));
      yield* flush();
      continue;
    }
    if (turnSteps-- <= 0) {
      finalAnswer(s, emit);
      userPrompt(s, emit, prose(r, r.int(40, 800)));
      turnSteps = r.int(3, 14);
      yield* flush();
      continue;
    }
    // Size this step's tool output so the rest of the file averages out at the target size.
    const stepsLeft = Math.max(1, (spec.records - s.written - reserve) / s.stepRecords);
    const perStep = Math.max(0, spec.bytes - s.bytes) / stepsLeft;
    const budget = Math.max(60, (perStep - s.overhead) / s.dup);
    const real = spec.shape?.realSizes ? realTool(r, budget) : null;
    const size = real ? real.size : Math.round(budget * (0.1 + 2.7 * r.next() ** 2));
    const before = { written: s.written, bytes: s.bytes };
    toolStep(s, emit, size, real?.kind);
    const recs = s.written - before.written;
    const bytes = s.bytes - before.bytes;
    s.steps++;
    const k = 1 / Math.min(s.steps, 50);
    s.stepRecords += (recs - s.stepRecords) * k;
    // What a step costs besides its output, and how many bytes each output character ends up as.
    const nonTool = Math.min(bytes, 2500);
    s.overhead += (nonTool - s.overhead) * k;
    if (size > 500) s.dup += ((bytes - nonTool) / size - s.dup) * k;
    yield* flush();
  }
  finalAnswer(s, emit);
  yield* flush();
  // Pad to the exact record count with noise that carries no conversation.
  while (s.written < spec.records) {
    if (s.r.chance(0.5)) emit(hook(s, 'Notification', `hook-${r.uuid()}`), false);
    else emit({ type: 'file-history-snapshot', messageId: r.uuid(), snapshot: { messageId: r.uuid(), trackedFileBackups: {}, timestamp: new Date(s.time).toISOString() }, isSnapshotUpdate: true }, false);
  }
  yield* flush();
}

/** The whole file as one string (tests and small sizes). */
export function claudeCodeSession(spec: ClaudeCodeSpec): string {
  let text = '';
  for (const line of claudeCodeLines(spec)) text += `${line}\n`;
  return text;
}
