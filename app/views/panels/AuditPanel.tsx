// Summary audit: per compaction, what the summary kept, lost, lost-but-needed-later and invented.
// The quality gate (lost and needed later, invented) comes first; the full kept/lost lists are collapsible.
import { useMemo, useRef, useState, type ReactNode } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { auditCards, type AuditCard, type NeededLater, type RefetchedLater } from '../../../src/audit/audit-cards';
import { SURVIVAL_KINDS, type Survival, type SurvivalKind } from '../../../src/audit/survival';
import { groupByKind, kindName } from '../../../src/audit/audit-groups';
import type { IdentifierKind } from '../../../src/audit/identifiers';
import type { GoTo, PanelProps } from './panel-props';
import './audit.css';
import { PendingPart } from '../../components/PendingPart';
import { BreakAtSeparators } from '../../components/BreakAtSeparators';
import { EvidenceQuote } from '../../components/EvidenceQuote';
import { askingLine, evidenceLine, lineWriting, QUOTE_WIDTH } from '../../../src/audit/evidence-line';
import type { Item } from '../../../src/model/types';
import { auditCount } from '../../../src/audit/trim-audit';
import { auditListTrust, auditTrustNote } from '../../../src/audit/audit-trust';
import { restoredLead, unrecordedRestoreNote, unrecordedRestoreVersion } from '../../../src/audit/restored-lead';
import { closestLead } from '../../../src/audit/closest-lead';
import type { CompactionRefetch, Refetch } from '../../../src/refetch';
import { count as formatCount } from '../../format/count';
import { useApp } from '../../store';
import { InstructionFiles } from './InstructionFiles';

/** Chips shown per kind before "Show all": a summary of a long session can lose hundreds of values. */
const CHIPS_PER_GROUP = 40;
/** Rows of "lost and needed later" shown before "Show all" (the most specific come first): hundreds cost ~50 ms to lay out. */
const NEEDED_ROWS = 30;

const fmt = (n: number | null) => (n === null ? '—' : formatCount(n));
const callLabel = (ci: number) => `call ${ci + 1}`;

