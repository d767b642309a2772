// Agent-Omit: which turns omitted their thought and which observations were omitted when, the tokens that
// saved as the paper's R_omit (both parts and the sum), and the thought / action / observation tokens per
// turn as stacked bars (the paper's Fig. 2).
import { useMemo, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { callTicks, niceTicks, tickFormat, yScale } from '../../../src/charts/budget-scale';
import { agentOmitStats, omitCell, percentShares, SHARE_ORDER, turnShareStack, turnShareTotal, type AgentOmitStats, type OmitTurn, type ShareKey, type ShareMode } from '../../../src/research';
import type { PanelProps } from './panel-props';
import { useWidth } from '../../hooks/use-width';
import { fmt, plural, useCallOf, useOutputIds } from './research-parts';
import './agent-omit.css';
import { maxOf } from '../../../src/model/arrays';

const SHARE_LABEL: Record<ShareKey, string> = { thought: 'Thought', action: 'Action', observation: 'Observation' };
const ratio = (r: number) => r.toFixed(3);

export default function AgentOmitPanel({ session, view, callIndex, goTo }: PanelProps) {
  const stats = useMemo(() => agentOmitStats(session, view), [session, view]);
  const callOf = useCallOf(view);
  const outputs = useOutputIds(view, callIndex);
  const currentTurn = stats.turns.find((t) => t.itemIds.some((id) => outputs.has(id)))?.turn ?? null;

  if (stats.turns.length === 0) return <p className="empty">This trajectory has no agent turns: nothing was omitted.</p>;

  const goToItem = (id: string | null | undefined) => {
    if (!id) return;
    const call = callOf(id);
    goTo(call === undefined ? { item: id } : { call, item: id });
  };
  const omittedObs = stats.omitted.length;
  return (
    <div className="research ao">
      <p className="research-lead">
        <strong>{plural(stats.turns.length, 'turn')}</strong> · {plural(stats.omittedThoughtTurns.length, 'thought')} omitted · {plural(omittedObs, 'observation')} omitted · R<sub>omit</sub> = <strong>{ratio(stats.rOmit.total)}</strong>
      </p>

      <section className="research-section" aria-labelledby="ao-romit-h">
        <h3 id="ao-romit-h">Tokens saved</h3>
        <ROmit stats={stats} />
      </section>

      <section className="research-section" aria-labelledby="ao-when-h">
        <h3 id="ao-when-h">What was omitted, and when</h3>
        {stats.omittedThoughtTurns.length === 0 && omittedObs === 0 && stats.unknownRefs.length === 0 ? (
          <p className="empty">The agent omitted no thought and no observation.</p>
        ) : (
          <>
            {stats.turns.length * (stats.observations.length + 1) <= MATRIX_MAX_CELLS ? (
              <OmitMatrix stats={stats} currentTurn={currentTurn} onItem={goToItem} />
            ) : (
              <p className="muted small ao-matrix-skipped">
                The observation × turn matrix is drawn for up to {fmt(MATRIX_MAX_CELLS)} cells; this trajectory has {fmt(stats.observations.length)} observations over {fmt(stats.turns.length)} turns. The
                timeline below lists every omission, and the Eviction map shows each observation against every call.
              </p>
            )}
            <OmitTimeline stats={stats} currentTurn={currentTurn} onItem={goToItem} />
          </>
        )}
      </section>

      <section className="research-section" aria-labelledby="ao-share-h">
        <h3 id="ao-share-h">Thought, action and observation per turn</h3>
        <ShareBars stats={stats} currentTurn={currentTurn} onTurn={(t) => goToItem(t.itemIds[0])} />
      </section>
    </div>
  );
}

function ROmit({ stats }: { stats: AgentOmitStats }) {
  const { rOmit, totalTokens: y, thoughtTokensSaved: th, observationTokensSaved: ob } = stats;
  const lost = stats.omitted.filter((o) => o.placeholder);
  return (
    <div className="ao-romit">
      <div className="ao-formula" role="group" aria-label="R_omit formula">
        <div className="ao-eq">
          <span className="ao-lhs">
            R<sub>omit</sub>
          </span>
          <span>=</span>
          <Frac top={<>Tok(τ<sub>omitted</sub>)</>} bottom="Tok(y)" />
          <span>+</span>
          <Frac top={<>Tok(o<sub>omitted</sub>)</>} bottom="Tok(y)" />
        </div>
        <div className="ao-eq">
          <span className="ao-lhs" />
          <span>=</span>
          <Frac top={fmt(th)} bottom={fmt(y)} className="thought" />
          <span>+</span>
          <Frac top={fmt(ob)} bottom={fmt(y)} className="observation" />
        </div>
        <div className="ao-eq">
          <span className="ao-lhs" />
          <span>=</span>
          <span className="ao-part thought" aria-label={`thought part ${ratio(rOmit.thought)}`}>
            {ratio(rOmit.thought)}
          </span>
          <span>+</span>
          <span className="ao-part observation" aria-label={`observation part ${ratio(rOmit.observation)}`}>
            {ratio(rOmit.observation)}
          </span>
          <span>=</span>
          <output className="ao-total" aria-label={`R_omit ${ratio(rOmit.total)}`}>
            {ratio(rOmit.total)}
          </output>
        </div>
      </div>
      <ul className="ao-notes">
        <li>
          Tok(y): every item of the trajectory as recorded (system prompt, query, thoughts, actions, observations) — {fmt(y)} tokens. Paper: Agent-Omit Eq. 3.
        </li>
        {stats.thoughtsWithoutOriginal > 0 ? (
          <li>
            {plural(stats.thoughtsWithoutOriginal, 'omitted thought')} {stats.thoughtsWithoutOriginal === 1 ? 'has' : 'have'} no original text (an empty <code>&lt;think&gt; &lt;/think&gt;</code>): counted as 0 tokens saved, so the thought part is a lower bound.
          </li>
        ) : null}
        {lost.length > 0 ? (
          <li>
            Observation{lost.length === 1 ? '' : 's'} {lost.map((o) => o.number).join(', ')}: only the <code>&lt;omitted_tool_response_N&gt;</code> placeholder was recorded, the original is lost — counted as 0 saved.
          </li>
        ) : null}
        {stats.omitted.length > lost.length ? <li>Omitted observations with their original: tokens counted from the original tool response.</li> : null}
        {stats.taskSucceeded === false ? (
          <li className="warn">
            The task failed: in training R<sub>omit</sub> is set to 0 when R<sub>task</sub> = 0.
          </li>
        ) : null}
      </ul>
    </div>
  );
}

function Frac({ top, bottom, className }: { top: ReactNode; bottom: string; className?: string }) {
  return (
    <span className={`ao-frac ${className ?? ''}`}>
      <span className="ao-num">{top}</span>
      <span className="ao-den">{bottom}</span>
    </span>
  );
}

/** Above this many cells (observations × turns) the matrix would be millions of SVG elements: it is left out. */
const MATRIX_MAX_CELLS = 60_000;

/** Cell size of the omission matrix: as large as fits the panel, between these. */
const CELL_MAX = 24;
const CELL_MIN = 12;
const LABEL_W = 78;
const HEAD_H = 22;

/** Observation N × turn M, plus a row for the thoughts: a picture of what each turn's context held. */
function OmitMatrix({ stats, currentTurn, onItem }: { stats: AgentOmitStats; currentTurn: number | null; onItem(id: string | null): void }) {
  const wrapRef = useRef<HTMLDivElement>(null);
  const avail = useWidth(wrapRef);
  const turns = stats.turns;
  const rows = stats.observations;
  const CELL = Math.max(CELL_MIN, Math.min(CELL_MAX, Math.floor((avail - LABEL_W - 4) / Math.max(1, turns.length))));
  // Glyphs and every column number only where the cells are large enough to read them.
  const glyphs = CELL >= 18;
  const colEvery = CELL >= 18 ? 1 : 5;
  const pad = CELL >= 18 ? 2 : 1;
  const width = LABEL_W + turns.length * CELL + 4;
  const height = HEAD_H + (rows.length + 1) * CELL + 8;
  const x = (turn: number) => LABEL_W + (turn - 1) * CELL;
  const y = (row: number) => HEAD_H + row * CELL;
  return (
    <div className="ao-matrix-wrap" ref={wrapRef}>
      <svg className="ao-matrix" width={width} height={height} role="img" aria-label={`Omission matrix: ${turns.length} turns; thoughts omitted at turns ${stats.omittedThoughtTurns.join(', ') || 'none'}; ${stats.omitted.map((o) => `observation ${o.number} omitted ${o.omittedAtTurn !== null ? `at turn ${o.omittedAtTurn}` : '(turn not recorded)'}`).join('; ') || 'no observation omitted'}`}>
        {currentTurn !== null ? <rect className="current-col" x={x(currentTurn)} y={0} width={CELL} height={height} /> : null}
        {turns.map((t) =>
          t.turn === 1 || t.turn % colEvery === 0 ? (
            <text key={t.turn} className="col-label" x={x(t.turn) + CELL / 2} y={HEAD_H - 8} textAnchor="middle">
              {t.turn}
            </text>
          ) : null,
        )}
        <text className="row-label axis-name" x={LABEL_W - 8} y={HEAD_H - 8} textAnchor="end">
          turn →
        </text>
        <text className="row-label" x={LABEL_W - 8} y={y(0) + CELL / 2 + 4} textAnchor="end">
          thought
        </text>
        {turns.map((t) => (
          <g key={t.turn} className={`cell thought${t.thoughtOmitted ? ' omitted' : ''}`} onClick={() => onItem(t.thoughtId)}>
            <title>{t.thoughtOmitted ? `Turn ${t.turn}: thought omitted` : `Turn ${t.turn}: thought, ${fmt(t.thoughtTokens)} tokens`}</title>
            <rect x={x(t.turn) + pad} y={y(0) + pad} width={CELL - 2 * pad} height={CELL - 2 * pad} rx={pad + 1} />
            {t.thoughtOmitted && glyphs ? (
              <text x={x(t.turn) + CELL / 2} y={y(0) + CELL / 2 + 4} textAnchor="middle">
                ∅
              </text>
            ) : null}
          </g>
        ))}
        {rows.map((o, r) => (
          <g key={o.itemId}>
            {CELL >= 18 || o.number === 1 || o.number % 5 === 0 ? (
              <text className="row-label" x={LABEL_W - 8} y={y(r + 1) + CELL / 2 + 4} textAnchor="end">
                {`obs ${o.number}`}
              </text>
            ) : null}
            {turns.map((t) => {
              const state = omitCell(o, t.turn);
              if (state === 'absent') return null;
              const target = state === 'omitted-here' ? o.omitItemId : o.itemId;
              return (
                <g key={t.turn} className={`cell obs ${state}${o.placeholder ? ' placeholder' : ''}`} onClick={() => onItem(target)}>
                  <title>{cellTitle(o.number, t.turn, state, o.placeholder)}</title>
                  <rect x={x(t.turn) + pad} y={y(r + 1) + pad} width={CELL - 2 * pad} height={CELL - 2 * pad} rx={pad + 1} />
                  {state === 'omitted-here' && glyphs ? (
                    <text x={x(t.turn) + CELL / 2} y={y(r + 1) + CELL / 2 + 4} textAnchor="middle">
                      ✕
                    </text>
                  ) : null}
                </g>
              );
            })}
          </g>
        ))}
      </svg>
      <ul className="research-legend" aria-label="Matrix key">
        <li>
          <span className="swatch ao-key received" /> returned by this turn's action
        </li>
        <li>
          <span className="swatch ao-key present" /> in this turn's context
        </li>
        <li>
          <span className="swatch ao-key omitted-here">✕</span> omitted by this turn
        </li>
        <li>
          <span className="swatch ao-key thought-omitted">∅</span> thought omitted
        </li>
        <li>
          <span className="swatch ao-key placeholder" /> original lost (placeholder)
        </li>
      </ul>
    </div>
  );
}

function cellTitle(n: number, turn: number, state: ReturnType<typeof omitCell>, placeholder: boolean): string {
  const lost = placeholder ? ' (only its placeholder was recorded)' : '';
  if (state === 'received') return `Observation ${n} returned by turn ${turn}'s action${lost}`;
  if (state === 'present') return `Observation ${n} in turn ${turn}'s context${lost}`;
  if (state === 'omitted-here') return `Turn ${turn} omits observation ${n}${lost}`;
  return `Observation ${n} no longer in the context at turn ${turn}`;
}

/** The omissions as a list of turns: what each omitted, with the tokens it saved. Every row steps to its item. */
function OmitTimeline({ stats, currentTurn, onItem }: { stats: AgentOmitStats; currentTurn: number | null; onItem(id: string | null): void }) {
  const byNumber = new Map(stats.observations.map((o) => [o.number, o]));
  const rows = stats.turns.filter((t) => t.thoughtOmitted || t.omits.length > 0 || stats.unknownRefs.some((u) => u.turn === t.turn));
  const uncommanded = stats.omitted.filter((o) => o.omittedAtTurn === null);
  return (
    <div className="research-table-wrap">
      <table className="research-table ao-timeline">
        <caption className="research-note">Observation N is the tool response to turn N's action; an omit command removes it from every later context.</caption>
        <thead>
          <tr>
            <th scope="col">Turn</th>
            <th scope="col">Thought</th>
            <th scope="col">Observations omitted</th>
            <th scope="col" className="num">
              Tokens saved
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((t) => {
            const omitted = t.omits.map((n) => byNumber.get(n)!);
            const saved = omitted.reduce((n, o) => n + o.savedTokens, 0);
            const unknown = stats.unknownRefs.filter((u) => u.turn === t.turn);
            const omitId = omitted[0]?.omitItemId ?? unknown[0]?.omitItemId ?? null;
            return (
              <tr key={t.turn} className={currentTurn === t.turn ? 'current' : ''}>
                <th scope="row">{t.turn}</th>
                <td>
                  {t.thoughtOmitted ? (
                    <button type="button" className="link" aria-label={`Go to turn ${t.turn}'s omitted thought`} onClick={() => onItem(t.thoughtId)}>
                      omitted
                    </button>
                  ) : (
                    <span className="muted">kept</span>
                  )}
                </td>
                <td className="ao-omits">
                  {omitted.length > 0 ? (
                    <button type="button" className="link" aria-label={`Go to turn ${t.turn}'s omit command: observation${omitted.length === 1 ? '' : 's'} ${omitted.map((o) => o.number).join(', ')}`} onClick={() => onItem(omitId)}>
                      {omitted.map((o) => o.number).join(', ')}
                    </button>
                  ) : null}
                  {omitted.some((o) => o.placeholder) ? <span className="badge muted">original lost: {omitted.filter((o) => o.placeholder).map((o) => o.number).join(', ')}</span> : null}
                  {unknown.length > 0 ? <span className="badge warn">names {unknown.map((u) => u.ref).join(', ')}: no such observation</span> : null}
                </td>
                <td className="num">{omitted.length > 0 ? fmt(saved) : t.thoughtOmitted ? '0' : ''}</td>
              </tr>
            );
          })}
          {uncommanded.map((o) => (
            <tr key={`u${o.number}`}>
              <th scope="row" className="muted">
                —
              </th>
              <td />
              <td>
                <button type="button" className="link" aria-label={`Go to observation ${o.number}`} onClick={() => onItem(o.itemId)}>
                  {o.number}
                </button>
                <span className="badge muted">placeholder, no command names it</span>
              </td>
              <td className="num">0</td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row">Total</th>
            <td>{plural(stats.omittedThoughtTurns.length, 'thought')}</td>
            <td>{plural(stats.omitted.length, 'observation')}</td>
            <td className="num">{fmt(stats.thoughtTokensSaved + stats.observationTokensSaved)}</td>
          </tr>
        </tfoot>
      </table>
    </div>
  );
}

const PLOT_H = 180;
const TOP = 20;
const BOTTOM = 24;
const AXIS_W = 48;

function ShareBars({ stats, currentTurn, onTurn }: { stats: AgentOmitStats; currentTurn: number | null; onTurn(t: OmitTurn): void }) {
  const [mode, setMode] = useState<ShareMode>('produced');
  const [focus, setFocus] = useState(0);
  const wrapRef = useRef<HTMLDivElement>(null);
  const barRefs = useRef<(SVGGElement | null)[]>([]);
  const width = useWidth(wrapRef);
  const turns = stats.turns;
  const totals = turns.map((t) => turnShareTotal(t, mode));
  const ticks = niceTicks(maxOf(totals, 0), 4);
  const y = yScale(ticks.max, PLOT_H);
  const label = tickFormat(ticks.max);
  const plotW = Math.max(120, width - AXIS_W);
  const slot = Math.max(6, Math.min(64, (plotW - 36) / Math.max(1, turns.length)));
  const barW = Math.max(3, slot * 0.68);
  const svgW = AXIS_W + slot * turns.length + 36;
  const xTicks = new Set(callTicks(turns.length, Math.max(2, Math.floor(plotW / 36))));
  const shares = percentShares(stats.share);

  const move = (e: KeyboardEvent, i: number) => {
    let next = i;
    if (e.key === 'ArrowRight') next = Math.min(turns.length - 1, i + 1);
    else if (e.key === 'ArrowLeft') next = Math.max(0, i - 1);
    else if (e.key === 'Home') next = 0;
    else if (e.key === 'End') next = turns.length - 1;
    else if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      onTurn(turns[i]!);
      return;
    } else return;
    e.preventDefault();
    setFocus(next);
    barRefs.current[next]?.focus();
  };

  return (
    <div className="ao-share" ref={wrapRef}>
      <div className="ao-share-controls">
        <div role="radiogroup" aria-label="Observation tokens per turn" className="ao-mode">
          {(['produced', 'context'] as const).map((m) => (
            <label key={m}>
              <input type="radio" name="ao-share-mode" value={m} checked={mode === m} onChange={() => setMode(m)} />
              {m === 'produced' ? 'as returned to the turn' : 'in the turn\u2019s context'}
            </label>
          ))}
        </div>
        <ul className="research-legend" aria-label="Token shares over the trajectory">
          {SHARE_ORDER.map((k) => (
            <li key={k}>
              <span className={`swatch share-${k}`} /> {SHARE_LABEL[k]} {shares[k].toFixed(1)}% <span className="muted">({fmt(stats.share[k])})</span>
            </li>
          ))}
        </ul>
      </div>
      <div className="ao-share-scroll">
        <svg className="ao-share-plot" width={svgW} height={TOP + PLOT_H + BOTTOM} role="group" aria-label={`Tokens per turn, observations ${mode === 'produced' ? 'as returned' : 'in context'}`}>
          <g transform={`translate(0, ${TOP})`}>
            {ticks.values.map((v) => (
              <g key={v} className="grid">
                <line x1={AXIS_W} x2={svgW} y1={y(v)} y2={y(v)} />
                <text x={AXIS_W - 6} y={y(v) + 4} textAnchor="end">
                  {label(v)}
                </text>
              </g>
            ))}
            <text className="axis-unit" x={AXIS_W - 6} y={-9} textAnchor="end">
              tokens
            </text>
            <text className="axis-unit" x={AXIS_W + slot * turns.length} y={PLOT_H + 16} textAnchor="start" dx={4}>
              turn
            </text>
            {turns.map((t, i) => {
              const x0 = AXIS_W + i * slot;
              const stack = turnShareStack(t, mode);
              const name = `Turn ${t.turn}: ${stack.map((s) => `${s.key} ${fmt(s.value)}`).join(', ')} tokens${t.thoughtOmitted ? ', thought omitted' : ''}${t.omits.length ? `, omits observation ${t.omits.join(', ')}` : ''}`;
              return (
                <g
                  key={t.turn}
                  ref={(el) => {
                    barRefs.current[i] = el;
                  }}
                  className={`bar${currentTurn === t.turn ? ' current' : ''}`}
                  role="button"
                  tabIndex={i === Math.min(focus, turns.length - 1) ? 0 : -1}
                  aria-label={name}
                  onClick={() => {
                    setFocus(i);
                    onTurn(t);
                  }}
                  onKeyDown={(e) => move(e, i)}
                >
                  <title>{name}</title>
                  <rect className="hit" x={x0} y={0} width={slot} height={PLOT_H} />
                  {currentTurn === t.turn ? <rect className="current-slot" x={x0} y={0} width={slot} height={PLOT_H} /> : null}
                  {stack.map((s) =>
                    s.value > 0 ? <rect key={s.key} className={`seg share-${s.key}`} x={x0 + (slot - barW) / 2} width={barW} y={y(s.to)} height={Math.max(0.5, y(s.from) - y(s.to))} /> : null,
                  )}
                  {t.thoughtOmitted ? (
                    <text className="omit-mark" x={x0 + slot / 2} y={y(totals[i]!) - 4} textAnchor="middle">
                      ∅
                    </text>
                  ) : null}
                  <rect className="focus-ring" x={x0 + 1} y={1} width={slot - 2} height={PLOT_H - 2} rx={3} />
                  {xTicks.has(t.turn) ? (
                    <text className="x-label" x={x0 + slot / 2} y={PLOT_H + 16} textAnchor="middle">
                      {t.turn}
                    </text>
                  ) : null}
                </g>
              );
            })}
          </g>
        </svg>
      </div>
      <p className="research-note">
        Turn (x) against tokens (y). ∅: the turn omitted its thought. {mode === 'produced' ? 'Observation: the tool response the turn got back.' : 'Observation: every earlier tool response still in the context the turn was written from (they stack until omitted).'} Arrow keys move between turns; Enter steps there.
      </p>
    </div>
  );
}
