// One corpus row per trajectory: the stable, documented keys of `compaction-inspector corpus --jsonl` and of
// the app's corpus table. snake_case so the lines load as they are into DuckDB, pandas or Spark; numbers
// are numbers, lists are lists, and null means "the file does not say".
import type { FormatId } from '../model/types';
import { SURVIVAL_KINDS } from '../audit/survival';

export interface CorpusRow {
  /** Session id: the trajectory's own id (`id`, `item_id`, session id), else derived from the file name. */
  id: string;
  /** Path of the file, as walked (CLI) or as dropped (app). */
  file: string;
  /** 1-based line of the trajectory in a JSONL corpus (one trajectory per line); null for a whole file. */
  line: number | null;
  format: FormatId;
  model: string | null;
  /** Items in the normalized transcript (messages, thoughts, tool calls and results, summaries, …). */
  items: number;
  /** Model calls (agent turns; iterations of a reasoning trace). */
  turns: number;
  tool_calls: number;
  /** Input tokens summed over every call: what the model was sent in total (counted from recorded texts). */
  total_tokens: number;
  /** Output tokens summed over every call: the reported output where the file reports one, else counted. */
  output_tokens: number;
  /** Largest single-call context (counted). */
  peak_context_tokens: number;
  /** Prompt tokens the provider reported, summed over calls; null unless every call reports usage. */
  reported_input_tokens: number | null;
  /** Responses billed on branches the conversation left (Claude Code: retries, edits, interrupted turns): not in `turns`. */
  off_branch_responses: number;
  /** Their reported prompt and output tokens: not in `total_tokens` or `output_tokens`. */
  off_branch_prompt_tokens: number;
  off_branch_output_tokens: number;
  /** Dollars at the reported usage and the dated prices: the calls, the off-branch responses, the sidechains; null when nothing is priced. */
  cost_usd: number | null;
  context_window: number | null;
  compactions: number;
  /** Compactions that put a summary in place of what they removed (Self-Sum, reasoning traces, harness compaction). */
  summaries: number;
  /** Turn (1-based) after which each summary was written, in order; a summary nobody's turn wrote is left out. */
  summary_turns: number[];
  /** Turns in which the agent omitted something (a thought, or observations by command). */
  omissions: number;
  /** Turns (1-based) whose output omitted the thought (`<think> </think>`). */
  thought_omission_turns: number[];
  /** Turns (1-based) whose output commanded observations out (`<omit_tool_response_N…>`). */
  observation_omission_turns: number[];
  omitted_thoughts: number;
  /** Distinct observations taken out of later contexts (by command or as exported placeholders). */
  omitted_observations: number;
  /**
   * Tokens the compactions took out of the context: per compaction, tokens_before − tokens_after where the
   * file records both, else the replaced items' tokens minus the summary's. Negative when summaries grew.
   */
  tokens_saved: number;
  /** Distinct identifiers found in summaries but in none of their sources (summary audit). */
  invented_identifiers: number;
  /** Distinct identifiers of the replaced items that no summary kept. */
  lost_identifiers: number;
  /** Lost identifiers that later turns ask for again (the audit's quality gate). */
  lost_needed_later: number;
  /** Lost identifiers that came back only through a re-fetch or fresh output, then were used (the re-fetch tax). */
  lost_refetched_later: number;
  /** Summary sentences that say what the user asked or decided when no user message says it (summary audit). */
  invented_instructions: number;
  /** Such sentences in another language than every user message the summarizer read: not judged. */
  instructions_not_judged: number;
  /** Summaries whose summarizer read turns the file does not hold: nothing in them was judged invented. */
  summaries_not_judged: number;
  /**
   * Survival by kind, summed over compactions: how many things of each kind the compactions evicted and how many of
   * them their summaries kept (the audit's `survival`; instructions leave out messages in another language).
   */
  evicted_paths: number;
  kept_paths: number;
  evicted_commands: number;
  kept_commands: number;
  evicted_numbers: number;
  kept_numbers: number;
  evicted_identifiers: number;
  kept_identifiers: number;
  evicted_urls: number;
  kept_urls: number;
  evicted_functions: number;
  kept_functions: number;
  evicted_instructions: number;
  kept_instructions: number;
  /** Tool calls after a compaction that fetch again what it removed (same tool and main argument), summed over compactions. */
  refetches: number;
  /** Tokens those re-fetched results cost again. */
  refetch_tokens: number;
  lints: number;
  success: boolean | null;
  reward: number | null;
  /** Parse problems in this trajectory (they are also written to stderr / the problems list). */
  errors: number;
  warnings: number;
  /** What counted the tokens: an exact encoding name, or `estimate`. */
  token_counter: string;
  /**
   * Session id of the trajectory this one is a side conversation of (a Claude Code `agent-acompact-*` file
   * measured on its own); null for a main trajectory. Filter these out to count each run once.
   */
  sidechain_of: string | null;
  /** Why this place gave no trajectory (an error row, see errorRowToJsonLine); null for a measured row. */
  error: string | null;
}

/** The keys in output order, with a one-line meaning each: docs/corpus.md's column list comes from here. */
type CorpusColumn = { key: keyof CorpusRow; type: string; meaning: string };

