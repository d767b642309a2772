import { readFileSync } from 'node:fs';
import { auditListTrust, auditTrustNote } from '../../src/audit/audit-trust';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildAnalysisView } from '../../src/analysis/analysis-view';
import { loadText } from '../../src/load/loader';
import { escapeHtml, reportFileName, reportHtml } from './report-html';

const FIXTURE = join(import.meta.dirname, '..', '..', 'src', 'formats', '__fixtures__', 'claude-code-session.jsonl');
const FIXTURES = join(import.meta.dirname, '..', '..', 'src', 'formats', '__fixtures__');
const HOSTILE = '<script>alert(1)</script><img src=x onerror=alert(2)>';

function report(text: string, name = 'claude-code-session.jsonl') {
  const session = loadText(name, text).sessions[0]!;
  const view = buildAnalysisView(session, { count: (t) => Math.ceil(t.length / 4) });
  const html = reportHtml({
    title: session.title,
    formatLabel: 'Claude Code session',
    hash: 'c'.repeat(64),
    files: session.files,
    model: session.model,
    view,
    annotations: [{ id: 'a1', target: { kind: 'call', call: 2 }, note: `check ${HOSTILE}`, tags: ['lost fact'], createdAt: '2025-03-01T10:00:00.000Z', updatedAt: '2025-03-01T10:00:00.000Z' }],
    viewState: { turn: 2, item: null, panel: 'budget', rule: 'auto', leftView: 'context' },
    createdAt: '2025-03-01T10:00:00.000Z',
  });
  return { html, view };
}

