// A self-contained HTML report of one session: facts, notes, compactions, the summary audit, the cache misses,
// lints, every call's context and every item, in one file with its styles inline. The audit and the misses are the
// analysis's own figures (the audits, the cache reports and session-facts.ts), as the panels show them. No script, and a policy that forbids loading
// anything, so opening it makes no network request. Every piece of session text is escaped, its control
// characters (NUL, bidi overrides, …) shown as marks (model/visible-text.ts), and names are bidi-isolated.
import { CAUSE_LABEL, formatUsd, missCostParts } from '../../src/charts/cache-summary';
import { costSentence, offBranchSentence } from '../../src/charts/cost-summary';
import { READ_NOTES } from '../../src/cache/cause-taxonomy';
import type { AnalysisView } from '../../src/analysis/analysis-view';
import { auditCount, type AuditList } from '../../src/audit/trim-audit';
import { auditListTrust, auditTrustNote } from '../../src/audit/audit-trust';
import { restoredLead, unrecordedRestoreNote, unrecordedRestoreVersion } from '../../src/audit/restored-lead';
import { closestLead } from '../../src/audit/closest-lead';
import { askingLine, evidenceLine, lineWriting, QUOTE_WIDTH, type EvidenceLine } from '../../src/audit/evidence-line';
import { describeTarget, sortAnnotations, type Annotation, type ViewState } from '../../src/share';
import { showControls } from '../../src/model/visible-text';
import { isConversationItem } from '../../src/analysis/eviction-map';
import { count as formatCount } from '../format/count';
import { formatBytes } from './library-policy';

export interface ReportInput {
  title: string;
  formatLabel: string;
  hash: string | null;
  files: readonly string[];
  model: string | null;
  view: AnalysisView;
  annotations: readonly Annotation[];
  viewState: ViewState;
  createdAt: string;
  /** The instruction files the audit read (CLAUDE.md, …), by name and size: their text stays out of the report. */
  instructionFiles?: readonly { path: string; size: number }[];
}

/** Above this many context entries in all calls, each call lists counts only (the file stays openable). */
export const REPORT_MAX_ENTRY_ROWS = 60_000;
/** Values listed per audit list, and cache misses listed, before "…and N more". */
const LIST_MAX = 100;
const PREVIEW = 240;

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

const n = (x: number) => formatCount(x);

export function reportFileName(hash: string | null): string {
  return `compaction-inspector-${hash && /^[0-9a-f]{64}$/.test(hash) ? hash.slice(0, 12) : 'session'}.report.html`;
}

/** A quoted line with the flagged value marked, as text (the transcript is untrusted). */
function quote(what: string, line: EvidenceLine | null): string {
  return line ? `<br><span class="muted">${what}:</span> <q class="ev">${escapeHtml(line.before)}${line.match ? `<mark>${escapeHtml(line.match)}</mark>` : ''}${escapeHtml(line.after)}</q>` : '';
}

