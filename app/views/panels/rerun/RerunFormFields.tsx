// The strategy part of the Re-run form: strategy, its parameters (built from the engine's ParamSpec), the
// trigger, and the prompts it sends, editable, with their {placeholders}.
import { useId } from 'react';
import { POLICIES, isPolicyId, policyDefaultsRule, policyInfo, STRATEGIES, strategyInfo, type ParamSpec, type PolicySession, type StrategyId } from '../../../../src/compaction';
import { applyPolicy, policyNote, promptFields, TRIGGER_KINDS, type RerunForm, type TriggerForm } from '../../../../src/rerun/form';
import { count as formatCount } from '../../../format/count';

interface Props {
  form: RerunForm;
  setForm(f: RerunForm): void;
  disabled: boolean;
  windowTokens: number | null;
}

/** The harness preset: which harness's policy to replay, its own numbers (window, buffer…), where they come from. */
export function PolicyFields({ form, setForm, disabled, windowTokens, harness }: Props & { harness: PolicySession }) {
  const id = useId();
  const preset = form.policy ? policyInfo(form.policy) : null;
  const values = form.policy ? (form.policyValues[form.policy] ?? {}) : {};
  const note = policyNote(form, windowTokens);
  const rule = form.policy ? policyDefaultsRule(form.policy, harness) : null;
  return (
    <fieldset className="rr-fieldset" disabled={disabled}>
      <legend>Harness policy</legend>
      <div className="rr-strategy">
        <label htmlFor={`${id}-policy`} className="visually-hidden">
          Harness policy
        </label>
        <select
          id={`${id}-policy`}
          // A narrow pane cuts the chosen option's text: the whole of it on hover.
          title={preset ? `${preset.label} — ${preset.summary}` : undefined}
          value={form.policy ?? ''}
          onChange={(e) => {
            const v = e.target.value;
            setForm(isPolicyId(v) ? applyPolicy(form, v, windowTokens, undefined, harness) : { ...form, policy: null });
          }}
        >
          <option value="">Generic strategy (choose below)</option>
          {POLICIES.map((p) => (
            <option key={p.id} value={p.id}>
              {p.label} — {p.summary}
            </option>
          ))}
        </select>
        {preset ? (
          <p className="muted small rr-help">
            <strong>{preset.version}.</strong> Trigger: {note?.split(': ').slice(1).join(': ')}.{rule ? ` This session's version: ${rule}.` : ''} Source: {preset.sources.join('; ')}.
          </p>
        ) : (
          <p className="muted small rr-help">Pick a harness to replay its own trigger and what it keeps; every number stays editable.</p>
        )}
      </div>
      {preset ? (
        <div className="rr-params">
          {preset.params.map((spec) => (
            <ParamField key={`${preset.id}.${spec.name}`} spec={spec} value={values[spec.name]} onChange={(v) => setForm(applyPolicy(form, preset.id, windowTokens, { ...values, [spec.name]: v }))} />
          ))}
        </div>
      ) : null}
    </fieldset>
  );
}

export function StrategyFields({ form, setForm, disabled }: Props) {
  const info = strategyInfo(form.strategy);
  const raw = form.params[form.strategy] ?? {};
  const setParam = (name: string, value: unknown) => setForm({ ...form, params: { ...form.params, [form.strategy]: { ...raw, [name]: value } } });
  const id = useId();
  const visible = info.params.filter((p) => !(p.kind === 'text' && p.prompt));
  return (
    <fieldset className="rr-fieldset" disabled={disabled}>
      <legend>Strategy</legend>
      <div className="rr-strategy">
        <label htmlFor={`${id}-strategy`} className="visually-hidden">
          Strategy
        </label>
        <select id={`${id}-strategy`} value={form.strategy} onChange={(e) => setForm({ ...form, policy: null, strategy: e.target.value as StrategyId })}>
          {STRATEGIES.map((s) => (
            <option key={s.id} value={s.id}>
              {s.id} — {s.label}
            </option>
          ))}
        </select>
        <p className="muted small rr-help">{info.description}</p>
      </div>
      {visible.length > 0 ? (
        <div className="rr-params">
          {visible.map((spec) => (
            <ParamField key={`${form.strategy}.${spec.name}`} spec={spec} value={raw[spec.name]} onChange={(v) => setParam(spec.name, v)} />
          ))}
        </div>
      ) : null}
    </fieldset>
  );
}