describe('reportHtml', () => {
  it('holds the facts, the notes, every call and every item, with the shared call open', () => {
    const { html, view } = report(readFileSync(FIXTURE, 'utf8'));
    expect(html).toContain('<h2>Notes (1)</h2>');
    expect(html).toContain('<strong>Call 2</strong> <span class="tag">lost fact</span>');
    expect(html.match(/<details id="call-\d+"/g)).toHaveLength(view.calls.length);
    expect(html).toContain('<details id="call-2" open>');
    for (const it of view.items) expect(html).toContain(`id="item-${escapeHtml(encodeURIComponent(it.id))}"`);
    expect(html).toContain('db-prod-1:5432');
  });

  it('counts items in the list heading as the facts above it do, naming the compaction markers the list also holds', () => {
    const { html, view } = report(readFileSync(FIXTURE, 'utf8'));
    const markers = view.items.filter((it) => it.kind === 'compaction').length;
    expect(markers).toBeGreaterThan(0);
    expect(html).toContain(`<dt>Items</dt><dd>${view.facts.items}</dd>`);
    expect(html).toContain(`<h2>Items (${view.facts.items}, and ${markers} compaction marker${markers === 1 ? '' : 's'})</h2>`);
    expect(view.facts.items + markers).toBe(view.items.length);
  });
  it('says the responses billed on abandoned branches and the cost with them, in the words of the header and the CLI', () => {
    const { html } = report(readFileSync(join(FIXTURES, 'claude-code-off-branch.jsonl'), 'utf8'), 'claude-code-off-branch.jsonl');
    expect(html).toContain('<dt>Model calls</dt><dd>4</dd>');
    expect(html).toContain('<dt>Abandoned branches</dt><dd>+2 responses on abandoned branches (billed, not shown): 37,709 prompt and 324 output tokens, $0.03</dd>');
    expect(html).toContain('<dt>Cost</dt><dd>$0.10 at the reported usage (calls $0.07 · abandoned branches $0.03)</dd>');
  });

  it("gives the session's cache figures as the panel and the CLI do, the unrecorded prefix left unread included", () => {
    // The compaction call reads back 3,000 of the unrecorded prefix that call 1 measured at about 4,900 (its cache read
    // of 4,000 and write of 1,200, less one short message), as a public Claude Code session's compaction did: part of
    // the system prompt and tools unread.
    const plain = report(readFileSync(FIXTURE, 'utf8'));
    const p = plain.view.facts.cache!.unrecordedNotRead;
    expect(p.calls).toBe(1);
    expect(plain.html).toContain(`· ${p.tokens.toLocaleString('en-US')} tokens of the unrecorded system prompt and tools not read from the cache at 1 call`);
    // Read back 1,000 tokens less, the unread part is 1,000 tokens more.
    const text = readFileSync(FIXTURE, 'utf8').replace('"cache_creation_input_tokens":800,"cache_read_input_tokens":3000', '"cache_creation_input_tokens":1800,"cache_read_input_tokens":2000');
    const { html, view } = report(text);
    const u = view.facts.cache!.unrecordedNotRead;
    expect(u).toEqual({ calls: 1, tokens: p.tokens + 1_000 });
    expect(html).toContain(`· ${u.tokens.toLocaleString('en-US')} tokens of the unrecorded system prompt and tools not read from the cache at 1 call`);
  });

  it('holds the summary audit and the cache misses, read from the same audits and cache reports the panels read', () => {
    const { html, view } = report(readFileSync(FIXTURE, 'utf8'));
    expect(html).toContain('<h2>Summary audit</h2>');
    expect(view.audits.length).toBeGreaterThan(0);
    // Every lost-and-needed identifier of every audit, each linked to the item that needed it.
    for (const a of view.audits) {
      expect(html).toContain(`Compaction #${a.compaction + 1}`);
      expect(html).toContain(`<strong>${a.lostReferencedLater.length} lost and needed later</strong>`);
      for (const r of a.lostReferencedLater) expect(html).toContain(`<code>${escapeHtml(r.value)}</code>`);
    }
    const needed = view.audits.flatMap((a) => a.lostReferencedLater.map((r) => r.value));
    // db-prod-1 is not: the microcompaction cleared the config read, but the agent's own message still says it.
    expect(needed).toEqual(['FRE-512']);
    // Each quoted with the lines a reader judges it by, as the panel quotes them: where it was used, where it was lost.
    expect(html).toMatch(/<code>FRE-512<\/code>[^]*?used:<\/span> <q class="ev">[^<]*<mark>FRE-512<\/mark>/);
    expect(html).toMatch(/<code>FRE-512<\/code>[^]*?evicted:<\/span> <q class="ev">[^<]*<mark>FRE-512<\/mark>/);
    // What the panel says of the lists, said the same way: each list's figure on unseen sessions, and the sentence.
    expect(html).toContain(escapeHtml(auditListTrust('lostReferencedLater')));
    expect(html).toContain(escapeHtml(auditTrustNote()));
    // The misses: the session's totals as the header and the CLI give them, and one row per break.
    expect(html).toContain('<h2>Cache misses</h2>');
    const c = view.facts.cache!;
    expect(c.breaks).toBeGreaterThan(0);
    expect(html).toContain(`${c.breaks} break${c.breaks === 1 ? '' : 's'} (${c.reportedMisses} reported by the provider, ${c.predictedBreaks} predicted from the content)`);
    const rows = html.match(/<table class="misses">[\s\S]*?<\/table>/)![0].match(/<tr><td><a href="#call-(\d+)">/g)!;
    expect(rows.map((r) => Number(/call-(\d+)/.exec(r)![1]))).toEqual(view.cache.filter((r) => r.cacheBreak).map((r) => r.call));
  });

  /** The report of the fixture's view with its audits replaced (to show a list the fixture's audit leaves empty). */
  const withAudits = (view: ReturnType<typeof report>['view'], audits: ReturnType<typeof report>['view']['audits']) =>
    reportHtml({
      title: 't',
      formatLabel: 'Claude Code session',
      hash: null,
      files: ['s.jsonl'],
      model: null,
      view: { ...view, audits },
      annotations: [],
      viewState: { turn: 1, item: null, panel: 'budget', rule: 'auto', leftView: 'context' },
      createdAt: '2025-03-01T10:00:00.000Z',
    });

  it('lists what a compaction lost and the agent then fetched again, as the Summary audit panel and `check` do', () => {
    const { view } = report(readFileSync(FIXTURE, 'utf8'));
    const [first, ...rest] = view.audits;
    const [fetcher, user] = view.items.slice(-2).map((it) => it.id);
    // The fixture's agent never fetches again what was lost: one such entry, as the audit reports it.
    const audit = { ...first!, lostRefetchedLater: [{ value: 'src/pool.ts', itemId: fetcher!, via: 'refetch' as const, usedIn: user! }] };
    const html = withAudits(view, [audit, ...rest]);
    expect(html).toContain('· 1 lost, then fetched again ·');
    expect(html).toContain('<p><strong>Lost, then fetched again</strong></p>');
    expect(html).toContain(`<li><code>src/pool.ts</code>`);
    expect(html).toContain(`fetched again by <a href="#item-${escapeHtml(encodeURIComponent(fetcher!))}">`);
    expect(html).toContain(`used in <a href="#item-${escapeHtml(encodeURIComponent(user!))}">`);
  });

  it("quotes the summary's line beside each invented value, the value marked", () => {
    const { view } = report(readFileSync(FIXTURE, 'utf8'));
    const at = view.audits.findIndex((a) => view.items.some((i) => i.id === view.compactions[a.compaction]!.summaryId));
    expect(at).toBeGreaterThanOrEqual(0);
    const audits = [...view.audits];
    const summary = view.items.find((i) => i.id === view.compactions[audits[at]!.compaction]!.summaryId)!;
    const word = summary.text.match(/[A-Za-z_]{6,}/)![0];
    audits[at] = { ...audits[at]!, invented: [word] };
    const html = withAudits(view, audits);
    expect(html).toContain(`<li><code>${word}</code><br><span class="muted">the summary:</span> <q class="ev">`);
    expect(html).toMatch(new RegExp(`<q class="ev">[^<]*<mark>${word}</mark>`));
  });

  it('lists the instructions the summary gave the user that no message gave, as the panel does', () => {
    const { view } = report(readFileSync(FIXTURE, 'utf8'));
    const [first, ...rest] = view.audits;
    const claim = { sentence: 'The user asked to ship it <today>.', closest: 'fix the pool leak', similarity: 0.12 };
    const html = withAudits(view, [{ ...first!, inventedInstructions: [claim, { sentence: 'User wants a rewrite.', closest: null, similarity: 0 }] }, ...rest]);
    expect(html).toContain('· 2 invented instructions ·');
    expect(withAudits(view, [{ ...first!, inventedInstructions: [claim] }, ...rest])).toContain('· 1 invented instruction ·');
    expect(html).toContain(`<p><strong>Invented instructions</strong> (the summary says the user asked or wanted it; no user message says it; ${escapeHtml(auditListTrust('inventedInstructions'))}):</p>`);
    // The sentence is the summary's text, escaped; beside it the closest user message and how alike the two are.
    expect(html).toContain('<li><q>The user asked to ship it &lt;today&gt;.</q> <span class="muted">closest user message (12% alike): <q>fix the pool leak</q></span></li>');
    expect(html).toContain('<li><q>User wants a rewrite.</q> <span class="muted">no user message to compare</span></li>');
    // The compaction's details are open when it has one.
    expect(withAudits(view, [{ ...first!, lostReferencedLater: [], lostRefetchedLater: [], invented: [], inventedInstructions: [claim] }])).toMatch(/<details class="audit" open><summary>Compaction #1/);
  });

  it('says when the audit or the cache were still pending, instead of an empty section', () => {
    const { view } = report(readFileSync(FIXTURE, 'utf8'));
    const html = reportHtml({ title: 't', formatLabel: 'f', hash: null, files: [], model: null, view: { ...view, audits: [], pending: ['audits', 'cache'] }, annotations: [], viewState: { turn: 1, item: null, panel: 'budget', rule: 'auto', leftView: 'context' }, createdAt: 'now' });
    expect(html.match(/Still being worked out/g)).toHaveLength(2);
  });

  it('names the instruction files the audit read, by name and size, and never their text', () => {
    const { view } = report(readFileSync(FIXTURE, 'utf8'));
    const base = { title: 't', formatLabel: 'f', hash: null, files: [], model: null, view, annotations: [], viewState: { turn: 1, item: null, panel: 'budget' as const, rule: 'auto' as const, leftView: 'context' as const }, createdAt: 'now' };
    const html = reportHtml({ ...base, instructionFiles: [{ path: 'CLAUDE.md', size: 2350 }, { path: '.claude/rules/<db>.md', size: 40 }] });
    expect(html).toContain('Read with <code>CLAUDE.md</code> (2.3 KB), <code>.claude/rules/&lt;db&gt;.md</code> (40 B).');
    expect(reportHtml(base)).not.toContain('Read with');
    // The trust sentence states the figures measured with instruction files read, as this audit was.
    expect(html).toContain(escapeHtml(auditTrustNote({ instructions: true })));
    expect(reportHtml(base)).toContain(escapeHtml(auditTrustNote()));
  });

  it('names every model with its calls, and a totals disagreement, as the header and `inspect` do', () => {
    const one = report(readFileSync(FIXTURE, 'utf8'));
    expect(one.html).toMatch(/<dt>Model<\/dt><dd>[^<]+<\/dd>/);
    expect(one.html).not.toContain('<dt>Models</dt>');
    const two = report(readFileSync(join(FIXTURES, 'claude-code-two-models.jsonl'), 'utf8'), 'claude-code-two-models.jsonl');
    expect(two.view.facts.models.length).toBeGreaterThan(1);
    const list = two.view.facts.models.map((m) => `${m.model} (${m.calls} call${m.calls === 1 ? '' : 's'})`).join(', ');
    expect(two.html).toContain(`<dt>Models</dt><dd>${escapeHtml(list)}</dd>`);
    expect(two.html).not.toContain('Totals disagree');
    // SWE-agent 0.x with its demonstration taken out: model_stats still counts it on every call.
    const doc = JSON.parse(readFileSync(join(FIXTURES, 'swe-agent-0.7-demo.traj'), 'utf8')) as { history: { is_demo?: boolean }[] };
    doc.history = doc.history.filter((m) => !m.is_demo);
    const swe = report(JSON.stringify(doc), 'no-demo.traj');
    expect(swe.view.facts.totals!.warning).toBeTruthy();
    expect(swe.html).toContain(`<dt>Totals disagree</dt><dd>${escapeHtml(swe.view.facts.totals!.warning!)}</dd>`);
  });

  it('loads nothing and runs nothing: no script, no external reference, and a policy that forbids both', () => {
    const text = readFileSync(FIXTURE, 'utf8').split('"u-021"').join(JSON.stringify(`u-${HOSTILE}`));
    const { html } = report(text);
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/<(img|link|iframe|object|embed|audio|video)\b/i);
    expect(html).not.toMatch(/<[^>]*\s(src|href|action)=["']?(https?:|\/\/)/i);
    expect(html).toContain(`default-src 'none'`);
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
  });
  it('embeds no raw NUL or bidi control: they show as marks, and names are isolated', () => {
    const evil = 'x\u0000y\u202Ez\u2066w\u0007';
    const text = readFileSync(FIXTURE, 'utf8').split('"u-021"').join(JSON.stringify(`u-${evil}`)).split('"Bash"').join(JSON.stringify(`Bash${evil}`)).split('"claude-opus-4-6"').join(JSON.stringify(`model${evil}`));
    const session = loadText('claude-code-session.jsonl', text).sessions[0]!;
    const view = buildAnalysisView(session, { count: (t) => Math.ceil(t.length / 4) });
    const html = reportHtml({
      title: `Title ${evil}`,
      formatLabel: 'Claude Code session',
      hash: null,
      files: [`file${evil}.jsonl`],
      model: `model${evil}`,
      view,
      annotations: [{ id: 'a1', target: { kind: 'call', call: 1 }, note: `note ${evil}`, tags: [], createdAt: '2025-03-01T10:00:00.000Z', updatedAt: '2025-03-01T10:00:00.000Z' }],
      viewState: { turn: 1, item: null, panel: 'budget', rule: 'auto', leftView: 'context' },
      createdAt: '2025-03-01T10:00:00.000Z',
    });
    expect(html).not.toMatch(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/);
    const shown = 'x␀y⟨RLO⟩z⟨LRI⟩w␇';
    for (const where of [`<h1>Title ${shown}</h1>`, `file${shown}.jsonl`, `model${shown}`, `note ${shown}`, `<strong>Bash${shown}</strong>`]) expect(html).toContain(where);
    expect(html).toContain('unicode-bidi:isolate');
  });

  it('names the file after the session hash', () => {
    expect(reportFileName('d'.repeat(64))).toBe('compaction-inspector-dddddddddddd.report.html');
    expect(reportFileName(null)).toBe('compaction-inspector-session.report.html');
  });
});
