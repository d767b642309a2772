// Lints grouped by rule for the lints panel, each rule with a one-line reason it matters
// (course unit "Summarizing Evicted Turns" and the LiveKit action-aware summarization PR).
import { firstCallByItem } from '../analysis/call-lookup';
import type { CallView } from '../analysis/analysis-view';
import type { Lint, LintRule } from './lint-types';
import { RULE_INFO, RULE_ORDER, type RuleInfo } from './rules';

export { RULE_INFO, RULE_ORDER, type RuleInfo } from './rules';

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
