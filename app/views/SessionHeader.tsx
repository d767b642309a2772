// What was loaded: format, files, counts, compactions and what was set aside.
import type { Session } from '../../src/model/types';
import { plain, Untrusted } from '../components/Untrusted';

const FORMAT_LABEL: Record<Session['format'], string> = {
  'claude-code': 'Claude Code session',
  codex: 'Codex CLI rollout',
  openhands: 'OpenHands events',
  livekit: 'LiveKit ChatContext',
  'openai-chat': 'OpenAI Chat Completions',
  'openai-responses': 'OpenAI Responses',
  anthropic: 'Anthropic Messages',
  'self-sum': 'Self-Sum trajectory',
  'agent-omit': 'Agent-Omit trajectory',
  sharegpt: 'ShareGPT / AgentGym',
  'reasoning-trace': 'Iterated-summarization trace',
  'compaction-log': 'Compaction log',
  'request-log': 'Request log',
};

export function formatLabel(f: Session['format']): string {
  return FORMAT_LABEL[f];
}

export function SessionHeader({ session }: { session: Session }) {
  const toolCalls = session.items.filter((i) => i.kind === 'tool_call').length;
  const skipped = Object.entries(session.skipped);
  const skippedTotal = skipped.reduce((n, [, c]) => n + c, 0);
  return (
    <section className="session-header" aria-label="Session">
      <dl className="facts">
        <div className="facts-title">
          <dt className="visually-hidden">Session</dt>
          <dd>
            <h2>
              <Untrusted text={session.title} />
            </h2>
          </dd>
        </div>
        <div>
          <dt>Format</dt>
          <dd>{FORMAT_LABEL[session.format]}</dd>
        </div>
        <div>
          <dt>Items</dt>
          <dd>{session.items.length.toLocaleString()}</dd>
        </div>
        <div>
          <dt>Tool calls</dt>
          <dd>{toolCalls.toLocaleString()}</dd>
        </div>
        <div>
          <dt>Compactions</dt>
          <dd>{session.compactions.length}</dd>
        </div>
        <div>
          <dt>Model calls</dt>
          <dd>{Math.max(session.responses.length, session.requests.length).toLocaleString()}</dd>
        </div>
        {session.model ? (
          <div>
            <dt>Model</dt>
            <dd>
              <Untrusted text={session.model} />
            </dd>
          </div>
        ) : null}
        <div>
          <dt>Files</dt>
          <dd>
            {session.files.map((f, i) => (
              <span key={i}>
                {i ? ', ' : ''}
                <Untrusted text={f} />
              </span>
            ))}
          </dd>
        </div>
      </dl>
      {session.compactions.length ? (
        <details className="compactions-details">
          <summary className="small muted">Recorded compactions</summary>
        <ul className="compactions" aria-label="Compactions">
          {session.compactions.map((c) => (
            <li key={c.id}>
              <span className="badge kind kind-compaction">{c.kind}</span> #{c.index + 1}
              {c.trigger ? ` · ${c.trigger}` : ''}
              {c.tokensBefore !== null ? ` · ${c.tokensBefore.toLocaleString()}` : ''}
              {c.tokensAfter !== null ? ` → ${c.tokensAfter.toLocaleString()} tokens` : c.tokensBefore !== null ? ' tokens before' : ''}
              {c.replacedIds.length ? ` · ${c.replacedIds.length} items replaced` : ''}
              {c.log?.fallback ? ' · fell back to the marker' : ''}
            </li>
          ))}
        </ul>
        </details>
      ) : null}
      {skippedTotal ? (
        <p className="muted small">
          {skippedTotal.toLocaleString()} records carry no conversation and are not shown ({plain(skipped.map(([t, c]) => `${t} ${c}`).join(', '))}).
        </p>
      ) : null}
      {session.sidechains.length ? (
        <p className="muted small">
          Joined sidechains: {session.sidechains.map((s) => `${s.id} (${s.purpose}, ${s.items.length} items)`).join(', ')}
        </p>
      ) : null}
    </section>
  );
}
