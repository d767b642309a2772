// Ids named after Object.prototype properties (`constructor`, `toString`, `hasOwnProperty`, `valueOf`,
// `__proto__`) must behave like any other id: an object used as a dictionary hands back the prototype's
// function for them (the analysis crossed the worker as "Unserializable return value") or drops the key
// (`__proto__`: "Peak NaN"). Every format's fixture is loaded with its ids renamed, analysed in full and
// reported by the CLI, and compared with the same renaming to a plain name: the results must be the same.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { run, type CliIo } from '../cli/main';
import { parseDocument, recordsOf } from '../load/document';
import { loadFiles } from '../load/loader';
import { isObject } from '../model/narrow';
import type { Session } from '../model/types';
import { buildAnalysisView } from './analysis-view';
import { analyzeSession } from './analyze-session';

const PROTO_NAMES = ['constructor', 'toString', 'hasOwnProperty', 'valueOf', '__proto__'] as const;
/**
 * The control: for each prototype name, a name no prototype has, of the same length and shape (camelCase
 * stays camelCase), so identifiers are recognised alike and texts cut at a length are cut alike.
 */
// A Map: in an object literal, `__proto__: '…'` would set the prototype, not a key (the very bug tested here).
// Each differs from its prototype name in the last character only, so a text cut inside the name reads the same.
const CONTROL = new Map<string, string>([['constructor', 'constructos'], ['toString', 'toStrinh'], ['hasOwnProperty', 'hasOwnPropertz'], ['valueOf', 'valueOg'], ['__proto__', '__proto_q']]);
const controlOf = (name: string) => CONTROL.get(name)!;
const CONTROL_NAME = new RegExp(PROTO_NAMES.map(controlOf).join('|'), 'g');
/** The control's output with each control name put back to its prototype name. */
const backToProto = (s: string) => s.replace(CONTROL_NAME, (m) => PROTO_NAMES.find((n) => controlOf(n) === m)!);

const fixture = (name: string) => readFileSync(new URL(`../formats/__fixtures__/${name}`, import.meta.url), 'utf8');

/** Every format's fixtures; files that join (sidechains, request + response, log + transcript) load together. */
const GROUPS: string[][] = [
  ['claude-code-session.jsonl', 'claude-code-session.agent-acompact.jsonl'],
  ['codex-rollout.jsonl'],
  ['openhands-condensation.json'],
  ['anthropic-request.json', 'anthropic-response.json'],
  ['openai-responses-request.json', 'openai-responses-response.json'],
  ['openai-chat-course.json', 'compaction-log-course.jsonl'],
  ['request-log-chat.jsonl'],
  ['request-log-mixed.jsonl'],
  ['livekit-session-report.json'],
  ['agent-omit-webshop.json'],
  ['reasoning-trace-aime.json'],
  ['self-sum-sciworld.json'],
  ['sharegpt-agentgym.json'],
];

/**
 * Ids written inside text rather than as JSON values: an Agent-Omit trajectory has no ids of its own, only
 * the tool it calls, `<tool_call>search[…]`. The capture is the id; the rest is kept around it.
 */
