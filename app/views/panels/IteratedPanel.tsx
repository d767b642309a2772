// Iterated summarization: tokens per iteration (reasoning, post-think, summary, prompt) as in the paper's
// Table 6, then each attempt as a card: its reasoning inside <think>, the post-think answer, and the
// summary passed on to later prompts.
import { useMemo, type ReactNode } from 'react';
import { iterationStats, type IterationRow, type IterationStats } from '../../../src/research';
import type { Item } from '../../../src/model/types';
import type { PanelProps } from './panel-props';
import { fmt, plural, useCallOf, useOutputIds, VirtualStack } from './research-parts';
import './iterated.css';

type Part = 'promptTokens' | 'reasoningTokens' | 'postThinkTokens' | 'summaryTokens';
const COLUMNS: { key: Part; label: string; cls: string }[] = [
  { key: 'reasoningTokens', label: 'Reasoning', cls: 'reasoning' },
  { key: 'postThinkTokens', label: 'Post-think', cls: 'postthink' },
  { key: 'summaryTokens', label: 'Summary', cls: 'summary' },
  { key: 'promptTokens', label: 'Prompt', cls: 'prompt' },
];
const TOTAL_KEY: Record<Part, keyof IterationStats['totals']> = { promptTokens: 'prompt', reasoningTokens: 'reasoning', postThinkTokens: 'postThink', summaryTokens: 'summary' };

function Verdict({ row }: { row: IterationRow }) {
  if (row.correct === null) return row.finalAnswer !== null ? null : <span className="muted">—</span>;
  return row.correct ? <span className="badge ok">correct</span> : <span className="badge bad">wrong</span>;
}

export default function IteratedPanel({ session, view, callIndex, itemById, goTo }: PanelProps) {
  const stats = useMemo(() => iterationStats(session, view), [session, view]);
  const callOf = useCallOf(view);
  const outputs = useOutputIds(view, callIndex);
  const current = stats.rows.find((r) => [r.thinkId, r.answerId].some((id) => id !== null && outputs.has(id)))?.iteration ?? null;

  if (stats.rows.length === 0) return <p className="empty">This trace has no iterations.</p>;

  const goToItem = (id: string | null) => {
    if (!id) return;
    const call = callOf(id);
    goTo(call === undefined ? { item: id } : { call, item: id });
  };
  const last = stats.rows.at(-1)!;
  const max = Math.max(1, ...stats.rows.flatMap((r) => COLUMNS.map((c) => r[c.key])));
  return (
    <div className="research it">
      <p className="research-lead">
        <strong>{plural(stats.rows.length, 'iteration')}</strong>
        {stats.summarizer ? <> · {stats.summarizer} summarizer</> : null} · {stats.firstCorrect !== null ? <>first correct at iteration {stats.firstCorrect}</> : 'no attempt marked correct'}
        {last.finalAnswer !== null ? (
          <>
            {' '}
            · final answer <strong>{last.finalAnswer}</strong> <Verdict row={last} />
          </>
        ) : null}
      </p>

      <section className="research-section" aria-labelledby="it-table-h">
        <h3 id="it-table-h">Tokens per iteration</h3>
        <div className="research-table-wrap">
          <table className="research-table it-table" aria-labelledby="it-table-h">
            <thead>
              <tr>
                <th scope="col">Iteration</th>
                {COLUMNS.map((c) => (
                  <th key={c.key} scope="col" className={`num col-${c.cls}`}>
                    {c.label}
                  </th>
                ))}
                <th scope="col">Answer</th>
              </tr>
            </thead>
            <tbody>
              {stats.rows.map((r) => (
                <tr key={r.iteration} className={current === r.iteration ? 'current' : ''}>
                  <th scope="row">
                    <button type="button" className="link" aria-label={`Go to iteration ${r.iteration}`} onClick={() => goToItem(r.thinkId ?? r.answerId ?? r.promptId)}>
                      {r.iteration}
                    </button>
                  </th>
                  {COLUMNS.map((c) => (
                    <td key={c.key} className={`num col-${c.cls}`}>
                      {hasPart(r, c.key) ? fmt(r[c.key]) : <span className="muted">—</span>}
                      <span className="it-bar" aria-hidden="true">
                        <span style={{ width: `${(r[c.key] / max) * 100}%` }} />
                      </span>
                    </td>
                  ))}
                  <td>
                    {r.finalAnswer !== null ? <code>{r.finalAnswer}</code> : null} <Verdict row={r} />
                  </td>
                </tr>
              ))}
            </tbody>
            <tfoot>
              <tr>
                <th scope="row">Mean</th>
                {COLUMNS.map((c) => (
                  <td key={c.key} className="num">
                    {fmt(Math.round(stats.means[TOTAL_KEY[c.key]]))}
                  </td>
                ))}
                <td />
              </tr>
              <tr>
                <th scope="row">Total</th>
                {COLUMNS.map((c) => (
                  <td key={c.key} className="num">
                    {fmt(stats.totals[TOTAL_KEY[c.key]])}
                  </td>
                ))}
                <td />
              </tr>
            </tfoot>
          </table>
        </div>
        <p className="research-note">
          Reasoning: inside <code>&lt;think&gt;</code>. Post-think: the answer after <code>&lt;/think&gt;</code>. Summary: what this attempt passes on. Prompt: what the attempt's call was sent (the question plus earlier summaries), as the context view counts that call. The paper's Table 6 averages these over many traces; means here are over the iterations that have the part.
        </p>
      </section>

      <section className="research-section" aria-labelledby="it-cards-h">
        <h3 id="it-cards-h">Attempts</h3>
        <VirtualStack
          items={stats.rows}
          label="Iterations"
          estimate={260}
          itemKey={(r) => String(r.iteration)}
          render={(r) => <IterationCard row={r} count={stats.rows.length} current={current === r.iteration} itemById={itemById} onItem={goToItem} />}
        />
      </section>
    </div>
  );
}

