// Prompt cache at the current call: the reused prefix, the first divergence with its diff and cause, predicted vs reported.
import { useVirtualizer } from '@tanstack/react-virtual';
import { useMemo, useRef, useState } from 'react';
import { PROVIDER_RULES, type CacheReport, type ProviderRule } from '../../../src/cache';
import { CAUSE_LABEL, cacheBreaks, cacheHeadline, causeSentence, disagreementSentence, formatDuration, formatUsd, predictedVsReported, prefixBar, unreadPrefixSentence, type CacheBreakEntry } from '../../../src/charts/cache-summary';
import type { CacheSummary } from '../../../src/cache/forensics';
import { CAUSE_TAXONOMY, READ_NOTES } from '../../../src/cache/cause-taxonomy';
import { PRICES_AS_OF, priceOf, type ModelPrice } from '../../../src/cost/prices';
import { useApp } from '../../store';
import type { Item } from '../../../src/model/types';
import type { GoTo, PanelProps } from './panel-props';
import './cache-panel.css';
import { PendingPart } from '../../components/PendingPart';
import { count as formatCount } from '../../format/count';

const fmt = (n: number) => formatCount(n);
/** A per-million price: `$0.50`, `$6.25`, `$0.075`. */
const usd = (v: number) => `$${v.toFixed(Math.max(2, (String(v).split('.')[1] ?? '').length))}`;
const signed = (n: number) => (n > 0 ? `+${fmt(n)}` : n < 0 ? `−${fmt(-n)}` : '0');

const RULE_NOTE: Record<ProviderRule, string> = {
  openai: 'nothing below 1,024 tokens, then 128-token steps',
  anthropic: 'at cache breakpoints and block boundaries, per-model minimum',
  vllm: '16-token blocks',
  deepseek: '64-token units',
  exact: 'every shared token counts',
};

function describeItem(item: Item | undefined, id: string): string {
  if (!item) return id;
  const what = item.kind === 'message' ? `${item.role} message` : item.kind.replace(/_/g, ' ');
  return `${what} ${id}`;
}

/** `item 3 (summary r6.m2)`, or `the tool schemas`. */
function divergenceLabel(report: CacheReport, itemById: ReadonlyMap<string, Item>): string | undefined {
  const d = report.divergence;
  if (!d) return undefined;
  if (d.itemIndex < 0) return 'the tool schemas';
  return `item ${d.itemIndex + 1} (${describeItem(itemById.get(d.itemId), d.itemId)})`;
}

function RulePicker({ rule, setRule, here }: { rule: ProviderRule | 'auto'; setRule(r: ProviderRule | 'auto'): void; here: ProviderRule | null }) {
  return (
    <label className="rule-picker">
      Provider rule
      <select value={rule} onChange={(e) => setRule(e.target.value as ProviderRule | 'auto')}>
        <option value="auto">auto{rule === 'auto' && here ? ` (${here} here)` : ''}</option>
        {PROVIDER_RULES.map((r) => (
          <option key={r} value={r}>
            {r}
          </option>
        ))}
      </select>
    </label>
  );
}

