// `compaction-inspector check`: a short report per session and an exit status a CI job can gate on. Every figure
// is read from the session's one analysis (sessionMetrics → analyzeSession), exactly as `inspect` reads it.
import { PROVIDER_RULES, type ProviderRule } from '../cache';
import { CAUSE_LABEL, formatUsd, missCostParts } from '../charts/cache-summary';
import { RULE_ORDER } from '../lints/lint-groups';
import type { LintRule } from '../lints/lint-types';
import { isObject, get } from '../model/narrow';
import type { Session, SourceRef } from '../model/types';
import { readInputs, type CliIo } from './cli-io';
import { openInputs } from './open-inputs';
import { formatIssue, inspectReport, type InspectIssue } from './inspect-report';
import type { SessionMetrics } from './session-metrics';
import { cacheFor } from './result-cache';
import { giveInstructions, joinInstructions, readInstructionFiles, type InstructionFilesRead } from './instruction-files';
import { metricsOfSessions } from './session-pool';
import { parseRuleSettings, type RuleSettings } from '../lints/rules';
import { FORMAT_IDS } from '../model/types';
import { SURVIVAL_KINDS, type Survival } from '../audit/survival';
import { auditTrustNote } from '../audit/audit-trust';
import { closestLead } from '../audit/closest-lead';
import { unrecordedRestoreNote, unrecordedRestoreVersion } from '../audit/restored-lead';
import { showControls } from '../model/visible-text';
import { oneLine, terminalText } from './terminal-text';
import { thousands } from '../model/thousands';

export const CHECK_USAGE = `  compaction-inspector check <files or folders…> [--max-lost-needed N] [--max-refetched N] [--max-invented N]
                             [--max-miss-cost USD] [--max-cache-breaks N] [--fail-on RULE,…] [--rules FILE] [--format text|github|markdown]
                             [--threads N] [--no-cache] [--instructions PATH …]
                                                   a short report per session (compactions, cache hit rate, breaks by
                                                   cause, dollars lost, lost-and-needed and lost-then-re-fetched
                                                   identifiers, survival by kind, instructions a
                                                   summary gave that no user message gave, lints); exit 1
                                                   when a limit is crossed, naming which (--fail-on input-error:
                                                   also when a file has errors);
                                                   --format github writes workflow annotations, markdown a PR comment;
                                                   --rules FILE: the Rules panel's settings, as inspect --rules reads them
                                                   ({"rules": {"<rule>": {"muted": true}}} mutes a rule for every harness);
                                                   --threads N analyses N sessions side by side (default: the idle cores
                                                   for sessions of 1 M characters of text or more, else one);
                                                   --no-cache analyses every session again (as inspect);
                                                   --instructions PATH|auto: the CLAUDE.md, AGENTS.md or GEMINI.md
                                                   files the audit reads as in every request (as inspect)`;

export type CheckFormat = 'text' | 'github' | 'markdown';

export interface CheckOptions {
  maxLostNeeded: number | null;
  /** Most identifiers a summary may lose that the agent then had to fetch again (the re-fetch tax). */
  maxRefetched: number | null;
  maxInvented: number | null;
  maxMissCostUsd: number | null;
  maxCacheBreaks: number | null;
  failOn: LintRule[];
  /** `--fail-on input-error`: a file's parse errors fail the check too (by default they are reported only). */
  failOnInputError: boolean;
  /** Lint settings: muted rules and thresholds per harness, applied by the analysis as `inspect` applies them. */
  rules: RuleSettings | null;
  format: CheckFormat;
  rule: ProviderRule | 'auto';
  /** Threads analysing sessions side by side (null: as metricsOfSessions decides). */
  threads: number | null;
  /** Analyse every session again instead of reading back the ones analysed before. */
  noCache: boolean;
  /** `--instructions`: the files the harness loaded unrecorded, given to every session's audit (instruction-files.ts). */
  instructions: InstructionFilesRead | null;
}

/** Where an annotation points: the file as the user named it, and a 1-based line when known. */
export interface Place {
  file: string;
  line: number | null;
}

