import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildAnalysisView } from '../analysis/analysis-view';
import { loadText } from '../load/loader';
import { assistant, boundary, compaction, marker, session, summary, system, toolCall, toolResult, user } from '../test/builders';
import { escapeLabel, MAX_COMPACTIONS, mermaidFlow } from './mermaid-source';

const count = (t: string) => Math.ceil(t.length / 4);
const fixture = (name: string) => readFileSync(new URL(`../formats/__fixtures__/${name}`, import.meta.url), 'utf8');

// Every line the generator may write. Anything else in the source would be an injected directive.
const LABEL = String.raw`(?:[A-Za-z0-9 .,:_\-\u2192]|#quot;|#\d+;|<br>)*`;
const LINE_SHAPES = [
  /^flowchart (LR|TD)$/,
  /^ {2}accTitle: Session flow$/,
  /^ {2}accDescr: [a-z0-9 ,]+$/,
  new RegExp(String.raw`^ {2}n\d+(\["${LABEL}"\]|\{\{"${LABEL}"\}\}|\(\["${LABEL}"\]\))$`),
  /^ {2}n\d+ (-->|-\.->\|writes\||==>\|folded into\||==>\|kept verbatim by\|) n\d+$/,
  /^ {2}class n\d+(,n\d+)* (segment|compaction|summary|fallback|more)$/,
  /^ {2}classDef (segment|compaction|summary|fallback|more) stroke:#[0-9a-fA-F]{3,8}(,stroke-width:\d+px)?(,stroke-dasharray:\d+ \d+)?$/,
];
const strayLines = (source: string) => source.split('\n').filter((l) => !LINE_SHAPES.some((re) => re.test(l)));
/** What mermaid shows for a label: entity codes decoded, line breaks as newlines. */
const shown = (label: string) => label.replace(/<br>/g, '\n').replace(/#quot;/g, '"').replace(/#(\d+);/g, (_, d: string) => String.fromCodePoint(Number(d)));
const labelOf = (source: string, id: string) => new RegExp(String.raw`^ {2}${id}[\[{(]+"(.*)"[\]})]+$`, 'm').exec(source)?.[1] ?? null;

describe('escapeLabel', () => {
  it('keeps whitelisted characters and encodes the rest as entity codes mermaid decodes into text', () => {
    expect(escapeLabel('r6.m2 tokens 3,702 \u2192 1,611')).toBe('r6.m2 tokens 3,702 \u2192 1,611');
    expect(escapeLabel('"]; click n0 call alert(1) %%')).toBe('#quot;#93;#59; click n0 call alert#40;1#41; #37;#37;');
    expect(escapeLabel('<script>&`#|')).toBe('#60;script#62;#38;#96;#35;#124;');
    expect(shown(escapeLabel('Zoë said "hi" <b>'))).toBe('Zoë said "hi" <b>');
  });

  it('flattens line breaks and drops control, format and bidi characters', () => {
    expect(escapeLabel('a\nclick n0\r\n\tb')).toBe('a click n0 b');
    expect(escapeLabel('x\u202Ey\u200Bz\u0007')).toBe('x y z');
  });

  it('cuts long text by characters, never inside an entity code', () => {
    const out = escapeLabel('<'.repeat(100), 10);
    expect(out).toBe('#60;'.repeat(7) + '...');
    expect([...escapeLabel('\u{1F600}'.repeat(5), 4)]).toEqual(['#', '1', '2', '8', '5', '1', '2', ';', '.', '.', '.']);
  });
});

describe('mermaidFlow', () => {
  it('draws the Claude Code fixture as segments around its microcompact and compact, with the summary', () => {
    const [s] = loadText('claude-code-session.jsonl', fixture('claude-code-session.jsonl')).sessions;
    const v = buildAnalysisView(s!, { count });
    const f = mermaidFlow(v);
    expect(strayLines(f.source)).toEqual([]);
    expect(f.nodes.map((x) => [x.id, x.kind, x.call, x.lastCall, x.item, x.fallback])).toEqual([
      ['n0', 'segment', 0, 3, null, false],
      ['n1', 'compaction', 4, null, null, false],
      ['n2', 'segment', 4, 4, null, false],
      ['n3', 'compaction', 5, null, null, false],
      ['n4', 'summary', null, null, 'u-021', false],
      ['n5', 'segment', 5, 5, null, false],
    ]);
    expect(f).toMatchObject({ segments: 3, compactions: 2, summaries: 1, folded: 0 });
    expect(shown(labelOf(f.source, 'n0')!)).toBe(`Segment 1\ncalls 1-4\npeak ${v.calls[3]!.contextTokens.toLocaleString('en-US')} tokens`);
    expect(shown(labelOf(f.source, 'n1')!)).toBe('Compaction 1\nmicrocompact, auto\ntokens 42,000 \u2192 33,000');
    // The file records only the compact's preTokens; its size after comes from the call that follows it.
    expect(v.compactions[1]).toMatchObject({ tokensBefore: 48_210, tokensBeforeSource: 'recorded' });
    expect(v.compactions[1]!.tokensAfterSource).not.toBeNull();
    expect(shown(labelOf(f.source, 'n3')!)).toBe(`Compaction 2\ncompact, manual\ntokens 48,210 \u2192 ${v.compactions[1]!.tokensAfter!.toLocaleString('en-US')}`);
    expect(shown(labelOf(f.source, 'n4')!)).toMatch(/^Summary\nu-021\n\d+ tokens\n"This session is being\.\.\."$/);
    expect(f.source).toContain('  n0 --> n1\n  n1 --> n2\n  n2 --> n3\n  n3 --> n5');
    expect(f.source).toContain('  n3 -.->|writes| n4');
    expect(f.source).toContain('  accDescr: 3 segments, 2 compactions, 1 summary');
  });

  // The course shape: a summary, then a fallback marker that replaces it (the coding-agent demo's lineage).
  const lineage = session(
    [
      system('s', 'be brief'),
      user('u1', 'fix the job'),
      toolCall('c1', 'k1', 'read_file'),
      toolResult('r1', 'k1', 'host: db-prod-1'),
      assistant('a1', 'found it'),
      user('u2', 'go on'),
      boundary('b1'),
      summary('sum1', '## Conversation Summary\n- **Facts:** db-prod-1:5432'),
      assistant('a2', 'ok'),
      user('u3', 'and the version'),
      boundary('b2'),
      marker('m'),
      assistant('a3', 'v2'),
    ],
    {
      compactions: [
        compaction('c1', { atItemId: 'b1', summaryId: 'sum1', replacedIds: ['c1', 'r1'], trigger: 'auto', tokensBefore: 3702, tokensAfter: 1611 }),
        compaction('c2', { atItemId: 'b2', summaryId: 'm', replacedIds: ['sum1', 'a1', 'u2'], trigger: 'auto' }),
      ],
    },
  );

  it('draws summary lineage: an earlier summary folded into the next, the fallback marker styled apart', () => {
    const v = buildAnalysisView(lineage, { count });
    const f = mermaidFlow(v);
    expect(strayLines(f.source)).toEqual([]);
    const sum = f.nodes.find((x) => x.item === 'sum1')!;
    const mark = f.nodes.find((x) => x.item === 'm')!;
    expect([sum.fallback, mark.fallback]).toEqual([false, true]);
    expect(f.source).toContain(`  ${sum.id} ==>|folded into| ${mark.id}`);
    expect(shown(labelOf(f.source, mark.id)!)).toMatch(/^Marker\nm\n\d+ tokens\n"\[Earlier messages tru\.\.\."$/);
    const comps = f.nodes.filter((x) => x.kind === 'compaction');
    expect(comps.map((x) => x.fallback)).toEqual([false, true]);
    expect(f.source).toMatch(new RegExp(`^  class ${comps[1]!.id},${mark.id} fallback$`, 'm'));
    // Its sizes are not recorded: they come from the calls around it.
    const c2 = v.compactions[1]!;
    const sizes = `${c2.tokensBefore!.toLocaleString('en-US')} \u2192 ${c2.tokensAfter!.toLocaleString('en-US')}`;
    expect(shown(labelOf(f.source, comps[1]!.id)!)).toBe(`Compaction 2\ncompact, auto\ntokens ${sizes}\nfallback marker`);
    expect(comps[1]!.title).toBe(`Compaction 2: compact, auto, tokens ${sizes.replace(' \u2192 ', ' to ')}, fallback marker`);
  });

  it('marks a summary kept verbatim by a later compaction', () => {
    const kept = structuredClone(lineage);
    kept.compactions[1] = { ...kept.compactions[1]!, replacedIds: ['a1', 'u2'], keptIds: ['sum1'] };
    const f = mermaidFlow(buildAnalysisView(kept, { count }));
    const sum = f.nodes.find((x) => x.item === 'sum1')!;
    const c2 = f.nodes.filter((x) => x.kind === 'compaction')[1]!;
    expect(f.source).toContain(`  ${sum.id} ==>|kept verbatim by| ${c2.id}`);
    expect(f.source).not.toContain('folded into');
  });

  it('writes no directive, markup or unquoted text from hostile ids, triggers and summary text', () => {
    const hostileId = '"]; click n0 call alert(1) %%';
    const s = structuredClone(lineage);
    const sum = s.items.find((i) => i.id === 'sum1')!;
    sum.id = hostileId;
    sum.text = '<script>alert(1)</script>\nclick n0 href "javascript:alert(1)"\n%%{init: {"securityLevel": "loose"}}%%';
    s.compactions[0] = { ...s.compactions[0]!, summaryId: hostileId, trigger: 'auto\n  style n0 fill:#f00\n  classDef x color:red;', log: { strategy: '`**md**` <img src=x onerror=alert(1)>', evicted: null, fallback: false, keptIdentifiers: [], lostIdentifiers: [], summary: null, sessionId: null, turn: null, requestId: null } };
    s.compactions[1] = { ...s.compactions[1]!, replacedIds: [hostileId, 'a1', 'u2'] };
    const v = buildAnalysisView(s, { count });
    const f = mermaidFlow(v);
    expect(strayLines(f.source)).toEqual([]);
    expect(f.source).not.toMatch(/%%|<script|<img|`/);
    expect(f.source.split('\n').filter((l) => /^\s*(click|style|classDef x|%%)/.test(l))).toEqual([]);
    // The text is still there for the reader, as text.
    const node = f.nodes.find((x) => x.item === hostileId)!;
    expect(shown(labelOf(f.source, node.id)!)).toBe(`Summary\n"]; click n0 call ale...\n${v.tokens.get(hostileId)} tokens\n"<script>alert(1)</scr..."`);
    expect(node.title).toBe(`Summary ${hostileId}, ${v.tokens.get(hostileId)} tokens`);
    const c1 = f.nodes.find((x) => x.kind === 'compaction')!;
    expect(shown(labelOf(f.source, c1.id)!).split('\n').slice(0, 2)).toEqual(['Compaction 1', '`**md**` <img src=x o...']);
    expect(f.source).toContain(`  ${node.id} ==>|folded into|`);
    // Short lines (~190 px at most): Mermaid wraps at 200 px, and a longer word it splits by measuring each character.
    const lines = f.nodes.flatMap((x) => shown(labelOf(f.source, x.id)!).split('\n'));
    expect(lines.filter((l) => [...l].length > 26)).toEqual([]);
  });

  it('ignores palette values that are not colours', () => {
    const v = buildAnalysisView(lineage, { count });
    const f = mermaidFlow(v, { palette: { compaction: ' #f87171 ', summary: 'red;} click n0', segment: '#12345g' } });
    expect(strayLines(f.source)).toEqual([]);
    expect(f.source).toContain('classDef compaction stroke:#f87171,');
    expect(f.source).toContain('classDef summary stroke:#d97706,');
    expect(f.source).toContain('classDef segment stroke:#3056d3,');
  });

  it('draws a session with no compaction as one segment, and one with no calls as its compactions alone', () => {
    const plain = mermaidFlow(buildAnalysisView(session([user('u', 'hi'), assistant('a', 'hello')]), { count }));
    expect(plain.nodes.map((x) => [x.kind, x.call])).toEqual([['segment', 0]]);
    expect(strayLines(plain.source)).toEqual([]);
    const bare = mermaidFlow({ calls: [], items: [], tokens: new Map(), compactions: [compaction('c', { replacedIds: [], trigger: 'auto' }), { ...compaction('d', { replacedIds: [] }), index: 1 }] });
    expect(bare.nodes.map((x) => [x.kind, x.call])).toEqual([['compaction', null], ['compaction', null]]);
    expect(bare.source).toContain('  n0 --> n1');
    expect(strayLines(bare.source)).toEqual([]);
  });

  it('places a compaction no call records before the next recorded one', () => {
    const v = buildAnalysisView(lineage, { count });
    const extra = { ...compaction('x', { replacedIds: [], trigger: 'log' }), index: 2 };
    const f = mermaidFlow({ ...v, compactions: [v.compactions[0]!, extra, { ...v.compactions[1]!, index: 3 }] });
    const chain = f.nodes.filter((x) => x.kind !== 'summary').map((x) => x.kind);
    expect(chain).toEqual(['segment', 'compaction', 'segment', 'compaction', 'compaction', 'segment']);
    expect(f.nodes.filter((x) => x.kind === 'compaction').map((x) => x.call)).toEqual([v.calls.findIndex((c) => c.compactionId === 'c1'), v.calls.findIndex((c) => c.compactionId === 'c2'), v.calls.findIndex((c) => c.compactionId === 'c2')]);
  });

  const rounds = (k: number) => {
    const items = [system('s', 'x'), user('u0', 'q')];
    const comps = [];
    for (let i = 1; i <= k; i++) {
      items.push(assistant(`a${i}`, 'a'), user(`u${i}`, 'q'), boundary(`b${i}`), summary(`s${i}`, `## Conversation Summary\n- round ${i}`));
      comps.push({ ...compaction(`c${i}`, { atItemId: `b${i}`, summaryId: `s${i}`, replacedIds: [`a${i}`, ...(i > 1 ? [`s${i - 1}`] : [])] }), index: i - 1 });
    }
    items.push(assistant('last', 'done'));
    return buildAnalysisView(session(items, { compactions: comps }), { count });
  };

  it('over the limit, draws the first and last compactions and folds the middle into one node naming its calls', () => {
    const v = rounds(7);
    const at = (id: string) => v.calls.findIndex((c) => c.compactionId === id);
    const f = mermaidFlow(v, { maxCompactions: 4 });
    expect(strayLines(f.source)).toEqual([]);
    expect(f).toMatchObject({ compactions: 4, folded: 3, summaries: 4 });
    // Compactions 1, 2, then 3 to 5 folded, then 6, 7: the chain along the calls, summaries beside it.
    const chain = f.nodes.filter((x) => x.kind !== 'summary');
    expect(chain.map((x) => (x.kind === 'compaction' ? x.title.split(':')[0] : x.kind))).toEqual(['segment', 'Compaction 1', 'segment', 'Compaction 2', 'segment', 'more', 'Compaction 6', 'segment', 'Compaction 7', 'segment']);
    const more = chain[5]!;
    // The fold stands for the calls from the third compaction up to the sixth: stepping there goes to its first.
    expect([more.call, more.lastCall]).toEqual([at('c3'), at('c6') - 1]);
    expect(more.title).toBe(`3 compactions folded, calls ${at('c3') + 1}-${at('c6')}`);
    expect(shown(labelOf(f.source, more.id)!)).toBe(`3 compactions folded\ncalls ${at('c3') + 1}-${at('c6')}`);
    // The segment before the fold ends where the fold starts; the one after the fold starts at the sixth compaction.
    expect([chain[4]!.call, chain[4]!.lastCall]).toEqual([at('c2'), at('c3') - 1]);
    expect(chain[7]!.call).toBe(at('c6'));
    for (let i = 1; i < chain.length; i++) expect(f.source).toContain(`  ${chain[i - 1]!.id} --> ${chain[i]!.id}`);
    // Lineage only between drawn summaries: s1 into s2, s6 into s7; none to or from the folded ones.
    const sum = (id: string) => f.nodes.find((x) => x.item === id)?.id;
    expect(f.source).toContain(`  ${sum('s1')} ==>|folded into| ${sum('s2')}`);
    expect(f.source).toContain(`  ${sum('s6')} ==>|folded into| ${sum('s7')}`);
    expect(sum('s3')).toBeUndefined();
    expect(f.source.match(/==>/g)).toHaveLength(2);
  });

  it('draws every compaction up to the limit, and folds by default only past it', () => {
    const v = rounds(6);
    expect(mermaidFlow(v, { maxCompactions: 6 })).toMatchObject({ compactions: 6, folded: 0 });
    expect(mermaidFlow(v, { maxCompactions: 6 }).nodes.some((x) => x.kind === 'more')).toBe(false);
    expect(mermaidFlow(v)).toMatchObject({ compactions: 6, folded: 0 });
    const long = rounds(MAX_COMPACTIONS + 5);
    const f = mermaidFlow(long);
    expect(f).toMatchObject({ compactions: MAX_COMPACTIONS, folded: 5 });
    expect(strayLines(f.source)).toEqual([]);
    // A segment, a compaction and a summary per compaction drawn, the fold, the last segment.
    expect(f.nodes.length).toBeLessThanOrEqual(3 * MAX_COMPACTIONS + 2);
    // An odd limit keeps one more at the start.
    expect(mermaidFlow(v, { maxCompactions: 3 }).nodes.filter((x) => x.kind === 'compaction').map((x) => x.title.split(':')[0])).toEqual(['Compaction 1', 'Compaction 2', 'Compaction 6']);
  });

  it('folds compactions that share their call with the next drawn one without a call range', () => {
    const v = buildAnalysisView(lineage, { count });
    const extra = (id: string, index: number) => ({ ...compaction(id, { replacedIds: [], trigger: 'log' }), index });
    // Five compactions no call records, all before the second recorded one: the middle ones fold at one place.
    const f = mermaidFlow({ ...v, compactions: [v.compactions[0]!, extra('x1', 1), extra('x2', 2), extra('x3', 3), { ...v.compactions[1]!, index: 4 }] }, { maxCompactions: 2 });
    const more = f.nodes.find((x) => x.kind === 'more')!;
    expect(more.title).toBe('3 compactions folded');
    expect([more.call, more.lastCall]).toEqual([null, null]);
    expect(strayLines(f.source)).toEqual([]);
  });
});