export default function CachePanel({ view, callIndex, itemById, goTo, rule, setRule }: PanelProps) {
  const breaks = useMemo(() => cacheBreaks(view.cache), [view.cache]);
  const report = view.cache[callIndex];
  if (view.pending.includes('cache')) {
    // The rule stays at hand while the prefix is worked out (a rule change starts that over).
    return (
      <div className="cache">
        <div className="cache-top">
          <RulePicker rule={rule} setRule={setRule} here={null} />
        </div>
        <PendingPart view={view} part="cache" />
      </div>
    );
  }
  if (view.calls.length === 0 || !report) {
    return <p className="empty">This session has no model calls, so there is no prompt cache to analyse.</p>;
  }
  const label = divergenceLabel(report, itemById);
  const headline = cacheHeadline(report, label);
  const sentence = causeSentence(report);
  const disagreement = disagreementSentence(report);
  const first = report.previousContextTokens === null;

  return (
    <div className="cache">
      <div className="cache-top">
        <h3 className={`cache-headline tone-${headline.tone}`}>{headline.text}</h3>
        <RulePicker rule={rule} setRule={setRule} here={report.rule} />
      </div>
      <p className="muted small rule-note">
        {report.rule}: {RULE_NOTE[report.rule]}.
      </p>
      {sentence ? <p className="cause-sentence">{sentence}</p> : null}
      {disagreement ? (
        <p className="note disagreement" role="note">
          {disagreement}
        </p>
      ) : null}
      {report.diagnostic !== null ? (
        <p className="small diagnostic">
          Provider diagnostic: <strong>{report.diagnostic === 'hit' ? 'no divergence' : report.diagnostic.replace(/_/g, ' ')}</strong>
          {(report.diagnostic === 'hit') === !report.cacheBreak ? ' — agrees with this verdict.' : ' — differs from this verdict.'}
        </p>
      ) : null}

      <Figures report={report} />
      {first ? null : <PrefixBar report={report} />}
      <Divergence report={report} itemById={itemById} goTo={goTo} />
      <UnrecordedNote report={report} />
      <SessionSummary summary={view.facts.cache} breaks={breaks} model={view.calls[callIndex]?.model ?? null} calls={view.calls.length} callIndex={callIndex} goTo={goTo} />
      <CauseHelp />
    </div>
  );
}

function PrefixBar({ report }: { report: CacheReport }) {
  const bar = prefixBar(report);
  const pct = (n: number) => `${(n / bar.scale) * 100}%`;
  // The words follow the verdict: a compaction drops its tail, and a divergence the provider served anyway
  // (reported hit) lost nothing, so only a break reads "lost", in red.
  const compaction = (report.cause ?? report.predictedCause) === 'compaction';
  const tail = compaction ? 'replaced by the compaction' : report.cacheBreak ? 'lost' : 'past the predicted divergence, no miss';
  const ariaTail = report.cacheBreak ? 'lost' : compaction ? 'replaced by the compaction' : 'after the predicted divergence';
  return (
    <div className="prefix-bar">
      <h4>Prefix reused from the previous call</h4>
      <div className="prefix-row">
        <span className="prefix-name">Previous prompt</span>
        <div className="prefix-track" role="img" aria-label={`Previous prompt: ${fmt(bar.reused)} tokens reused, ${fmt(bar.lost)} ${ariaTail}`}>
          <span className="seg seg-reused" style={{ width: pct(bar.reused) }} />
          <span className="seg seg-lost" style={{ width: pct(bar.lost) }} />
        </div>
        <span className="prefix-nums">
          {fmt(bar.reused)} reused · <span className={bar.lost > 0 && report.cacheBreak && !compaction ? 'lost' : undefined}>{fmt(bar.lost)} {tail}</span>
        </span>
      </div>
      <div className="prefix-row">
        <span className="prefix-name">This prompt</span>
        <div className="prefix-track" role="img" aria-label={`This prompt: ${fmt(bar.reused)} tokens reused, ${fmt(bar.added)} new`}>
          <span className="seg seg-reused" style={{ width: pct(bar.reused) }} />
          <span className="seg seg-new" style={{ width: pct(bar.added) }} />
        </div>
        <span className="prefix-nums">
          {fmt(bar.reused)} reused · {fmt(bar.added)} new
        </span>
      </div>
      <p className="muted small prefix-legend">
        <span className="key seg-reused" /> shared prefix <span className="key seg-lost" /> previous prompt after the divergence <span className="key seg-new" /> sent anew
        {report.gapMs !== null ? ` · ${formatDuration(report.gapMs)} after the previous call (TTL ${formatDuration(report.ttlMs)})` : report.gapUnknown ? ' · time since the previous call unknown (the timestamps repeat or go backwards)' : ''}
      </p>
    </div>
  );
}