export function reportHtml(r: ReportInput): string {
  const v = r.view;
  const e = (s: string) => escapeHtml(showControls(s));
  // The audit's figures as measured the way this audit ran: with the project's instruction files or without.
  const withFiles = (r.instructionFiles?.length ?? 0) > 0;
  const byId = new Map(v.items.map((i) => [i.id, i]));
  const positions = new Map<string, number>();
  v.calls.forEach((c, i) => c.entries.forEach((x) => positions.has(x.id) || positions.set(x.id, i + 1)));
  const label = (id: string) => {
    const it = byId.get(id);
    return it ? `${id} (${it.kind === 'message' ? `${it.role} message` : it.kind.replace('_', ' ')})` : id;
  };
  const notes = sortAnnotations(r.annotations, (id) => positions.get(id));
  const rows = v.calls.reduce((k, c) => k + c.entries.length, 0);
  const detailed = rows <= REPORT_MAX_ENTRY_ROWS;

  const facts: [string, string][] = [
    ['Format', r.formatLabel],
    ['Items', n(v.facts.items)],
    ['Model calls', n(v.facts.calls)],
    ...(v.facts.offBranch ? ([['Abandoned branches', offBranchSentence(v.facts.offBranch, v.facts.cost, n, formatUsd)]] as [string, string][]) : []),
    ...(v.facts.cost.usd !== null ? ([['Cost', costSentence(v.facts.cost, n, formatUsd)!]] as [string, string][]) : []),
    ['Compactions', `${n(v.facts.compactions.total)}${v.facts.compactions.inferred ? ` (${n(v.facts.compactions.inferred)} inferred)` : ''}`],
    ['Peak context', `${n(v.facts.peakContextTokens)} tokens${v.facts.peakSource === 'reported' ? ' (reported)' : v.facts.peakSource === 'estimated' ? ` (estimated ±${Math.max(1, Math.round(v.facts.peakUncertainty * 100))}%)` : ''}${v.contextWindow ? ` of ${n(v.contextWindow)}` : ''}`],
    ...(v.facts.cache
      ? ([
          ['Cache', `${v.facts.cache.hitRate !== null ? `hit rate ${(v.facts.cache.hitRate * 100).toFixed(1)}% · ` : ''}${n(v.facts.cache.breaks)} break${v.facts.cache.breaks === 1 ? '' : 's'} (${n(v.facts.cache.reportedMisses)} reported, ${n(v.facts.cache.predictedBreaks)} predicted) · ${missCostParts(v.facts.cache, n, formatUsd).join(' · ')}${v.facts.cache.unrecordedNotRead.calls > 0 ? ` · ${n(v.facts.cache.unrecordedNotRead.tokens)} tokens of the unrecorded system prompt and tools not read from the cache at ${n(v.facts.cache.unrecordedNotRead.calls)} call${v.facts.cache.unrecordedNotRead.calls === 1 ? '' : 's'}` : ''}`],
        ] as [string, string][])
      : []),
    ...(v.facts.models.length > 1
      ? ([['Models', v.facts.models.map((m) => `${m.model} (${n(m.calls)} call${m.calls === 1 ? '' : 's'})`).join(', ')]] as [string, string][])
      : (v.facts.models[0]?.model ?? r.model)
        ? ([['Model', (v.facts.models[0]?.model ?? r.model)!]] as [string, string][])
        : []),
    ...(v.facts.totals?.warning ? ([['Totals disagree', v.facts.totals.warning]] as [string, string][]) : []),
    ['Files', r.files.join(', ')],
    ...(r.hash ? ([['SHA-256', r.hash]] as [string, string][]) : []),
  ];

  const notesHtml = notes.length
    ? `<ol class="notes">${notes
        .map(
          (a) =>
            `<li><strong>${e(describeTarget(a.target, label))}</strong>${a.tags.length ? ` ${a.tags.map((t) => `<span class="tag">${e(t)}</span>`).join(' ')}` : ''}${a.author ? ` <span class="muted">${e(a.author)}</span>` : ''}<p>${e(a.note)}</p></li>`,
        )
        .join('')}</ol>`
    : '<p class="muted">No notes.</p>';

  const compactionsHtml = v.compactions.length
    ? `<ul>${v.compactions
        .map((c) => {
          return `<li>#${c.index + 1} ${e(c.kind)}${c.trigger ? ` · ${e(c.trigger)}` : ''}${c.call !== null ? ` · before call ${c.call}` : ''}${c.tokensBefore !== null ? ` · ${n(c.tokensBefore)}` : ''}${c.tokensAfter !== null ? ` → ${n(c.tokensAfter)} tokens` : ''}${c.replacedIds.length ? ` · ${n(c.replacedIds.length)} items replaced` : ''}${c.cacheCost ? ` · cache: ${n(c.cacheCost.missTokens)} tokens processed again${c.cacheCost.missCostUsd ? ` (${formatUsd(c.cacheCost.missCostUsd)})` : ''}, ${n(c.cacheCost.droppedTokens)} cached tokens dropped` : ''}</li>`;
        })
        .join('')}</ul>`
    : '<p class="muted">None recorded.</p>';

  const notYet = (part: 'audits' | 'cache') => (v.pending.includes(part) ? '<p class="muted">Still being worked out when this report was saved: save it again once the panel shows it.</p>' : null);
  const more = (shown: number, total: number) => (total > shown ? ` <span class="muted">…and ${n(total - shown)} more</span>` : '');
  const values = (list: readonly string[], total: number) => `${list.slice(0, LIST_MAX).map((x) => `<code>${e(x)}</code>`).join(', ')}${more(Math.min(list.length, LIST_MAX), total)}`;
  // Said once for the session (every compaction of such a version), as `check` says it.
  const unrecorded = unrecordedRestoreVersion(v.audits);
  const auditHtml =
    notYet('audits') ??
    (v.audits.length
      ? v.audits
          .map((a) => {
            const c = v.compactions[a.compaction];
            const count = (k: AuditList) => auditCount(a, k);
            const evicted = count('kept') + count('lost');
            const head = `Compaction #${a.compaction + 1}${c?.call != null ? ` (before call ${c.call})` : ''}: kept ${n(count('kept'))} of ${n(evicted)} identifiers · ${n(count('lost'))} lost · <strong>${n(count('lostReferencedLater'))} lost and needed later</strong> · ${n(count('lostRefetchedLater'))} lost, then fetched again · ${n(count('invented'))} invented · ${n(count('inventedInstructions'))} invented instruction${count('inventedInstructions') === 1 ? '' : 's'} · ${n(count('instructionLike'))} instruction-like`;
            // The two lines a person judges a flag by, as the panel quotes them (evidence-line.ts).
            const evictedIds = c?.replacedIds ?? [];
            const summaryText = (c?.summaryId ? byId.get(c.summaryId)?.text : undefined) ?? c?.log?.summary ?? undefined;
            const lines = (r: { value: string; spellings?: string[] }, later: string[]) =>
              [quote('used', lineWriting(byId, later, r)), quote('evicted', lineWriting(byId, evictedIds, r))].join('');
            const needed = a.lostReferencedLater.slice(0, LIST_MAX).map((r) => `<li><code>${e(r.value)}</code>${a.kinds[r.value] ? ` <span class="muted">${e(a.kinds[r.value]!)}</span>` : ''} — ${r.via === 'question' ? 'asked for' : 'used'} by <a href="#item-${e(encodeURIComponent(r.itemId))}">${e(label(r.itemId))}</a>${r.via === 'question' ? quote('asked', askingLine(byId, r.itemId)) + quote('evicted', lineWriting(byId, evictedIds, r)) : lines(r, [r.itemId])}</li>`).join('');
            // What the agent had to fetch again (the Summary audit panel's and `check`'s "lost, then fetched again").
            const refetched = a.lostRefetchedLater.slice(0, LIST_MAX).map((r) => `<li><code>${e(r.value)}</code>${a.kinds[r.value] ? ` <span class="muted">${e(a.kinds[r.value]!)}</span>` : ''} — ${r.via === 'refetch' ? 'fetched again' : 'printed again'} by <a href="#item-${e(encodeURIComponent(r.itemId))}">${e(label(r.itemId))}</a>${r.usedIn ? `, used in <a href="#item-${e(encodeURIComponent(r.usedIn))}">${e(label(r.usedIn))}</a>` : ''}${lines(r, r.usedIn ? [r.usedIn, r.itemId] : [r.itemId])}</li>`).join('');
            const rows = [
              a.restored?.length ? `<p class="muted">${e(restoredLead(a.restored))} ${a.restored.map((r) => `<a href="#item-${e(encodeURIComponent(r.itemId))}"><code>${e(r.file)}</code></a>`).join(', ')}</p>` : '',
              count('lostReferencedLater') ? `<p><strong>Lost, and needed later</strong></p><p class="muted">${e(auditListTrust('lostReferencedLater', { instructions: withFiles }))}</p><ul>${needed}</ul>${more(Math.min(a.lostReferencedLater.length, LIST_MAX), count('lostReferencedLater'))}` : '',
              count('lostRefetchedLater') ? `<p><strong>Lost, then fetched again</strong></p><p class="muted">${e(auditListTrust('lostRefetchedLater', { instructions: withFiles }))}</p><ul>${refetched}</ul>${more(Math.min(a.lostRefetchedLater.length, LIST_MAX), count('lostRefetchedLater'))}` : '',
              count('invented') ? `<p><strong>Invented</strong> (in the summary, in none of its sources; ${e(auditListTrust('invented', { instructions: withFiles }))}):</p><ul>${a.invented.slice(0, LIST_MAX).map((x) => `<li><code>${e(x)}</code>${quote('the summary', evidenceLine(summaryText, [x], QUOTE_WIDTH))}</li>`).join('')}</ul>${more(Math.min(a.invented.length, LIST_MAX), count('invented'))}` : '',
              count('inventedInstructions') ? `<p><strong>Invented instructions</strong> (the summary says the user asked or wanted it; no user message says it; ${e(auditListTrust('inventedInstructions'))}):</p><ul>${a.inventedInstructions.slice(0, LIST_MAX).map((x) => `<li><q>${e(x.sentence)}</q> <span class="muted">${closestLead(x)}${x.closest !== null ? `: <q>${e(x.closest)}</q>` : ''}</span></li>`).join('')}</ul>${more(Math.min(a.inventedInstructions.length, LIST_MAX), count('inventedInstructions'))}` : '',
              count('instructionLike') ? `<p><strong>Instruction-like</strong> (no source says it):</p><ul>${a.instructionLike.slice(0, LIST_MAX).map((x) => `<li>${e(x)}</li>`).join('')}</ul>` : '',
              count('lost') ? `<p><strong>Lost</strong>: ${values(a.lost, count('lost'))}</p>` : '',
              count('kept') ? `<p><strong>Kept</strong>: ${values(a.kept, count('kept'))}</p>` : '',
            ].join('');
            return `<details class="audit"${count('lostReferencedLater') || count('lostRefetchedLater') || count('invented') || count('inventedInstructions') ? ' open' : ''}><summary>${head}</summary>${rows || '<p class="muted">No identifiers in the evicted slice.</p>'}</details>`;
          })
          .join('') + `${unrecorded ? `<p class="muted">${e(unrecordedRestoreNote(unrecorded))}</p>` : ''}${r.instructionFiles?.length ? `<p class="muted">Read with ${r.instructionFiles.map((f) => `<code>${e(f.path)}</code> (${formatBytes(f.size)})`).join(', ')}.</p>` : ''}<p class="muted">${e(auditTrustNote({ instructions: withFiles }))}</p>`
      : '<p class="muted">No summary to audit.</p>');
  const cacheFacts = v.facts.cache;
  const misses = v.cache.filter((r) => r.cacheBreak);
  const missesHtml =
    notYet('cache') ??
    (!cacheFacts || misses.length === 0
      ? '<p class="muted">No cache break.</p>'
      : `<p>${n(cacheFacts.breaks)} break${cacheFacts.breaks === 1 ? '' : 's'} (${n(cacheFacts.reportedMisses)} reported by the provider, ${n(cacheFacts.predictedBreaks)} predicted from the content)${cacheFacts.missTokens ? ` · ${n(cacheFacts.missTokens)} tokens processed again` : ''}${cacheFacts.missCostUsd !== null ? ` · ${formatUsd(cacheFacts.missCostUsd)} lost to misses` : ''}${Object.keys(cacheFacts.byCause).length ? ` · ${Object.entries(cacheFacts.byCause).map(([k, c]) => `${n(c!)} ${e(CAUSE_LABEL[k as keyof typeof CAUSE_LABEL])}`).join(', ')}` : ''}</p>` +
        `<table class="misses"><thead><tr><th>Call</th><th>Cause</th><th>Seen by</th><th class="num">Tokens again</th><th class="num">Cost</th><th>First divergence</th></tr></thead><tbody>${misses
          .slice(0, LIST_MAX)
          .map(
            (r) =>
              `<tr><td><a href="#call-${r.call}">${r.call}</a></td><td>${e(CAUSE_LABEL[r.cause ?? 'unknown'])}</td><td>${r.reportedMiss ? (r.predictedBreak ? 'provider and content' : 'provider') : 'content (predicted)'}</td><td class="num">${r.missTokens !== null ? n(r.missTokens) : '—'}</td><td class="num">${r.missCostUsd !== null ? formatUsd(r.missCostUsd) : '—'}</td><td>${r.divergence ? (r.divergence.itemIndex < 0 ? 'tool schemas' : `<a href="#item-${e(encodeURIComponent(r.divergence.itemId))}">${e(label(r.divergence.itemId))}</a>, character ${n(r.divergence.offset)}`) : '—'}</td></tr>`,
          )
          .join('')}</tbody></table>${more(Math.min(misses.length, LIST_MAX), misses.length)}`);

  const lintsHtml = v.lints.length ? `<ul>${v.lints.map((l) => `<li><code>${e(l.rule)}</code> ${e(l.message)} <span class="muted">(${e(label(l.itemId))}${l.callIndex !== null ? `, call ${l.callIndex + 1}` : ''})</span></li>`).join('')}</ul>` : '<p class="muted">No lints.</p>';

  const callsHtml = v.calls
    .map((c, i) => {
      const ghosts = v.ghosts[i]?.length ?? 0;
      const cr = v.cache[i];
      // The same verdict the cache panel and `inspect --json` give for this call.
      const again = cr?.missTokens ? `, ${n(cr.missTokens)} tokens again${cr.missCostUsd !== null ? `, ${formatUsd(cr.missCostUsd)}` : ''}${cr.missCharge === 'compaction' ? " (the compaction's cost)" : ''}` : '';
      const verdict = cr?.cacheBreak
        ? ` · <span class="break">cache break: ${e(CAUSE_LABEL[cr.cause ?? 'unknown'])}${cr.reportedMiss ? ' (reported)' : ' (predicted)'}${again}</span>`
        : cr?.readNote
          ? ` · ${e(READ_NOTES[cr.readNote].label)}${again}`
          : '';
      const head = `Call ${i + 1}: ${n(c.entries.length)} item${c.entries.length === 1 ? '' : 's'}, ${n(c.contextTokens)} tokens${ghosts ? `, ${n(ghosts)} evicted` : ''}${c.compactionId ? ' · after a compaction' : ''}${c.timestamp ? ` · ${e(c.timestamp)}` : ''}${verdict}`;
      const open = i + 1 === r.viewState.turn ? ' open' : '';
      if (!detailed) return `<details id="call-${i + 1}"${open}><summary>${head}</summary></details>`;
      const list = c.entries
        .map((x) => `<tr class="r-${x.region}"><td>${x.region}</td><td><a href="#item-${e(encodeURIComponent(x.id))}">${e(label(x.id))}</a>${x.isNew ? ' <span class="tag">new</span>' : ''}${x.variant ? ' <span class="tag">masked</span>' : ''}</td><td class="num">${n(x.tokens)}</td></tr>`)
        .join('');
      return `<details id="call-${i + 1}"${open}><summary>${head}</summary><table><thead><tr><th>Band</th><th>Item</th><th class="num">Tokens</th></tr></thead><tbody>${list}</tbody></table></details>`;
    })
    .join('');

  // The list holds the compaction markers too; the heading counts items as the facts above (and the app) do.
  const markers = v.items.filter((it) => !isConversationItem(it)).length;
  const itemsHeading = `Items (${n(v.items.length - markers)}${markers ? `, and ${n(markers)} compaction marker${markers === 1 ? '' : 's'}` : ''})`;
  const itemsHtml = v.items
    .map((it) => {
      const long = it.text.length > PREVIEW;
      const text = long ? `<details><summary>${e(it.text.slice(0, PREVIEW))}…</summary><pre>${e(it.text)}</pre></details>` : `<pre>${e(it.text)}</pre>`;
      return `<li id="item-${e(encodeURIComponent(it.id))}" class="k-${e(it.kind)} role-${e(it.role)}"><div class="ih"><code>${e(it.id)}</code> ${e(it.role)} ${e(it.kind.replace('_', ' '))}${it.name ? ` <strong>${e(it.name)}</strong>` : ''}${v.tokens.get(it.id) !== undefined ? ` <span class="muted">${n(v.tokens.get(it.id)!)} tok</span>` : ''}</div>${text}</li>`;
    })
    .join('');

  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src 'none'; base-uri 'none'; form-action 'none'">
