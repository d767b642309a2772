import { readFileSync } from 'node:fs';
import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { encodeBundle } from '../share/bundle';
import { mixedFormatLines } from '../test/mixed-corpus';
import { sweAgentParquet } from '../test/parquet-datasets';
import { CORPUS_FILE_COUNT, memorySource, planOpen, type OpenPlan, type OpenSource } from './plan-open';

const fixture = (path: string) => readFileSync(new URL(`../${path}`, import.meta.url));
const file = (name: string, text: string | Uint8Array) => memorySource({ name, bytes: typeof text === 'string' ? strToU8(text) : text });
const names = <S extends OpenSource>(p: OpenPlan<S>) => ({
  bundles: p.bundles.map((s) => s.name),
  corpus: p.corpus && { name: p.corpus.name, sources: p.corpus.sources.map((s) => s.name) },
  sessions: p.sessions.map((s) => s.name),
  instructions: p.instructions.map((s) => s.name),
  problems: p.problems.map((i) => `${i.file}: ${i.message}`),
});

const session = file('claude-code-session.jsonl', fixture('formats/__fixtures__/claude-code-session.jsonl'));
const trajectories = file('self-sum-corpus.jsonl', fixture('corpus/__fixtures__/self-sum-corpus.jsonl'));
const tauBench = file('tau-bench-airline.json', fixture('formats/__fixtures__/tau-bench-airline.json'));
const evalLog = (samples: number) => {
  const entries: Record<string, Uint8Array> = { 'header.json': strToU8('{"eval":{"task":"t"}}') };
  for (let i = 1; i <= samples; i++) entries[`samples/${i}_epoch_1.json`] = strToU8('{}');
  return file(`run-${samples}.eval`, zipSync(entries));
};
const bundle = async () => {
  const r = await encodeBundle({ files: [{ name: 'a.jsonl', bytes: strToU8('{"type":"user"}\n') }], annotations: [], view: { turn: 1, item: null, panel: 'budget', rule: 'auto', leftView: 'context' }, createdAt: '2026-01-01T00:00:00Z' });
  if (!r.ok) throw new Error(r.error);
  return file('notes.bundle.json', r.value);
};
const none = { bundles: [], corpus: null, sessions: [], instructions: [], problems: [] };