function Divergence({ report, itemById, goTo }: { report: CacheReport; itemById: ReadonlyMap<string, Item>; goTo(t: GoTo): void }) {
  const d = report.divergence;
  if (!d) {
    return (
      <div className="divergence">
        <h4>First divergence</h4>
        <p className="muted">{report.previousContextTokens === null ? 'None: this is the first call.' : 'None: the previous prompt is a prefix of this one.'}</p>
      </div>
    );
  }
  const item = itemById.get(d.itemId);
  const prev = d.previousItemId ? itemById.get(d.previousItemId) : undefined;
  const inSchemas = d.itemIndex < 0;
  return (
    <div className="divergence">
      <div className="divergence-head">
        <h4>First divergence</h4>
        <button type="button" onClick={() => goTo({ item: d.itemId })} disabled={inSchemas} title={inSchemas ? 'The tool schemas are not an item of the context' : undefined}>
          Jump to divergence
        </button>
      </div>
      <p className="small">
        {inSchemas ? 'In the tool schemas' : `At item ${d.itemIndex + 1} of this call`}, character {fmt(d.offset)}.
        {d.headerChanged && d.previousItemId ? ` The item itself changed: ${describeItem(prev, d.previousItemId)} became ${describeItem(item, d.itemId)}.` : null}
        {!d.headerChanged && d.previousItemId && d.previousItemId !== d.itemId ? ` Previously ${describeItem(prev, d.previousItemId)}.` : null}
      </p>
      <pre className="diff" aria-label="Diff at the divergence">
        {d.before ? <span className="diff-before">{d.before}</span> : null}
        <del>
          <span className="sr-only">[removed: </span>
          {d.removed}
          <span className="sr-only">]</span>
        </del>
        <span className="diff-arrow" aria-hidden="true">
          {' ⟶ '}
        </span>
        <ins>
          <span className="sr-only">[added: </span>
          {d.added}
          <span className="sr-only">]</span>
        </ins>
        {d.added === '' ? <span className="diff-end">⟨this prompt ends here⟩</span> : null}
      </pre>
      <p className="muted small diff-legend">
        <del>struck out</del>: the previous call's text · <ins>underlined</ins>: this call's text at the same place
      </p>
    </div>
  );
}