function hasPart(r: IterationRow, key: Part): boolean {
  if (key === 'promptTokens') return r.promptId !== null;
  if (key === 'reasoningTokens') return r.thinkId !== null;
  if (key === 'postThinkTokens') return r.answerId !== null;
  return r.summaryId !== null;
}

function IterationCard({ row: r, count, current, itemById, onItem }: { row: IterationRow; count: number; current: boolean; itemById: ReadonlyMap<string, Item>; onItem(id: string | null): void }) {
  const text = (id: string | null) => (id ? (itemById.get(id)?.text ?? '') : '');
  return (
    <article className={`it-card${current ? ' current' : ''}`} aria-label={`Iteration ${r.iteration}`}>
      <header>
        <h4>Iteration {r.iteration}</h4>
        {r.finalAnswer !== null ? (
          <span>
            answer <code>{r.finalAnswer}</code>
          </span>
        ) : null}
        <Verdict row={r} />
      </header>
      <PartBlock iteration={r.iteration} cls="prompt" title={r.promptDefault ? 'Prompt (rebuilt: question + earlier summaries)' : 'Prompt'} id={r.promptId} tokens={r.promptTokens} text={text(r.promptId)} onItem={onItem} collapsed />
      <PartBlock iteration={r.iteration} cls="reasoning" title="Reasoning (inside <think>)" id={r.thinkId} tokens={r.reasoningTokens} text={text(r.thinkId)} onItem={onItem} collapsed />
      <PartBlock iteration={r.iteration} cls="postthink" title="Post-think" id={r.answerId} tokens={r.postThinkTokens} text={text(r.answerId)} onItem={onItem} />
      {r.summaryId ? (
        <PartBlock iteration={r.iteration} cls="summary" title="Summary passed on" id={r.summaryId} tokens={r.summaryTokens} text={text(r.summaryId)} onItem={onItem}>
          <p className="it-passed small">
            {r.passedTo.length > 0 ? (
              <>In the prompt of iteration{r.passedTo.length === 1 ? '' : 's'} {r.passedTo.join(', ')}.</>
            ) : r.iteration === count ? (
              'The last iteration: no later prompt.'
            ) : (
              <span className="research-flag">Not found verbatim in any later prompt.</span>
            )}
          </p>
        </PartBlock>
      ) : (
        <p className="small muted">{r.iteration === count ? 'No summary: the last attempt passes nothing on.' : 'No summary recorded for this attempt.'}</p>
      )}
    </article>
  );
}

function PartBlock({ cls, title, id, tokens, text, onItem, collapsed, children, iteration }: { cls: string; title: string; id: string | null; tokens: number; text: string; onItem(id: string | null): void; collapsed?: boolean; children?: ReactNode; iteration: number }) {
  if (!id) return null;
  const head = (
    <>
      <span className="it-part-title">{title}</span> <span className="muted small">{fmt(tokens)} tokens</span>
    </>
  );
  return (
    <div className={`it-part part-${cls}`}>
      {collapsed ? (
        <details>
          <summary>{head}</summary>
          <blockquote>{text}</blockquote>
        </details>
      ) : (
        <>
          <div className="it-part-head">{head}</div>
          <blockquote>{text}</blockquote>
        </>
      )}
      {children}
      <button type="button" className="link it-goto" aria-label={`Go to iteration ${iteration}: ${cls === 'postthink' ? 'post-think' : cls}`} onClick={() => onItem(id)}>
        go to item
      </button>
    </div>
  );
}
