// What was loaded: format, files, counts, compactions and what was set aside.
import type React from 'react';
import { useId, useState } from 'react';
import { sidechainSession, sidechainSummaries, type SidechainSummary } from '../../src/analysis/sidechain-summary';
import type { Session } from '../../src/model/types';
import type { ReportedFigures, SessionFacts } from '../../src/analysis/session-facts';
import type { FirstLook } from '../store/session-slice';
import { useAnalysis } from '../data/analysis-client';
import { useApp } from '../store';
import { plain, Untrusted } from '../components/Untrusted';
import { count as formatCount } from '../format/count';
import { formatLabel } from '../format/format-label';
import { formatUsd } from '../../src/charts/cache-summary';
import { costSentence, offBranchSentence, OFF_BRANCH_NOTE } from '../../src/charts/cost-summary';
import { PRICES_AS_OF } from '../../src/cost/prices';

export { formatLabel };

const fmt = (n: number | null) => (n === null ? '?' : formatCount(n));

/** One sidechain in a line: what it was, how many calls, which parent call started it, what it used. */
function sidechainLine(s: SidechainSummary): string {
  const what = s.purpose === 'subagent' ? `Subagent ${s.id}${s.agentType ? ` (${s.agentType}${s.description ? `: ${s.description}` : ''})` : ''}` : `Compaction summarizer ${s.id}`;
  const from = s.parentCall !== null ? ` · started by call ${s.parentCall}` : '';
  const prompt = s.promptTokens;
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

/** Where the peak figure comes from, and how well our counting explains the provider's figures. */
function peakTitle(f: SessionFacts): string {
  const tk = f.tokenizer;
  const explained = tk.fitSpread !== null ? `; counted tokens explain the reported prompts within ±${Math.max(1, Math.round(tk.fitSpread * 100))}% (unrecorded prefix ${fmt(tk.prefixTokens)} + ${tk.scale} × counted)` : '';
  if (f.peakSource === 'reported') return `The prompt the provider reported at call ${f.peakCall}${explained}`;
  if (f.peakSource === 'estimated') return `Estimated at call ${f.peakCall} (no reported usage there), ±${Math.round(f.peakUncertainty * 100)}%${explained}`;
  return `Counted at call ${f.peakCall}`;
}

const COST_NOTE = `Every response the provider billed, at its reported usage and the dated prices (table of ${PRICES_AS_OF}, or your prices): the model calls, the responses on abandoned branches and the sidechains' calls`;

const DETAILS_KEY = 'compaction-inspector.session-details';

/** Whether the header's details were left open (kept for the next session and visit). */
function detailsOpen(): boolean {
  try {
    return localStorage.getItem(DETAILS_KEY) === 'open';
  } catch {
    return false;
  }
}

function rememberDetailsOpen(open: boolean): void {
  try {
    localStorage.setItem(DETAILS_KEY, open ? 'open' : 'closed');
  } catch {
    // Storage blocked: the choice lasts as long as the page.
  }
}

/**
 * The header's first line: the session and the figures a user looks for first. `f` from the analysis; before it
 * (and for the cache hit rate until the cache analysis is in), the same figures from the reported usage alone
 * (reportedFigures in session-facts.ts): no estimate among them, so no badge is owed.
 */
function HeaderLine({ title, f, r, toggle }: { title: string; f: SessionFacts | null; r: ReportedFigures | null; toggle: React.ReactNode }) {
  const pending = <span className="muted">…</span>;
  const hitRate = f?.cache ? f.cache.hitRate : (r?.hitRate ?? null);
  return (
    <div className="header-line">
      <h2 title={plain(title)}>
        <Untrusted text={title} />
      </h2>
      {/* Facts that do not fit drop whole to a hidden second row (never cut mid-figure); Details repeats them. */}
      <dl className="facts facts-line">
        <div>
          <dt>Model calls</dt>
          <dd>{f ? fmt(f.calls) : r ? fmt(r.calls) : pending}</dd>
        </div>
        <div>
          <dt>Compactions</dt>
          <dd title={f && f.compactions.inferred ? `${f.compactions.recorded} recorded, ${f.compactions.inferred} inferred from the requests` : undefined}>
            {f ? `${fmt(f.compactions.total)}${f.compactions.inferred ? ` (${f.compactions.inferred} inferred)` : ''}` : r ? fmt(r.compactions) : pending}
          </dd>
        </div>
        {hitRate !== null ? (
          <div>
            <dt>Cache hit rate</dt>
            <dd title="Reported cache read over reported prompt tokens">{(hitRate * 100).toFixed(1)}%</dd>
          </div>
        ) : null}
        <div>
          <dt>Peak context</dt>
          <dd title={f ? peakTitle(f) : r?.peak ? `The prompt the provider reported at call ${r.peak.call}` : undefined}>
            {f ? `${fmt(f.peakContextTokens)}${f.peakSource === 'estimated' ? ` ±${Math.max(1, Math.round(f.peakUncertainty * 100))}%` : ''}` : r?.peak ? fmt(r.peak.tokens) : pending}
          </dd>
        </div>
      </dl>
      {toggle}
    </div>
  );
}

/** A load's session before it reaches the page: its header line from the reported usage (see FirstLook). */
export function FirstLookHeader({ look }: { look: FirstLook }) {
  return (
    <section className="session-header" aria-label="Session">
      <HeaderLine title={look.title} f={null} r={look.figures} toggle={null} />
    </section>
  );
}

/** The session's facts come from the one analysis every panel reads (src/analysis/session-facts.ts). */
export function SessionHeader({ sessionKey, session }: { sessionKey: string; session: Session }) {
  const rule = useApp((s) => s.rule);
  const state = useAnalysis(sessionKey, session, rule);
  const reported = useApp((s) => s.sessions.find((x) => x.key === sessionKey)?.reported?.figures ?? null);
  const view = state.status === 'ready' ? state.result.view : null;
  const f = view?.facts ?? null;
  const compactions = view?.compactions ?? null;
  const skipped = Object.entries(session.skipped);
  const skippedTotal = skipped.reduce((n, [, c]) => n + c, 0);
  const pending = <span className="muted">…</span>;
  const [compactionsOpen, setCompactionsOpen] = useState(false);
  const [open, setOpen] = useState(detailsOpen);
  const detailsId = useId();
  const toggle = () => {
    rememberDetailsOpen(!open);
    setOpen(!open);
  };
  const sidechains = session.sidechains.length;
  return (
    <section className="session-header" aria-label="Session">
      {/* One line: the session and the figures a user looks for first; the rest behind Details (issue 33: the
          header took half of a 1000×700 window). */}
      <HeaderLine
        title={session.title}
        f={f}
        r={reported}
        toggle={
          <button type="button" className="link header-toggle" aria-expanded={open} aria-controls={detailsId} onClick={toggle}>
            {open ? 'Fewer details' : 'Details'}
            {!open && sidechains ? <span className="muted"> ({sidechains} sidechain{sidechains === 1 ? '' : 's'})</span> : null}
          </button>
        }
      />
      {/* A disagreement between the harness's totals and its calls stays in sight with the details folded. */}
      {f?.totals?.warning ? (
        <p className="warn-text small" role="note">
          Totals disagree: {f.totals.warning}.
        </p>
      ) : null}
      {/* Billed responses the timeline leaves out stay in sight too: without them the calls read lower than the bill. */}
      {f?.offBranch ? (
        <p className="muted small off-branch" role="note" title={OFF_BRANCH_NOTE}>
          {offBranchSentence(f.offBranch, f.cost, formatCount, formatUsd)}
        </p>
      ) : null}
      <div id={detailsId} className="header-details" hidden={!open}>
      <dl className="facts">
        <div>
          <dt>Peak context</dt>
          <dd title={f ? peakTitle(f) : undefined}>{f ? `${fmt(f.peakContextTokens)} tokens${f.peakSource === 'reported' ? ' (reported)' : f.peakSource === 'estimated' ? ` (estimated ±${Math.max(1, Math.round(f.peakUncertainty * 100))}%)` : ''} at call ${f.peakCall}` : pending}</dd>
        </div>
        {f?.cache && f.cache.hitRate !== null ? (
          <div>
            <dt>Cache hit rate</dt>
            <dd>{(f.cache.hitRate * 100).toFixed(1)}% (reported cache read over reported prompt tokens)</dd>
          </div>
        ) : null}
        {f?.cost.usd != null ? (
          <div>
            <dt>Cost</dt>
            <dd title={COST_NOTE}>{costSentence(f.cost, formatCount, formatUsd)}</dd>
          </div>
        ) : null}
        <div>
          <dt>Format</dt>
          <dd>{formatLabel(session.format)}</dd>
        </div>
        <div>
          <dt>Items</dt>
          <dd>{f ? fmt(f.items) : pending}</dd>
        </div>
        <div>
          <dt>Tool calls</dt>
          <dd>{f ? fmt(f.toolCalls) : pending}</dd>
        </div>
        {f && f.models.length > 1 ? (
          <div>
            <dt>Models</dt>
            <dd title="Every model the calls ran on, with its number of calls; each call is priced at its own model">
              {f.models.map((m, i) => (
                <span key={i}>
                  {i ? ', ' : ''}
                  <Untrusted text={m.model} /> <span className="muted">({fmt(m.calls)} {m.calls === 1 ? 'call' : 'calls'})</span>
                </span>
              ))}
            </dd>
          </div>
        ) : (f?.models[0]?.model ?? session.model) ? (
          <div>
            <dt>Model</dt>
            <dd>
              <Untrusted text={(f?.models[0]?.model ?? session.model)!} />
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
      {compactions && compactions.length ? (
        <details className="compactions-details" onToggle={(e) => setCompactionsOpen(e.currentTarget.open)}>
          <summary className="small muted">Compactions</summary>
        {/* Rendered when opened: a session with thousands of compactions would build the list on every update. */}
        {compactionsOpen ? (
        <ul className="compactions" aria-label="Compactions">
          {compactions.map((c) => (
            <li key={c.id}>
              <span className="badge kind kind-compaction">{c.kind}</span> #{c.index + 1}
              {c.call !== null ? ` · before call ${c.call}` : ''}
              {c.trigger ? ` · ${c.trigger}` : ''}
              {c.tokensBefore !== null ? ` · ${fmt(c.tokensBefore)}` : ''}
              {c.tokensAfter !== null ? ` → ${fmt(c.tokensAfter)} tokens` : c.tokensBefore !== null ? ' tokens before' : ''}
              {c.tokensBeforeSource === 'estimated' || c.tokensAfterSource === 'estimated' ? ' (estimated)' : ''}
              {c.replacedIds.length ? ` · ${c.replacedIds.length} items replaced` : ''}
              {c.log?.fallback ? ' · fell back to the marker' : ''}
            </li>
          ))}
        </ul>
        ) : null}
        </details>
      ) : null}
      {skippedTotal ? (
        <p className="muted small">
          {/* Not "no conversation": an abandoned branch's records hold turns, though no later call saw them. */}
          {formatCount(skippedTotal)} {skippedTotal === 1 ? 'record is' : 'records are'} not shown ({plain(skipped.map(([t, c]) => `${t} ${c}`).join(', '))}).
        </p>
      ) : null}
      {session.sidechains.length ? (
        <div className="muted small sidechains">
          Joined sidechains:
          <ul aria-label="Sidechains">
            {sidechainSummaries(session).map((s, i) => (
              // One line each, its link first: a long description ends in an ellipsis (whole in the tooltip),
              // so the header stays short in a small window and no link is cut off.
              <li key={s.id} title={sidechainLine(s)}>
                {s.items > 0 ? (
                  <>
                    <button type="button" className="link" onClick={() => openSidechain(session, i)}>
                      Open {s.purpose === 'subagent' ? 'subagent' : 'summarizer'} {s.id}
                    </button>{' '}
                    ·{' '}
                  </>
                ) : null}
                {sidechainLine(s)}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      </div>
    </section>
  );
}