function Figures({ report }: { report: CacheReport }) {
  const f = predictedVsReported(report);
  const zeroed = report.ttlExpired ? 'the cache had expired' : report.modelChanged ? 'the model changed' : null;
  const rounded = report.prefixTokens + report.outputReusedTokens;
  const first = report.previousContextTokens === null;
  return (
    <div className="figures">
      <h4>Cached tokens: reported vs predicted</h4>
      <dl className="figure-row">
        <div className="figure">
          <dt>Reported cache read</dt>
          <dd>{f.reported === null ? <span className="muted">not reported</span> : fmt(f.reported)}</dd>
        </div>
        <div className="figure">
          <dt>Left cached by the previous call</dt>
          <dd>{report.previousCacheable === null ? <span className="muted">{first ? '—' : 'not reported'}</span> : fmt(report.previousCacheable)}</dd>
        </div>
        <div className="figure">
          <dt>Predicted ({report.rule})</dt>
          <dd>{fmt(f.predicted)}</dd>
        </div>
        <div className="figure">
          <dt>Processed again</dt>
          <dd className={report.missTokens && report.missCharge === 'miss' ? 'diff-nonzero' : undefined}>
            {report.missTokens === null ? <span className="muted">—</span> : fmt(report.missTokens)}
            {report.missCostUsd !== null && report.missTokens ? <span className="miss-cost"> · {formatUsd(report.missCostUsd)}</span> : null}
            {report.missTokens && report.missCharge !== 'miss' && report.missCharge !== null ? <span className="muted charge"> {CHARGE_NOTE[report.missCharge]}</span> : null}
          </dd>
        </div>
        {report.droppedTokens ? (
          <div className="figure">
            <dt>Dropped, not processed again</dt>
            <dd title="Tokens the previous call left cached that this prompt no longer sends: never processed again, so never priced as a miss">{fmt(report.droppedTokens)}</dd>
          </div>
        ) : null}
      </dl>
      <p className="muted small">
        {first
          ? 'The first call has nothing cached from this session.'
          : zeroed && report.reportedMiss !== false
            ? `Predicted 0 because ${zeroed}, although ${fmt(rounded)} tokens matched.`
            : `Shared prefix ${fmt(report.prefixTokens)} tokens${report.outputReusedTokens > 0 ? ` plus ${fmt(report.outputReusedTokens)} of the previous call's output` : ''}${f.predicted !== rounded ? `, rounded by the ${report.rule} rule to ${fmt(f.predicted)}` : ''}.`}
        {f.difference !== null && f.difference !== 0 ? ` Prediction ${signed(f.difference)} against the report, which decides.` : ''}
        {report.missTokens && report.missCostUsd === null ? ' No price is known for this model, so the miss is shown in tokens only.' : ''}
      </p>
    </div>
  );
}

function UnrecordedNote({ report }: { report: CacheReport }) {
  if (!report.prefixUnrecorded) return null;
  const notRead = report.unrecordedNotRead;
  return (
    <p className="note" role="note">
      {report.unseenPrefixTokens !== null
        ? `This format does not record part of the prompt (system prompt, tool schemas). That prefix is estimated at ${fmt(report.unseenPrefixTokens)} tokens, fitted once for the segment against reported usage (reported prompt = prefix + scale × counted tokens), and counted as shared by both calls.`
        : 'This format does not record part of the prompt (system prompt, tool schemas), and no reported usage allows an estimate. The figures above leave that prefix out, so the real prompt and prefix are larger than shown.'}
      {notRead !== null && report.reportedCacheRead !== null ? (
        <span className="unrecorded-not-read">
          {` At this call, though, the provider read ${fmt(report.reportedCacheRead)} tokens from its cache, ${fmt(notRead)} short of that prefix: part of the system prompt or tool schemas was not served from the cache (it changed here, or no cache breakpoint covered it) and was processed again. The file does not record which part.`}
        </span>
      ) : null}
    </p>
  );
}

const CHARGE_NOTE = { compaction: "the compaction's cost", shortfall: 'uncached tail, not a break' } as const;

/** The cause taxonomy (src/cache/cause-taxonomy.ts), the same text as docs/cache.md. */
function CauseHelp() {
  return (
    <details className="cache-help">
      <summary className="small">What the causes mean, and what sets them</summary>
      <p className="small muted">
        Processed again = the tokens of this prompt the previous call had left cached and the provider did not read: never more than the prompt less its read. A compaction's is its own cost, apart from misses; what it dropped is not processed again. Only collapses are breaks; an uncached tail is a cost.
      </p>
      <dl className="cause-list">
        {Object.entries(CAUSE_TAXONOMY).map(([k, c]) => (
          <div key={k}>
            <dt>{c.label}</dt>
            <dd>
              {c.meaning} <span className="muted">Set by: {c.evidence}</span>
            </dd>
          </div>
        ))}
        {Object.entries(READ_NOTES).filter(([k]) => k !== 'thinking-dropped').map(([k, c]) => (
          <div key={k}>
            <dt>{c.label} (no break)</dt>
            <dd>
              {c.meaning} <span className="muted">Set by: {c.evidence}</span>
            </dd>
          </div>
        ))}
      </dl>
    </details>
  );
}

const ROW = 30;

const PRICE_FIELDS: [keyof ModelPrice, string][] = [
  ['input', 'Input'],
  ['cacheWrite5m', 'Cache write 5 min'],
  ['cacheWrite1h', 'Cache write 1 h'],
  ['cacheRead', 'Cache read'],
  ['output', 'Output'],
];

/** The user's own prices for this model (USD per million tokens), kept in this browser; every figure follows them. */
function PriceEditor({ model }: { model: string }) {
  const prices = useApp((s) => s.prices);
  const setPrice = useApp((s) => s.setPrice);
  const current = priceOf(model, prices);
  const [draft, setDraft] = useState<Record<string, string>>({});
  const value = (k: keyof ModelPrice) => draft[k] ?? (current ? String(current[k]) : '');
  const parsed = PRICE_FIELDS.map(([k]) => Number(value(k)));
  const valid = parsed.every((v, i) => value(PRICE_FIELDS[i]![0]) !== '' && Number.isFinite(v) && v >= 0);
  return (
    <details className="price-editor">
      <summary className="small">Set prices for {model}</summary>
      <div className="price-fields">
        {PRICE_FIELDS.map(([k, label]) => (
          <label key={k}>
            {label}
            <input type="number" min={0} step="any" inputMode="decimal" value={value(k)} onChange={(e) => setDraft({ ...draft, [k]: e.target.value })} />
          </label>
        ))}
      </div>
      <div className="price-actions">
        <button
          type="button"
          disabled={!valid}
          onClick={() => {
            setPrice(model, Object.fromEntries(PRICE_FIELDS.map(([k], i) => [k, parsed[i]!])) as unknown as ModelPrice);
            setDraft({});
          }}
        >
          Use these prices
        </button>
        {current?.source === 'override' ? (
          <button type="button" onClick={() => (setPrice(model, null), setDraft({}))}>
            Back to the table
          </button>
        ) : null}
        <span className="muted small">USD per million tokens, kept in this browser.</span>
      </div>
    </details>
  );
}

function SessionSummary({ summary, breaks, model, calls, callIndex, goTo }: { summary: CacheSummary | null; breaks: CacheBreakEntry[]; model: string | null; calls: number; callIndex: number; goTo(t: GoTo): void }) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const n = breaks.length;
  const virtualizer = useVirtualizer({ count: n, getScrollElement: () => scrollRef.current, estimateSize: () => ROW, overscan: 8 });
  const prices = useApp((s) => s.prices);
  const price = priceOf(model, prices);
  const causes = summary ? Object.entries(summary.byCause) : [];
  const unread = summary ? unreadPrefixSentence(summary.unrecordedNotRead, fmt) : null;
  return (
    <div className="cache-session">
      <h4>This session</h4>
      {summary ? (
        <dl className="figure-row session-figures" aria-label="Session cache figures">
          <div className="figure">
            <dt>Reported hit rate</dt>
            <dd>{summary.hitRate === null ? <span className="muted">not reported</span> : `${(summary.hitRate * 100).toFixed(1)}%`}</dd>
          </div>
          <div className="figure">
            <dt>Cache breaks</dt>
            <dd>{fmt(summary.breaks)}</dd>
          </div>
          <div className="figure">
            <dt>Reported · predicted</dt>
            <dd>
              {fmt(summary.reportedMisses)} · {fmt(summary.predictedBreaks)}
            </dd>
          </div>
          <div className="figure">
            <dt>Lost to misses</dt>
            <dd title={`${fmt(summary.missTokens)} tokens processed again at the breaks (compactions and uncached tails apart)`}>{summary.missCostUsd !== null ? formatUsd(summary.missCostUsd) : summary.missTokens === 0 && price ? formatUsd(0) : `${fmt(summary.missTokens)} tok`}</dd>
          </div>
          {summary.compactionMiss.calls > 0 ? (
            <div className="figure">
              <dt>At compactions</dt>
              <dd title={`${fmt(summary.compactionMiss.tokens)} tokens processed again after ${fmt(summary.compactionMiss.calls)} compaction(s): their cost, apart from misses; ${fmt(summary.compactionMiss.droppedTokens)} cached tokens they dropped were never processed again`}>
                {summary.compactionMiss.costUsd === null ? `${fmt(summary.compactionMiss.tokens)} tok` : formatUsd(summary.compactionMiss.costUsd)}
              </dd>
            </div>
          ) : null}
          {summary.shortfalls.calls > 0 ? (
            <div className="figure">
              <dt>Uncached tails</dt>
              <dd title={`${fmt(summary.shortfalls.tokens)} tokens at ${fmt(summary.shortfalls.calls)} call(s) the provider served short of the previous prompt without losing what it had served: a cost, not a break`}>
                {summary.shortfalls.costUsd === null ? `${fmt(summary.shortfalls.tokens)} tok` : formatUsd(summary.shortfalls.costUsd)}
              </dd>
            </div>
          ) : null}
        </dl>
      ) : null}
      <p className="small">
        {n} cache break{n === 1 ? '' : 's'} in {fmt(calls)} call{calls === 1 ? '' : 's'}
        {causes.length ? `: ${causes.map(([c, k]) => `${k} ${CAUSE_LABEL[c as keyof typeof CAUSE_LABEL]}`).join(', ')}` : ''}.
        {summary && summary.agreement.compared > 0 ? ` Prediction and report agree on ${fmt(summary.agreement.agree)} of ${fmt(summary.agreement.compared)} calls.` : ''}
        {summary && summary.diagnostics.compared > 0 ? ` Provider diagnostics agree on ${fmt(summary.diagnostics.agree)} of ${fmt(summary.diagnostics.compared)}.` : ''}
        {unread ? <span className="unrecorded-not-read-session">{` A${unread.slice(1)}.`}</span> : null}
        {summary && summary.shortfalls.calls > 0 ? ` ${fmt(summary.shortfalls.calls)} call${summary.shortfalls.calls === 1 ? '' : 's'} left an uncached tail (a cost, not a break).` : ''}
        {summary && summary.notCached > 0 ? ` ${fmt(summary.notCached)} call${summary.notCached === 1 ? ' was' : 's were'} not cached at all: no cache breakpoint.` : ''}
      </p>
      <p className="muted small">
        {price
          ? `Priced ${price.source === 'override' ? 'at your prices' : `at ${price.label}`}: input ${usd(price.input)}, cache write ${usd(price.cacheWrite5m)} (5 min) / ${usd(price.cacheWrite1h)} (1 h), cache read ${usd(price.cacheRead)} per million tokens${price.source === 'table' ? ` (table of ${PRICES_AS_OF})` : ''}.`
          : `No price is known for ${model ?? 'this model'}: misses are shown in tokens.`}
      </p>
      {model ? <PriceEditor model={model} /> : null}
      {n === 0 ? (
        <p className="muted small">No call breaks the cache.</p>
      ) : (
        <div ref={scrollRef} className="breaks" style={{ maxHeight: Math.min(n, 8) * ROW + 2 }}>
          <ul aria-label="Cache breaks" style={{ height: virtualizer.getTotalSize() }}>
            {virtualizer.getVirtualItems().map((v) => {
              const b = breaks[v.index]!;
              return (
                <li key={b.index} style={{ transform: `translateY(${v.start}px)`, height: ROW }}>
                  <button type="button" className={b.index === callIndex ? `break current cause-${b.cause ?? 'unknown'}` : `break cause-${b.cause ?? 'unknown'}`} aria-current={b.index === callIndex ? 'step' : undefined} onClick={() => goTo({ call: b.index })}>
                    <span className="break-call">Call {b.index + 1}</span>
                    <span className="break-cause">
                      {b.cause ? CAUSE_LABEL[b.cause] : 'unknown'}
                      <span className="muted">{b.reported && b.predicted ? ' · both' : b.reported ? ' · reported' : ' · predicted'}</span>
                    </span>
                    <span className="break-lost" title={b.charge === 'compaction' ? "The compaction's cost, apart from misses" : undefined}>
                      {fmt(b.missTokens)} tok{b.missCostUsd !== null ? ` · ${formatUsd(b.missCostUsd)}` : ''}
                      {b.charge === 'compaction' ? <span className="muted"> · compaction</span> : null}
                    </span>
                  </button>
                </li>
              );
            })}
          </ul>
        </div>
      )}
    </div>
  );
}
