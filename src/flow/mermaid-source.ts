// Mermaid flowchart source of a session: segments between compactions, the compactions, and summary lineage.
// Every label that comes from the input is escaped to a whitelist; node ids are generated, never taken from input.
import type { AnalysisView } from '../analysis/analysis-view';
import { classifyText } from '../model/markers';
import type { CompactionEvent, Item } from '../model/types';
import { thousands as fmt } from '../model/thousands';

export type FlowNodeKind = 'segment' | 'compaction' | 'summary' | 'more';

export interface FlowNode {
  /** Generated mermaid node id (`n0`, `n1`, …). */
  id: string;
  kind: FlowNodeKind;
  /** Plain text of the label, for accessible names outside the diagram (never fed to mermaid). */
  title: string;
  /** Call to step to: a segment's first call, the call a compaction precedes. */
  call: number | null;
  /** A segment's last call (its calls are call..lastCall). */
  lastCall: number | null;
  /** Item to select: a summary or marker. */
  item: string | null;
  fallback: boolean;
}

export interface FlowDiagram {
  source: string;
  nodes: FlowNode[];
  segments: number;
  compactions: number;
  summaries: number;
  /** Compactions folded into one node (the middle of a long session): the diagram would be too large to lay out. */
  folded: number;
}

export interface FlowPalette {
  segment: string;
  compaction: string;
  summary: string;
  fallback: string;
}

export interface FlowOptions {
  palette?: Partial<FlowPalette>;
  /**
   * Compactions drawn at most: the first half and the last half of them; those between are folded into one node
   * that names how many and which calls they span.
   */
  maxCompactions?: number;
  direction?: 'LR' | 'TD';
}

export type FlowInput = Pick<AnalysisView, 'calls' | 'tokens' | 'items'> & { compactions: readonly CompactionEvent[] };

const DEFAULT_PALETTE: FlowPalette = { segment: '#3056d3', compaction: '#dc2626', summary: '#d97706', fallback: '#6b7280' };
const COLOR = /^#[0-9a-fA-F]{3,8}$/;
const SAFE_CHAR = /^[A-Za-z0-9 .,:_\-\u2192]$/;
const BR = '<br>';
/**
 * Characters of input text per label line. Labels are broken here, one short line each, so none is wider than
 * Mermaid's 200 px wrapping width: a longer word (a summary's uuid) it splits mid-id, measuring the text once per
 * character (~10–20 ms of a small diagram's first render).
 */
const LINE = 24;
/**
 * Compactions drawn at most. Mermaid's render grows with the nodes (a compaction brings a summary and a segment):
 * at 24, a long session's diagram stays under ~75 nodes.
 */
export const MAX_COMPACTIONS = 24;

/**
 * Label text safe inside a quoted mermaid label: whitelisted characters pass, `"` becomes `#quot;`,
 * other printable characters become numeric entity codes (mermaid decodes them into text), and
 * control, format and bidi characters become spaces. Nothing the input holds can close the quote,
 * start a directive (`%%`, `click`, `style`, `classDef`) or open markup.
 */
export function escapeLabel(text: string, max = 48): string {
  const chars = [...[...text].map((ch) => (invisible(ch) ? ' ' : ch)).join('').replace(/\s+/g, ' ').trim()];
  const cut = chars.length > max ? [...chars.slice(0, max - 3), '.', '.', '.'] : chars;
  return cut.map(escapeChar).join('');
}

function escapeChar(ch: string): string {
  if (SAFE_CHAR.test(ch)) return ch;
  if (ch === '"') return '#quot;';
  return `#${ch.codePointAt(0)!};`;
}

function invisible(ch: string): boolean {
  const cp = ch.codePointAt(0)!;
  return (
    cp < 0x20 ||
    (cp >= 0x7f && cp < 0xa0) ||
    (cp >= 0xd800 && cp <= 0xdfff) ||
    (cp >= 0x200b && cp <= 0x200f) ||
    (cp >= 0x2028 && cp <= 0x202e) ||
    (cp >= 0x2060 && cp <= 0x206f) ||
    cp === 0xfeff
  );
}

const plural = (k: number, one: string, many = `${one}s`) => `${k} ${k === 1 ? one : many}`;
const callRange = (a: number, b: number) => (a === b ? `call ${a + 1}` : `calls ${a + 1}-${b + 1}`);

/** A short excerpt of a summary for its node: its first line of content, without headers and wrapper tags. */
function excerpt(text: string): string {
  const line = text
    .split('\n')
    .map((l) => l.replace(/^\s*(<\/?(chat_history_summary|summary)>|\[history summary\])/, '').trim())
    .find((l) => l.length > 0 && !l.startsWith('#'));
  return (line ?? '').replace(/^[-*]\s+/, '').replace(/\*\*/g, '');
}