export default function AuditPanel({ session, view, callIndex, goTo, itemById }: PanelProps) {
  const sessionKey = useApp((s) => s.activeKey);
  // The figures stated beside the lists are those measured the way this audit was run: with instruction files or without.
  const withFiles = useApp((s) => (s.sessions.find((x) => x.key === s.activeKey)?.instructionFiles?.length ?? 0) > 0);
  const cards = useMemo(() => auditCards(view, callIndex), [view, callIndex]);
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: cards.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => 320,
    overscan: 3,
    getItemKey: (i) => cards[i]!.compaction.id,
  });

  const filesLine = sessionKey !== null ? <InstructionFiles sessionKey={sessionKey} format={session.format} /> : null;
  // While the audit runs (again, once files are added or removed), the files it reads stay in sight.
  if (view.pending.includes('audits') && view.compactions.length > 0) {
    return (
      <div className="audit-panel">
        {filesLine}
        <PendingPart view={view} part="audits" />
      </div>
    );
  }
  if (view.compactions.length === 0) {
    return <p className="empty">No compactions in this session: there is no summary to audit.</p>;
  }
  const audited = cards.filter((c) => c.audit).length;
  const needed = cards.reduce((n, c) => n + (c.audit ? auditCount(c.audit, 'lostReferencedLater') : 0), 0);
  const refetchedIds = cards.reduce((n, c) => n + (c.audit ? auditCount(c.audit, 'lostRefetchedLater') : 0), 0);
  const invented = cards.reduce((n, c) => n + (c.audit ? auditCount(c.audit, 'invented') : 0), 0);
  const claims = cards.reduce((n, c) => n + (c.audit ? auditCount(c.audit, 'inventedInstructions') : 0), 0);
  const notJudged = cards.filter((c) => c.audit?.readUnheldTurns).length;
  // Every compaction of such a version: said once, above the cards.
  const unrecorded = unrecordedRestoreVersion(cards.map((c) => c.audit));
  const refetched = cards.reduce((n, c) => n + (c.refetch?.refetches.length ?? 0), 0);
  const refetchTokens = cards.reduce((n, c) => n + (c.refetch?.refetchTokens ?? 0), 0);
  const items = virtualizer.getVirtualItems();

  return (
    <div className="audit-panel">
      <p className="audit-overview">
        {view.compactions.length} compaction{view.compactions.length === 1 ? '' : 's'}, {audited} audited ·{' '}
        <span className={needed > 0 ? 'gate-bad' : 'gate-ok'}>
          <strong>{fmt(needed)}</strong> lost and needed later
        </span>{' '}
        ·{' '}
        <span className={refetchedIds > 0 ? 'gate-bad' : 'gate-ok'}>
          <strong>{fmt(refetchedIds)}</strong> lost, then fetched again
        </span>{' '}
        ·{' '}
        <span className={invented > 0 ? 'gate-bad invented-text' : 'gate-ok'}>
          <strong>{fmt(invented)}</strong> invented{notJudged > 0 ? ` (${notJudged === audited ? 'not judged' : `${fmt(notJudged)} not judged`})` : ''}
        </span>{' '}
        ·{' '}
        {claims > 0 ? (
          <>
            <span className="gate-bad">
              <strong>{fmt(claims)}</strong> invented instruction{claims === 1 ? '' : 's'}
            </span>{' '}
            ·{' '}
          </>
        ) : null}
        <span className={refetched > 0 ? 'gate-bad' : 'gate-ok'}>
          <strong>{fmt(refetched)}</strong> {refetched === 1 ? 'fetch' : 'fetches'} repeated ({fmt(refetchTokens)} tokens)
        </span>
      </p>
      <p className="muted small audit-trust">{auditTrustNote({ instructions: withFiles })}</p>
      {unrecorded ? <p className="muted small audit-unrecorded">{unrecordedRestoreNote(unrecorded)}</p> : null}
      {filesLine}
      <div className="audit-scroll" ref={scrollRef}>
        <ol className="audit-cards" aria-label="Compactions" style={{ height: virtualizer.getTotalSize() }}>
        {items.map((vi) => (
          <li key={vi.key} data-index={vi.index} ref={virtualizer.measureElement} className="audit-slot" style={{ transform: `translateY(${vi.start}px)` }}>
            <AuditCardView card={cards[vi.index]!} goTo={goTo} itemById={itemById} withFiles={withFiles} />
          </li>
        ))}
        </ol>
      </div>
    </div>
  );
}

