// The Self-Sum summary judge (the paper's Table 10 rubric, reference 000 appendix A.2): an LLM scores when a
// trajectory summarized (necessity, timeliness, task awareness, avoidance of redundancy) and what it kept
// (coverage, faithfulness, abstraction, future utility), each 1–5. Timing and content scores are the means
// of their four criteria. Replies are cached by the hash of the rendered trajectory (its summaries and what
// they summarize) with the model and rubric version, so a trajectory is never judged twice.
import type { Item, Session } from '../model/types';
import { jsonObjectIn } from '../client/json-in-reply';
import { sha256Hex } from '../share/content-hash';

export const JUDGE_RUBRIC_VERSION = 1;

export const TIMING_CRITERIA = ['necessity', 'timeliness', 'task_awareness', 'avoidance_of_redundancy'] as const;
export const CONTENT_CRITERIA = ['coverage_of_critical_information', 'faithfulness_to_observations', 'abstraction_level', 'future_utility'] as const;

/** Table 10, verbatim but for the JSON template's doubled braces (Python format escapes in the paper). */
export const JUDGE_RUBRIC = `You are an expert evaluator of long-horizon language agents. Your task is to assess the timing and content quality of summaries produced during an agent's interaction with an environment or user.

You will be given a full trajectory of the agent's interaction with the environment or user, including the summary steps. You need to carefully read the reasoning process of agent, especially when the agent decides to summarize and generates the summary itself. Your evaluation should focus on when the summary is generated and what information it retains, rather than on task success alone.

Evaluation Criteria

1. Summary Timing (When to Summarize): Evaluate whether summarization is triggered at an appropriate moment.
 - (a) Necessity: Was summarization necessary at this point, given the interaction history? Could the agent reasonably continue without summarizing?
 - (b) Timeliness: Is the summary generated too early (before sufficient information is accumulated), too late (after relevant context has already become noisy), or at an appropriate milestone?
 - (c) Task Awareness: Does the timing reflect awareness of task structure (e.g., subgoal completion, resolution of uncertainty, or transition to a new phase)?
 - (d) Avoidance of Redundancy: Does the agent avoid summarizing repeatedly without meaningful progress since the last summary?
2. Summary Content Quality (What to Summarize): Evaluate the quality and usefulness of the summarized information.
 - (a) Coverage of Critical Information: Does the summary retain information that is essential for future decisions (e.g., completed subgoals, important observations, object states)?
 - (b) Faithfulness to Observations: Is the summary grounded in the interaction history, without introducing unsupported or speculative details?
 - (c) Abstraction Level: Does the summary appropriately abstract away low-level details while preserving task-relevant structure? Is it overly concrete or overly vague?
 - (d) Future Utility: Would this summary meaningfully help an agent make correct decisions in subsequent steps?

Your output should be in JSON format. The score should be a number between 1 and 5. The justification should be a brief explanation of your score.

"""json { "summary_timing": { "necessity": <score>, "timeliness": <score>, "task_awareness": <score>, "avoidance_of_redundancy": <score> }, "summary_content_quality": { "coverage_of_critical_information": <score>, "faithfulness_to_observations": <score>, "abstraction_level": <score>, "future_utility": <score> }, "overall_score": <score>, "justification": "<justification>" } """

The trajectory is as follows:
{trajectory}`;

export interface JudgeMessage {
  role: 'system' | 'user';
  content: string;
}

/** The injected model call: the app passes its endpoint client, tests a stub. */
export type JudgeComplete = (messages: JudgeMessage[]) => Promise<{ ok: true; text: string } | { ok: false; reason: string }>;

export interface JudgeScores {
  /** Mean of the four timing criteria. */
  timing: number;
  /** Mean of the four content criteria. */
  content: number;
  overall: number | null;
  criteria: Record<(typeof TIMING_CRITERIA)[number] | (typeof CONTENT_CRITERIA)[number], number>;
  justification: string;
}

export type JudgeOutcome = { ok: true; key: string; scores: JudgeScores; cached: boolean } | { ok: false; key: string | null; reason: string };

// ---------------------------------------------------------------------------------------------
// The trajectory as the judge reads it

export interface RenderOptions {
  /** Longest rendering; long items are cut in their middle until it fits. Summaries are never cut. */
  maxChars?: number;
}

function labelOf(it: Item): string {
  if (it.kind === 'summary') return 'SUMMARY';
  if (it.kind === 'thinking') return 'agent think';
  if (it.kind === 'tool_call') return 'agent action';
  if (it.kind === 'tool_result') return 'observation';
  if (it.kind === 'omission') return 'agent omits';
  return it.role === 'assistant' ? 'agent' : it.role;
}

function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  const keep = Math.max(0, max - 40);
  const head = Math.ceil(keep / 2);
  return `${text.slice(0, head)} … [${text.length - keep} characters cut] … ${text.slice(text.length - (keep - head))}`;
}

/** `[step 3] agent action: go to kitchen` lines; a step is one agent turn and the observations after it. */
export function renderTrajectory(session: Session, opts: RenderOptions = {}): string {
  const max = opts.maxChars ?? 60_000;
  const items = session.items.filter((it) => it.kind !== 'compaction');
  let step = 0;
  let prevAgent = false;
  const lines = items.map((it) => {
    const agent = it.role === 'assistant';
    if (agent && !prevAgent) step++;
    prevAgent = agent;
    return { it, prefix: `[step ${step}] ${labelOf(it)}: ` };
  });
  let cap = items.reduce((m, it) => Math.max(m, it.text.length), 0);
  const render = () => lines.map(({ it, prefix }) => prefix + (it.kind === 'summary' ? it.text : cut(it.text, cap))).join('\n');
  let out = render();
  while (out.length > max && cap > 200) {
    cap = Math.max(200, Math.floor(cap / 2));
    out = render();
  }
  return out;
}