export function isFallback(c: CompactionEvent, summary: Item | undefined): boolean {
  return c.log?.fallback === true || summary?.kind === 'omission' || (summary !== undefined && classifyText(summary.text) === 'marker');
}

export function mermaidFlow(view: FlowInput, opts: FlowOptions = {}): FlowDiagram {
  const palette = { ...DEFAULT_PALETTE };
  for (const [k, v] of Object.entries(opts.palette ?? {}) as [keyof FlowPalette, string | undefined][]) {
    const c = v?.trim();
    if (c && COLOR.test(c)) palette[k] = c;
  }
  const max = Math.max(0, opts.maxCompactions ?? MAX_COMPACTIONS);
  const byId = new Map(view.items.map((i) => [i.id, i]));
  const calls = view.calls;
  const n = calls.length;

  // Where each compaction sits: before the call that records it, else before the next recorded one, else at the end.
  const callOf = new Map<string, number>();
  for (const c of calls) if (c.compactionId !== null && !callOf.has(c.compactionId)) callOf.set(c.compactionId, c.index);
  const placed: { c: CompactionEvent; at: number }[] = [];
  let next = n;
  for (const c of [...view.compactions].sort((a, b) => b.index - a.index)) {
    const at = callOf.get(c.id) ?? next;
    next = Math.min(next, at);
    placed.push({ c, at });
  }
  placed.sort((a, b) => a.at - b.at || a.c.index - b.c.index);
  // A long session keeps its first and its last compactions; the ones between fold into one node.
  const headN = placed.length > max ? Math.ceil(max / 2) : placed.length;
  const tailN = placed.length > max ? max - headN : 0;
  const head = placed.slice(0, headN);
  const tail = placed.slice(placed.length - tailN);
  const folded = placed.length - head.length - tail.length;
  const foldFrom = folded > 0 ? placed[headN]!.at : n;
  const foldTo = folded > 0 ? (tail[0]?.at ?? n) : n;

  const nodes: FlowNode[] = [];
  const lines: string[] = [];
  const edges: string[] = [];
  const add = (kind: FlowNodeKind, shape: (label: string) => string, label: string, title: string, extra: Partial<FlowNode> = {}): FlowNode => {
    const node: FlowNode = { id: `n${nodes.length}`, kind, title, call: null, lastCall: null, item: null, fallback: false, ...extra };
    nodes.push(node);
    lines.push(`  ${node.id}${shape(label)}`);
    return node;
  };
  const box = (l: string) => `["${l}"]`;
  const hexagon = (l: string) => `{{"${l}"}}`;
  const stadium = (l: string) => `(["${l}"])`;

  // Segments: runs of calls between compaction boundaries.
  const chain: FlowNode[] = [];
  let segNo = 0;
  const segment = (a: number, b: number) => {
    let peak = 0;
    for (let i = a; i <= b; i++) peak = Math.max(peak, calls[i]!.contextTokens);
    segNo++;
    const title = `Segment ${segNo}: ${callRange(a, b)}, peak ${fmt(peak)} tokens`;
    chain.push(add('segment', box, `Segment ${segNo}${BR}${callRange(a, b)}${BR}peak ${fmt(peak)} tokens`, title, { call: a, lastCall: b }));
  };
  const summaryNodes = new Map<string, FlowNode>();
  const compactionNodes: { c: CompactionEvent; node: FlowNode; summary: FlowNode | null }[] = [];
  const compaction = (c: CompactionEvent, at: number) => {
    const summary = c.summaryId !== null ? byId.get(c.summaryId) : undefined;
    const fallback = isFallback(c, summary);
    const what = c.log?.strategy ?? c.kind;
    const how = c.trigger !== null && c.trigger !== what ? `, ${c.trigger}` : '';
    const before = c.tokensBefore !== null ? fmt(c.tokensBefore) : 'unknown';
    const after = c.tokensAfter !== null ? fmt(c.tokensAfter) : 'unknown';
    const no = c.index + 1;
    // Nothing to say when neither count was recorded.
    const known = c.tokensBefore !== null || c.tokensAfter !== null;
    const label = [`Compaction ${no}`, escapeLabel(what + how, LINE), ...(known ? [`tokens ${before} \u2192 ${after}`] : []), ...(fallback ? ['fallback marker'] : [])].join(BR);
    const title = `Compaction ${no}: ${what}${how}${known ? `, tokens ${before} to ${after}` : ''}${fallback ? ', fallback marker' : ''}`;
    const node = add('compaction', hexagon, label, title, { call: at < n ? at : null, fallback });
    chain.push(node);
    let sNode: FlowNode | null = null;
    if (c.summaryId !== null) {
      sNode = summaryNodes.get(c.summaryId) ?? null;
      if (!sNode) {
        const noun = fallback ? 'Marker' : 'Summary';
        const tokens = view.tokens.get(c.summaryId);
        const quote = summary ? excerpt(summary.text) : '';
        const parts = [noun, escapeLabel(c.summaryId, LINE), ...(tokens !== undefined ? [`${fmt(tokens)} tokens`] : []), ...(quote ? [`#quot;${escapeLabel(quote, LINE)}#quot;`] : [])];
        sNode = add('summary', stadium, parts.join(BR), `${noun} ${c.summaryId}${tokens !== undefined ? `, ${fmt(tokens)} tokens` : ''}`, { item: c.summaryId, fallback });
        summaryNodes.set(c.summaryId, sNode);
      }
      edges.push(`  ${node.id} -.->|writes| ${sNode.id}`);
    }
    compactionNodes.push({ c, node, summary: sNode });
  };

  // Along the calls: a segment up to each boundary, then what stands there (compactions, or the folded middle).
  let from = 0;
  const upTo = (at: number) => {
    if (at > from) segment(from, Math.min(at, n) - 1);
    from = Math.max(from, at);
  };
  for (const p of head) {
    upTo(p.at);
    compaction(p.c, p.at);
  }
  if (folded > 0) {
    upTo(foldFrom);
    const calls = foldTo > foldFrom ? callRange(foldFrom, foldTo - 1) : null;
    const label = [`${fmt(folded)} compactions folded`, ...(calls ? [calls] : [])].join(BR);
    chain.push(add('more', box, label, `${folded} compactions folded${calls ? `, ${calls}` : ''}`, { call: foldTo > foldFrom ? foldFrom : null, lastCall: foldTo > foldFrom ? foldTo - 1 : null }));
    from = Math.max(from, foldTo);
  }
  for (const p of tail) {
    upTo(p.at);
    compaction(p.c, p.at);
  }
  upTo(n);
  for (let i = 1; i < chain.length; i++) edges.push(`  ${chain[i - 1]!.id} --> ${chain[i]!.id}`);

  // Lineage: an earlier summary that a later compaction folds (replaces) or keeps verbatim.
  compactionNodes.forEach((later, i) => {
    for (const earlier of compactionNodes.slice(0, i)) {
      if (earlier.summary === null || earlier.c.summaryId === null || earlier.summary === later.summary) continue;
      const target = later.summary ?? later.node;
      if (later.c.replacedIds.includes(earlier.c.summaryId)) edges.push(`  ${earlier.summary.id} ==>|folded into| ${target.id}`);
      else if (later.c.keptIds.includes(earlier.c.summaryId)) edges.push(`  ${earlier.summary.id} ==>|kept verbatim by| ${later.node.id}`);
    }
  });

  const of = (kind: FlowNodeKind, fallback: boolean) => nodes.filter((x) => x.kind === kind && x.fallback === fallback).map((x) => x.id);
  const classes: [string, string[]][] = [
    ['segment', of('segment', false)],
    ['compaction', of('compaction', false)],
    ['summary', of('summary', false)],
    ['fallback', [...of('compaction', true), ...of('summary', true)]],
    ['more', of('more', false)],
  ];
  const summaries = nodes.filter((x) => x.kind === 'summary').length;
  const source = [
    `flowchart ${opts.direction ?? 'LR'}`,
    '  accTitle: Session flow',
    `  accDescr: ${plural(segNo, 'segment')}, ${plural(compactionNodes.length, 'compaction')}, ${plural(summaries, 'summary', 'summaries')}`,
    ...lines,
    ...edges,
    ...classes.filter(([, ids]) => ids.length > 0).map(([name, ids]) => `  class ${ids.join(',')} ${name}`),
    `  classDef segment stroke:${palette.segment},stroke-width:2px`,
    `  classDef compaction stroke:${palette.compaction},stroke-width:2px`,
    `  classDef summary stroke:${palette.summary},stroke-width:2px`,
    `  classDef fallback stroke:${palette.fallback},stroke-width:2px,stroke-dasharray:6 4`,
    `  classDef more stroke:${palette.fallback},stroke-dasharray:2 3`,
  ].join('\n');
  return { source, nodes, segments: segNo, compactions: compactionNodes.length, summaries, folded };
}
