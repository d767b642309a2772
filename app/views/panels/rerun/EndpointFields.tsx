// The summarizer endpoint: an OpenAI-compatible /chat/completions URL, key and model. Empty Base URL: the
// offline summarizer runs and nothing leaves the page. The key stays in memory unless the user says otherwise.
import { useId, type ReactNode } from 'react';
import { chatCompletionsUrl } from '../../../../src/client';
import { EndpointPolicyNotice } from '../../../components/EndpointPolicyNotice';
import { endpointOrigin } from '../../../store/settings-slice';
import { useApp } from '../../../store';

/**
 * `legend` and `offline` let another user of the one endpoint setting (the Self-Sum judge) name it and say what
 * an empty Base URL means there.
 */
export function EndpointFields({ disabled, legend = 'Summarizer', offline }: { disabled: boolean; legend?: string; offline?: ReactNode }) {
  const endpoint = useApp((s) => s.endpoint);
  const remember = useApp((s) => s.remember);
  const rememberKey = useApp((s) => s.rememberKey);
  const setEndpoint = useApp((s) => s.setEndpoint);
  const setRemember = useApp((s) => s.setRemember);
  const setRememberKey = useApp((s) => s.setRememberKey);
  const origin = useApp(endpointOrigin);
  const id = useId();
  const empty = endpoint.baseUrl.trim() === '';
  const target = empty ? null : chatCompletionsUrl(endpoint.baseUrl);
  const num = (v: string, fallback: number) => (v === '' || !Number.isFinite(Number(v)) ? fallback : Number(v));
  return (
    <fieldset className="rr-fieldset" disabled={disabled}>
      <legend>{legend}</legend>
      <p className="small rr-endpoint-status" aria-live="polite">
        {empty && offline ? (
          offline
        ) : empty ? (
          <>
            <strong>Offline summarizer</strong> <span className="muted">— built in, extractive; no network. Set a Base URL to use an OpenAI-compatible endpoint.</span>
          </>
        ) : target && target.ok ? (
          <>
            <strong>Endpoint</strong> <span className="muted">— POST {target.shown}</span>
          </>
        ) : (
          <span className="rr-warn">{target && !target.ok ? target.reason : ''}</span>
        )}
      </p>
      {origin ? <EndpointPolicyNotice origin={origin} baseUrl={endpoint.baseUrl} model={endpoint.model} className="rr-warn" lost="Open sessions reopen from the Library; type the API key again afterwards." /> : null}
      <div className="rr-endpoint">
        <div className="rr-field rr-wide">
          <label htmlFor={`${id}-url`}>Base URL</label>
          <input id={`${id}-url`} type="url" inputMode="url" autoComplete="off" spellCheck={false} placeholder="http://127.0.0.1:11434/v1" value={endpoint.baseUrl} onChange={(e) => setEndpoint({ baseUrl: e.target.value })} />
        </div>
        <div className="rr-field">
          <label htmlFor={`${id}-key`}>API key</label>
          <input id={`${id}-key`} type="password" autoComplete="off" spellCheck={false} placeholder="optional" value={endpoint.apiKey} onChange={(e) => setEndpoint({ apiKey: e.target.value })} />
        </div>
        <div className="rr-field">
          <label htmlFor={`${id}-model`}>Model</label>
          <input id={`${id}-model`} type="text" autoComplete="off" spellCheck={false} placeholder="e.g. gpt-4.1-mini" value={endpoint.model} onChange={(e) => setEndpoint({ model: e.target.value })} />
        </div>
        <div className="rr-field rr-narrow">
          <label htmlFor={`${id}-temp`}>Temperature</label>
          <input id={`${id}-temp`} type="number" min={0} max={2} step={0.1} value={String(endpoint.temperature)} onChange={(e) => setEndpoint({ temperature: num(e.target.value, 0.2) })} />
        </div>
        <div className="rr-field rr-narrow">
          <label htmlFor={`${id}-max`}>Max tokens</label>
          <input id={`${id}-max`} type="number" min={1} step={1} value={String(endpoint.maxTokens)} onChange={(e) => setEndpoint({ maxTokens: Math.max(1, Math.floor(num(e.target.value, 512))) })} />
        </div>
        <div className="rr-field rr-narrow">
          <label htmlFor={`${id}-timeout`}>Timeout</label>
          <span className="rr-unit">
            <input
              id={`${id}-timeout`}
              type="number"
              min={1}
              step={1}
              aria-describedby={`${id}-timeout-unit`}
              value={String(endpoint.timeoutS)}
              onChange={(e) => setEndpoint({ timeoutS: Math.max(0.1, num(e.target.value, 25)) })}
            />
            <span id={`${id}-timeout-unit`} className="muted small">
              seconds
            </span>
          </span>
        </div>
      </div>
      <div className="rr-remember">
        <label>
          <input type="checkbox" checked={remember} onChange={(e) => setRemember(e.target.checked)} /> Remember these settings in this browser
        </label>
        <label className={remember ? undefined : 'muted'}>
          <input type="checkbox" checked={rememberKey} disabled={!remember} onChange={(e) => setRememberKey(e.target.checked)} /> Remember the API key too
        </label>
        <span className="muted small">
          {remember ? (rememberKey ? 'The key is stored in this browser’s local storage.' : `Stored: URL, model and limits${origin ? ` (${origin})` : ''}; the key stays in memory only.`) : 'Nothing is stored: the key lives in memory until you close the tab.'}
        </span>
      </div>
    </fieldset>
  );
}