function AuditCardView({ card, goTo, itemById, withFiles }: { card: AuditCard; goTo(t: GoTo): void; itemById: ItemsById; withFiles: boolean }) {
  const { compaction: c, audit, callIndex } = card;
  const headingId = `audit-${c.id}`;
  const trigger = c.trigger ?? c.log?.strategy ?? null;
  const log = c.log;
  const summaryText = (c.summaryId ? itemById.get(c.summaryId)?.text : undefined) ?? log?.summary ?? undefined;
  return (
    <article className={`audit-card${card.current ? ' current' : ''}`} aria-labelledby={headingId} aria-current={card.current ? 'true' : undefined}>
      <header className="audit-card-head">
        <h3 id={headingId}>Compaction #{c.index + 1}</h3>
        <span className="badge kind-compaction">{c.kind}</span>
        {trigger ? <span className="badge">{trigger}</span> : null}
        {log?.fallback ? <span className="badge fallback">fell back to marker</span> : null}
        {card.current ? <span className="badge current-badge">in effect at this call</span> : null}
        <span className="audit-links">
          {callIndex !== null ? (
            <button type="button" className="link" onClick={() => goTo({ call: callIndex })}>
              first sent in {callLabel(callIndex)}
            </button>
          ) : null}
          {c.summaryId ? (
            <button type="button" className="link" onClick={() => goTo({ item: c.summaryId!, ...(callIndex !== null ? { call: callIndex } : {}) })}>
              summary item <code>{c.summaryId}</code>
            </button>
          ) : (
            <span className="muted small">no summary item</span>
          )}
        </span>
        {c.tokensBefore !== null || c.tokensAfter !== null ? (
          <span className="muted small audit-tokens">
            {fmt(c.tokensBefore)} → {fmt(c.tokensAfter)} tokens
          </span>
        ) : null}
      </header>
      {audit ? (
        <>
          {audit.restored?.length ? (
            <p className="muted small audit-restored">
              {restoredLead(audit.restored)}{' '}
              <span className="restored-files">
                {audit.restored.map((r) => (
                  <button key={r.itemId} type="button" className="link" onClick={() => goTo({ item: r.itemId })}>
                    <code>{r.file}</code>
                  </button>
                ))}
              </span>
            </p>
          ) : null}
          <div role="group" className="gate" aria-label={`Lost and needed later, compaction ${c.index + 1}`}>
            <h4>
              Lost and needed later <span className={`count${card.neededLater.length ? ' bad' : ''}`}>{fmt(auditCount(audit, 'lostReferencedLater'))}</span>
              <span className="list-trust muted small">{auditListTrust('lostReferencedLater', { instructions: withFiles })}</span>
            </h4>
            {card.neededLater.length === 0 ? (
              <p className="gate-ok small">None: no later turn needed an identifier this summary lost.</p>
            ) : (
              <NeededTable rows={card.neededLater} goTo={goTo} items={itemById} evicted={card.compaction.replacedIds} />
            )}
          </div>
          <div role="group" className="gate" aria-label={`Lost, then fetched again, compaction ${c.index + 1}`}>
            <h4>
              Lost, then fetched again <span className={`count${card.refetchedLater.length ? ' bad' : ''}`}>{fmt(auditCount(audit, 'lostRefetchedLater'))}</span>
              <span className="list-trust muted small">{auditListTrust('lostRefetchedLater', { instructions: withFiles })}</span>
            </h4>
            {card.refetchedLater.length === 0 ? (
              <p className="gate-ok small">None: nothing this summary lost had to be read or run again before it was used.</p>
            ) : (
              <RefetchedTable rows={card.refetchedLater} goTo={goTo} items={itemById} evicted={card.compaction.replacedIds} />
            )}
          </div>
          <div role="group" className="gate" aria-label={`Invented, compaction ${c.index + 1}`}>
            <h4>
              Invented <span className={`count${audit.invented.length ? ' bad invented' : ''}`}>{audit.readUnheldTurns ? '–' : fmt(auditCount(audit, 'invented'))}</span>
              <span className="list-trust muted small">{auditListTrust('invented', { instructions: withFiles })}</span>
            </h4>
            {audit.readUnheldTurns ? (
              <p className="small muted">Not judged: the summarizer read turns this file does not hold (the session went on in another file, or the file was cut from a longer one), so nothing in the summary can be shown invented.</p>
            ) : audit.invented.length === 0 ? (
              <p className="gate-ok small">
                {card.hasSummary ? 'None: every identifier in the summary appears in what it replaced or in the context.' : 'None: nothing stands in for the evicted items, so nothing could be invented.'}
              </p>
            ) : (
              <>
                <p className="small muted">In the summary but in none of its sources (e.g. a wrong year):</p>
                <ul className="invented-list">
                  {audit.invented.map((v) => {
                    // The summary's own line: what a person reads to tell an invention from a paraphrase.
                    const line = evidenceLine(summaryText, [v], QUOTE_WIDTH);
                    return (
                      <li key={v}>
                        <code className="chip invented" title={kindTitle(audit.kinds[v])}>
                          <BreakAtSeparators text={v} />
                        </code>
                        {line ? <EvidenceQuote line={line} label="the summary's line" /> : null}
                      </li>
                    );
                  })}
                </ul>
              </>
            )}
          </div>
          {card.refetch ? <RefetchGroup number={c.index + 1} refetch={card.refetch} goTo={goTo} /> : null}
          {audit.inventedInstructions.length > 0 ? (
            <div role="group" className="gate" aria-label={`Invented instructions, compaction ${c.index + 1}`}>
              <h4>
                Invented instructions <span className="count bad">{fmt(auditCount(audit, 'inventedInstructions'))}</span>
                <span className="list-trust muted small">{auditListTrust('inventedInstructions')}</span>
              </h4>
              <p className="small muted">The summary says the user asked or wanted this; no user message says it:</p>
              <ul className="instructions">
                {audit.inventedInstructions.map((x, i) => (
                  <li key={i}>
                    <q>{x.sentence}</q>
                    <span className="small muted">
                      {' '}
                      {closestLead(x)}
                      {x.closest !== null ? (
                        <>
                          : <q>{x.closest}</q>
                        </>
                      ) : null}
                    </span>
                  </li>
                ))}
              </ul>
            </div>
          ) : null}
          {audit.instructionsNotJudged && audit.instructionsNotJudged.length > 0 ? (
            <SentenceGroup
              label={`Instructions not judged, compaction ${c.index + 1}`}
              title="Instructions not judged"
              count={<span className="count">{fmt(audit.instructionsNotJudged.length)}</span>}
              note="What the summary says the user asked, in another language than the user’s messages: no message can be compared with it word by word, so the list cannot tell whether it was invented."
              sentences={audit.instructionsNotJudged}
              listClass="instructions not-judged"
            />
          ) : null}
          <SurvivalTable number={c.index + 1} survival={audit.survival} />
          {audit.instructionLike.length > 0 ? (
            <SentenceGroup
              label={`Instruction-like sentences, compaction ${c.index + 1}`}
              title="Instruction-like sentences"
              count={<span className="count bad">{fmt(auditCount(audit, 'instructionLike'))}</span>}
              note="Orders in the summary that none of its sources gave:"
              sentences={audit.instructionLike}
              listClass="instructions"
            />
          ) : null}
          <div className="id-lists">
            <IdList title="Kept" tone="kept" values={audit.kept} total={auditCount(audit, 'kept')} kinds={audit.kinds} />
            <IdList title="Lost" tone="lost" values={audit.lost} total={auditCount(audit, 'lost')} kinds={audit.kinds} />
          </div>
          {log && (log.keptIdentifiers.length > 0 || log.lostIdentifiers.length > 0) ? (
            <p className="small muted">
              The compaction log itself reports {log.keptIdentifiers.length} kept and {log.lostIdentifiers.length} lost identifiers.
            </p>
          ) : null}
        </>
      ) : (
        <p className="muted unaudited">{card.unaudited}</p>
      )}
    </article>
  );
}

