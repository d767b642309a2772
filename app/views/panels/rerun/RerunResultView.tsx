// The Re-run result region: the summary as it streams in, every fallback with its reason, figures for the
// original and the rerun, and the two contexts side by side at the selected call with the recap highlighted.
import { memo, useMemo, useRef } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { describeTrigger, fireText, TRUNCATION_MARKER, type RerunResult } from '../../../../src/compaction';
import type { AnalysisView } from '../../../../src/analysis/analysis-view';
import type { Item } from '../../../../src/model/types';
import { alignContexts, eventInEffect, fallbackNotes, listCalls, sideItem, type SideItem } from '../../../../src/rerun/compare';
import type { RunOutput, SessionRerun } from '../../../data/rerun-client';
import type { GoTo } from '../panel-props';
import { count as formatCount } from '../../../format/count';
import { useApp } from '../../../store';
import { ProbesSection } from './ProbesSection';

const num = (n: number | null | undefined) => (n === null || n === undefined ? '—' : formatCount(Math.round(n)));
export function usd(n: number | null | undefined, digits = 3): string {
  if (n === null || n === undefined) return '—';
  if (n === 0) return '$0';
  return n >= 1 ? `$${n.toFixed(2)}` : `$${n.toPrecision(digits)}`;
}

interface Props {
  run: SessionRerun;
  view: AnalysisView;
  callIndex: number;
  itemById: ReadonlyMap<string, Item>;
  goTo(t: GoTo): void;
}

export function RerunResultView({ run, view, callIndex, itemById, goTo }: Props) {
  const running = run.status === 'running';
  const out = run.shown;
  return (
    <section className="rr-result" role="region" aria-label="Re-run result" aria-busy={running}>
      <h3 className="rr-result-title">Result</h3>
      {running ? <Progress run={run} /> : null}
      {run.status === 'error' && run.error ? (
        <p className="rr-error" role="alert">
          The rerun failed: {run.error}. The original is unchanged.
        </p>
      ) : null}
      {running && run.live ? <LiveSummary callIndex={run.live.callIndex} text={run.live.text} /> : null}
      {out ? (
        <Outcome out={out} label={run.shownLabel} view={view} callIndex={callIndex} itemById={itemById} goTo={goTo} stale={running} />
      ) : !running && run.status !== 'error' ? (
        <p className="muted rr-empty">Press Run to re-run compaction over this session. The rerun appears here beside the original; the original stays as it is.</p>
      ) : null}
    </section>
  );
}

function Progress({ run }: { run: SessionRerun }) {
  const p = run.progress;
  let text = 'Starting…';
  let value: number | null = null;
  if (p?.kind === 'run') {
    text = p.phase === 'summarizing' ? `Summarizing at call ${p.callIndex + 1} of ${p.calls} (${run.summarizer})…` : `Call ${p.callIndex + 1} of ${p.calls}…`;
    value = p.calls > 0 ? (p.callIndex + 1) / p.calls : null;
  } else if (p?.kind === 'sweep') {
    text = `Sweep run ${p.run + 1} of ${p.runs}, call ${p.callIndex + 1} of ${p.calls}…`;
    value = p.runs > 0 ? (p.run + (p.calls > 0 ? (p.callIndex + 1) / p.calls : 0)) / p.runs : null;
  }
  return (
    <div className="rr-progress">
      <progress aria-label="Re-run progress" {...(value !== null ? { value, max: 1 } : {})} />
      <span role="status">{text}</span>
    </div>
  );
}

function LiveSummary({ callIndex, text }: { callIndex: number; text: string }) {
  return (
    <div className="rr-live">
      <div className="rr-live-head">
        <span className="badge kind-summary">summary</span> Being written for call {callIndex + 1}
        <span className="rr-caret" aria-hidden="true" />
      </div>
      {text === '' ? (
        <p className="muted small rr-live-wait">Waiting for the first words…</p>
      ) : (
        <pre className="rr-live-text" aria-label="Summary so far">
          {text}
        </pre>
      )}
    </div>
  );
}

interface OutcomeProps {
  out: RunOutput;
  label: string | null;
  view: AnalysisView;
  callIndex: number;
  itemById: ReadonlyMap<string, Item>;
  goTo(t: GoTo): void;
  stale: boolean;
}