describe('planOpen', () => {
  it('opens a session file, and files that join, as sessions', async () => {
    const log = file('compaction-log-course.jsonl', fixture('formats/__fixtures__/compaction-log-course.jsonl'));
    expect(names(await planOpen([session, log]))).toEqual({ ...none, sessions: ['claude-code-session.jsonl', 'compaction-log-course.jsonl'] });
  });

  it('opens a JSONL of whole trajectories, a benchmark result and a many-sample log as a corpus, with what came with them', async () => {
    expect(names(await planOpen([trajectories]))).toEqual({ ...none, corpus: { name: 'self-sum-corpus.jsonl', sources: ['self-sum-corpus.jsonl'] } });
    expect(names(await planOpen([session, tauBench]))).toEqual({ ...none, corpus: { name: '2 files', sources: ['claude-code-session.jsonl', 'tau-bench-airline.json'] } });
    expect(names(await planOpen([evalLog(3)])).corpus?.sources).toEqual(['run-3.eval']);
  });

  it('opens a Parquet dataset (by name or by its PAR1 bytes) and a JSONL of trajectories in any single-document format as a corpus', async () => {
    const parquet = sweAgentParquet(3);
    expect(names(await planOpen([file('train-00000-of-00001.parquet', parquet)])).corpus?.sources).toEqual(['train-00000-of-00001.parquet']);
    expect(names(await planOpen([file('download', parquet)])).corpus?.sources).toEqual(['download']);
    const mixed = file('rollouts.jsonl', mixedFormatLines().map((l) => JSON.stringify(l.value)).join('\n'));
    expect(names(await planOpen([mixed])).corpus?.sources).toEqual(['rollouts.jsonl']);
    // The CLI's inspect (no corpus wanted) names it as a problem, saying what it holds.
    expect(names(await planOpen([file('data.parquet', parquet)], { corpus: false })).problems).toEqual([expect.stringMatching(/^data\.parquet: a Parquet dataset, one trajectory per row: this file opens as a corpus .*compaction-inspector corpus data\.parquet/)]);
  });

  it('opens a one-sample log as a session', async () => {
    expect(names(await planOpen([evalLog(1)]))).toEqual({ ...none, sessions: ['run-1.eval'] });
  });

  it('opens more files than CORPUS_FILE_COUNT as a corpus, except one OpenHands conversation of one event per file', async () => {
    const many = Array.from({ length: CORPUS_FILE_COUNT + 1 }, (_, i) => file(`s${i}.json`, '[]'));
    expect(names(await planOpen(many)).corpus?.sources).toHaveLength(CORPUS_FILE_COUNT + 1);
    const events = Array.from({ length: CORPUS_FILE_COUNT + 1 }, (_, i) => file(`event-${String(i).padStart(5, '0')}-e${i}.json`, '{}'));
    expect(names(await planOpen(events)).sessions).toHaveLength(CORPUS_FILE_COUNT + 1);
  });

  it('sets bundles apart from the sessions beside them', async () => {
    expect(names(await planOpen([await bundle(), session]))).toEqual({ ...none, bundles: ['notes.bundle.json'], sessions: ['claude-code-session.jsonl'] });
  });

  it('opens a folder as a corpus named after it, unless it is one OpenHands conversation', async () => {
    const folder = [file('runs/a.json', '[]'), file('runs/7/b.jsonl', '{}')];
    expect(names(await planOpen(folder, { folder: true }))).toEqual({ ...none, corpus: { name: 'runs/', sources: ['runs/a.json', 'runs/7/b.jsonl'] } });
    const conversation = [file('conv-1/base_state.json', '{}'), file('conv-1/events/event-00000-a.json', '{}')];
    expect(names(await planOpen(conversation, { folder: true }))).toEqual({ ...none, sessions: ['conv-1/base_state.json', 'conv-1/events/event-00000-a.json'] });
    const two = [...conversation, file('conv-2/events/event-00000-b.json', '{}')];
    expect(names(await planOpen(two, { folder: true })).corpus?.name).toBe('3 files');
  });

  it('without a corpus, loads what the loader reads as sessions and names a JSONL of trajectories as a problem', async () => {
    const plan = names(await planOpen([trajectories, tauBench, evalLog(3), await bundle()], { corpus: false }));
    expect(plan.corpus).toBeNull();
    expect(plan.sessions).toEqual(['tau-bench-airline.json', 'run-3.eval']);
    expect(plan.bundles).toEqual(['notes.bundle.json']);
    expect(plan.problems).toEqual([expect.stringMatching(/^self-sum-corpus\.jsonl: one trajectory per line: this file opens as a corpus .*compaction-inspector corpus self-sum-corpus\.jsonl/)]);
  });

  it('reads a first line longer than one slice, and takes a source it cannot read as a session for the loader to report', async () => {
    const lines = fixture('corpus/__fixtures__/self-sum-corpus.jsonl').toString('utf8').split('\n');
    const long = JSON.stringify({ ...(JSON.parse(lines[0]!) as object), note: 'a'.repeat(300_000) });
    expect(names(await planOpen([file('long.jsonl', `${long}\n${lines[1]}\n`)])).corpus).not.toBeNull();
    const broken: OpenSource = { name: 'gone.jsonl', size: 10, head: () => Promise.reject(new Error('gone')), read: () => Promise.reject(new Error('gone')) };
    expect(names(await planOpen([broken]))).toEqual({ ...none, sessions: ['gone.jsonl'] });
  });

  it('sets instruction and memory files apart by name, in any letter case, however many files come with them', async () => {
    const given = ['CLAUDE.md', 'CLAUDE.local.md', 'AGENTS.md', 'AGENTS.override.md', 'GEMINI.md', 'MEMORY.md', 'claude.md'].map((n) => file(n, '# Project\n- port 5432\n'));
    expect(names(await planOpen([session, ...given]))).toEqual({ ...none, sessions: ['claude-code-session.jsonl'], instructions: given.map((s) => s.name) });
    // Not counted towards a corpus: a session with its instruction files is a session.
    const many = Array.from({ length: CORPUS_FILE_COUNT }, (_, i) => file(`.claude/rules/rule-${i}.md`, '- a rule\n'));
    expect(names(await planOpen([session, ...many])).sessions).toEqual(['claude-code-session.jsonl']);
    // Alone, they are a plan of their own: the app adds them to the session open.
    expect(names(await planOpen([file('CLAUDE.md', '# x')]))).toEqual({ ...none, instructions: ['CLAUDE.md'] });
  });

  it('takes Markdown under a .claude/rules folder as instructions, and other Markdown or rule-like names as what they are', async () => {
    const rules = [file('.claude/rules/testing.md', '- x'), file('proj/.claude/rules/api/style.MD', '- y'), file('proj/.claude/CLAUDE.md', '- z')];
    const others = [file('notes.md', '- a'), file('.claude/rules/readme.txt', 'b'), file('rules/style.md', 'c'), file('CLAUDE.md.bak', 'd'), file('my-CLAUDE.md', 'e')];
    const plan = names(await planOpen([...rules, ...others], { corpus: false }));
    expect(plan.instructions).toEqual(rules.map((s) => s.name));
    expect(plan.sessions).toEqual(others.map((s) => s.name));
  });

  it('opens files dropped beside a folder of instruction files only as files, and a folder with them as a corpus without them', async () => {
    const claudeFolder = [file('.claude/CLAUDE.md', '- a'), file('.claude/rules/db.md', '- b')];
    expect(names(await planOpen([session, ...claudeFolder], { folder: true }))).toEqual({ ...none, sessions: ['claude-code-session.jsonl'], instructions: ['.claude/CLAUDE.md', '.claude/rules/db.md'] });
    const runs = [file('runs/a.json', '[]'), file('runs/b.jsonl', '{}'), file('runs/AGENTS.md', '- c')];
    expect(names(await planOpen(runs, { folder: true }))).toEqual({ ...none, corpus: { name: 'runs/', sources: ['runs/a.json', 'runs/b.jsonl'] }, instructions: ['runs/AGENTS.md'] });
  });

  it('plans nothing for nothing', async () => {
    expect(await planOpen([])).toEqual(none);
  });
});
