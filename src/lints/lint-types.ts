export type LintRule =
  | 'recap-system-role'
  | 'tool-pair-split'
  | 'causal-order'
  | 'summary-header-missing'
  | 'summary-section-missing'
  | 'summary-too-long'
  | 'stacked-summaries'
  | 'recap-regenerated'
  | 'fallback-marker'
  | 'consecutive-summaries'
  | 'unrecorded-drop';

/** How a summary is written: the course's four-section schema, or a harness's own convention. */
export type SummaryStyle = 'course-schema' | 'claude-code' | 'codex' | 'openhands' | 'other';

export interface Lint {
  rule: LintRule;
  /** The item the lint concerns; views jump to it. */
  itemId: string;
  /** The first call whose context shows the problem, when it is about a context. */
  callIndex: number | null;
  message: string;
  /**
   * What a rule with a threshold or a style measured (see `applyLintRules`): the summary's style, its words and
   * tokens, the number of summaries stacked.
   */
  measure?: { style?: SummaryStyle; words?: number; tokens?: number; stacked?: number };
}
