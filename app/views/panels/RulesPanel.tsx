// Every lint rule with what it checks and why, where it applies, and the user's say over it: mute it or move its
// threshold, for this session's harness or for every harness. Saved in this browser and carried in share links.
import { useId, useMemo, useState } from 'react';
import type { LintRule } from '../../../src/lints/lint-types';
import { describeAppliesTo, RULE_INFO, RULE_ORDER, settingFor, summaryStyle, thresholdFor, type RuleInfo } from '../../../src/lints/rules';
import { FORMAT_IDS, type FormatId } from '../../../src/model/types';
import { useApp } from '../../store';
import type { PanelProps } from './panel-props';
import './rules.css';

type Scope = FormatId | '*';

export default function RulesPanel({ view, session }: PanelProps) {
  const lintRules = useApp((s) => s.lintRules);
  const setLintRule = useApp((s) => s.setLintRule);
  const replaceLintRules = useApp((s) => s.replaceLintRules);
  // The scope follows the session: a pick made on one harness's session does not carry to another's.
  const [picked, setPicked] = useState<{ format: FormatId; scope: Scope }>({ format: session.format, scope: session.format });
  const scope = picked.format === session.format ? picked.scope : session.format;
  const setScope = (next: Scope) => setPicked({ format: session.format, scope: next });
  const scopeId = useId();
  const counts = useMemo(() => {
    const m = new Map<LintRule, number>();
    for (const l of view.lints) m.set(l.rule, (m.get(l.rule) ?? 0) + 1);
    return m;
  }, [view.lints]);
  const changed = Object.keys(lintRules.rules).length;

  return (
    <div className="rules-panel">
      <div className="rules-toolbar">
        <label htmlFor={scopeId}>Settings for</label>
        <select id={scopeId} value={scope} onChange={(e) => setScope(e.target.value as Scope)}>
          <option value="*">every harness</option>
          {FORMAT_IDS.map((f) => (
            <option key={f} value={f}>
              {f}
              {f === session.format ? ' (this session)' : ''}
            </option>
          ))}
        </select>
        <span className="muted small">Saved in this browser and carried in share links; the CLI reads the same JSON with <code>--rules FILE</code>.</span>
        <button type="button" disabled={changed === 0} onClick={() => replaceLintRules(null)}>
          Reset all rules
        </button>
      </div>
      <ul className="rules-list" aria-label="Lint rules">
        {RULE_ORDER.map((rule) => (
          <RuleRow
            key={rule}
            rule={rule}
            info={RULE_INFO[rule]}
            scope={scope}
            harness={session.format}
            firing={counts.get(rule) ?? 0}
            setting={lintRules.rules[rule]?.[scope] ?? {}}
            effective={{
              muted: settingFor(lintRules, rule, session.format).muted === true,
              course: thresholdFor(lintRules, rule, session.format, 'course-schema'),
              own: thresholdFor(lintRules, rule, session.format, summaryStyle(session.format, false)),
            }}
            onChange={(patch) => setLintRule(rule, scope, patch)}
          />
        ))}
      </ul>
    </div>
  );
}

function RuleRow(props: {
  rule: LintRule;
  info: RuleInfo;
  scope: Scope;
  harness: FormatId;
  firing: number;
  setting: { muted?: boolean; threshold?: number };
  /** The threshold in force on this session: for course-schema summaries, and for the harness's own. */
  effective: { muted: boolean; course: number | null; own: number | null };
  onChange(patch: { muted?: boolean; threshold?: number | undefined }): void;
}) {
  const { rule, info, scope, setting, firing } = props;
  const thresholdId = useId();
  const where = scope === '*' ? 'every harness' : scope;
  return (
    <li className={`rule-row severity-${info.severity}${props.effective.muted ? ' muted-rule' : ''}`}>
      <div className="rule-head">
        <h3>{info.title}</h3>
        <span className={`badge severity ${info.severity}`}>{info.severity}</span>
        <span className="muted small">
          {firing} in this session
        </span>
      </div>
      <p className="rule-why">{info.why}</p>
      <p className="muted small rule-applies">
        Applies to {describeAppliesTo(info.appliesTo)}. <code>{rule}</code>
      </p>
      <div className="rule-controls">
        <label>
          <input type="checkbox" checked={setting.muted === true} onChange={(e) => props.onChange({ muted: e.target.checked })} aria-label={`Mute ${info.title} for ${where}`} />
          Mute for {where}
        </label>
        {info.threshold ? (
          <span className="rule-threshold">
            <label htmlFor={thresholdId}>{info.threshold.label}</label>
            <input
              id={thresholdId}
              type="number"
              min={info.threshold.min}
              step={1}
              placeholder={String(info.threshold.default)}
              value={setting.threshold ?? ''}
              aria-label={`${info.title}: ${info.threshold.label} for ${where}`}
              onChange={(e) => {
                const n = e.target.value === '' ? undefined : Number(e.target.value);
                props.onChange({ threshold: n !== undefined && Number.isFinite(n) && n >= info.threshold!.min ? n : undefined });
              }}
            />
            <span className="muted small">
              {inForce(info, props.harness, props.effective)}
            </span>
          </span>
        ) : null}
      </div>
    </li>
  );
}

/** What the threshold is on this session, in words: per summary style where the rule is about summaries. */
function inForce(info: RuleInfo, harness: FormatId, e: { course: number | null; own: number | null }): string {
  if (info.appliesTo.styles === 'all') return `in force on ${harness}: ${e.own ?? info.threshold?.default ?? '—'}`;
  const own = e.own === null ? `${harness} summaries: not judged unless you set a limit` : `${harness} summaries: ${e.own}`;
  return `in force: course-schema summaries ${e.course ?? '—'}; ${own}`;
}