export interface CheckFinding {
  kind: 'lost-needed' | 'refetched' | 'invented' | 'invented-instruction' | 'lint';
  /** The identifier (lost or invented), the summary's sentence (an invented instruction) or the lint's rule. */
  what: string;
  message: string;
  at: Place;
}

export interface CrossedLimit {
  /** The flag whose limit was crossed, e.g. `--max-lost-needed`. */
  flag: string;
  value: number;
  limit: number | string;
  message: string;
  at: Place;
}

export interface CheckedSession {
  id: string;
  format: string;
  files: string[];
  facts: SessionMetrics['facts'];
  findings: CheckFinding[];
  crossed: CrossedLimit[];
  /** One line per audited compaction: of what it evicted, how many of each kind the summary kept. */
  survival: string[];
  /** The Claude Code version, when it read files again after a compaction without recording which (`restoredUnrecorded`). */
  restoredUnrecorded?: string;
}

export interface CheckResult {
  sessions: CheckedSession[];
  errors: InspectIssue[];
  /** Whether the input errors fail the check (`--fail-on input-error`). */
  errorsFail: boolean;
  /** The instruction files the audit read (`--instructions`), with their sizes; absent without the flag. */
  instructionFiles?: { path: string; bytes: number }[];
}

/** The --fail-on name that makes a file's parse errors fail the check. */
const INPUT_ERROR = 'input-error';

// ----------------------------------------------------------------------------------------------
// Judging one session

/** Lost-and-needed identifiers, invented ones and lints, each with the place an annotation points at. */
function findings(session: Session, m: SessionMetrics, place: (s: SourceRef | undefined) => Place): CheckFinding[] {
  const out: CheckFinding[] = [];
  const byId = new Map(session.items.map((i) => [i.id, i]));
  for (const a of m.audits) {
    const c = session.compactions[a.compaction];
    const at = place(c?.source);
    const n = a.compaction + 1;
    for (const v of a.lostReferencedLater) out.push({ kind: 'lost-needed', what: v, message: `compaction #${n} lost ${v}, which a later turn needs`, at });
    for (const r of a.lostRefetchedLater) {
      const how = r.via === 'refetch' ? 'fetched it again' : 'printed it again';
      out.push({ kind: 'refetched', what: r.value, message: `compaction #${n} lost ${r.value}; the agent ${how} (${r.item}) before it was used`, at });
    }
    for (const v of a.invented) out.push({ kind: 'invented', what: v, message: `compaction #${n}'s summary names ${v}, which nothing before it contains`, at });
    for (const x of a.inventedInstructions) {
      const closest = x.closest !== null ? `${closestLead(x)}: ${quoted(x.closest)}` : closestLead(x);
      out.push({ kind: 'invented-instruction', what: x.sentence, message: `compaction #${n}'s summary says ${quoted(x.sentence)}, which no user message says; ${closest}`, at });
    }
  }
  for (const l of m.lints) {
    out.push({ kind: 'lint', what: l.rule, message: l.message, at: place(byId.get(l.item)?.source) });
  }
  return out;
}