function ParamField({ spec, value, onChange }: { spec: ParamSpec; value: unknown; onChange(v: unknown): void }) {
  const id = useId();
  const help = <span className="rr-field-help">{spec.help}</span>;
  switch (spec.kind) {
    case 'int':
    case 'int-or-null': {
      const v = value === undefined ? spec.default : value;
      return (
        <div className="rr-field" title={spec.help}>
          <label htmlFor={id}>{spec.label}</label>
          <input
            id={id}
            type="number"
            inputMode="numeric"
            min={spec.min}
            {...(spec.kind === 'int' && spec.max !== undefined ? { max: spec.max } : {})}
            step={1}
            value={v === null ? '' : String(v)}
            placeholder={spec.kind === 'int-or-null' ? 'none' : undefined}
            onChange={(e) => onChange(e.target.value === '' ? (spec.kind === 'int-or-null' ? null : undefined) : Number(e.target.value))}
          />
          {help}
        </div>
      );
    }
    case 'bool': {
      const v = value === undefined ? spec.default : value === true;
      return (
        <div className="rr-field rr-check" title={spec.help}>
          <label>
            <input type="checkbox" checked={v} onChange={(e) => onChange(e.target.checked)} /> {spec.label}
          </label>
          {help}
        </div>
      );
    }
    case 'choice': {
      const v = typeof value === 'string' ? value : spec.default;
      return (
        <div className="rr-field" title={spec.help}>
          <label htmlFor={id}>{spec.label}</label>
          <select id={id} value={v} onChange={(e) => onChange(e.target.value)}>
            {spec.options.map((o) => (
              <option key={o} value={o}>
                {o}
              </option>
            ))}
          </select>
          {help}
        </div>
      );
    }
    case 'text': {
      const v = typeof value === 'string' ? value : (spec.default ?? '');
      return (
        <div className="rr-field rr-wide" title={spec.help}>
          <label htmlFor={id}>{spec.label}</label>
          <input id={id} type="text" value={v} onChange={(e) => onChange(e.target.value)} />
          {help}
        </div>
      );
    }
  }
}

const UNIT: Partial<Record<TriggerForm['kind'], { field: keyof Omit<TriggerForm, 'kind'>; label: string; unit: string; min: number; max?: number }>> = {
  tokens: { field: 'threshold', label: 'Threshold', unit: 'tokens', min: 1 },
  fraction: { field: 'percent', label: 'Percent of window', unit: '%', min: 1, max: 100 },
  turns: { field: 'every', label: 'Calls between compactions', unit: 'calls', min: 1 },
  items: { field: 'max', label: 'Items at most', unit: 'items', min: 1 },
};

/** `call 62`, `calls 12, 40 and 71`. */
const callList = (calls: readonly number[]) => (calls.length === 1 ? `call ${calls[0]}` : `calls ${calls.slice(0, -1).join(', ')} and ${calls[calls.length - 1]}`);

