// Candidate rows for the labelled audit set (src/audit/__fixtures__/README.md), from a real session file that is
// not committed. It never runs the audit's verdicts: a lost candidate is an identifier of an evicted item that the
// summary does not contain and a later item does; an invented candidate is an identifier of the summary that no
// text the summarizer read contains as written; an instruction candidate is a summary sentence that states what the
// user asked, wanted or decided. Each row keeps the lines it came from; a person labels it afterwards.
//
//   npx tsx bench/audit-candidates.ts <session file> <session key> <id prefix> [max lost rows per session] [split]
import { readFileSync } from 'node:fs';
import { loadText } from '../src/load/loader';
import { auditInputFor, fetchTargets, renderForAudit } from '../src/audit/audit-session';
import { extractIdentifiers } from '../src/audit/identifiers';
import { stripHarnessText } from '../src/audit/harness-text';
import { isInstructionLike, sentences } from '../src/audit/instructions';
import { saidText, isHarnessItem } from '../src/model/harness-messages';
import { targetKey, type CallTarget } from '../src/refetch/call-target';
import type { Item } from '../src/model/types';

const [file, key, prefix, maxArg, splitArg] = process.argv.slice(2);
if (!file || !key || !prefix) throw new Error('usage: audit-candidates.ts <file> <key> <prefix> [max] [split]');
const MAX_LOST = Number(maxArg ?? 70);
// The labelled set's split the rows go to (`holdout`, `holdout2`, …).
const SPLIT = splitArg ?? 'holdout';

const { sessions } = loadText(file, readFileSync(file, 'utf8'));
const session = sessions.find((s) => s.compactions.length > 0);
if (!session) throw new Error(`${file}: no session with a compaction`);
const items = session.items;
const targets = fetchTargets(items);
const targetOfItem = new Map(items.map((it, i) => [it.id, targets[i] ?? null]));
const cwd = typeof session.meta['cwd'] === 'string' ? session.meta['cwd'] : null;

/** Lines of a text that hold the needle, each cut to a window around it. */
function linesWith(text: string, needle: string, max = 3): string {
  const out: string[] = [];
  for (const line of text.split('\n')) {
    const at = line.indexOf(needle);
    if (at < 0) continue;
    if (line.length <= 400) out.push(line);
    else {
      const from = Math.max(0, line.lastIndexOf(' ', Math.max(0, at - 150)));
      const to = line.indexOf(' ', at + needle.length + 150);
      out.push(line.slice(from, to < 0 ? undefined : to).trim());
    }
    if (out.length >= max) break;
  }
  return out.join('\n');
}

const targetJson = (t: CallTarget | null) =>
  t ? { tool: t.tool, ...(t.kind === 'file' ? { file: t.file } : { target: t.target }), ...(t.writes ? { writes: true } : {}), kind: t.kind } : undefined;
const lineOf = (it: Item) => it.source.line ?? undefined;
const needleOf = (v: string) => v.replace(/\(\)$/, '');

// A stable order that does not depend on any verdict: a hash of the value.
const hash = (s: string) => [...s].reduce((h, c) => (Math.imul(h, 31) + c.charCodeAt(0)) | 0, 7) >>> 0;

