// Optional secret redaction before sharing or exporting: which kinds, which extra strings.
import { useId } from 'react';
import { MIN_CUSTOM_CHARS, type RedactOptions } from '../../src/share';

export interface RedactChoice {
  on: boolean;
  apiKeys: boolean;
  tokens: boolean;
  emails: boolean;
  /** One string per line. */
  custom: string;
}

export const NO_REDACTION: RedactChoice = { on: false, apiKeys: true, tokens: true, emails: true, custom: '' };

/** The engine's options for a choice, or null when redaction is off. */
export function redactOptions(c: RedactChoice): RedactOptions | null {
  if (!c.on) return null;
  return { apiKeys: c.apiKeys, tokens: c.tokens, emails: c.emails, custom: c.custom.split('\n').map((s) => s.trim()).filter((s) => s.length >= MIN_CUSTOM_CHARS) };
}

export function RedactionOptions({ value, onChange, what }: { value: RedactChoice; onChange(v: RedactChoice): void; what: string }) {
  const id = useId();
  const set = (patch: Partial<RedactChoice>) => onChange({ ...value, ...patch });
  return (
    <fieldset className="redact">
      <legend>
        <label>
          <input type="checkbox" checked={value.on} onChange={(e) => set({ on: e.target.checked })} /> Redact secrets in {what}
        </label>
      </legend>
      {value.on ? (
        <div className="redact-kinds">
          <label>
            <input type="checkbox" checked={value.apiKeys} onChange={(e) => set({ apiKeys: e.target.checked })} /> API keys <span className="muted small">(OpenAI, Anthropic, AWS, Google, Hugging Face, Stripe)</span>
          </label>
          <label>
            <input type="checkbox" checked={value.tokens} onChange={(e) => set({ tokens: e.target.checked })} /> Tokens and passwords <span className="muted small">(GitHub, Slack, JWT, Bearer, password=…)</span>
          </label>
          <label>
            <input type="checkbox" checked={value.emails} onChange={(e) => set({ emails: e.target.checked })} /> Email addresses
          </label>
          <label className="redact-custom" htmlFor={`${id}-custom`}>
            Other strings to hide, one per line <span className="muted small">(names, hosts, ids; at least {MIN_CUSTOM_CHARS} characters)</span>
          </label>
          <textarea id={`${id}-custom`} rows={2} value={value.custom} onChange={(e) => set({ custom: e.target.value })} />
        </div>
      ) : null}
    </fieldset>
  );
}

export function ChangeList({ changes, label }: { changes: { original: string; replacement: string }[]; label: string }) {
  if (!changes.length) return null;
  return (
    <ul className="redact-changes" aria-label={label}>
      {changes.slice(0, 20).map((c) => (
        <li key={c.replacement}>
          <del>{c.original}</del> <span aria-hidden="true">→</span>
          <span className="visually-hidden"> becomes </span> <code>{c.replacement}</code>
        </li>
      ))}
      {changes.length > 20 ? <li className="muted">…and {changes.length - 20} more</li> : null}
    </ul>
  );
}