function Outcome({ out, label, view, callIndex, itemById, goTo, stale }: OutcomeProps) {
  const r = out.result;
  const sessionKey = useApp((s) => s.activeKey) ?? r.sessionId;
  const notes = useMemo(() => fallbackNotes(r.events), [r]);
  const k = Math.min(callIndex, r.calls.length - 1);
  return (
    <div className={`rr-outcome${stale ? ' stale' : ''}`}>
      <p className="rr-headline">
        {label ? <strong>{label}. </strong> : null}
        {r.policy ? <strong>{r.policy.label} policy · </strong> : null}
        <span className="badge">{r.strategy}</span> {describeTrigger(r.trigger)}
        {r.policy ? <span className="muted"> ({r.policy.triggerExplained})</span> : null} · summarizer <strong>{r.summarizer}</strong> ·{' '}
        {r.rerun.compactions === 0 ? 'the trigger never fired: no compaction' : `${r.rerun.compactions} compaction${r.rerun.compactions === 1 ? '' : 's'} at call${r.events.length === 1 ? '' : 's'} ${listFires(r.events)}`}
        {r.costs.original.events.length > 0 ? <span className="muted"> · recorded: call{r.costs.original.events.length === 1 ? '' : 's'} {r.costs.original.events.map((e) => e.call).join(', ')}</span> : null}
        {r.status === 'cancelled' ? <span className="rr-warn"> · cancelled: {r.statusReason}; figures cover the calls before it</span> : null}
      </p>
      {notes.length > 0 ? (
        <ul className="rr-fallbacks" aria-label="Fallbacks">
          {notes.map((n) => (
            <li key={`${n.failure}|${n.reason}`}>
              <code className="rr-marker-text">{TRUNCATION_MARKER}</code> {n.text}
              <span className="muted small">
                {' '}
                (call{n.calls.length === 1 ? '' : 's'} {listCalls(n.calls)})
              </span>
            </li>
          ))}
        </ul>
      ) : null}
      {[...r.warnings, ...(out.countNote ? [out.countNote] : [])].map((w) => (
        <p key={w} className="rr-warn small">
          {w}
        </p>
      ))}
      <p className="muted small rr-history">
        Started from the uncompacted history: {r.history.recapsLeftOut} recorded summar{r.history.recapsLeftOut === 1 ? 'y' : 'ies'} or marker{r.history.recapsLeftOut === 1 ? '' : 's'} left out, {num(r.history.restored)} replaced item{r.history.restored === 1 ? '' : 's'} put back
        {r.history.lost.length > 0 ? `; ${r.history.lost.length} compaction${r.history.lost.length === 1 ? '' : 's'} whose originals the format did not keep` : ''}. {r.measure === 'calibrated'
          ? `${r.trigger.kind === 'recorded' ? 'Prompt sizes read each call’s reported prompt' : `Triggers read ${r.measureAt === 'last-response' ? 'the previous call’s reported prompt and output (the harness checks after each response)' : 'each call’s reported prompt'}`} while the rerun sends what the recording sent; after that, a reported prompt less what the rerun removed plus what it inserted, calibrated on this session, with its error band.`
          : r.trigger.kind === 'recorded' ? 'Prompt sizes are counted.' : 'Triggers measure the prompt as counted.'}
      </p>
      <FiredWhere r={r} />
      <Tiles r={r} />
      <CompactionCostTable r={r} />
      {k >= 0 ? <Figures out={out} view={view} k={k} /> : <p className="muted">No call was re-run.</p>}
      <Identifiers r={r} />
      <ProbesSection r={r} view={view} itemById={itemById} sessionKey={sessionKey} />
      {k >= 0 ? <CallCompare out={out} view={view} k={k} callIndex={callIndex} itemById={itemById} goTo={goTo} /> : null}
    </div>
  );
}

function listFires(events: RerunResult['events']): string {
  const labels = events.map((e) => fireText(e.callIndex, e.fireWindow));
  if (labels.length <= 4) return labels.length === 1 ? labels[0]! : `${labels.slice(0, -1).join(', ')} and ${labels[labels.length - 1]}`;
  return `${labels.slice(0, 3).join(', ')} and ${labels.length - 3} more`;
}