const rows: unknown[] = [];
let n = 0;
const userMessages: Record<string, string[]> = {};
for (const event of session.compactions) {
  const input = auditInputFor(session, event);
  if (!input) continue;
  const summary = input.summary;
  const replaced = new Set(event.replacedIds);
  const evicted = items.filter((i) => replaced.has(i.id));
  const evictedKeys = new Set(evicted.flatMap((it) => (it.kind === 'tool_result' && targetOfItem.get(it.id) ? [targetKey(targetOfItem.get(it.id)!)] : [])));
  const position = new Map(items.map((it, i) => [it.id, i]));
  const summaryPos = event.summaryId ? (position.get(event.summaryId) ?? -1) : -1;
  const at = Math.max(summaryPos, event.atItemId ? (position.get(event.atItemId) ?? -1) : -1, ...evicted.map((e) => position.get(e.id) ?? -1));
  const later = items.slice(at + 1).filter((i) => i.kind !== 'compaction' && i.id !== event.summaryId && !replaced.has(i.id));
  const before = items.slice(0, at + 1);
  userMessages[String(event.index)] = before
    .filter((i) => i.role === 'user' && i.kind === 'message' && i.id !== event.summaryId && !isHarnessItem(i))
    .map((i) => saidText(i).trim())
    .filter((t) => t !== '');

  // Lost candidates.
  const seen = new Set<string>();
  const lost: { value: string; kind: string; item: Item }[] = [];
  for (const it of evicted) {
    const text = renderForAudit(it);
    for (const id of extractIdentifiers(text)) {
      const needle = needleOf(id.value);
      if (seen.has(id.value) || needle.length < 3 || summary.includes(needle)) continue;
      seen.add(id.value);
      if (!later.some((l) => renderForAudit(l).includes(needle))) continue;
      lost.push({ value: id.value, kind: id.kind, item: it });
    }
  }
  lost.sort((a, b) => hash(a.value) - hash(b.value));
  const budget = Math.max(10, Math.round(MAX_LOST / session.compactions.length));
  for (const c of lost.slice(0, budget)) {
    const needle = needleOf(c.value);
    const laterRows = later
      .filter((l) => renderForAudit(l).includes(needle))
      .slice(0, 8)
      .map((l) => {
        const t = targetOfItem.get(l.id) ?? null;
        const repeats = l.kind === 'tool_call' && t !== null && evictedKeys.has(targetKey(t));
        return { ...(repeats ? { repeats: true } : {}), role: l.role, kind: l.kind, ...(t ? { target: targetJson(t) } : {}), line: lineOf(l), text: linesWith(renderForAudit(l), needle) };
      });
    const t = targetOfItem.get(c.item.id) ?? null;
    const base = needle.split('/').pop()!;
    const defined =
      c.kind === 'function'
        ? items
            .map(renderForAudit)
            .flatMap((txt) => txt.split('\n'))
            .filter((line) => new RegExp(`(?:def|function|func|fn|class)\\s+${base.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b|import\\b.*\\b${base.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b`).test(line))
            .slice(0, 3)
            .map((l) => l.trim().slice(0, 300))
        : [];
    const exists =
      c.kind === 'path'
        ? items
            .filter((it) => it.kind === 'tool_call' || it.kind === 'tool_result')
            .filter((it) => renderForAudit(it).includes(needle))
            .slice(0, 3)
            .map((it) => ({ kind: it.kind, text: linesWith(renderForAudit(it), needle, 1) }))
        : [];
    rows.push({
      id: `${prefix}${String(++n).padStart(3, '0')}`,
      split: SPLIT,
      session: key,
      compaction: event.index,
      list: 'lost',
      value: c.value,
      kind: c.kind,
      label: null,
      why: '',
      evicted: { role: c.item.role, kind: c.item.kind, ...(t ? { target: targetJson(t) } : {}), line: lineOf(c.item), text: linesWith(renderForAudit(c.item), needle) },
      later: laterRows,
      ...(defined.length ? { defined } : {}),
      ...(exists.length ? { exists } : {}),
    });
  }

  // Invented candidates: what the summary names that nothing it read contains as written.
  const read = [...evicted.map(renderForAudit), ...(input.context ?? [])].join('\n');
  const inv = new Set<string>();
  for (const id of extractIdentifiers(stripHarnessText(summary))) {
    const needle = needleOf(id.value);
    if (inv.has(id.value) || read.includes(needle)) continue;
    inv.add(id.value);
    const parts = needle.split(/[/.:_\-\s]+/).filter((p) => p.length >= 3);
    const support = read
      .split('\n')
      .filter((line) => parts.some((p) => line.includes(p)))
      .slice(0, 3)
      .map((l) => l.trim().slice(0, 300));
    rows.push({
      id: `${prefix}${String(++n).padStart(3, '0')}`,
      split: SPLIT,
      session: key,
      compaction: event.index,
      list: 'invented',
      value: id.value,
      kind: id.kind,
      label: null,
      why: '',
      summary: linesWith(summary, needle, 1),
      support,
    });
  }

  // Instruction candidates.
  let heading = '';
  for (const line of summary.split('\n')) {
    if (/^\s*(?:#{1,6}\s|\d+\.\s+\*\*|\*\*)/.test(line)) heading = line.trim();
    for (const s of sentences(line).filter(isInstructionLike)) {
      rows.push({
        id: `${prefix}${String(++n).padStart(3, '0')}`,
        split: SPLIT,
        session: key,
        compaction: event.index,
        list: 'instruction',
        sentence: s,
        label: null,
        why: '',
        line: line.trim(),
        ...(heading && heading !== line.trim() ? { heading } : {}),
      });
    }
  }
}

const days = [...new Set(items.map((i) => i.timestamp?.slice(0, 10)).filter((d): d is string => !!d))].sort();
process.stderr.write(`${key}: ${session.compactions.length} compactions, cwd ${cwd}, ${rows.length} rows\n`);
process.stdout.write(JSON.stringify({ session: { cwd, days, userMessages }, rows }) + '\n');
