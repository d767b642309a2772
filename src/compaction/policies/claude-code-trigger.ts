// Where Claude Code auto-compacts, by the version that wrote the session. Read from each version's bundle
// (`npm pack @anthropic-ai/claude-code@V`, cli.js, the function behind `isAboveAutoCompactThreshold`):
// - up to 1.0.70: (window − max output) × 0.92;
// - 1.0.71 to 2.1.20: window − max output − 13,000 (AUTOCOMPACT_BUFFER_TOKENS), the max output being
//   CLAUDE_CODE_MAX_OUTPUT_TOKENS' default, 32,000, or the model's own cap when lower (Claude 3.x);
// - from 2.1.21: window − min(max output, 20,000) − 13,000.
// So a 200k-window session compacts at about 155k before 2.1.21 and 167k from it.

export interface ClaudeCodeTriggerValues {
  /** Tokens kept free for the summary's output. */
  outputReserve: number;
  /** What is left free beyond it (13,000; before 1.0.71, 8 % of the rest). */
  buffer: number;
  /** The rule, in a few words, for the form and the CLI. */
  rule: string;
}

const BUFFER = 13_000;
const DEFAULT_MAX_OUTPUT = 32_000;
const SUMMARY_OUTPUT_CAP = 20_000;

/** The preset's values for a session that Claude Code `version` wrote with `model`; the newest rule without a version. */
export function claudeCodeTriggerValues(version: string | null, model: string | null, window: number): ClaudeCodeTriggerValues {
  const v = parseVersion(version);
  const cap = modelOutputCap(model, v);
  if (v === null || atLeast(v, [2, 1, 21])) {
    return { outputReserve: Math.min(cap, SUMMARY_OUTPUT_CAP), buffer: BUFFER, rule: v === null ? 'Claude Code 2.1.21+ (the session names no version)' : 'Claude Code 2.1.21+: window − min(max output, 20,000) − 13,000' };
  }
  const reserve = Math.min(cap, DEFAULT_MAX_OUTPUT);
  if (atLeast(v, [1, 0, 71])) return { outputReserve: reserve, buffer: BUFFER, rule: 'Claude Code 1.0.71–2.1.20: window − max output (32,000) − 13,000' };
  const rest = window - reserve;
  return { outputReserve: reserve, buffer: rest - Math.floor(rest * 0.92), rule: 'Claude Code up to 1.0.70: 92 % of window − max output (32,000)' };
}

/** The model's own output cap where it is below the 32,000 default (Claude 3.x); the default otherwise. */
function modelOutputCap(model: string | null, v: Version | null): number {
  const m = (model ?? '').toLowerCase();
  if (m.includes('3-5')) return 8_192;
  // 1.0 capped every Haiku at 8,192; 2.0 only Claude 3's.
  if (v !== null && v[0] < 2 && m.includes('haiku')) return 8_192;
  if (m.includes('claude-3-opus') || m.includes('claude-3-haiku')) return 4_096;
  if (m.includes('claude-3-sonnet')) return 8_192;
  return DEFAULT_MAX_OUTPUT;
}

type Version = [number, number, number];

function parseVersion(version: string | null): Version | null {
  const m = /^(\d+)\.(\d+)\.(\d+)/.exec(version ?? '');
  return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : null;
}

function atLeast(v: Version, w: Version): boolean {
  for (let i = 0; i < 3; i++) if (v[i] !== w[i]) return v[i]! > w[i]!;
  return true;
}