/** Each recorded compaction beside the replay's: did the policy fire where the harness fired? */
function FiredWhere({ r }: { r: RerunResult }) {
  if (r.recordedMatch.length === 0) return null;
  const sourceAt = (call: number) => {
    const c = r.calls[call - 1];
    if (r.measure === 'counted' || !c) return 'counted';
    return c.measureSource === 'reported' ? 'the call’s reported prompt' : c.measureSource === 'anchored' ? `call ${c.index}’s reported prompt and the calibrated difference` : 'calibrated counts (no reported prompt)';
  };
  // Only the policy of the harness that wrote the session is expected to fire where it did; others are shown, not judged.
  const judged = r.ownPolicy || r.trigger.kind === 'recorded';
  return (
    <ul className="rr-fired" aria-label="Where it fired">
      {r.recordedMatch.map((m) => (
        <li key={m.compactionId} className={judged ? `rr-fired-${m.verdict}` : undefined}>
          <span className="badge">{!judged && m.verdict !== 'manual' ? 'recorded' : m.verdict === 'within-one' ? 'within one call' : m.verdict === 'within-band' ? 'within the band' : m.verdict === 'manual' ? 'manual' : m.verdict === 'not-fired' ? 'did not fire' : m.verdict === 'not-compared' ? 'same call' : 'off'}</span>{' '}
          The recording compacted before call {m.call}
          {m.trigger ? ` (${m.trigger}${m.harnessTokens !== null ? `, logged at ${num(m.harnessTokens)} tokens` : ''})` : m.harnessTokens !== null ? ` (logged at ${num(m.harnessTokens)} tokens)` : ''}
          {m.verdict === 'manual'
            ? ': the user asked for it (/compact), so no trigger is expected to fire there; not compared.'
            : m.verdict === 'not-compared'
              ? ': the rerun compacts at the same call.'
              : m.verdict === 'not-fired'
                ? `; the rerun never fired near it${m.measured !== null ? ` (it measured ${num(m.measured)}${m.band ? ` ± ${num(m.band)}` : ''} tokens there, from ${sourceAt(m.call)})` : ''}.`
                : `; the rerun fires at call ${m.replayCall}${m.window && (m.window.early !== m.replayCall || m.window.late !== m.replayCall) ? ` (its band allows ${m.window.early}–${m.window.late ?? 'the end'})` : ''}${m.offset ? `, ${Math.abs(m.offset)} call${Math.abs(m.offset) === 1 ? '' : 's'} ${m.offset < 0 ? 'early' : 'late'}` : ''}${m.measured !== null ? `; it measured ${num(m.measured)}${m.band ? ` ± ${num(m.band)}` : ''} tokens at call ${m.call}, from ${sourceAt(m.call)}` : ''}.`}
        </li>
      ))}
    </ul>
  );
}