const TEXT_IDS = /(<tool_call>)(\w+)(\[)/g;

/** Keys whose string values are ids (uuids and their parents, item, message, response, tool call and session ids) or names (tools, models). */
const ID_KEY = /^(id|uuid|name|tool_name|function_name|model)$|(Id|_id|ID|Uuid|UUID|_uuid)$/;
/** Keys whose values an adapter looks up (roles, record types, OpenHands actions): renamed, a file may no longer be recognised at all. */
const KIND_KEY = /^(role|type|subtype|action|observation)$/;

/** String values of the keys `keys` matches, grouped by key, in order of appearance. */
function idValues(texts: string[], keys: RegExp): Map<string, string[]> {
  const byKey = new Map<string, string[]>();
  const visit = (v: unknown): void => {
    if (Array.isArray(v)) return v.forEach(visit);
    if (!isObject(v)) return;
    for (const [k, x] of Object.entries(v)) {
      if (typeof x === 'string' && x.length > 0 && keys.test(k)) {
        const list = byKey.get(k) ?? [];
        if (!list.includes(x)) list.push(x);
        byKey.set(k, list);
      } else visit(x);
    }
  };
  for (const text of texts) {
    if (keys === ID_KEY) for (const m of text.matchAll(TEXT_IDS)) {
      const list = byKey.get('tool_call') ?? [];
      if (!list.includes(m[2]!)) list.push(m[2]!);
      byKey.set('tool_call', list);
    }
    const parsed = parseDocument('fixture', text);
    if (parsed.ok) recordsOf(parsed.doc).forEach((r) => visit(r.value));
    if (parsed.ok && parsed.doc.kind !== 'jsonl') visit(parsed.doc.value);
  }
  return byKey;
}

/**
 * Renamings to try: for each prototype name, one id of every id key gets it (the first for `constructor`,
 * the second for `toString`, …), so a uuid, a tool call id and a tool name can all be `constructor` at
 * once; then all five names at once, on the first five ids of every key; then the same for kinds.
 */
function renamings(texts: string[]): { label: string; names: Map<string, string>; loads: boolean }[] {
  const out: { label: string; names: Map<string, string>; loads: boolean }[] = [];
  for (const [what, keys] of [['id', ID_KEY], ['kind', KIND_KEY]] as const) {
    const byKey = [...idValues(texts, keys).values()];
    if (byKey.length === 0) continue;
    PROTO_NAMES.forEach((name, i) => {
      const names = new Map<string, string>();
      for (const values of byKey) names.set(values[i % values.length]!, name);
      out.push({ label: `one ${what} of every key renamed ${name}`, names, loads: what === 'id' });
    });
    const all = new Map<string, string>();
    for (const values of byKey) values.slice(0, PROTO_NAMES.length).forEach((v, j) => all.has(v) || all.set(v, PROTO_NAMES[j]!));
    out.push({ label: `the five names on the first five ${what}s of every key`, names: all, loads: what === 'id' });
  }
  return out;
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Replaces each id, as a whole JSON string, with its new name; `control` puts the control name in place of each prototype name. */
function rename(text: string, names: Map<string, string>, control: boolean): string {
  let out = text;
  for (const [from, to] of names) out = out.replace(new RegExp(`"${escapeRe(from)}"`, 'g'), JSON.stringify(control ? controlOf(to) : to));
  return out.replace(TEXT_IDS, (whole, open: string, id: string, close: string) => (names.has(id) ? `${open}${control ? controlOf(names.get(id)!) : names.get(id)}${close}` : whole));
}

/** JSON with Maps and Sets written out, and the plain names put back to the prototype names, for comparing. */
function canonical(value: unknown, plain: boolean): string {
  return canonicalRaw(value, plain);
}
/** Where two canonical strings first differ, with some context (a readable failure). */
function firstDifference(a: string, b: string): string {
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  const d = i === a.length && i === b.length ? 'same' : `at ${i}: …${a.slice(Math.max(0, i - 150), i + 80)}… vs …${b.slice(Math.max(0, i - 150), i + 80)}…`;
  if (d !== 'same' && process.env['DEBUG_PROTO']) console.log(d);
  return d;
}
/**
 * The summary audit skips `toString()`, `valueOf()`, `hasOwnProperty()` as built-in methods, not identifiers a
 * later turn needs, where a control name is one: a name written as a call is left out of both.
 */
const CALLED = new Set([...PROTO_NAMES, ...CONTROL.values()].map((n) => `${n}()`));

function canonicalRaw(value: unknown, plain: boolean): string {
  const json = JSON.stringify(value, (_k, v: unknown) => {
    if (v instanceof Map) return { map: [...v.entries()].filter(([k]) => !CALLED.has(String(k))) };
    if (v instanceof Set) return { set: [...v] };
    if (Array.isArray(v) && v.some((x) => typeof x === 'string' && CALLED.has(x))) return v.filter((x) => !CALLED.has(x as string));
    if (isObject(v) && Object.keys(v).some((k) => CALLED.has(k))) return Object.fromEntries(Object.entries(v).filter(([k]) => !CALLED.has(k)));
    if (typeof v === 'number' && !Number.isFinite(v)) return `non-finite ${v}`;
    if (typeof v === 'function') return `function ${(v as { name?: string }).name ?? ''}`;
    return v;
  });
  return plain ? backToProto(json) : json;
}

/** Whitespace words: the same for an id whatever its name, so token counts do not move with the renaming. */
const words = (t: string) => t.split(/\s+/).filter(Boolean).length;

function findBad(value: unknown, path = 'view', seen = new Set<unknown>()): string[] {
  if (typeof value === 'number') return Number.isFinite(value) ? [] : [`${path} = ${value}`];
  if (typeof value === 'function') return [`${path} is a function`];
  if (typeof value !== 'object' || value === null || seen.has(value)) return [];
  seen.add(value);
  const entries: [string, unknown][] = value instanceof Map ? [...value.entries()].map(([k, v]) => [String(k), v]) : Object.entries(value);
  return entries.flatMap(([k, v]) => findBad(v, `${path}.${k}`, seen));
}

function analyse(session: Session) {
  const view = buildAnalysisView(session, { count: words });
  const analysis = analyzeSession(session, { count: words });
  return { view, analysis };
}

function fakeIo(files: Map<string, string>): { io: CliIo; out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = {
    out: (t) => out.push(t),
    err: (t) => err.push(t),
    readFile: (p) => new TextEncoder().encode(files.get(p)),
    listDir: () => [],
    isDir: () => false,
    exists: (p) => files.has(p),
  };
  return { io, out, err };
}

/** The CLI's JSON with every number set to 0 (its real tokenizer counts a renamed id differently) and NaN kept visible. */
async function cliJson(group: string[], texts: string[]): Promise<{ code: number; json: string; err: string[] }> {
  const { io, out, err } = fakeIo(new Map(group.map((f, i) => [f, texts[i]!])));
  const code = await run(['inspect', '--json', ...group], io);
  const raw = out.join('\n');
  expect(raw).not.toMatch(/\bNaN\b/);
  const json = JSON.stringify(JSON.parse(raw), (_k, v: unknown) => (typeof v === 'number' ? 0 : v));
  return { code, json, err };
}

describe('the analysis with ids named after Object.prototype properties', () => {
  for (const group of GROUPS) {
    const texts = group.map(fixture);
    const cases = renamings(texts);
    it(`has ids to rename in ${group.join(' + ')}`, () => {
      expect(cases.filter((c) => c.loads).length).toBeGreaterThan(PROTO_NAMES.length);
      expect([...cases[0]!.names.keys()].length).toBeGreaterThan(0);
    });
    for (const { label, names, loads } of cases) {
      it(`loads and analyses ${group.join(' + ')} with ${label} as it does with a plain one`, async () => {
        const renamed = texts.map((t) => rename(t, names, false));
        const control = texts.map((t) => rename(t, names, true));
        // The renaming really happened, so the comparison is not of a file with itself.
        expect(renamed.join('')).not.toEqual(texts.join(''));
        const load = (ts: string[]) => loadFiles(group.map((name, i) => ({ name, bytes: new TextEncoder().encode(ts[i]) })));
        const got = load(renamed);
        const want = load(control);
        // Renamed ids leave the file loadable; a renamed kind (a record type) may not, but then neither does the control.
        if (loads) expect(got.sessions.length).toBeGreaterThan(0);
        expect(got.sessions.length).toBe(want.sessions.length);
        expect(firstDifference(canonical(got, false), canonical(want, true))).toBe('same');
        for (let s = 0; s < got.sessions.length; s++) {
          const a = analyse(got.sessions[s]!);
          const b = analyse(want.sessions[s]!);
          // What the analysis worker sends must clone (a function in it was "Unserializable return value").
          expect(() => structuredClone(a.view)).not.toThrow();
          expect(findBad(a.view)).toEqual([]);
          expect(findBad(a.analysis, 'analysis')).toEqual([]);
          expect(firstDifference(canonical(a.view, false), canonical(b.view, true))).toBe('same');
          expect(firstDifference(canonical(a.analysis, false), canonical(b.analysis, true))).toBe('same');
        }
        const cli = await cliJson(group, renamed);
        const cliControl = await cliJson(group, control);
        expect(cli.err).toEqual([]);
        expect(cli.code).toBe(cliControl.code);
        expect(firstDifference(cli.json, backToProto(cliControl.json))).toBe('same');
      });
    }
  }
});
