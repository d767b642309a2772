// Agent-Omit (reference 002): per agent turn t, a thought τ_t (omitted when empty: `<think> </think>`), an
// action, and the observation o_t it gets back (`<tool_response_t>`); an omit command at turn M removes
// earlier observations from every later context. The paper's omission reward (Eq. 3):
//   R_omit = Tok(τ_omitted)/Tok(y) + Tok(o_omitted)/Tok(y)
// An omitted thought has no original text, so it saves 0 counted tokens unless its item still holds the
// text; an omitted observation saves its tool result's tokens, unless the trajectory kept only the
// `<omitted_tool_response_N>` placeholder (original lost: 0 counted).
import type { Item, Session } from '../model/types';
import { agentTurns } from './agent-turns';
import { itemCounter, type TokenSource } from './token-source';

export interface OmitTurn {
  /** Agent turn M, from 1. */
  turn: number;
  itemIds: string[];
  thoughtId: string | null;
  thoughtOmitted: boolean;
  /** Tokens the agent wrote this turn: thought, and everything else (action, answer, omit command). */
  thoughtTokens: number;
  actionTokens: number;
  /** o_t: the observation that answers this turn, as recorded (a placeholder counts as written). */
  observationId: string | null;
  observationNumber: number | null;
  observationTokens: number;
  /** Observation tokens in the context this turn was written from: all earlier ones not omitted yet. */
  observationsInContext: number;
  /** Observation numbers this turn's omit commands removed (the first command that names each). */
  omits: number[];
}

export interface ObservationRecord {
  /** N in `<tool_response_N>`. */
  number: number;
  itemId: string;
  /** The agent turn it answers, or null when it came before any agent turn. */
  turn: number | null;
  /** Agent turn whose command omitted it; null when no command names it. */
  omittedAtTurn: number | null;
  omitItemId: string | null;
  /** Only the `<omitted_tool_response_N>` placeholder was recorded. */
  placeholder: boolean;
  /** Tokens of the item as recorded. */
  tokens: number;
  /** Tokens its omission saved: the original's, or 0 when the original is lost or it was never omitted. */
  savedTokens: number;
}

export interface OmitRefProblem {
  /** The observation number the command names. */
  ref: string;
  omitItemId: string;
  turn: number;
}

export interface AgentOmitStats {
  turns: OmitTurn[];
  observations: ObservationRecord[];
  /** Observations removed by a command or shown as a placeholder, in the order they were omitted. */
  omitted: ObservationRecord[];
  /** Commands naming observations no earlier turn received. */
  unknownRefs: OmitRefProblem[];
  omittedThoughtTurns: number[];
  /** Omitted thoughts whose original text is unknown (an empty `<think> </think>`). */
  thoughtsWithoutOriginal: number;
  /** Tok(y): every item of the trajectory as recorded. */
  totalTokens: number;
  thoughtTokensSaved: number;
  observationTokensSaved: number;
  /** Eq. 3, both parts and their sum; all 0 for an empty trajectory. */
  rOmit: { thought: number; observation: number; total: number };
  /** Fig. 2(a): tokens the trajectory spends on thought, action and observation. */
  share: { thought: number; action: number; observation: number };
  /**
   * Fig. 6(b) analogue, per turn (index 0 = turn 1): omissions the agent made at that turn, an omitted
   * thought plus each observation its commands removed.
   */
  omissionsByTurn: number[];
  /** The trajectory's success flag (or reward > 0); R_omit is 0 in training when the task failed. */
  taskSucceeded: boolean | null;
}

function observationNumber(item: Item): number | null {
  const n = item.meta?.['turn'];
  return typeof n === 'number' && Number.isFinite(n) ? n : null;
}

function taskSucceeded(session: Session): boolean | null {
  const s = session.meta['success'];
  if (typeof s === 'boolean') return s;
  const r = session.meta['reward'];
  return typeof r === 'number' ? r > 0 : null;
}

const ratio = (part: number, total: number) => (total > 0 ? part / total : 0);