/** The cost of compacting, the recorded run beside the rerun: summarizer, cache miss, tokens saved, in dollars. */
function CompactionCostTable({ r }: { r: RerunResult }) {
  const o = r.costs.original.totals;
  const n = r.costs.rerun.totals;
  const rows: { label: string; help: string; o: string; n: string }[] = [
    { label: 'Compactions (calls)', help: '1-based call the compacted context was first sent at', o: `${o.compactions}${o.compactions ? ` (${r.costs.original.events.map((e) => e.call).join(', ')})` : ''}`, n: `${n.compactions}${n.compactions ? ` (${r.costs.rerun.events.map((e) => e.call).join(', ')})` : ''}` },
    { label: 'Summarizer tokens (in / out)', help: 'the summarizer call; a recorded session rarely logs it', o: o.summarizerPromptTokens === null ? 'not recorded' : `${num(o.summarizerPromptTokens)} / ${num(o.summarizerOutputTokens)}`, n: `${num(n.summarizerPromptTokens)} / ${num(n.summarizerOutputTokens)}` },
    { label: 'Summarizer cost', help: 'at the session model’s price (harnesses summarize with their own model)', o: usd(o.summarizerUsd), n: usd(n.summarizerUsd) },
    { label: 'Cache miss on the next call', help: 'tokens of the compacted prompt not served from cache', o: `${num(o.missTokens)} tok · ${usd(o.missUsd)}`, n: `${num(n.missTokens)} tok · ${usd(n.missUsd)}` },
    { label: 'Tokens saved until the next compaction', help: 'tokens taken out × calls they stay out; priced as cache reads', o: `${num(o.savedTokens)} tok · ${usd(o.savedUsd)}`, n: `${num(n.savedTokens)} tok · ${usd(n.savedUsd)}` },
    {
      label: 'Re-fetch tax',
      help: 'results of tool calls repeated after a compaction for what it removed (same tool, same file or command); known only for the run that happened: a re-run never ran the agent',
      o: o.refetchTax === null ? 'not known (a compaction records no removed items)' : `${num(o.refetchTax)} tok`,
      n: 'unknown: never run',
    },
    { label: 'Net (saved − summarizer − miss)', help: 'dollars, where the model has a price', o: usd(o.netUsd), n: usd(n.netUsd) },
  ];
  return (
    <table className="rr-figures rr-cost" aria-label="Cost of compacting">
      <caption className="small muted">Cost of compacting{n.priceLabel ? ` · priced as ${n.priceLabel}` : ' · no price known for this model: tokens only'}</caption>
      <thead>
        <tr>
          <th scope="col" />
          <th scope="col">Recorded run</th>
          <th scope="col">Re-run</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.label}>
            <th scope="row" title={row.help}>
              {row.label}
            </th>
            <td className="num">{row.o}</td>
            <td className="num">{row.n}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** What the eye should find first: the rerun against the original on the figures that decide. */
function Tiles({ r }: { r: RerunResult }) {
  const o = r.original;
  const n = r.rerun;
  const saved = o.totalInputTokens - n.totalInputTokens;
  const pct = o.totalInputTokens > 0 ? Math.round((Math.abs(saved) / o.totalInputTokens) * 100) : 0;
  const needO = o.identifiers.lostReferencedLaterValues.length;
  const needN = n.identifiers.lostReferencedLaterValues.length;
  const tone = (better: boolean, worse: boolean) => (better ? 'good' : worse ? 'bad' : '');
  return (
    <dl className="rr-tiles" aria-label="Rerun against the original">
      <div className={`rr-tile ${tone(saved > 0, saved < 0)}`}>
        <dt>Input tokens</dt>
        <dd>
          {saved === 0 ? 'same' : `${saved > 0 ? '−' : '+'}${num(Math.abs(saved))}`}
          <span className="rr-was">
            {saved === 0 ? '' : `${saved > 0 ? '−' : '+'}${pct}% · `}
            {num(n.totalInputTokens)} vs {num(o.totalInputTokens)}
          </span>
        </dd>
      </div>
      <div className={`rr-tile ${tone(needN < needO, needN > needO)}`}>
        <dt>Lost and needed later</dt>
        <dd>
          {needN} <span className="rr-was">vs {needO} in the original</span>
        </dd>
      </div>
      <div className={`rr-tile ${tone(false, n.identifiers.inventedValues.length > o.identifiers.inventedValues.length)}`}>
        <dt>Invented identifiers</dt>
        <dd>
          {n.identifiers.inventedValues.length} <span className="rr-was">vs {o.identifiers.inventedValues.length} in the original</span>
        </dd>
      </div>
      <div className={`rr-tile ${tone(n.prefixReused > o.prefixReused, n.prefixReused < o.prefixReused)}`}>
        <dt>Prefix reused (cache)</dt>
        <dd>
          {num(n.prefixReused)} <span className="rr-was">vs {num(o.prefixReused)} in the original</span>
        </dd>
      </div>
    </dl>
  );
}

function Figures({ out, view, k }: { out: RunOutput; view: AnalysisView; k: number }) {
  const r = out.result;
  const call = r.calls[k]!;
  const event = r.events.find((e) => e.callIndex === k) ?? null;
  const origCompaction = view.calls[k]?.compactionId ? view.compactions.find((c) => c.id === view.calls[k]!.compactionId) : undefined;
  const origSum = view.compactions.reduce(
    (acc, c) => (c.tokensBefore !== null && c.tokensAfter !== null ? { before: acc.before + c.tokensBefore, after: acc.after + c.tokensAfter, n: acc.n + 1 } : acc),
    { before: 0, after: 0, n: 0 },
  );
  const rerunSum = r.events.reduce((acc, e) => ({ before: acc.before + e.tokensBefore, after: acc.after + e.tokensAfter }), { before: 0, after: 0 });
  const arrow = (a: number | null | undefined, b: number | null | undefined) => (a === null || a === undefined || b === null || b === undefined ? '—' : `${num(a)} → ${num(b)}`);
  const o = r.original;
  const n = r.rerun;
  const delta = (a: number, b: number) => {
    if (a === b) return null;
    const d = b - a;
    return (
      <span className={`rr-delta ${d < 0 ? 'down' : 'up'}`}>
        {' '}
        ({d > 0 ? '+' : '−'}
        {num(Math.abs(d))})
      </span>
    );
  };
  return (
    <table className="rr-figures">
      <caption className="visually-hidden">Figures for the original and the rerun</caption>
      <thead>
        <tr>
          <th scope="col" />
          <th scope="col">Original</th>
          <th scope="col">Rerun</th>
        </tr>
      </thead>
      <tbody>
        <tr className="rr-group">
          <th scope="rowgroup" colSpan={3}>
            At call {k + 1}
          </th>
        </tr>
        <tr>
          <th scope="row" title="The whole prompt as the provider counts it: its reported figure where the call sends what the recording sent, else a reported prompt less what the rerun removed plus what it inserted (calibrated on this session)">
            Prompt tokens
          </th>
          <td>
            {num(call.original.tokens)}
            <Source source={call.original.source} band={call.original.band} />
          </td>
          <td>
            {num(call.rerun.tokens)}
            <Source source={call.rerun.source} band={call.rerun.band} />
            {delta(call.original.tokens, call.rerun.tokens)}
          </td>
        </tr>
        <tr>
          <th scope="row" title={r.measureAt === 'last-response' ? 'What the trigger compares with its threshold: the previous call’s prompt plus its output, as the harness checks after each response' : 'What the trigger compares with its threshold: the prompt about to be sent, before any compaction at this call'}>
            What the trigger measured
          </th>
          <td>{num(view.calls[k]?.contextTokens)}</td>
          <td>
            {r.measure === 'calibrated' ? (
              <>
                {num(call.measuredBefore)}
                <Source source={call.measureSource} band={call.band} />
              </>
            ) : (
              <span className="muted">counted</span>
            )}
          </td>
        </tr>
        <tr>
          <th scope="row">Tokens before → after compaction here</th>
          <td>{origCompaction ? <Logged>{arrow(origCompaction.tokensBefore, origCompaction.tokensAfter)}</Logged> : <span className="muted">none</span>}</td>
          <td>{event ? arrow(event.tokensBefore, event.tokensAfter) : <span className="muted">none</span>}</td>
        </tr>
        <tr>
          <th scope="row">Prefix tokens reused on the next call</th>
          <td>{num(call.original.prefixReusedNext)}</td>
          <td>{num(call.rerun.prefixReusedNext)}</td>
        </tr>
        <tr>
          <th scope="row" title="Read from the provider's cache / written to it: reported where the call is the recording's, else modelled with the provider's rule">
            Cache read / written
          </th>
          <td>
            {num(call.original.cached)} / {num(call.original.written)}
            {call.original.billSource === 'modelled' ? <sup className="rr-logged">model</sup> : null}
          </td>
          <td>
            {num(call.rerun.cached)} / {num(call.rerun.written)}
            {call.rerun.billSource === 'modelled' ? <sup className="rr-logged">model</sup> : null}
          </td>
        </tr>
        <tr>
          <th scope="row">Prompt cost</th>
          <td>{usd(call.original.cost)}</td>
          <td>{usd(call.rerun.cost)}</td>
        </tr>
        <tr className="rr-group">
          <th scope="rowgroup" colSpan={3}>
            All {r.calls.length} calls
          </th>
        </tr>
        <tr>
          <th scope="row">Compactions (fallbacks)</th>
          <td>
            {o.compactions} ({o.fallbacks})
          </td>
          <td>
            {n.compactions} ({n.fallbacks})
          </td>
        </tr>
        <tr>
          <th scope="row">Tokens before → after compaction</th>
          <td>{origSum.n > 0 ? <Logged>{arrow(origSum.before, origSum.after)}</Logged> : '—'}</td>
          <td>{r.events.length > 0 ? arrow(rerunSum.before, rerunSum.after) : '—'}</td>
        </tr>
        <tr>
          <th scope="row">Input tokens</th>
          <td>{num(o.totalInputTokens)}</td>
          <td>
            {num(n.totalInputTokens)}
            {delta(o.totalInputTokens, n.totalInputTokens)}
          </td>
        </tr>
        <tr>
          <th scope="row">Peak context</th>
          <td>{num(o.peakTokens)}</td>
          <td>{num(n.peakTokens)}</td>
        </tr>
        <tr>
          <th scope="row">Cache read / written</th>
          <td>
            {num(o.cachedTokens)} / {num(o.writtenTokens)}
          </td>
          <td>
            {num(n.cachedTokens)} / {num(n.writtenTokens)}
          </td>
        </tr>
        <tr>
          <th scope="row">Identifiers kept</th>
          <td>{o.identifiers.keptValues.length}</td>
          <td>{n.identifiers.keptValues.length}</td>
        </tr>
        <tr>
          <th scope="row">Identifiers lost</th>
          <td>{o.identifiers.lostValues.length}</td>
          <td>{n.identifiers.lostValues.length}</td>
        </tr>
        <tr>
          <th scope="row">Lost and needed by a later turn</th>
          <td>{o.identifiers.lostReferencedLaterValues.length}</td>
          <td>{n.identifiers.lostReferencedLaterValues.length}</td>
        </tr>
        <tr>
          <th scope="row">Identifiers invented</th>
          <td>{o.identifiers.inventedValues.length}</td>
          <td>{n.identifiers.inventedValues.length}</td>
        </tr>
        <tr>
          <th scope="row" title="Counted tokens of each prompt the next call repeats byte for byte, summed">
            Prefix tokens reused on the next call
          </th>
          <td>{num(o.prefixReused)}</td>
          <td>{num(n.prefixReused)}</td>
        </tr>
        <tr>
          <th scope="row" title="Uncached input, cache reads and cache writes at the dated prices (src/cost/prices.ts)">
            Estimated input cost
          </th>
          <td>{usd(o.inputCost)}</td>
          <td>
            {usd(n.inputCost)}
            {n.summarizerCost ? <span className="muted small"> + {usd(n.summarizerCost)} summarizer</span> : null}
          </td>
        </tr>
      </tbody>
    </table>
  );
}

/** Where a prompt figure comes from, as a superscript: nothing for the reported figure, else how it was worked out. */
function Source({ source, band }: { source: 'reported' | 'anchored' | 'estimated'; band: number }) {
  if (source === 'reported' && band === 0) return null;
  const title = source === 'anchored' ? 'a reported prompt less what the rerun removed plus what it inserted, calibrated on this session' : source === 'estimated' ? 'no reported prompt: calibrated counts' : 'the reported prompt';
  return (
    <span className="rr-band" title={title}>
      {band > 0 ? ` ± ${num(band)}` : ''}
      <sup className="rr-logged">{source === 'anchored' ? 'est' : source === 'estimated' ? 'calc' : 'rep'}</sup>
    </span>
  );
}

/** The session's own figures, measured by its harness (its tokenizer, its context), not counted here. */
function Logged({ children }: { children: string }) {
  return (
    <span title="as the session logged it (its harness's count)">
      {children}
      <sup className="rr-logged">log</sup>
    </span>
  );
}

function ValueList({ title, values, tone }: { title: string; values: string[]; tone: 'kept' | 'lost' | 'invented' }) {
  return (
    <div className={`rr-values rr-${tone}`}>
      <h4>
        {title} <span className="muted">({values.length})</span>
      </h4>
      {values.length === 0 ? (
        <p className="muted small">none</p>
      ) : (
        <ul aria-label={title}>
          {values.slice(0, 60).map((v) => (
            <li key={v}>
              <code>{v}</code>
            </li>
          ))}
          {values.length > 60 ? <li className="muted small">and {values.length - 60} more</li> : null}
        </ul>
      )}
    </div>
  );
}

function Identifiers({ r }: { r: RerunResult }) {
  const o = r.original.identifiers;
  const n = r.rerun.identifiers;
  return (
    <details className="rr-identifiers">
      <summary>
        Identifiers: rerun keeps {n.keptValues.length}, loses {n.lostValues.length}
        {n.lostReferencedLaterValues.length > 0 ? ` (${n.lostReferencedLaterValues.length} needed later)` : ''}, invents {n.inventedValues.length}
        <span className="muted"> · original keeps {o.keptValues.length}, loses {o.lostValues.length}</span>
      </summary>
      <div className="rr-values-grid">
        <div>
          <h4 className="rr-side">Original</h4>
          <ValueList title="Original kept" values={o.keptValues} tone="kept" />
          <ValueList title="Original lost" values={o.lostValues} tone="lost" />
          <ValueList title="Original invented" values={o.inventedValues} tone="invented" />
        </div>
        <div>
          <h4 className="rr-side">Rerun</h4>
          <ValueList title="Rerun kept" values={n.keptValues} tone="kept" />
          <ValueList title="Rerun lost" values={n.lostValues} tone="lost" />
          <ValueList title="Rerun invented" values={n.inventedValues} tone="invented" />
        </div>
      </div>
    </details>
  );
}

const ROW = 30;

function CallCompare({ out, view, k, callIndex, itemById, goTo }: { out: RunOutput; view: AnalysisView; k: number; callIndex: number; itemById: ReadonlyMap<string, Item>; goTo(t: GoTo): void }) {
  const r = out.result;
  const call = r.calls[k]!;
  const left = useMemo<SideItem[]>(() => {
    const variant = new Set((view.calls[k]?.entries ?? []).filter((e) => e.variant).map((e) => e.id));
    return call.originalIds.map((id, i) => {
      const tokens = out.originalTokens[k]?.[i] ?? 0;
      const it = view.variants.get(id) ?? itemById.get(id);
      const side: SideItem = it ? sideItem(it, tokens, it) : { id, kind: 'message', role: 'user', name: null, tokens, preview: '', recap: null, created: false, rewritten: false };
      return variant.has(id) ? { ...side, rewritten: true } : side;
    });
  }, [view, k, call, out, itemById]);
  const right = useMemo<SideItem[]>(() => call.context.map((it, i) => sideItem(it, out.tokens[k]?.[i] ?? 0, itemById.get(it.id))), [call, out, k, itemById]);
  const rows = useMemo(() => alignContexts(left.map((x) => x.id), right.map((x) => x.id)), [left, right]);
  const inEffect = eventInEffect(r, k);
  const recap = inEffect?.summaryId ? call.context.find((it) => it.id === inEffect.summaryId) : undefined;
  const eventCalls = r.events.map((e) => e.callIndex);
  const prev = [...eventCalls].reverse().find((c) => c < callIndex);
  const next = eventCalls.find((c) => c > callIndex);

  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({ count: rows.length, getScrollElement: () => scrollRef.current, estimateSize: () => ROW, overscan: 10 });
  const items = virtualizer.getVirtualItems();
  const padTop = items.length ? items[0]!.start : 0;
  const padBottom = items.length ? virtualizer.getTotalSize() - items[items.length - 1]!.end : 0;
  const leftTotal = left.reduce((n, x) => n + x.tokens, 0);
  const rightTotal = right.reduce((n, x) => n + x.tokens, 0);

  return (
    <div className="rr-compare">
      <div className="rr-compare-head">
        <h4>Context at call {k + 1}</h4>
        <span className="muted small">
          {inEffect ? (inEffect.callIndex === k ? 'the rerun compacted here' : `rerun compaction from call ${inEffect.callIndex + 1} in effect`) : 'no rerun compaction yet'}
        </span>
        <span className="stepper-gap" />
        <button type="button" disabled={prev === undefined} onClick={() => prev !== undefined && goTo({ call: prev })} aria-label="Previous rerun compaction">
          ‹ compaction
        </button>
        <button type="button" disabled={next === undefined} onClick={() => next !== undefined && goTo({ call: next })} aria-label="Next rerun compaction">
          compaction ›
        </button>
      </div>
      <div className="rr-compare-scroll" ref={scrollRef}>
        <table className="rr-compare-table">
          <caption className="visually-hidden">Original context and rerun context at call {k + 1}, aligned by item</caption>
          <thead>
            <tr>
              <th scope="col">
                Original <span className="muted small">{left.length} items · {num(leftTotal)} tokens</span>
              </th>
              <th scope="col">
                Rerun <span className="muted small">{right.length} items · {num(rightTotal)} tokens</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {padTop > 0 ? (
              <tr aria-hidden="true">
                <td colSpan={2} style={{ height: padTop, padding: 0, border: 'none' }} />
              </tr>
            ) : null}
            {items.map((vi) => {
              const row = rows[vi.index]!;
              return (
                <tr key={vi.index} data-index={vi.index} ref={virtualizer.measureElement}>
                  <Cell item={row.left === null ? null : left[row.left]!} side="original" onPick={(id) => goTo({ item: id })} />
                  <Cell item={row.right === null ? null : right[row.right]!} side="rerun" onPick={(id) => (itemById.has(id) ? goTo({ item: id }) : undefined)} />
                </tr>
              );
            })}
            {padBottom > 0 ? (
              <tr aria-hidden="true">
                <td colSpan={2} style={{ height: padBottom, padding: 0, border: 'none' }} />
              </tr>
            ) : null}
          </tbody>
        </table>
      </div>
      {call.original.tokens > leftTotal ? <p className="muted small rr-footnote">The prompt also holds {num(call.original.tokens - leftTotal)} tokens the lists do not show (system prompt and tools the file leaves out, message framing, the tokenizer difference); item sizes are counted.</p> : null}
      {inEffect ? <RecapCard event={inEffect} recap={recap} /> : null}
    </div>
  );
}

const Cell = memo(function Cell({ item, side, onPick }: { item: SideItem | null; side: 'original' | 'rerun'; onPick(id: string): void }) {
  if (!item) return <td className={`rr-cell rr-none ${side}`} aria-label={side === 'rerun' ? 'not in the rerun context' : 'not in the original context'} />;
  const cls = ['rr-cell', side, item.recap ? `rr-recap-${item.recap}` : '', item.created ? 'created' : '', item.rewritten ? 'rewritten' : ''].filter(Boolean).join(' ');
  const kindClass = item.kind === 'message' ? `role-${item.role}` : `kind-${item.kind}`;
  const what = item.kind === 'message' ? item.role : item.kind.replace('_', ' ');
  return (
    <td className={cls} title={item.preview}>
      <span className="rr-cell-inner">
        <span className={`badge ${kindClass}`}>{item.recap === 'marker' ? 'marker' : what}</span>
        {item.created ? (
          <span className="rr-id">{item.id}</span>
        ) : (
          <button type="button" className="link rr-id" onClick={() => onPick(item.id)} aria-label={`Show item ${item.id}`}>
            {item.id}
          </button>
        )}
        {item.name ? <span className="item-name small">{item.name}</span> : null}
        {item.rewritten ? <span className="badge omit">{side === 'rerun' ? 'rewritten' : 'variant'}</span> : null}
        <span className="rr-tokens">{num(item.tokens)}</span>
      </span>
    </td>
  );
});

function RecapCard({ event, recap }: { event: RerunResult['events'][number]; recap: Item | undefined }) {
  const marker = event.summaryKind === 'marker';
  return (
    <div className={`rr-recap-card ${marker ? 'marker' : event.summaryKind === 'summary' ? 'summary' : 'in-place'}`}>
      <div className="rr-recap-head">
        <span className={`badge ${marker ? 'kind-compaction' : 'kind-summary'}`}>{marker ? 'static marker' : event.summaryKind === 'summary' ? 'recap' : event.label ?? 'in place'}</span>
        <span>
          Rerun compaction {event.index + 1} at call {event.callIndex + 1}: {event.replacedIds.length} item{event.replacedIds.length === 1 ? '' : 's'} {event.label ?? 'replaced'}
          {event.foldedIds.length > 0 ? `, ${event.foldedIds.length} earlier recap folded in` : ''} · {num(event.tokensBefore)} → {num(event.tokensAfter)} tokens
        </span>
      </div>
      {event.fallback ? (
        <p className="rr-fallback-reason">
          Fell back to the marker: {event.fallback.failure} — {event.fallback.reason}
        </p>
      ) : null}
      {recap ? <pre className="rr-recap-text">{recap.text}</pre> : event.note ? <p className="muted small">{event.note}</p> : null}
    </div>
  );
}
