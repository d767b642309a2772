// Every lint rule: what it checks, why it matters, how bad it is, which summaries and harnesses it is meant
// for, and the settings a user may change (mute it, move its threshold) per harness. The course schema's
// length and section rules are the course's convention; Claude Code writes nine sections and long summaries by
// design, Codex and OpenHands their own shapes: those are not judged by the course's schema.
import { FORMAT_IDS, type FormatId } from '../model/types';
import type { LintRule, SummaryStyle } from './lint-types';

export type { SummaryStyle };
export type Severity = 'error' | 'warning' | 'info';

export interface AppliesTo {
  /** Summary styles the rule judges; 'all' for rules about contexts rather than summary text. */
  styles: readonly SummaryStyle[] | 'all';
  /** Harnesses (session formats) the rule runs on. */
  harnesses: readonly FormatId[] | 'all';
}

export interface RuleInfo {
  title: string;
  /** Why the rule matters, in one line, about any session. */
  why: string;
  severity: Severity;
  appliesTo: AppliesTo;
  /** The number a user may set: what it counts and its default where the rule applies. */
  threshold?: { label: string; default: number; min: number };
}

/** Rules in the order they hurt: lost content and broken structure first, style last. */
export const RULE_ORDER: readonly LintRule[] = [
  'recap-system-role',
  'tool-pair-split',
  'unrecorded-drop',
  'causal-order',
  'fallback-marker',
  'recap-regenerated',
  'stacked-summaries',
  'consecutive-summaries',
  'summary-header-missing',
  'summary-section-missing',
  'summary-too-long',
];

const ALL: AppliesTo = { styles: 'all', harnesses: 'all' };
const COURSE: AppliesTo = { styles: ['course-schema'], harnesses: 'all' };

export const RULE_INFO: Record<LintRule, RuleInfo> = {
  'recap-system-role': {
    title: 'Recap with role system',
    why: 'Role validators keep only the first system message and drop later ones, so the recap silently vanishes; insert it as assistant.',
    severity: 'error',
    appliesTo: ALL,
  },
  'tool-pair-split': {
    title: 'Tool call/result pair split',
    why: 'A tool call and its result are one unit; an orphaned half is rejected by providers or confuses the model.',
    severity: 'error',
    appliesTo: ALL,
  },
  'unrecorded-drop': {
    title: 'Context shrank with no compaction recorded',
    why: "The provider counted far fewer prompt tokens than the call before, while the file shows the earlier context carried over whole: the harness removed content it did not record, so from here the file is not what the model saw.",
    severity: 'warning',
    appliesTo: ALL,
  },
  'causal-order': {
    title: 'Causal order broken',
    why: 'A user message placed after the tool call that already uses what it says (words of it that nothing before the call held), though it was written before that call (its timestamp, unless model responses share it to the millisecond, else its place in the session\'s record), shows the model an effect before its cause. A message written after the call it quotes is the person answering what they saw, not an inversion. Messages the harness writes into the user turn (task notifications, system reminders, hook output) are not counted.',
    severity: 'warning',
    appliesTo: ALL,
  },
  'fallback-marker': {
    title: 'Fallback marker instead of a summary',
    why: 'The static marker keeps the cache but the evicted turns are gone: every identifier they held is lost.',
    severity: 'warning',
    appliesTo: ALL,
  },
  'recap-regenerated': {
    title: 'Recap regenerated every turn',
    why: 'A recap rewritten at a fixed mid-prompt position changes bytes each turn, so the cached prefix breaks there on every call.',
    severity: 'warning',
    appliesTo: ALL,
  },
  'stacked-summaries': {
    title: 'Stacked summaries',
    why: 'Fold the prior summary into the new one; a stack of summaries grows and thins with every compaction.',
    severity: 'warning',
    // Iterated summarization feeds every earlier summary on purpose.
    appliesTo: { styles: 'all', harnesses: FORMAT_IDS.filter((f) => f !== 'reasoning-trace') },
    threshold: { label: 'summaries allowed in one context', default: 1, min: 1 },
  },
  'consecutive-summaries': {
    title: 'Consecutive summaries',
    why: 'A summary right after a summary means nothing happened between compactions: the second only summarizes the first.',
    severity: 'info',
    appliesTo: ALL,
  },
  'summary-header-missing': {
    title: 'Summary header missing',
    why: 'Code that detects a course-schema summary by its "## Conversation Summary" first line will not recognize this recap.',
    severity: 'info',
    appliesTo: COURSE,
  },
  'summary-section-missing': {
    title: 'Summary section missing',
    why: 'Decisions, Entities, Facts and Open Items each give lost-prone facts a place in the course schema; a missing section is where identifiers drop out.',
    severity: 'info',
    appliesTo: COURSE,
  },
  'summary-too-long': {
    title: 'Summary over its word limit',
    why: 'A summary that grows with the conversation defeats its purpose. The course schema asks for 200 words; other harnesses write long summaries by design, so they are judged only against a limit you set.',
    severity: 'info',
    appliesTo: COURSE,
    threshold: { label: 'words at most', default: 200, min: 1 },
  },
};

/** What a user set for one rule on one harness (or on every harness, under `*`). */
export interface RuleSetting {
  muted?: boolean;
  threshold?: number;
}

/** The user's rule settings: per rule, per harness id or `*`. Saved locally, carried in share links, read by `--rules`. */
export interface RuleSettings {
  version: 1;
  rules: Partial<Record<LintRule, Partial<Record<FormatId | '*', RuleSetting>>>>;
}

