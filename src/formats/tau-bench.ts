// tau-bench result files (sierra-research/tau-bench `run.py`, results/*.json and historical_trajectories/*.json):
// a JSON list of tasks, each {task_id, reward, info: {task: {user_id, instruction, actions}, reward_info, error?},
// traj: [Chat Completions messages], trial}. One file holds a whole evaluation, so each task is its own session
// and the file opens as a corpus: reward and success (reward 1, as tau-bench's pass^k counts it) go in the meta.
// The trajectory records no usage; each run of assistant output is one call.
import { formatPath, lineOf, type Document } from '../load/document';
import { arr, get, isObject, num, obj, str, strAt, type JsonObject } from '../model/narrow';
import type { Session } from '../model/types';
import { emptySession, idFromFile, type FormatAdapter } from './adapter';
import { chatMessagesToItems } from './openai-chat';

function isTask(v: unknown): v is JsonObject {
  return isObject(v) && get(v, 'task_id') !== undefined && Array.isArray(get(v, 'traj'));
}

/**
 * Whether the start of a file is a tau-bench result list, for deciding to open it as a corpus before reading
 * it whole. `reward` is the second key tau-bench writes, so it sits near the top even when `traj` is far down.
 */
export function looksLikeTauBenchHead(head: string): boolean {
  return /^\s*\[\s*\{\s*"task_id"\s*:/.test(head) && /"reward"\s*:/.test(head.slice(0, 4096));
}

export const tauBench: FormatAdapter = {
  id: 'tau-bench',
  label: 'tau-bench results',
  sniff(doc: Document) {
    // One task's result on its own: a line of a JSONL of results.
    if (doc.kind === 'json' && isTask(doc.value) && get(doc.value, 'reward') !== undefined) return 0.95;
    if (doc.kind !== 'json' || !Array.isArray(doc.value) || doc.value.length === 0) return 0;
    const sample = doc.value.slice(0, 20);
    return sample.filter(isTask).length / sample.length >= 0.8 ? 0.95 : 0;
  },
  parse(doc, ctx) {
    const value = doc.kind === 'json' ? doc.value : null;
    const single = isTask(value);
    const list = Array.isArray(value) ? value : single ? [value] : null;
    if (!list) {
      ctx.error({ path: [] }, 'expected a tau-bench result: a list of {task_id, reward, traj} tasks');
      return [];
    }
    const base = idFromFile(ctx.file);
    const seen = new Map<string, number>();
    const sessions: Session[] = [];
    // A single task's fields sit at the top, not under an index.
    const at = (i: number, ...rest: (string | number)[]) => (single ? rest : [i, ...rest]);
    list.forEach((task, i) => {
      if (!isTask(task)) {
        ctx.error({ path: at(i) }, 'expected a task with `task_id` and a `traj` list of messages');
        return;
      }
      const taskId = get(task, 'task_id');
      const trial = num(task, 'trial');
      let id = `${base}#task-${String(taskId)}${trial !== undefined && trial > 0 ? `.trial-${trial}` : ''}`;
      const n = seen.get(id) ?? 0;
      seen.set(id, n + 1);
      if (n > 0) id = `${id}~${n + 1}`;
      const session = emptySession('tau-bench', ctx.file, id);
      session.title = `${base} · task ${String(taskId)}${trial !== undefined ? ` · trial ${trial}` : ''}`;
      session.meta = metaOf(task);
      const traj = arr(task, 'traj')!;
      session.items = chatMessagesToItems(traj, ctx, (k) => ({ path: at(i, 'traj', k) }), `t${i}.m`);
      if (traj.length === 0) {
        // Filed on this task only, so the other tasks' corpus rows do not count it.
        const where = at(i, 'traj');
        const message = `task ${String(taskId)} has no messages${session.meta['error'] ? `: the run failed (${String(session.meta['error'])})` : ''}`;
        session.issues.push({ file: ctx.file, line: lineOf(doc, where), field: formatPath(where), message, severity: 'warning' });
      }
      sessions.push(session);
    });
    return sessions;
  },
};

function metaOf(task: JsonObject): Session['meta'] {
  const meta: Session['meta'] = {};
  const taskId = get(task, 'task_id');
  if (typeof taskId === 'number' || typeof taskId === 'string') meta['task_id'] = taskId;
  const trial = num(task, 'trial');
  if (trial !== undefined) meta['trial'] = trial;
  const reward = num(task, 'reward');
  if (reward !== undefined) {
    meta['reward'] = reward;
    // tau-bench counts a task passed when its reward is 1 (run.py: `1 - 1e-6 <= reward <= 1 + 1e-6`).
    meta['success'] = Math.abs(reward - 1) <= 1e-6;
  }
  const info = obj(task, 'info');
  const user = info ? strAt(info, 'task.user_id') : null;
  if (user) meta['user_id'] = user;
  const error = info ? str(info, 'error') : undefined;
  if (error) meta['error'] = error;
  return meta;
}