export function agentOmitStats(session: Session, tokens: TokenSource): AgentOmitStats {
  const tok = itemCounter(tokens);
  const items = session.items;
  const turns = agentTurns(items);
  const turnAt = new Array<number | null>(items.length).fill(null);
  // The agent turn each item position follows (observations answer the latest turn before them).
  let latest: number | null = null;
  let ti = 0;
  items.forEach((_, i) => {
    while (ti < turns.length && turns[ti]!.start <= i) latest = turns[ti++]!.index;
    turnAt[i] = latest;
  });

  const observations: ObservationRecord[] = [];
  const byNumber = new Map<number, ObservationRecord>();
  const unknownRefs: OmitRefProblem[] = [];
  const omitsByTurn = new Map<number, number[]>();
  items.forEach((item, i) => {
    if (item.kind === 'tool_result') {
      const number = observationNumber(item) ?? observations.length + 1;
      const rec: ObservationRecord = {
        number,
        itemId: item.id,
        turn: turnAt[i] ?? null,
        omittedAtTurn: null,
        omitItemId: null,
        placeholder: item.omission?.target === 'observation',
        tokens: tok(item),
        savedTokens: 0,
      };
      observations.push(rec);
      if (!byNumber.has(number)) byNumber.set(number, rec);
      return;
    }
    if (item.kind !== 'omission' || item.role !== 'assistant' || !item.omission) return;
    const turn = turnAt[i]!;
    for (const ref of item.omission.refs) {
      const rec = byNumber.get(Number(ref));
      if (!rec) {
        unknownRefs.push({ ref, omitItemId: item.id, turn });
        continue;
      }
      if (rec.omittedAtTurn !== null) continue;
      rec.omittedAtTurn = turn;
      rec.omitItemId = item.id;
      const list = omitsByTurn.get(turn) ?? [];
      list.push(rec.number);
      omitsByTurn.set(turn, list);
    }
  });
  for (const rec of observations) if (rec.omittedAtTurn !== null || rec.placeholder) rec.savedTokens = rec.placeholder ? 0 : rec.tokens;
  const omitted = observations
    .filter((r) => r.omittedAtTurn !== null || r.placeholder)
    .sort((a, b) => (a.omittedAtTurn ?? Infinity) - (b.omittedAtTurn ?? Infinity) || a.number - b.number);

  const observationOfTurn = new Map<number, ObservationRecord>();
  for (const rec of observations) if (rec.turn !== null && !observationOfTurn.has(rec.turn)) observationOfTurn.set(rec.turn, rec);

  // Tokens of the observations each turn's context held: a running sum over where each one starts and ends, not a
  // pass over every observation per turn (10k turns × 10k observations).
  const inContextAt = runningSum(
    observations.flatMap((r) => {
      if (r.turn === null || (r.omittedAtTurn !== null && r.omittedAtTurn <= r.turn)) return [];
      const starts = { at: r.turn + 1, delta: r.tokens };
      return r.omittedAtTurn === null ? [starts] : [starts, { at: r.omittedAtTurn + 1, delta: -r.tokens }];
    }),
  );

  let thoughtsWithoutOriginal = 0;
  let thoughtTokensSaved = 0;
  const omittedThoughtTurns: number[] = [];
  const omitTurns: OmitTurn[] = turns.map((t) => {
    const thought = t.items.find((it) => it.kind === 'thinking') ?? null;
    const thoughtOmitted = thought?.omission?.target === 'thought';
    let thoughtTokens = 0;
    let actionTokens = 0;
    for (const it of t.items) {
      if (it.kind === 'thinking') thoughtTokens += tok(it);
      else actionTokens += tok(it);
    }
    if (thought && thoughtOmitted) {
      omittedThoughtTurns.push(t.index);
      // The adapter keeps no text for an empty thought; an item that still holds its text saved that much.
      if (thought.text.trim()) thoughtTokensSaved += tok(thought);
      else thoughtsWithoutOriginal++;
    }
    const obs = observationOfTurn.get(t.index) ?? null;
    const inContext = inContextAt(t.index);
    return {
      turn: t.index,
      itemIds: t.items.map((it) => it.id),
      thoughtId: thought?.id ?? null,
      thoughtOmitted,
      thoughtTokens,
      actionTokens,
      observationId: obs?.itemId ?? null,
      observationNumber: obs?.number ?? null,
      observationTokens: obs?.tokens ?? 0,
      observationsInContext: inContext,
      omits: omitsByTurn.get(t.index) ?? [],
    };
  });

  const totalTokens = items.reduce((n, it) => n + tok(it), 0);
  const observationTokensSaved = omitted.reduce((n, r) => n + r.savedTokens, 0);
  const thought = ratio(thoughtTokensSaved, totalTokens);
  const observation = ratio(observationTokensSaved, totalTokens);
  return {
    turns: omitTurns,
    observations,
    omitted,
    unknownRefs,
    omittedThoughtTurns,
    thoughtsWithoutOriginal,
    totalTokens,
    thoughtTokensSaved,
    observationTokensSaved,
    rOmit: { thought, observation, total: thought + observation },
    share: {
      thought: omitTurns.reduce((n, t) => n + t.thoughtTokens, 0),
      action: omitTurns.reduce((n, t) => n + t.actionTokens, 0),
      observation: observations.reduce((n, r) => n + r.tokens, 0),
    },
    omissionsByTurn: omitTurns.map((t) => (t.thoughtOmitted ? 1 : 0) + t.omits.length),
    taskSucceeded: taskSucceeded(session),
  };
}

/** The sum of every `delta` whose `at` is at or before a point, for integer points. */
function runningSum(changes: { at: number; delta: number }[]): (point: number) => number {
  const sorted = [...changes].sort((a, b) => a.at - b.at);
  const at = sorted.map((c) => c.at);
  const sums: number[] = [];
  let total = 0;
  for (const c of sorted) sums.push((total += c.delta));
  return (point) => {
    let lo = 0;
    let hi = at.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (at[mid]! <= point) lo = mid + 1;
      else hi = mid;
    }
    return lo === 0 ? 0 : sums[lo - 1]!;
  };
}