<meta name="referrer" content="no-referrer">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${e(r.title)} · Compaction Inspector report</title>
<style>${REPORT_CSS}</style>
</head>
<body>
<header><h1>${e(r.title)}</h1><p class="muted">Compaction Inspector report, ${e(r.createdAt)}. Self-contained: it loads nothing and runs no script.</p></header>
<dl class="facts">${facts.map(([k, val]) => `<div><dt>${e(k)}</dt><dd>${e(val)}</dd></div>`).join('')}</dl>
<section><h2>Notes (${n(notes.length)})</h2>${notesHtml}</section>
<section><h2>Compactions</h2>${compactionsHtml}</section>
<section><h2>Summary audit</h2>${auditHtml}</section>
<section><h2>Cache misses</h2>${missesHtml}</section>
<section><h2>Lints (${n(v.lints.length)})</h2>${lintsHtml}</section>
<section><h2>Calls</h2>${detailed ? '' : `<p class="muted">${n(rows)} context rows in all: each call shows its counts only.</p>`}${callsHtml || '<p class="muted">No model calls.</p>'}</section>
<section><h2>${itemsHeading}</h2><ol class="items">${itemsHtml}</ol></section>
</body>
</html>
`;
}

const REPORT_CSS = `
:root{--bg:#f7f7f5;--panel:#fff;--text:#1d1f23;--muted:#656b76;--border:#dfe1e5;--accent:#3056d3;--soft:#e8eeff;color-scheme:light dark;font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;line-height:1.45}
@media (prefers-color-scheme:dark){:root{--bg:#15171b;--panel:#1e2127;--text:#e6e8eb;--muted:#9aa1ad;--border:#2f343c;--accent:#7c9cff;--soft:#26304d}}
body{margin:0 auto;max-width:1100px;padding:20px;background:var(--bg);color:var(--text)}
h1{font-size:1.4rem;margin:0 0 4px}h2{font-size:1.1rem;margin:24px 0 8px}
.muted{color:var(--muted)}q.ev{quotes:none;font-family:ui-monospace,Menlo,Consolas,monospace;font-size:.8rem;color:var(--muted);overflow-wrap:anywhere}q.ev mark{background:#fef3c7;color:inherit}.break{color:#b91c1c}code,pre{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:.85rem}
pre{white-space:pre-wrap;overflow-wrap:anywhere;margin:4px 0 0}
a{color:var(--accent)}
.facts{display:flex;flex-wrap:wrap;gap:4px 24px;margin:12px 0}.facts div{display:flex;gap:6px}.facts dt{color:var(--muted)}.facts dd{margin:0;font-weight:500;overflow-wrap:anywhere}
.tag{font-size:.78rem;padding:0 7px;border-radius:10px;background:var(--soft);border:1px solid var(--border)}
.notes li{margin:6px 0}.notes p{margin:2px 0 0;white-space:pre-wrap}
details{background:var(--panel);border:1px solid var(--border);border-radius:6px;padding:6px 10px;margin:4px 0}
summary{cursor:pointer}
table{border-collapse:collapse;width:100%;margin-top:6px;font-size:.88rem}td,th{border-top:1px solid var(--border);padding:2px 6px;text-align:left}.num{text-align:right;font-variant-numeric:tabular-nums}
.r-summary td:first-child{color:#d97706}.r-middle td:first-child{color:var(--muted)}
.items{list-style:none;padding:0}.items li{background:var(--panel);border:1px solid var(--border);border-left:4px solid #6b7280;border-radius:6px;padding:6px 10px;margin:6px 0}
.items .role-user{border-left-color:#2563eb}.items .role-assistant{border-left-color:#059669}.items .role-tool{border-left-color:#9333ea}.items .k-summary{border-left-color:#d97706}
.ih{font-size:.85rem}
.audit p{margin:6px 0 2px}.audit ul{margin:2px 0}.misses td{vertical-align:top}
h1,code,strong,pre,.facts dd,.tag,summary{unicode-bidi:isolate}
`;