function crossedLimits(m: SessionMetrics, found: CheckFinding[], opts: CheckOptions, first: Place, breakAt: Place): CrossedLimit[] {
  const out: CrossedLimit[] = [];
  const count = (kind: CheckFinding['kind']) => new Set(found.filter((f) => f.kind === kind).map((f) => f.what));
  const firstOf = (kind: CheckFinding['kind']) => found.find((f) => f.kind === kind)?.at ?? first;
  const lost = count('lost-needed').size;
  if (opts.maxLostNeeded !== null && lost > opts.maxLostNeeded) {
    out.push({ flag: '--max-lost-needed', value: lost, limit: opts.maxLostNeeded, message: `${lost} lost-and-needed identifier${lost === 1 ? '' : 's'}, more than --max-lost-needed ${opts.maxLostNeeded}`, at: firstOf('lost-needed') });
  }
  const refetched = count('refetched').size;
  if (opts.maxRefetched !== null && refetched > opts.maxRefetched) {
    out.push({ flag: '--max-refetched', value: refetched, limit: opts.maxRefetched, message: `${refetched} lost identifier${refetched === 1 ? '' : 's'} fetched again, more than --max-refetched ${opts.maxRefetched}`, at: firstOf('refetched') });
  }
  const invented = count('invented').size;
  if (opts.maxInvented !== null && invented > opts.maxInvented) {
    out.push({ flag: '--max-invented', value: invented, limit: opts.maxInvented, message: `${invented} invented identifier${invented === 1 ? '' : 's'}, more than --max-invented ${opts.maxInvented}`, at: firstOf('invented') });
  }
  const cache = m.facts.cache;
  if (opts.maxMissCostUsd !== null && cache?.missCostUsd != null && cache.missCostUsd > opts.maxMissCostUsd) {
    out.push({ flag: '--max-miss-cost', value: cache.missCostUsd, limit: opts.maxMissCostUsd, message: `${formatUsd(cache.missCostUsd)} lost to cache misses, more than --max-miss-cost ${opts.maxMissCostUsd}`, at: breakAt });
  }
  if (opts.maxCacheBreaks !== null && cache && cache.breaks > opts.maxCacheBreaks) {
    out.push({ flag: '--max-cache-breaks', value: cache.breaks, limit: opts.maxCacheBreaks, message: `${cache.breaks} cache break${cache.breaks === 1 ? '' : 's'}, more than --max-cache-breaks ${opts.maxCacheBreaks}`, at: breakAt });
  }
  for (const rule of opts.failOn) {
    const hits = found.filter((f) => f.kind === 'lint' && f.what === rule);
    if (hits.length) out.push({ flag: '--fail-on', value: hits.length, limit: rule, message: `${hits.length} ${rule} lint${hits.length === 1 ? '' : 's'} (--fail-on ${rule})`, at: hits[0]!.at });
  }
  return out;
}

export function checkSession(session: Session, m: SessionMetrics, opts: CheckOptions, pathOf: ReadonlyMap<string, string>): CheckedSession {
  const place = (s: SourceRef | undefined): Place => {
    const file = s?.file ?? session.files[0] ?? session.id;
    return { file: pathOf.get(file) ?? file, line: s?.line ?? null };
  };
  const first = place(undefined);
  const found = findings(session, m, place);
  const byId = new Map(session.items.map((i) => [i.id, i]));
  const unrecorded = unrecordedRestoreVersion(m.audits);
  const firstBreak = m.calls.find((c) => c.cacheBreak);
  const breakAt = firstBreak?.divergence ? place(byId.get(firstBreak.divergence.item)?.source) : first;
  return {
    id: session.id,
    format: session.format,
    files: session.files.map((f) => pathOf.get(f) ?? f),
    facts: m.facts,
    findings: found,
    crossed: crossedLimits(m, found, opts, first, breakAt),
    survival: m.audits.map((a) => `compaction #${a.compaction + 1} kept, of what it evicted: ${survivalLine(a.survival)}${a.readUnheldTurns ? ' · invented not judged: the summarizer read turns this file does not hold' : ''}${a.restoredUnrecorded ? ' · files read again unrecorded' : ''}`),
    ...(unrecorded ? { restoredUnrecorded: unrecorded } : {}),
  };
}

// ----------------------------------------------------------------------------------------------
// Rendering