export const DEFAULT_RULE_SETTINGS: RuleSettings = { version: 1, rules: {} };

/** The setting in force for a rule on a harness: the harness's own, else the one for every harness. */
export function settingFor(settings: RuleSettings | undefined, rule: LintRule, harness: FormatId): RuleSetting {
  const byHarness = settings?.rules[rule];
  return { ...(byHarness?.['*'] ?? {}), ...(byHarness?.[harness] ?? {}) };
}

/** Does the rule run on this harness at all (not muted, and meant for it)? */
export function ruleRuns(settings: RuleSettings | undefined, rule: LintRule, harness: FormatId): boolean {
  if (settingFor(settings, rule, harness).muted) return false;
  const h = RULE_INFO[rule].appliesTo.harnesses;
  return h === 'all' || h.includes(harness);
}

/**
 * The threshold a rule judges a summary of this style by, or null when the rule does not judge it: a rule meant
 * for other styles applies only where the user set a threshold for that harness.
 */
export function thresholdFor(settings: RuleSettings | undefined, rule: LintRule, harness: FormatId, style: SummaryStyle): number | null {
  const info = RULE_INFO[rule];
  const set = settingFor(settings, rule, harness).threshold;
  if (set !== undefined) return set;
  const styles = info.appliesTo.styles;
  if (styles !== 'all' && !styles.includes(style)) return null;
  return info.threshold?.default ?? null;
}

/** How a summary is written: the course's schema when it has its header or two of its sections, else its harness's. */
export function summaryStyle(format: FormatId, schemaLike: boolean): SummaryStyle {
  if (schemaLike) return 'course-schema';
  return format === 'claude-code' || format === 'codex' || format === 'openhands' ? format : 'other';
}

/** Does a rule about summary text judge a summary of this style (given the user's settings)? */
export function judgesStyle(settings: RuleSettings | undefined, rule: LintRule, harness: FormatId, style: SummaryStyle): boolean {
  const styles = RULE_INFO[rule].appliesTo.styles;
  return styles === 'all' || styles.includes(style) || settingFor(settings, rule, harness).threshold !== undefined;
}

/** `appliesTo` as one line for a JSON report or a tooltip: `course-schema summaries; every harness`. */
export function describeAppliesTo(a: AppliesTo): string {
  const styles = a.styles === 'all' ? 'every context' : `${a.styles.join(', ')} summaries`;
  const harnesses = a.harnesses === 'all' ? 'every harness' : a.harnesses.length > 6 ? 'every harness but iterated-summarization traces' : a.harnesses.join(', ');
  return `${styles}; ${harnesses}`;
}

/**
 * Reads rule settings from untrusted JSON (a settings file, a share link, local storage). Unknown rules and
 * harnesses, and values of the wrong type, are reported and skipped; a newer version is refused.
 */
export function parseRuleSettings(raw: unknown, known: { formats: readonly string[] }): { settings: RuleSettings; problems: string[] } {
  const problems: string[] = [];
  const settings: RuleSettings = { version: 1, rules: {} };
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return { settings, problems: ['rule settings: expected an object with "version" and "rules"'] };
  const obj = raw as Record<string, unknown>;
  const version = obj.version ?? 1;
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 1) return { settings, problems: ['rule settings: "version" must be a positive integer'] };
  if (version > 1) return { settings, problems: [`rule settings: version ${version} is newer than this app reads (1)`] };
  const rules = obj.rules ?? {};
  if (rules === null || typeof rules !== 'object' || Array.isArray(rules)) return { settings, problems: ['rule settings: "rules" must be an object'] };
  for (const [rule, byHarness] of Object.entries(rules as Record<string, unknown>)) {
    if (!Object.hasOwn(RULE_INFO, rule)) {
      problems.push(`rule settings: unknown rule "${rule}"`);
      continue;
    }
    if (byHarness === null || typeof byHarness !== 'object' || Array.isArray(byHarness)) {
      problems.push(`rule settings: rules.${rule} must be an object keyed by harness or "*"`);
      continue;
    }
    const out: Partial<Record<FormatId | '*', RuleSetting>> = {};
    for (const [harness, value] of Object.entries(byHarness as Record<string, unknown>)) {
      if (harness !== '*' && !known.formats.includes(harness)) {
        problems.push(`rule settings: rules.${rule}: unknown harness "${harness}"`);
        continue;
      }
      if (value === null || typeof value !== 'object' || Array.isArray(value)) {
        problems.push(`rule settings: rules.${rule}.${harness} must be an object`);
        continue;
      }
      const v = value as Record<string, unknown>;
      const setting: RuleSetting = {};
      if (v.muted !== undefined) {
        if (typeof v.muted === 'boolean') setting.muted = v.muted;
        else problems.push(`rule settings: rules.${rule}.${harness}.muted must be true or false`);
      }
      if (v.threshold !== undefined) {
        const min = RULE_INFO[rule as LintRule].threshold?.min;
        if (min === undefined) problems.push(`rule settings: rules.${rule} has no threshold`);
        else if (typeof v.threshold === 'number' && Number.isFinite(v.threshold) && v.threshold >= min) setting.threshold = v.threshold;
        else problems.push(`rule settings: rules.${rule}.${harness}.threshold must be a number of at least ${min}`);
      }
      out[harness as FormatId | '*'] = setting;
    }
    settings.rules[rule as LintRule] = out;
  }
  return { settings, problems };
}