/** The re-fetch tax: tool calls after the compaction that fetch again what it removed, each linked to both calls. */
function RefetchGroup({ number, refetch, goTo }: { number: number; refetch: CompactionRefetch; goTo(t: GoTo): void }) {
  const rows = refetch.refetches;
  const changed = refetch.changedRereads;
  return (
    <div role="group" className="gate" aria-label={`Fetches repeated after compaction ${number}`}>
      <h4>
        Fetches repeated after it <span className={`count${rows.length ? ' bad' : ''}`}>{fmt(rows.length)}</span>
        {rows.length > 0 ? <span className="muted small"> · {fmt(refetch.refetchTokens)} tokens paid again</span> : null}
      </h4>
      {rows.length === 0 ? (
        <p className="gate-ok small">None: no later tool call fetched again what this compaction removed.</p>
      ) : (
        <table className="needed-table refetch-table">
          <thead className="visually-hidden">
            <tr>
              <th scope="col">Tool and target</th>
              <th scope="col">Tokens</th>
              <th scope="col">Calls</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <RefetchRow key={r.callId} r={r} goTo={goTo} />
            ))}
          </tbody>
        </table>
      )}
      {changed.length > 0 ? (
        <details className="refetch-changed">
          <summary className="small muted">
            {fmt(changed.length)} re-read{changed.length === 1 ? '' : 's'} of a file written in between (new content, not counted)
          </summary>
          <table className="needed-table refetch-table">
            <tbody>
              {changed.map((r) => (
                <RefetchRow key={r.callId} r={r} goTo={goTo} />
              ))}
            </tbody>
          </table>
        </details>
      ) : null}
    </div>
  );
}