/** `paths 3/40 · commands 0/5 · …`: kinds the compaction evicted none of are left out. */
export function survivalLine(s: Survival): string {
  const parts = SURVIVAL_KINDS.filter((k) => s[k].evicted > 0).map((k) => `${k} ${s[k].kept}/${s[k].evicted}`);
  if (s.instructions.notJudged) parts.push(`${plural(s.instructions.notJudged, 'instruction')} in another language, not judged`);
  return parts.length ? parts.join(' · ') : 'nothing it could tell';
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
const pct = (v: number) => `${(v * 100).toFixed(1)}%`;
const at = (p: Place) => (p.line !== null ? `${p.file}:${p.line}` : p.file);

function filesLabel(files: string[]): string {
  return files.length > 4 ? `${files[0]} + ${files.length - 1} more files` : files.join(' + ');
}

function cacheLine(s: CheckedSession): string {
  const c = s.facts.cache;
  if (!c) return 'cache: not analysed';
  const causes = Object.entries(c.byCause).map(([k, v]) => `${v} ${CAUSE_LABEL[k as keyof typeof CAUSE_LABEL]}`).join(', ');
  const hit = c.hitRate !== null ? `reported hit rate ${pct(c.hitRate)}` : 'no reported cache usage';
  return `cache: ${hit} · ${plural(c.breaks, 'break')}${causes ? ` (${causes})` : ''} · ${missCostParts(c, thousands, formatUsd).join(' · ')}`;
}

/** A sentence in double quotes, once: a summary's sentence that is itself a quote keeps its own marks. */
function quoted(sentence: string): string {
  return /^["“].*["”]$/s.test(sentence) ? sentence : `"${sentence}"`;
}

function distinct(found: CheckFinding[], kind: CheckFinding['kind']): string[] {
  return [...new Set(found.filter((f) => f.kind === kind).map((f) => f.what))];
}

export function renderCheckText(r: CheckResult): string {
  const out: string[] = [];
  for (const s of r.sessions) {
    const f = s.facts;
    out.push(oneLine(`${filesLabel(s.files)}  [${s.format}]  session ${s.id}`));
    out.push(`  ${plural(f.calls, 'model call')} · ${plural(f.compactions.total, 'compaction')}${f.compactions.inferred ? ` (${f.compactions.inferred} inferred)` : ''}`);
    out.push(`  ${cacheLine(s)}`);
    const lost = distinct(s.findings, 'lost-needed');
    out.push(`  lost and needed later: ${lost.length ? oneLine(lost.join(', ')) : 'none'}`);
    const refetched = distinct(s.findings, 'refetched');
    out.push(`  lost, then fetched again: ${refetched.length ? oneLine(refetched.join(', ')) : 'none'}`);
    for (const line of s.survival) out.push(`  ${line}`);
    // Said once for the session: its compaction lines mark where it applies.
    if (s.restoredUnrecorded) out.push(`  ${unrecordedRestoreNote(s.restoredUnrecorded)}`);
    const invented = distinct(s.findings, 'invented');
    if (invented.length) out.push(`  invented by a summary: ${oneLine(invented.join(', '))}`);
    const claims = distinct(s.findings, 'invented-instruction');
    if (claims.length) out.push(`  instructions a summary gave the user, which no user message gave: ${oneLine(claims.map(quoted).join('; '))}`);
    const lints = s.findings.filter((x) => x.kind === 'lint');
    out.push(`  lints: ${lints.length ? '' : 'none'}`.trimEnd());
    for (const l of lints) out.push(`    ${oneLine(`${l.what} at ${at(l.at)}: ${l.message}`)}`);
    for (const c of s.crossed) out.push(`  FAIL ${oneLine(c.message)}`);
  }
  if (r.sessions.length === 0) out.push('No session loaded.');
  if (r.sessions.some((s) => s.findings.some((f) => f.kind !== 'lint'))) out.push('', auditTrustNote({ instructions: (r.instructionFiles?.length ?? 0) > 0 }));
  if (r.instructionFiles?.length) out.push('', oneLine(`The audit read these instruction files as in every request: ${instructionList(r.instructionFiles)}`));
  for (const e of r.errors) out.push(`input error: ${formatIssue(e)}`);
  out.push('', verdict(r));
  // Session ids, file names, identifiers and lint messages come from the files: each stays on its line (oneLine),
  // and no escape sequence reaches the terminal.
  return terminalText(out.join('\n'));
}

const instructionList = (files: readonly { path: string; bytes: number }[]) => files.map((f) => `${f.path} (${thousands(f.bytes)} bytes)`).join(', ');

function failures(r: CheckResult): number {
  return r.sessions.reduce((n, s) => n + s.crossed.length, 0) + (r.errorsFail ? r.errors.length : 0);
}

function verdict(r: CheckResult): string {
  const crossed = r.sessions.flatMap((s) => s.crossed.map((c) => oneLine(`${s.id}: ${c.message}`)));
  const errors = r.errorsFail && r.errors.length ? [`${plural(r.errors.length, 'input error')} (--fail-on ${INPUT_ERROR})`] : [];
  const all = [...crossed, ...errors];
  return all.length ? `check failed: ${all.join('; ')}` : `check passed: ${plural(r.sessions.length, 'session')} within limits`;
}

/**
 * GitHub's workflow-command escaping: data escapes %, CR and LF; properties also `:` and `,`. Every field from a file
 * goes through one of them, so no value can end a line and start a command of its own (`::error …`, `::add-mask::`,
 * `::stop-commands::`); other control characters show as marks (the log renders ANSI escapes).
 */
export const ghData = (s: string) => showControls(s).replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
export const ghProp = (s: string) => ghData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');

function annotation(level: 'error' | 'warning' | 'notice', p: Place, title: string, message: string): string {
  const props = [`file=${ghProp(p.file)}`, ...(p.line !== null ? [`line=${p.line}`] : []), `title=${ghProp(title)}`];
  return `::${level} ${props.join(',')}::${ghData(message)}`;
}

/** A plain log line (not a command): escaped like data, and never starting with `::`, so it cannot be read as one. */
const ghLine = (s: string) => ghData(s).replace(/^::/, ': :');

const FINDING_TITLE: Record<Exclude<CheckFinding['kind'], 'lint'>, string> = {
  'lost-needed': 'lost and needed later',
  refetched: 'lost, then fetched again',
  invented: 'invented by a summary',
  'invented-instruction': 'instruction invented by a summary',
};

/** GitHub shows about 10 annotations of a step; past that, a file's findings are counted on one log line. */
export const ANNOTATIONS_PER_FILE = 10;

export function renderCheckGithub(r: CheckResult): string {
  const notes: { level: 'error' | 'warning'; at: Place; title: string; message: string }[] = [];
  for (const s of r.sessions) {
    for (const c of s.crossed) notes.push({ level: 'error', at: c.at, title: `compaction-inspector ${c.flag}`, message: `session ${s.id}: ${c.message}` });
    for (const f of s.findings) {
      const title = f.kind === 'lint' ? `lint ${f.what}` : FINDING_TITLE[f.kind];
      notes.push({ level: 'warning', at: f.at, title, message: f.message });
    }
  }
  for (const e of r.errors) notes.push({ level: r.errorsFail ? 'error' : 'warning', at: { file: e.file, line: e.line }, title: 'compaction-inspector input error', message: e.message });
  // Each file keeps its first 10, errors before warnings; the rest are counted by kind, per file, in order of appearance.
  const kept = new Set<number>();
  const room = new Map<string, number>();
  for (const level of ['error', 'warning'] as const) {
    notes.forEach((n, i) => {
      const left = room.get(n.at.file) ?? ANNOTATIONS_PER_FILE;
      if (n.level !== level || left === 0) return;
      kept.add(i);
      room.set(n.at.file, left - 1);
    });
  }
  const rest = new Map<string, Map<string, number>>();
  notes.forEach((n, i) => {
    if (kept.has(i)) return;
    const kinds = rest.get(n.at.file) ?? new Map<string, number>();
    kinds.set(n.title, (kinds.get(n.title) ?? 0) + 1);
    rest.set(n.at.file, kinds);
  });
  const out = notes.flatMap((n, i) => (kept.has(i) ? [annotation(n.level, n.at, n.title, n.message)] : []));
  for (const [file, kinds] of rest) {
    const total = [...kinds.values()].reduce((a, b) => a + b, 0);
    const list = [...kinds].map(([title, n]) => `${n} ${title}`).join(', ');
    out.push(ghLine(`${file}: ${total} more finding${total === 1 ? '' : 's'} not annotated (GitHub shows about ${ANNOTATIONS_PER_FILE} per step): ${list}`));
  }
  // The verdict names session ids from the files: one escaped line.
  out.push(ghLine(verdict(r)));
  return out.join('\n');
}

/**
 * A long text shortened in its middle: the start and the end stay, so a path keeps its root and its file name (with
 * any `:line`) whole when the name fits; never cut at the end, where the file name is.
 */
export function shortenMiddle(s: string, max = 80): string {
  const chars = [...s];
  if (chars.length <= max) return s;
  let slash = chars.length - 1;
  while (slash >= 0 && chars[slash] !== '/' && chars[slash] !== '\\') slash--;
  const name = slash >= 0 ? chars.length - slash : 0;
  // Keep the file name (from its separator) when it leaves room for a start; else the end's half.
  const tail = name > 0 && name <= max - 11 ? name : Math.floor((max - 1) / 2);
  return `${chars.slice(0, max - 1 - tail).join('')}…${chars.slice(chars.length - tail).join('')}`;
}

/** Transcript text is untrusted: in a PR comment it stays inside a code span and cannot break the table. */
const code = (s: string) => `\`${shortenMiddle(showControls(s).replace(/[`\r\n|]/g, ' '))}\``;
const mdText = (s: string) => showControls(s).replace(/[\r\n]+/g, ' ').replace(/([\\`*_[\]<>|#!])/g, '\\$1');

export function renderCheckMarkdown(r: CheckResult): string {
  const failed = failures(r) > 0;
  const out = [`### Compaction Inspector check: ${failed ? '❌ failed' : '✅ passed'}`, ''];
  out.push('| Session | Calls | Compactions | Cache hit rate | Breaks | Lost to misses | Lost & needed | Re-fetched | Lints |', '|---|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const s of r.sessions) {
    const c = s.facts.cache;
    const cells = [
      `${code(s.id)} (${s.format})`,
      String(s.facts.calls),
      String(s.facts.compactions.total),
      c?.hitRate != null ? pct(c.hitRate) : '—',
      c ? String(c.breaks) : '—',
      c?.missCostUsd != null ? formatUsd(c.missCostUsd) : '—',
      String(distinct(s.findings, 'lost-needed').length),
      String(distinct(s.findings, 'refetched').length),
      String(s.findings.filter((f) => f.kind === 'lint').length),
    ];
    out.push(`| ${cells.join(' | ')} |`);
  }
  const crossed = r.sessions.flatMap((s) => s.crossed.map((c) => `- **${c.flag}** · ${code(s.id)}: ${mdText(c.message)}`));
  const errors = r.errorsFail ? r.errors.map((e) => `- **input error** · ${mdText(formatIssue(e))}`) : [];
  if (crossed.length || errors.length) out.push('', '**Limits crossed**', '', ...crossed, ...errors);
  if (!r.errorsFail && r.errors.length) out.push('', `${plural(r.errors.length, 'input error')} (reported, not failing; add \`--fail-on ${INPUT_ERROR}\` to fail on them)`);
  const lost = r.sessions.flatMap((s) => distinct(s.findings, 'lost-needed').map((v) => `- ${code(s.id)}: ${code(v)}`));
  if (lost.length) out.push('', '<details><summary>Lost and needed later</summary>', '', ...lost, '', '</details>');
  const claims = r.sessions.flatMap((s) => distinct(s.findings, 'invented-instruction').map((v) => `- ${code(s.id)}: ${mdText(v)}`));
  if (claims.length) out.push('', '<details><summary>Instructions a summary gave the user, which no user message gave</summary>', '', ...claims, '', '</details>');
  if (r.sessions.some((s) => s.findings.some((f) => f.kind !== 'lint'))) out.push('', `_${auditTrustNote({ instructions: (r.instructionFiles?.length ?? 0) > 0 })}_`);
  if (r.instructionFiles?.length) out.push('', `The audit read these instruction files as in every request: ${r.instructionFiles.map((f) => `${code(f.path)} (${thousands(f.bytes)} bytes)`).join(', ')}`);
  const lints = r.sessions.flatMap((s) => s.findings.filter((f) => f.kind === 'lint').map((f) => `- ${code(f.what)} at ${code(at(f.at))}: ${mdText(f.message)}`));
  if (lints.length) out.push('', '<details><summary>Lints</summary>', '', ...lints, '', '</details>');
  return out.join('\n');
}

// ----------------------------------------------------------------------------------------------
// The command

/**
 * The lint settings the app's Rules panel saves (`{"version":1,"rules":{"<rule>":{"<harness>|*":{muted?, threshold?}}}}`),
 * the same file `inspect --rules` reads; the shorthand `{"rules":{"<rule>":{"muted":true}}}` means every harness.
 */
export function readRulesFile(name: string, bytes: Uint8Array): { rules: RuleSettings } | { error: string } {
  let doc: unknown;
  try {
    doc = JSON.parse(new TextDecoder().decode(bytes));
  } catch (e) {
    return { error: `${name}: not JSON (${e instanceof Error ? e.message : String(e)})` };
  }
  const rules = isObject(doc) ? get(doc, 'rules') : undefined;
  if (!isObject(rules)) return { error: `${name}: field rules: expected an object of rule names` };
  const expanded: Record<string, unknown> = {};
  for (const [rule, setting] of Object.entries(rules)) {
    if (!(RULE_ORDER as readonly string[]).includes(rule)) return { error: `${name}: field rules.${rule}: unknown rule (known: ${RULE_ORDER.join(', ')})` };
    if (!isObject(setting)) return { error: `${name}: field rules.${rule}: expected an object` };
    const m = get(setting, 'muted');
    if (m !== undefined && typeof m !== 'boolean') return { error: `${name}: field rules.${rule}.muted: expected true or false` };
    const shorthand = m !== undefined || get(setting, 'threshold') !== undefined;
    expanded[rule] = shorthand ? { '*': setting } : setting;
  }
  const parsed = parseRuleSettings({ ...(doc as object), rules: expanded }, { formats: FORMAT_IDS });
  if (parsed.problems.length) return { error: `${name}: ${parsed.problems.map((p) => p.replace(/^rule settings: /, '')).join('; ')}` };
  return { rules: parsed.settings };
}

function parseCheckArgs(argv: string[], io: CliIo): { paths: string[]; opts: CheckOptions } | { error: string } {
  const opts: CheckOptions = { maxLostNeeded: null, maxRefetched: null, maxInvented: null, maxMissCostUsd: null, maxCacheBreaks: null, failOn: [], failOnInputError: false, rules: null, format: 'text', rule: 'auto', threads: null, noCache: false, instructions: null };
  const instructionPaths: string[] = [];
  const paths: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (!a.startsWith('--')) {
      paths.push(a);
      continue;
    }
    if (a === '--no-cache') {
      opts.noCache = true;
      continue;
    }
    const eq = a.indexOf('=');
    const flag = eq > 0 ? a.slice(0, eq) : a;
    const value = eq > 0 ? a.slice(eq + 1) : argv[++i];
    if (value === undefined) return { error: `${flag} needs a value` };
    const count = () => {
      const n = Number(value);
      return value !== '' && Number.isInteger(n) && n >= 0 ? n : null;
    };
    if (flag === '--max-lost-needed' || flag === '--max-refetched' || flag === '--max-invented' || flag === '--max-cache-breaks') {
      const n = count();
      if (n === null) return { error: `${flag} expects a whole number ≥ 0, got ${JSON.stringify(value)}` };
      if (flag === '--max-lost-needed') opts.maxLostNeeded = n;
      else if (flag === '--max-refetched') opts.maxRefetched = n;
      else if (flag === '--max-invented') opts.maxInvented = n;
      else opts.maxCacheBreaks = n;
    } else if (flag === '--max-miss-cost') {
      const usd = Number(value.replace(/^\$/, ''));
      if (value === '' || !Number.isFinite(usd) || usd < 0) return { error: `--max-miss-cost expects dollars ≥ 0, got ${JSON.stringify(value)}` };
      opts.maxMissCostUsd = usd;
    } else if (flag === '--fail-on') {
      for (const r of value.split(',').map((x) => x.trim()).filter(Boolean)) {
        if (r === INPUT_ERROR) opts.failOnInputError = true;
        else if (!(RULE_ORDER as readonly string[]).includes(r)) return { error: `--fail-on: unknown rule ${r} (known: ${RULE_ORDER.join(', ')}, ${INPUT_ERROR})` };
        else opts.failOn.push(r as LintRule);
      }
    } else if (flag === '--rules') {
      let bytes: Uint8Array;
      try {
        bytes = io.readFile(value);
      } catch (e) {
        return { error: `cannot read --rules ${value}: ${e instanceof Error ? e.message : String(e)}` };
      }
      const rules = readRulesFile(value, bytes);
      if ('error' in rules) return rules;
      opts.rules = rules.rules;
    } else if (flag === '--provider') {
      if (!(PROVIDER_RULES as readonly string[]).includes(value)) return { error: `--provider must be one of ${PROVIDER_RULES.join(', ')}` };
      opts.rule = value as ProviderRule;
    } else if (flag === '--threads') {
      const n = count();
      if (n === null || n < 1) return { error: `--threads expects a whole number ≥ 1, got ${JSON.stringify(value)}` };
      opts.threads = n;
    } else if (flag === '--instructions') {
      instructionPaths.push(value);
    } else if (flag === '--format') {
      if (value !== 'text' && value !== 'github' && value !== 'markdown') return { error: `--format must be text, github or markdown, got ${JSON.stringify(value)}` };
      opts.format = value;
    } else return { error: `unknown option ${a}` };
  }
  if (paths.length === 0) return { error: 'check needs at least one file' };
  if (instructionPaths.length > 0) {
    const read = readInstructionFiles(instructionPaths, io);
    if ('error' in read) return read;
    opts.instructions = read;
  }
  return { paths, opts };
}

export async function runCheck(argv: string[], io: CliIo, usage: string): Promise<number> {
  const parsed = parseCheckArgs(argv, io);
  if ('error' in parsed) {
    io.err(`${parsed.error}\n\n${usage}`);
    return 2;
  }
  const { paths, opts } = parsed;
  const { inputs, missing, pathOf } = readInputs(paths, io);
  if (missing.length) {
    for (const m of missing) io.err(`cannot read ${m}`);
    return 2;
  }
  const loaded = await openInputs(inputs);
  // On the session itself, so the result cache's key (the session's bytes) holds the files' text too.
  const given = joinInstructions(opts.instructions, loaded.instructions);
  const instructionFiles = given ? giveInstructions(loaded.sessions, given, io) : null;
  const outcomes = await metricsOfSessions(loaded.sessions, { rule: opts.rule, ...(opts.rules ? { rules: opts.rules } : {}) }, opts.threads ?? undefined, cacheFor(io, opts.noCache));
  const sessions: CheckedSession[] = [];
  const failedAnalyses: InspectIssue[] = [];
  outcomes.forEach((o, i) => {
    const s = loaded.sessions[i]!;
    if (o.ok) sessions.push(checkSession(s, o.metrics, opts, pathOf));
    // A session whose analysis cannot finish is an error of its file: the check cannot vouch for it.
    else failedAnalyses.push({ file: pathOf.get(s.files[0]!) ?? s.files[0]!, line: null, field: null, message: `${o.message} (${o.detail})` });
  });
  const errors = [...inspectReport(loaded).errors.map((e) => ({ ...e, file: pathOf.get(e.file) ?? e.file })), ...failedAnalyses];
  const result: CheckResult = { sessions, errors, errorsFail: opts.failOnInputError || failedAnalyses.length > 0, ...(instructionFiles ? { instructionFiles } : {}) };
  io.out(opts.format === 'github' ? renderCheckGithub(result) : opts.format === 'markdown' ? renderCheckMarkdown(result) : renderCheckText(result));
  return failures(result) > 0 ? 1 : 0;
}