export const CORPUS_COLUMNS: readonly CorpusColumn[] = [
  { key: 'id', type: 'string', meaning: "trajectory id (the file's own id, else from the file name)" },
  { key: 'file', type: 'string', meaning: 'file path as walked' },
  { key: 'line', type: 'int | null', meaning: 'line of the trajectory in a JSONL corpus, null for a whole file' },
  { key: 'format', type: 'string', meaning: 'detected format id (self-sum, agent-omit, sharegpt, reasoning-trace, claude-code, …)' },
  { key: 'model', type: 'string | null', meaning: 'model named by the file' },
  { key: 'items', type: 'int', meaning: 'items in the normalized transcript' },
  { key: 'turns', type: 'int', meaning: 'model calls (agent turns, reasoning iterations)' },
  { key: 'tool_calls', type: 'int', meaning: 'tool calls / actions' },
  { key: 'total_tokens', type: 'int', meaning: 'input tokens summed over all calls' },
  { key: 'output_tokens', type: 'int', meaning: 'output tokens summed over all calls: the reported output where the file reports one, else counted' },
  { key: 'peak_context_tokens', type: 'int', meaning: 'largest single-call context' },
  { key: 'reported_input_tokens', type: 'int | null', meaning: 'provider-reported prompt tokens summed; null unless every call reports usage' },
  { key: 'off_branch_responses', type: 'int', meaning: 'responses billed on branches the conversation left (Claude Code retries, edits, interrupted turns), not in turns' },
  { key: 'off_branch_prompt_tokens', type: 'int', meaning: 'their reported prompt tokens, not in total_tokens' },
  { key: 'off_branch_output_tokens', type: 'int', meaning: 'their reported output tokens, not in output_tokens' },
  { key: 'cost_usd', type: 'float | null', meaning: 'dollars at the reported usage and dated prices: calls, off-branch responses and sidechains; null when nothing is priced' },
  { key: 'context_window', type: 'int | null', meaning: 'context window recorded or known for the model' },
  { key: 'compactions', type: 'int', meaning: 'compaction events of any kind' },
  { key: 'summaries', type: 'int', meaning: 'compactions that put a summary in place' },
  { key: 'summary_turns', type: 'int[]', meaning: 'turn (1-based) after which each summary was written' },
  { key: 'omissions', type: 'int', meaning: 'turns that omitted a thought or observations' },
  { key: 'thought_omission_turns', type: 'int[]', meaning: 'turns whose thought was omitted' },
  { key: 'observation_omission_turns', type: 'int[]', meaning: 'turns that commanded observations out' },
  { key: 'omitted_thoughts', type: 'int', meaning: 'omitted thoughts' },
  { key: 'omitted_observations', type: 'int', meaning: 'distinct observations taken out' },
  { key: 'tokens_saved', type: 'int', meaning: 'tokens the compactions took out (before − after, or replaced − summary)' },
  { key: 'invented_identifiers', type: 'int', meaning: 'identifiers in summaries found in none of their sources' },
  { key: 'lost_identifiers', type: 'int', meaning: 'identifiers of replaced items no summary kept' },
  { key: 'lost_needed_later', type: 'int', meaning: 'lost identifiers later turns ask for' },
  { key: 'lost_refetched_later', type: 'int', meaning: 'lost identifiers the agent had to fetch again before using them' },
  { key: 'invented_instructions', type: 'int', meaning: "summary sentences stating a user's request no user message makes" },
  { key: 'instructions_not_judged', type: 'int', meaning: 'such sentences in another language than the user messages read: not judged' },
  { key: 'summaries_not_judged', type: 'int', meaning: 'summaries that read turns the file does not hold: none of their values or instructions judged invented' },
  ...SURVIVAL_KINDS.flatMap((kind): CorpusColumn[] => [
    { key: `evicted_${kind}`, type: 'int', meaning: `${kind} the compactions evicted (survival by kind)` },
    { key: `kept_${kind}`, type: 'int', meaning: `of those ${kind}, how many the summaries kept` },
  ]),
  { key: 'refetches', type: 'int', meaning: 'tool calls after a compaction that repeat a call whose result it removed (re-reads of a changed file not counted)' },
  { key: 'refetch_tokens', type: 'int', meaning: 'tokens of those repeated results' },
  { key: 'lints', type: 'int', meaning: 'lint findings' },
  { key: 'success', type: 'bool | null', meaning: "the file's success flag" },
  { key: 'reward', type: 'float | null', meaning: "the file's reward or score" },
  { key: 'errors', type: 'int', meaning: 'parse errors in this trajectory' },
  { key: 'warnings', type: 'int', meaning: 'parse warnings in this trajectory' },
  { key: 'token_counter', type: 'string', meaning: 'o200k_base / cl100k_base (exact) or estimate' },
  { key: 'sidechain_of', type: 'string | null', meaning: 'session id this side conversation belongs to (Claude Code agent-acompact files); null for a main trajectory' },
  { key: 'error', type: 'string | null', meaning: 'null for a measured row; for an error row (a line, Parquet row or file that gave no trajectory) the reason, every measure null' },
];

/**
 * A line, Parquet row or file that gave no trajectory, as a row with the same keys: `error` says why (naming the
 * field when one is to blame) and every measure is null, so a batch job's output keeps one row per input place
 * and loads with the rest (`WHERE error IS NULL` keeps the measured ones).
 */
export function errorRowToJsonLine(file: string, line: number | null, issue: { field: string | null; message: string }, counter: string): string {
  const ordered: Record<string, unknown> = {};
  for (const c of CORPUS_COLUMNS) ordered[c.key] = null;
  ordered['file'] = file;
  ordered['line'] = line;
  ordered['errors'] = 1;
  ordered['warnings'] = 0;
  ordered['token_counter'] = counter;
  ordered['error'] = issue.field ? `${issue.field}: ${issue.message}` : issue.message;
  return JSON.stringify(ordered);
}

/** The row as one JSON line, keys in the documented order. */
export function rowToJsonLine(row: CorpusRow): string {
  const ordered: Record<string, unknown> = {};
  for (const c of CORPUS_COLUMNS) ordered[c.key] = row[c.key];
  return JSON.stringify(ordered);
}