export function judgeMessages(trajectory: string): JudgeMessage[] {
  return [{ role: 'user', content: JUDGE_RUBRIC.replace('{trajectory}', () => trajectory) }];
}

// ---------------------------------------------------------------------------------------------
// The reply

function scoreOf(v: unknown): number | null {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
  return Number.isFinite(n) && n >= 1 && n <= 5 ? n : null;
}

function field(o: unknown, key: string): unknown {
  return typeof o === 'object' && o !== null && !Array.isArray(o) && Object.prototype.hasOwnProperty.call(o, key) ? (o as Record<string, unknown>)[key] : undefined;
}

const mean = (xs: number[]) => Math.round((xs.reduce((a, b) => a + b, 0) / xs.length) * 100) / 100;

/** Reads the judge's JSON; every criterion must be a score from 1 to 5. */
export function parseJudgeReply(text: string): { ok: true; scores: JudgeScores } | { ok: false; reason: string } {
  const raw = jsonObjectIn(text);
  if (!raw) return { ok: false, reason: 'the reply holds no JSON object' };
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (e) {
    return { ok: false, reason: `the reply's JSON does not parse: ${e instanceof Error ? e.message : String(e)}` };
  }
  const criteria = {} as JudgeScores['criteria'];
  const bad: string[] = [];
  const read = (group: string, keys: readonly string[]) => {
    const g = field(value, group);
    for (const k of keys) {
      const s = scoreOf(field(g, k));
      if (s === null) bad.push(`${group}.${k}`);
      else criteria[k as keyof JudgeScores['criteria']] = s;
    }
  };
  read('summary_timing', TIMING_CRITERIA);
  read('summary_content_quality', CONTENT_CRITERIA);
  if (bad.length) return { ok: false, reason: `missing or out-of-range scores (1–5 expected): ${bad.join(', ')}` };
  const justification = field(value, 'justification');
  return {
    ok: true,
    scores: {
      timing: mean(TIMING_CRITERIA.map((k) => criteria[k])),
      content: mean(CONTENT_CRITERIA.map((k) => criteria[k])),
      overall: scoreOf(field(value, 'overall_score')),
      criteria,
      justification: typeof justification === 'string' ? justification : '',
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Cache and runner

/** A persistent store for judged scores (IndexedDB in the app); the cache keeps an in-memory copy in front. */
export interface JudgeStore {
  get(key: string): Promise<JudgeScores | undefined>;
  set(key: string, scores: JudgeScores): Promise<void>;
}

export class JudgeCache {
  private readonly memory = new Map<string, JudgeScores>();
  constructor(private readonly store: JudgeStore | null = null) {}

  async get(key: string): Promise<JudgeScores | undefined> {
    const hit = this.memory.get(key);
    if (hit) return hit;
    const stored = await this.store?.get(key).catch(() => undefined);
    if (stored) this.memory.set(key, stored);
    return stored;
  }

  async set(key: string, scores: JudgeScores): Promise<void> {
    this.memory.set(key, scores);
    await this.store?.set(key, scores).catch(() => undefined);
  }

  get size(): number {
    return this.memory.size;
  }
}

/** The cache key: the rendered trajectory (its summaries and what they summarize), the model and the rubric. */
export function judgeKey(model: string, trajectory: string): Promise<string> {
  return sha256Hex(`compaction-inspector/judge/${JUDGE_RUBRIC_VERSION}\n${model}\n${trajectory}`);
}

export interface Judge {
  judge(session: Session): Promise<JudgeOutcome>;
}

export function createJudge(opts: { complete: JudgeComplete; model: string; cache?: JudgeCache; render?: RenderOptions }): Judge {
  const cache = opts.cache ?? new JudgeCache();
  return {
    async judge(session) {
      if (!session.items.some((it) => it.kind === 'summary')) return { ok: false, key: null, reason: 'the trajectory has no summary to judge' };
      const trajectory = renderTrajectory(session, opts.render);
      const key = await judgeKey(opts.model, trajectory);
      const hit = await cache.get(key);
      if (hit) return { ok: true, key, scores: hit, cached: true };
      const reply = await opts.complete(judgeMessages(trajectory));
      if (!reply.ok) return { ok: false, key, reason: reply.reason };
      const parsed = parseJudgeReply(reply.text);
      if (!parsed.ok) return { ok: false, key, reason: parsed.reason };
      await cache.set(key, parsed.scores);
      return { ok: true, key, scores: parsed.scores, cached: false };
    },
  };
}

/** A deterministic sample of up to `n` of the indices, spread over the list (every k-th from a seeded start). */
export function sampleIndices(count: number, n: number, seed = 0): number[] {
  if (n >= count) return Array.from({ length: count }, (_, i) => i);
  if (n <= 0) return [];
  const stride = count / n;
  const offset = (((seed % count) + count) % count) % Math.max(1, Math.floor(stride));
  return Array.from({ length: n }, (_, i) => Math.min(count - 1, Math.floor(offset + i * stride)));
}