export function TriggerFields({ form, setForm, disabled, windowTokens, recordedCalls = [], defaultNote }: Props & { recordedCalls?: readonly number[]; defaultNote?: string }) {
  const id = useId();
  const t = form.trigger;
  const u = UNIT[t.kind];
  const set = (patch: Partial<TriggerForm>) => setForm({ ...form, trigger: { ...t, ...patch } });
  return (
    <fieldset className="rr-fieldset" disabled={disabled}>
      <legend>Trigger</legend>
      <div className="rr-trigger">
        <div role="radiogroup" aria-label="Trigger kind" className="rr-segmented">
          {TRIGGER_KINDS.map((k) => {
            const off = k.kind === 'recorded' && recordedCalls.length === 0;
            return (
              <label key={k.kind} className={[k.kind === t.kind ? 'on' : '', off ? 'off' : ''].filter(Boolean).join(' ') || undefined} title={off ? 'The session has no recorded compaction.' : undefined}>
                <input type="radio" name={`${id}-kind`} value={k.kind} checked={k.kind === t.kind} disabled={off} onChange={() => set({ kind: k.kind })} />
                {k.label}
              </label>
            );
          })}
        </div>
        {u ? (
          <div className="rr-field rr-inline">
            <label htmlFor={`${id}-value`}>{u.label}</label>
            <input
              id={`${id}-value`}
              type="number"
              min={u.min}
              {...(u.max !== undefined ? { max: u.max } : {})}
              step={1}
              value={String(t[u.field])}
              onChange={(e) => set({ [u.field]: Number(e.target.value) })}
            />
            <span className="muted small">{u.unit}</span>
          </div>
        ) : (
          <p className="small rr-help" aria-live="polite">
            {recordedCalls.length > 0 ? `Compacts before ${callList(recordedCalls)}, where the recording did.` : 'The session has no recorded compaction: this trigger never fires.'}
          </p>
        )}
        {t.kind === 'fraction' ? (
          <p className="muted small rr-help">
            {windowTokens ? `Fires at ${formatCount(Math.floor((windowTokens * t.percent) / 100))} of a ${formatCount(windowTokens)}-token window.` : 'No context window is known for this session: this trigger never fires.'}
          </p>
        ) : null}
        {defaultNote ? (
          <p className="muted small rr-help rr-default-note" aria-label="Why this default">
            {defaultNote}
          </p>
        ) : null}
      </div>
    </fieldset>
  );
}

/** What leaving a placeholder out of an edited prompt does to the run. */
function missingWhy(missing: string[]): string {
  if (missing.includes('slice') || missing.includes('reasoning')) return 'the summarizer will not see the messages it should summarize.';
  if (missing.includes('prior_summary')) return 'an earlier summary’s facts will not reach the new one.';
  return 'that value will not be sent.';
}

export function PromptFields({ form, setForm, disabled }: Props) {
  const prompts = promptFields(form);
  const raw = form.params[form.strategy] ?? {};
  const id = useId();
  if (prompts.length === 0) return null;
  const setParam = (name: string, value: unknown) => setForm({ ...form, params: { ...form.params, [form.strategy]: { ...raw, [name]: value } } });
  return (
    <details className="rr-prompts">
      <summary>
        Prompts <span className="muted small">({prompts.length}, editable; {'{placeholders}'} are filled at run time)</span>
        {prompts.some((p) => p.edited) ? <span className="badge new">edited</span> : null}
      </summary>
      <fieldset className="rr-fieldset rr-prompt-list" disabled={disabled}>
        <legend className="visually-hidden">Prompts</legend>
        {prompts.map((p) => {
          const tid = `${id}-${p.param}`;
          const rows = Math.min(14, Math.max(3, p.template.split('\n').length + 1));
          return (
            <div key={p.param} className="rr-prompt">
              <div className="rr-prompt-head">
                <label htmlFor={tid}>{p.label}</label>
                <span className="rr-placeholders" aria-label={`Placeholders in ${p.label}`}>
                  {p.placeholders.length === 0 ? <span className="muted small">no placeholders</span> : p.placeholders.map((x) => <code key={x}>{`{${x}}`}</code>)}
                </span>
                {p.edited ? (
                  <button type="button" className="link" onClick={() => setParam(p.param, null)} aria-label={`Reset ${p.label} to the default`}>
                    Reset
                  </button>
                ) : null}
              </div>
              <textarea id={tid} rows={rows} spellCheck={false} value={p.template} onChange={(e) => setParam(p.param, e.target.value)} />
              {p.missing.length > 0 ? (
                <p className="rr-warn small">
                  Missing {p.missing.map((x) => `{${x}}`).join(', ')}: {missingWhy(p.missing)}
                </p>
              ) : null}
              {p.unknown.length > 0 ? <p className="muted small">{p.unknown.map((x) => `{${x}}`).join(', ')} is not filled by this strategy and is sent as written.</p> : null}
            </div>
          );
        })}
      </fieldset>
    </details>
  );
}
