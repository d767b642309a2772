// Lints grouped by rule for the lints panel, each rule with a one-line reason it matters
// (course unit "Summarizing Evicted Turns" and the LiveKit action-aware summarization PR).
import { firstCallByItem } from '../analysis/call-lookup';
import type { CallView } from '../analysis/analysis-view';
import type { Lint, LintRule } from './lint-types';

export interface RuleInfo {
  title: string;
  /** Why the rule matters, in one line. */
  why: string;
}

/** Rules in the order they hurt: lost content and broken structure first, style last. */
export const RULE_ORDER: readonly LintRule[] = [
  'recap-system-role',
  'tool-pair-split',
  'causal-order',
  'fallback-marker',
  'recap-regenerated',
  'stacked-summaries',
  'consecutive-summaries',
  'summary-header-missing',
  'summary-section-missing',
  'summary-too-long',
];

export const RULE_INFO: Record<LintRule, RuleInfo> = {
  'recap-system-role': {
    title: 'Recap with role system',
    why: 'Role validators keep only the first system message and drop later ones, so the recap silently vanishes; insert it as assistant.',
  },
  'tool-pair-split': {
    title: 'Tool call/result pair split',
    why: 'A tool call and its result are one unit; an orphaned half is rejected by providers or confuses the model.',
  },
  'causal-order': {
    title: 'Causal order broken',
    why: 'A user message placed after the tool calls it caused makes the model see effects before their cause (the RMA created before the address was given).',
  },
  'fallback-marker': {
    title: 'Fallback marker instead of a summary',
    why: 'The static marker keeps the cache but the evicted turns are gone: every identifier they held is lost.',
  },
  'recap-regenerated': {
    title: 'Recap regenerated every turn',
    why: 'A recap rewritten at a fixed mid-prompt position changes bytes each turn, so the cached prefix breaks there on every call.',
  },
  'stacked-summaries': {
    title: 'Stacked summaries',
    why: 'Fold the prior summary into the new one; a stack of summaries grows and thins with every compaction.',
  },
  'consecutive-summaries': {
    title: 'Consecutive summaries',
    why: 'A summary right after a summary means nothing happened between compactions: the second only summarizes the first.',
  },
  'summary-header-missing': {
    title: 'Summary header missing',
    why: 'Downstream code detects a summary by its "## Conversation Summary" first line; without it the recap is not recognized.',
  },
  'summary-section-missing': {
    title: 'Summary section missing',
    why: 'Decisions, Entities, Facts and Open Items each give lost-prone facts a place; a missing section is where identifiers drop out.',
  },
  'summary-too-long': {
    title: 'Summary over 200 words or 512 tokens',
    why: 'A summary that grows with the conversation defeats its purpose; the 512-token cap truncates whatever the 200-word ask did not.',
  },
};

export interface LintGroup extends RuleInfo {
  rule: LintRule;
  lints: Lint[];
}

/** Lints grouped by rule in RULE_ORDER, each group in the lints' own order. */
export function groupLints(lints: readonly Lint[]): LintGroup[] {
  const byRule = new Map<LintRule, Lint[]>();
  for (const l of lints) {
    const list = byRule.get(l.rule);
    if (list) list.push(l);
    else byRule.set(l.rule, [l]);
  }
  return RULE_ORDER.filter((r) => byRule.has(r)).map((rule) => ({ rule, ...RULE_INFO[rule], lints: byRule.get(rule)! }));
}

/** Where a lint jumps: its own call, else the first call that shows its item (null when none does). */
export function lintTargets(
  lints: readonly Lint[],
  calls: readonly Pick<CallView, 'entries' | 'outputIds' | 'compactionId'>[],
  spans?: readonly { id: string; from: number }[] | null,
): (number | null)[] {
  const first = firstCallByItem(calls, spans);
  return lints.map((l) => l.callIndex ?? first.get(l.itemId) ?? null);
}