function RefetchRow({ r, goTo }: { r: Refetch; goTo(t: GoTo): void }) {
  const name = r.target.length > 72 ? `…${r.target.slice(-71)}` : r.target;
  return (
    <tr className="refetch">
      <td>
        <span className="muted small">{r.tool}</span> <code className="chip" title={r.target}>
          <BreakAtSeparators text={name} />
        </code>
      </td>
      <td className="muted small num">{fmt(r.tokens)} tok</td>
      <td className="small">
        <button type="button" className="link" aria-label={`${r.tool} ${r.target}: go to call ${r.call ?? '?'}`} onClick={() => goTo({ item: r.callId, ...(r.call !== null ? { call: r.call - 1 } : {}) })}>
          {r.call !== null ? `call ${r.call}` : r.callId} ↗
        </button>
        <span className="muted"> repeats </span>
        <button type="button" className="link" aria-label={`${r.tool} ${r.target}: go to the earlier call ${r.earlierCall ?? '?'}`} onClick={() => goTo({ item: r.earlierCallId, ...(r.earlierCall !== null ? { call: r.earlierCall - 1 } : {}) })}>
          {r.earlierCall !== null ? `call ${r.earlierCall}` : r.earlierCallId} ↗
        </button>
      </td>
    </tr>
  );
}

const SURVIVAL_LABEL: Record<SurvivalKind, string> = {
  paths: 'file paths',
  commands: 'commands',
  numbers: 'numbers and quantities',
  identifiers: 'ids (tickets, hashes, UUIDs)',
  urls: 'URLs',
  functions: 'functions',
  instructions: "the user's instructions",
};

/** Of what the compaction evicted, the share of each kind of thing the summary kept. */
/** A group of summary sentences the audit lists, each quoted. */
function SentenceGroup({ label, title, count, note, sentences, listClass }: { label: string; title: string; count: ReactNode; note: string; sentences: readonly string[]; listClass: string }) {
  return (
    <div role="group" className="gate" aria-label={label}>
      <h4>
        {title} {count}
      </h4>
      <p className="small muted">{note}</p>
      <ul className={listClass}>
        {sentences.map((s, i) => (
          <li key={i}>
            <q>{s}</q>
          </li>
        ))}
      </ul>
    </div>
  );
}

