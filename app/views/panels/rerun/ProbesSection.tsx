// Probes of every compaction, recorded and re-run: questions generated from what each evicted, scored offline from
// its summary (the share of each probe's identifiers and files the summary holds), and, at the user's endpoint
// once its origin is allowed, each asked twice (compacted context, evicted content) and judged 0–5.
import { useMemo } from 'react';
import type { AnalysisView } from '../../../../src/analysis/analysis-view';
import type { RerunResult } from '../../../../src/compaction';
import type { Item } from '../../../../src/model/types';
import { kindScores, PROBE_KINDS, renderItems, type ProbeScore } from '../../../../src/probes';
import { askProbes, cancelProbes, useProbeAsk } from '../../../data/probe-client';
import { summarizerLabel } from '../../../data/rerun-client';
import { endpointOrigin } from '../../../store/settings-slice';
import { useApp } from '../../../store';
import { endpointBlocked } from '../../../components/EndpointPolicyNotice';
import type { ProbeJob } from '../../../workers/rerun.worker';

/** Probes asked at most in one go: three requests each. */
const MAX_ASKED = 40;

interface Row {
  side: 'recorded' | 'rerun';
  id: string;
  call: number;
  probes: ProbeScore[];
  note: string | null;
  compacted: () => Item[];
  evicted: () => Item[];
}

const pct = (v: number) => `${Math.round(v * 100)}%`;

