// What was loaded: format, files, counts, compactions and what was set aside.
import { sidechainSession, sidechainSummaries, type SidechainSummary } from '../../src/analysis/sidechain-summary';
import type { Session } from '../../src/model/types';
import { useApp } from '../store';

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

const fmt = (n: number | null) => (n === null ? '?' : n.toLocaleString('en-US'));

/** One sidechain in a line: what it was, how many calls, which parent call started it, what it used. */
function sidechainLine(s: SidechainSummary): string {
  const what = s.purpose === 'subagent' ? `Subagent ${s.id}${s.agentType ? ` (${s.agentType}${s.description ? `: ${s.description}` : ''})` : ''}` : `Compaction summarizer ${s.id}`;
  const from = s.parentCall !== null ? ` · started by call ${s.parentCall}` : '';
  const prompt = s.usage.input === null ? null : s.usage.input + (s.usage.cacheRead ?? 0) + (s.usage.cacheWrite ?? 0);
  const used = prompt !== null ? ` · ${fmt(prompt)} prompt and ${fmt(s.usage.output)} output tokens reported over its calls` : '';
  const loaded = s.items === 0 ? ' · its transcript is not loaded' : '';
  return `${what}: ${fmt(s.items)} items · ${fmt(s.calls)} call${s.calls === 1 ? '' : 's'}${from}${used}${loaded}`;
}

/** Opens a sidechain in a tab of its own, to step through its calls like any session. */
function openSidechain(session: Session, index: number): void {
  const sidechain = session.sidechains[index];
  if (!sidechain) return;
  useApp.getState().finishLoad(sidechain.file ? [sidechain.file] : [], [sidechainSession(session, sidechain)], []);
}

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
            <h2>{session.title}</h2>
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
            <dd>{session.model}</dd>
          </div>
        ) : null}
        <div>
          <dt>Files</dt>
          <dd>{session.files.join(', ')}</dd>
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
          {skippedTotal.toLocaleString()} records carry no conversation and are not shown ({skipped.map(([t, c]) => `${t} ${c}`).join(', ')}).
        </p>
      ) : null}
      {session.sidechains.length ? (
        <div className="muted small">
          Joined sidechains:
          <ul aria-label="Sidechains">
            {sidechainSummaries(session).map((s, i) => (
              <li key={s.id}>
                {sidechainLine(s)}
                {s.items > 0 ? (
                  <>
                    {' '}
                    <button type="button" className="link" onClick={() => openSidechain(session, i)}>
                      Open {s.purpose === 'subagent' ? 'subagent' : 'summarizer'} {s.id}
                    </button>
                  </>
                ) : null}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </section>
  );
}