function SurvivalTable({ number, survival }: { number: number; survival: Survival }) {
  const rows = SURVIVAL_KINDS.filter((k) => survival[k].evicted > 0);
  return (
    <div role="group" className="gate" aria-label={`Survival by kind, compaction ${number}`}>
      <h4>Survival by kind</h4>
      {rows.length === 0 ? (
        survival.instructions.notJudged ? null : <p className="small muted">The evicted items held nothing of these kinds.</p>
      ) : (
        <table className="survival-table">
          <thead>
            <tr>
              <th scope="col">Kind</th>
              <th scope="col" className="num">Evicted</th>
              <th scope="col" className="num">Kept</th>
              <th scope="col" className="num">Share</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((k) => {
              const { evicted, kept } = survival[k];
              return (
                <tr key={k}>
                  <td>{SURVIVAL_LABEL[k]}</td>
                  <td className="num">{fmt(evicted)}</td>
                  <td className="num">{fmt(kept)}</td>
                  <td className="num">{((kept / evicted) * 100).toFixed(kept === evicted || kept === 0 ? 0 : 1)}%</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      {survival.instructions.notJudged ? (
        <p className="small muted">
          {fmt(survival.instructions.notJudged)} evicted user {survival.instructions.notJudged === 1 ? 'message is' : 'messages are'} in another language than the summary: not counted, as no word-by-word reading can tell whether the summary kept {survival.instructions.notJudged === 1 ? 'it' : 'them'}.
        </p>
      ) : null}
    </div>
  );
}

/** A list of lost identifiers, the first NEEDED_ROWS shown until the user asks for all. */
function IdTable<T extends { value: string }>({ rows, where, showAll, row }: { rows: T[]; where: string; showAll: string; row(n: T): ReactNode }) {
  const [all, setAll] = useState(false);
  const shown = all ? rows : rows.slice(0, NEEDED_ROWS);
  return (
    <>
      <table className="needed-table">
        <thead className="visually-hidden">
          <tr>
            <th scope="col">Identifier</th>
            <th scope="col">Kind</th>
            <th scope="col">{where}</th>
          </tr>
        </thead>
        <tbody>{shown.map(row)}</tbody>
      </table>
      {rows.length > shown.length ? (
        <button type="button" className="link small" onClick={() => setAll(true)}>
          Show all {formatCount(rows.length)} {showAll}
        </button>
      ) : null}
    </>
  );
}

type ItemsById = ReadonlyMap<string, Item>;
interface Evidence {
  items: ItemsById;
  /** The items the compaction took out, where each lost value was last seen. */
  evicted: readonly string[];
}

const RefetchedTable = ({ rows, goTo, ...ev }: { rows: RefetchedLater[]; goTo(t: GoTo): void } & Evidence) => (
  <IdTable rows={rows} where="Fetched again in, used in" showAll="lost, then fetched again" row={(n) => <RefetchedRow key={n.value} n={n} goTo={goTo} ev={ev} />} />
);

const NeededTable = ({ rows, goTo, ...ev }: { rows: NeededLater[]; goTo(t: GoTo): void } & Evidence) => (
  <IdTable rows={rows} where="Needed in" showAll="lost and needed later" row={(n) => <NeededRow key={n.value} n={n} goTo={goTo} ev={ev} />} />
);

/**
 * The line of the later item that uses a lost value, and on demand the line of the evicted turns that held it: a flag
 * is a lead to check, and these two lines are what a person checks it by.
 */
function Lines({ n, later: ids, ev, asked = false }: { n: { value: string; spellings?: string[] }; later: readonly string[]; ev: Evidence; asked?: boolean }) {
  const later = useMemo(() => (asked ? askingLine(ev.items, ids[0]!) : lineWriting(ev.items, ids, n)), [ev.items, ids.join('\n'), n, asked]);
  const [open, setOpen] = useState(false);
  const lost = useMemo(() => (open ? lineWriting(ev.items, ev.evicted, n) : null), [open, ev, n]);
  return (
    <div className="evidence small">
      {later ? <EvidenceQuote line={later} label={asked ? 'the question' : 'the later line'} /> : null}
      <details className="evidence-lost" onToggle={(e) => setOpen(e.currentTarget.open)}>
        <summary className="muted">where it was lost</summary>
        {lost ? <EvidenceQuote line={lost} label="the evicted line" /> : open ? <span className="muted">no evicted item writes it this way</span> : null}
      </details>
    </div>
  );
}

/** The identifier's chip and kind: the first two cells of every lost row. */
function IdCells({ n }: { n: { value: string; kind?: IdentifierKind | null; spellings?: string[] } }) {
  const also = n.spellings ?? [];
  return (
    <>
      <td>
        <code className="chip lost-needed">
          <BreakAtSeparators text={n.value} />
        </code>
        {also.length > 0 ? (
          <div className="small muted" title={also.join('\n')}>
            one file, also written as {also.map((a) => (/^(?:[/\\~]|[A-Za-z]:[\\/])/.test(a) ? 'its absolute path' : a)).join(', ')}
          </div>
        ) : null}
      </td>
      <td className="muted small">{n.kind ? kindName(n.kind) : ''}</td>
    </>
  );
}

/** A jump to a place in the session: the call when known, else the item. */
function Jump({ value, what, item, call, goTo }: { value: string; what: string; item: string; call: number | null; goTo(t: GoTo): void }) {
  const where = `${call !== null ? `${callLabel(call)} · ` : ''}${item}`;
  return (
    <button type="button" className="link" title={item} aria-label={`${value}: go to ${what}${where}`} onClick={() => goTo({ item, ...(call !== null ? { call } : {}) })}>
      {call !== null ? callLabel(call) : item} ↗
    </button>
  );
}

function RefetchedRow({ n, goTo, ev }: { n: RefetchedLater; goTo(t: GoTo): void; ev: Evidence }) {
  return (
    <tr className="needed">
      <IdCells n={n} />
      <td>
        <span className="small muted">{n.via === 'refetch' ? 'fetched again in ' : 'printed again by '}</span>
        <Jump value={n.value} what="the re-fetch, " item={n.itemId} call={n.callIndex} goTo={goTo} />
        {n.usedIn !== null ? (
          <>
            <span className="small muted"> · used in </span>
            <Jump value={n.value} what="its use, " item={n.usedIn} call={n.usedCallIndex} goTo={goTo} />
          </>
        ) : null}
        <Lines n={n} later={n.usedIn ? [n.usedIn, n.itemId] : [n.itemId]} ev={ev} />
      </td>
    </tr>
  );
}

function NeededRow({ n, goTo, ev }: { n: NeededLater; goTo(t: GoTo): void; ev: Evidence }) {
  const where = `${n.callIndex !== null ? `${callLabel(n.callIndex)} · ` : ''}${n.itemId}`;
  return (
    <tr className="needed">
      <IdCells n={n} />
      <td>
        <span className="small muted">{n.via === 'question' ? 'asked for in ' : 'needed in '}</span>
        {/* The call, as the other lists' jumps show it; the item's id is in the title, not in the way of the value's cell. */}
        <button type="button" className="link" title={n.itemId} aria-label={`${n.value}: go to ${where}`} onClick={() => goTo({ item: n.itemId, ...(n.callIndex !== null ? { call: n.callIndex } : {}) })}>
          {n.callIndex !== null ? callLabel(n.callIndex) : n.itemId} ↗
        </button>
        <Lines n={n} later={[n.itemId]} ev={ev} asked={n.via === 'question'} />
      </td>
    </tr>
  );
}

function kindTitle(kind: IdentifierKind | undefined): string | undefined {
  return kind ? kindName(kind) : undefined;
}

function IdList({ title, tone, values, total, kinds }: { title: string; tone: 'kept' | 'lost'; values: string[]; total: number; kinds: Record<string, IdentifierKind> }) {
  const groups = useMemo(() => groupByKind(values, kinds), [values, kinds]);
  // The chips are built when the list is first opened: closed, hundreds of them only slowed the panel's first paint.
  const [opened, setOpened] = useState(false);
  return (
    <details className={`id-list ${tone}`} onToggle={(e) => e.currentTarget.open && setOpened(true)}>
      <summary>
        {title} <span className="count">{fmt(total)}</span>
        <span className="muted small"> {groups.map((g) => `${g.values.length} ${kindName(g.kind, g.values.length)}`).join(', ')}</span>
      </summary>
      {total > values.length ? <p className="small muted">The first {fmt(values.length)} of {fmt(total)} are listed here; <code>compaction-inspector inspect --json</code> lists them all.</p> : null}
      {values.length === 0 ? <p className="small muted">None.</p> : null}
      {opened ? groups.map((g) => <KindGroupView key={g.kind} label={kindName(g.kind, g.values.length)} values={g.values} tone={tone} />) : null}
    </details>
  );
}

function KindGroupView({ label, values, tone }: { label: string; values: string[]; tone: 'kept' | 'lost' }) {
  const [all, setAll] = useState(false);
  const shown = all ? values : values.slice(0, CHIPS_PER_GROUP);
  return (
    <div className="kind-group">
      <h5>
        {label} <span className="muted">{values.length}</span>
      </h5>
      <ul className="chips">
        {shown.map((v) => (
          <li key={v}>
            <code className={`chip ${tone}`}>
              <BreakAtSeparators text={v} />
            </code>
          </li>
        ))}
      </ul>
      {values.length > shown.length ? (
        <button type="button" className="link small" onClick={() => setAll(true)}>
          Show all {values.length} {label}
        </button>
      ) : null}
    </div>
  );
}
