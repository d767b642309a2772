import { describe, expect, it } from 'vitest';
import { FORMAT_IDS } from '../model/types';
import { parseRuleSettings, ruleRuns, RULE_INFO, RULE_ORDER, thresholdFor } from './rules';

const known = { formats: FORMAT_IDS };

describe('parseRuleSettings', () => {
  it('reads mutes and thresholds per harness and for every harness', () => {
    const { settings, problems } = parseRuleSettings({ version: 1, rules: { 'summary-too-long': { 'claude-code': { threshold: 2000 } }, 'causal-order': { '*': { muted: true } } } }, known);
    expect(problems).toEqual([]);
    expect(thresholdFor(settings, 'summary-too-long', 'claude-code', 'claude-code')).toBe(2000);
    expect(thresholdFor(settings, 'summary-too-long', 'codex', 'codex')).toBeNull();
    expect(thresholdFor(settings, 'summary-too-long', 'codex', 'course-schema')).toBe(200);
    expect(ruleRuns(settings, 'causal-order', 'codex')).toBe(false);
    expect(ruleRuns(settings, 'tool-pair-split', 'codex')).toBe(true);
  });

  it('reports what it cannot use and keeps the rest; refuses a newer version', () => {
    const { settings, problems } = parseRuleSettings(
      { rules: { 'summary-too-long': { 'claude-code': { threshold: -1 }, vim: { muted: true }, '*': { muted: 'yes' } }, 'causal-order': { codex: { threshold: 3 } }, __proto__x: {} } },
      known,
    );
    expect(problems).toEqual([
      'rule settings: rules.summary-too-long.claude-code.threshold must be a number of at least 1',
      'rule settings: rules.summary-too-long: unknown harness "vim"',
      'rule settings: rules.summary-too-long.*.muted must be true or false',
      'rule settings: rules.causal-order has no threshold',
      'rule settings: unknown rule "__proto__x"',
    ]);
    expect(settings.rules['summary-too-long']).toEqual({ 'claude-code': {}, '*': {} });
    expect(parseRuleSettings({ version: 2, rules: {} }, known).problems).toEqual(['rule settings: version 2 is newer than this app reads (1)']);
    expect(parseRuleSettings('nope', known).problems).toHaveLength(1);
  });
});

describe('RULE_INFO', () => {
  it('describes every rule, none of them with a demo story', () => {
    expect([...RULE_ORDER].sort()).toEqual(Object.keys(RULE_INFO).sort());
    for (const rule of RULE_ORDER) expect(RULE_INFO[rule].why, rule).not.toMatch(/RMA|address was given|Acme|earbud/i);
  });

  it('does not run the stacking rule on iterated-summarization traces, which stack on purpose', () => {
    expect(ruleRuns(undefined, 'stacked-summaries', 'reasoning-trace')).toBe(false);
    expect(ruleRuns(undefined, 'stacked-summaries', 'claude-code')).toBe(true);
  });
});