export function ProbesSection({ r, view, itemById, sessionKey }: { r: RerunResult; view: AnalysisView; itemById: ReadonlyMap<string, Item>; sessionKey: string }) {
  const endpoint = useApp((s) => s.endpoint);
  const origin = useApp(endpointOrigin);
  const ask = useProbeAsk(sessionKey);
  const rows = useMemo<Row[]>(() => {
    const byId = (ids: readonly string[]) => ids.map((id) => itemById.get(id)).filter((it): it is Item => it !== undefined);
    const recorded = r.recordedProbes.map((p): Row => {
      const c = view.compactions.find((x) => x.id === p.compactionId);
      return {
        side: 'recorded',
        id: p.compactionId,
        call: p.call,
        probes: p.probes,
        note: p.note,
        compacted: () => (view.calls[p.call - 1]?.entries ?? []).map((e) => (e.variant ? view.variants.get(e.id) : itemById.get(e.id))).filter((it): it is Item => it !== undefined),
        evicted: () => byId(c?.replacedIds ?? []),
      };
    });
    const rerun = r.events.map(
      (e): Row => ({
        side: 'rerun',
        id: e.id,
        call: e.callIndex + 1,
        probes: e.probes,
        note: e.probes.length ? null : 'nothing in what it evicted to ask about',
        compacted: () => r.calls[e.callIndex]?.context ?? [],
        evicted: () => byId(e.sliceIds),
      }),
    );
    return [...recorded, ...rerun];
  }, [r, view, itemById]);
  const total = rows.reduce((n, row) => n + row.probes.length, 0);
  if (rows.length === 0) return null;
  const running = ask.status === 'running';
  const blocked = origin !== null && endpointBlocked(origin);
  const why = origin === null ? 'Set a Base URL under Summarizer to ask a model.' : blocked ? `Allow ${origin} under Summarizer first (“Allow this endpoint and reload”): nothing is sent before.` : null;
  const judged = (row: Row, probeId: string) => ask.results[`${row.side}:${row.id}:${probeId}`];
  const onAsk = () => {
    const jobs: ProbeJob[] = [];
    for (const row of rows) {
      if (row.probes.length === 0) continue;
      const material = { compacted: renderItems(row.compacted()), evicted: renderItems(row.evicted()) };
      for (const s of row.probes) if (jobs.length < MAX_ASKED) jobs.push({ key: `${row.side}:${row.id}:${s.probe.id}`, probe: s.probe, material });
    }
    void askProbes(sessionKey, jobs, endpoint, summarizerLabel(endpoint, origin));
  };
  const judgeMean = (row: Row) => {
    const scores = row.probes.map((s) => judged(row, s.probe.id)?.score).filter((x): x is number => typeof x === 'number');
    return scores.length ? (scores.reduce((n, x) => n + x, 0) / scores.length).toFixed(1) : null;
  };
  const p = ask.progress;
  return (
    <section className="rr-probes" aria-label="Probes">
      <h4>
        Probes <span className="muted small">questions from what each compaction evicted · offline: the share of each probe’s identifiers and files its summary holds</span>
      </h4>
      <table className="rr-figures rr-probe-table" aria-label="Probe scores">
        <thead>
          <tr>
            <th scope="col">Compaction</th>
            {PROBE_KINDS.map((k) => (
              <th scope="col" key={k}>
                {k}
              </th>
            ))}
            <th scope="col" title="Mean 0–5 score the judge gave the answers from the compacted context against those from the evicted content">
              Judge (0–5)
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.slice(0, 30).map((row) => {
            const ks = kindScores(row.probes);
            return (
              <tr key={`${row.side}:${row.id}`}>
                <th scope="row">
                  {row.side === 'recorded' ? 'Recorded' : 'Re-run'}, call {row.call}
                  {row.note ? <span className="muted small"> — {row.note}</span> : null}
                </th>
                {PROBE_KINDS.map((k) => (
                  <td key={k} className="num">
                    {ks[k] ? pct(ks[k]!.mean) : <span className="muted">—</span>}
                  </td>
                ))}
                <td className="num">{judgeMean(row) ?? <span className="muted">—</span>}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
      {rows.length > 30 ? <p className="muted small">and {rows.length - 30} more compactions (every one has its probes in the CLI’s JSON).</p> : null}
      <div className="rr-actions">
        <button type="button" onClick={onAsk} disabled={running || why !== null || total === 0} title={why ?? undefined}>
          Ask the endpoint
        </button>
        <button type="button" onClick={() => cancelProbes(sessionKey)} disabled={!running}>
          Cancel
        </button>
        <span className="muted small" role="status">
          {running && p
            ? `Probe ${Math.min(p.done + 1, p.total)} of ${p.total} · ${p.sent} request${p.sent === 1 ? '' : 's'} sent, ${p.cached} from the cache`
            : ask.status === 'cancelled'
              ? `Cancelled after ${p?.done ?? 0} of ${p?.total ?? 0} probes.`
              : ask.status === 'done' && p
                ? `Asked ${p.total} probe${p.total === 1 ? '' : 's'} of ${ask.answeredBy}: ${p.sent} request${p.sent === 1 ? '' : 's'} sent, ${p.cached} answered from the cache.`
                : ask.status === 'error'
                  ? `Failed: ${ask.error}`
                  : (why ?? `Each probe is asked twice (compacted context, evicted content) and judged 0–5: up to ${Math.min(total, MAX_ASKED) * 3} requests to ${origin}.`)}
        </span>
      </div>
      <details className="rr-probe-list">
        <summary>
          The questions <span className="muted small">({total})</span>
        </summary>
        {rows
          .filter((row) => row.probes.length > 0)
          .slice(0, 30)
          .map((row) => (
            <div key={`${row.side}:${row.id}`} className="rr-probe-group">
              <h5>
                {row.side === 'recorded' ? 'Recorded' : 'Re-run'} compaction, call {row.call}
              </h5>
              <ul>
                {row.probes.map((s) => {
                  const j = judged(row, s.probe.id);
                  return (
                    <li key={s.probe.id}>
                      <span className="badge">{s.probe.kind}</span> {s.probe.question}{' '}
                      <span className="muted small">
                        offline {pct(s.score)} · holds {s.held.length ? s.held.join(', ') : 'none'}
                        {s.missing.length ? ` · lost ${s.missing.join(', ')}` : ''}
                      </span>
                      {j ? (
                        <div className="small rr-probe-answer">
                          {j.error ? (
                            <span className="rr-warn">Not judged: {j.error}</span>
                          ) : (
                            <>
                              <strong>Judge {j.score ?? '—'}/5.</strong> Compacted: “{j.compactedAnswer}” · Full: “{j.fullAnswer}” {j.reason ? <span className="muted">({j.reason})</span> : null}
                            </>
                          )}
                        </div>
                      ) : null}
                    </li>
                  );
                })}
              </ul>
            </div>
          ))}
      </details>
    </section>
  );
}
