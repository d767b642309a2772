import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { sessionContexts } from '../analysis/session-analysis';
import { processCorpusFile, textChunks } from '../corpus/corpus-stream';
import type { CorpusRow } from '../corpus/corpus-row';
import { estimateTokens } from '../tokens';
import { loadText } from '../load/loader';
import { looksLikeTauBenchHead } from './tau-bench';

// The fixture imitates a tau-bench airline result (sierra-research/tau-bench historical_trajectories/gpt-4o-airline.json
// and results/*.json as run.py writes them): a passed task, a failed one, and a run that crashed with an empty traj.
const fixture = (name: string) => readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), 'utf8');

describe('tauBench', () => {
  const load = () => loadText('tau-bench-airline.json', fixture('tau-bench-airline.json'));

  it('makes each task its own session, with reward and success in the meta', () => {
    const { sessions, issues } = load();
    expect(sessions.map((s) => [s.id, s.format, s.meta])).toEqual([
      ['tau-bench-airline#task-0', 'tau-bench', { task_id: 0, trial: 0, reward: 1, success: true, user_id: 'mia_li_3668' }],
      ['tau-bench-airline#task-1', 'tau-bench', { task_id: 1, trial: 0, reward: 0, success: false, user_id: 'omar_davis_3817' }],
      ['tau-bench-airline#task-2', 'tau-bench', { task_id: 2, trial: 0, reward: 0, success: false, error: 'EOF when reading a line' }],
    ]);
    expect(issues).toEqual([{ file: 'tau-bench-airline.json', line: expect.any(Number), field: '[2].traj', message: 'task 2 has no messages: the run failed (EOF when reading a line)', severity: 'warning' }]);
    // The crashed task's warning is its own; the other tasks carry none.
    expect(sessions.map((s) => s.issues.length)).toEqual([0, 0, 1]);
  });

  it('reads the messages of a task as items, tool calls paired with their results', () => {
    const s = load().sessions[0]!;
    expect(s.items.map((i) => [i.id, i.role, i.kind, i.pairId ?? null])).toEqual([
      ['t0.m0', 'system', 'message', null],
      ['t0.m1', 'user', 'message', null],
      ['t0.m2', 'assistant', 'message', null],
      ['t0.m3', 'user', 'message', null],
      ['t0.m4.call0', 'assistant', 'tool_call', 't0.m5'],
      ['t0.m5', 'tool', 'tool_result', 't0.m4.call0'],
      ['t0.m6', 'assistant', 'message', null],
      ['t0.m7', 'user', 'message', null],
      ['t0.m8.call0', 'assistant', 'tool_call', 't0.m9'],
      ['t0.m9', 'tool', 'tool_result', 't0.m8.call0'],
      ['t0.m10', 'assistant', 'message', null],
      ['t0.m11', 'user', 'message', null],
    ]);
    expect(s.items[4]).toMatchObject({ name: 'get_reservation_details', callId: 'call_oIHazX6yQrB8hUwl4cRilFKj', text: '{"reservation_id": "NO6JO3"}' });
  });

  it('has one call per run of agent output, no usage and no compaction', () => {
    const s = load().sessions[0]!;
    const { calls, compactions } = sessionContexts(s);
    expect(calls.map((c) => [c.output.map((i) => i.id), c.usage])).toEqual([
      [['t0.m2'], null],
      [['t0.m4.call0'], null],
      [['t0.m6'], null],
      [['t0.m8.call0'], null],
      [['t0.m10'], null],
    ]);
    expect(compactions).toEqual([]);
  });

  it('gives one corpus row per task with its reward and success', async () => {
    const rows: CorpusRow[] = [];
    const outcome = await processCorpusFile('tau-bench-airline.json', textChunks(fixture('tau-bench-airline.json')), { count: estimateTokens, counter: 'estimate' }, { row: (r) => rows.push(r), issue: () => {} });
    expect(outcome).toMatchObject({ mode: 'file', trajectories: 3 });
    expect(rows.map((r) => [r.id, r.turns, r.tool_calls, r.reward, r.success, r.warnings])).toEqual([
      ['tau-bench-airline#task-0', 5, 2, 1, true, 0],
      ['tau-bench-airline#task-1', 3, 1, 0, false, 0],
      ['tau-bench-airline#task-2', 0, 0, 0, false, 1],
    ]);
  });

  it('recognizes a result list from the head of the file, before reading it whole', () => {
    expect(looksLikeTauBenchHead(fixture('tau-bench-airline.json').slice(0, 200))).toBe(true);
    expect(looksLikeTauBenchHead('[{"role": "user", "content": "hi"}]')).toBe(false);
  });

  it('names a list entry that is not a task and keeps the others', () => {
    const bad = JSON.parse(fixture('tau-bench-airline.json'));
    bad.splice(1, 0, { task_id: 9, traj: [{ role: 'wizard', content: 'x' }] });
    bad[0].traj[2] = 7;
    const { sessions, issues } = loadText('bad.json', JSON.stringify(bad, null, 2));
    expect(issues.filter((i) => i.severity === 'error').map((i) => [i.field, i.message])).toEqual([
      ['[0].traj[2]', 'expected a message object, got number'],
      ['[1].traj[0].role', expect.stringContaining('unknown role "wizard"')],
    ]);
    expect(sessions).toHaveLength(4);
  });
});
