// Tagged RL trajectories: the message containers they share and the tags inside agent turns.
//
// Containers accepted (one trajectory per file):
//   [{role, content}, …]                                   a bare array of messages
//   {messages: [{role, content}, …], …}                    the same, wrapped
//   {conversations: [{from, value}, …], system?, …}        ShareGPT / AgentGym / LLaMA-Factory
// Roles: system, developer, user, assistant, environment, tool (also human/gpt/observation/function_call).
// Optional top-level facts: success, reward (or score), task, id (or item_id), model.
//
// Tags inside agent turns: <think>, <action> / <tool_call>, <answer>, <summary>,
// <omit_tool_response_N_M…> (Agent-Omit command); in observation turns <tool_response_N>,
// <omitted_tool_response_N> (Agent-Omit placeholder).
import type { Document } from '../load/document';
import { chatContentText } from './openai-chat';
import { arr, bool, get, isObject, num, str, type JsonObject } from '../model/narrow';
import type { Item, Role } from '../model/types';
import type { ParseContext } from './adapter';

export interface Turn {
  /** `m${index}` (index in the container), or `system` for a top-level ShareGPT system prompt. */
  id: string;
  role: Role;
  text: string;
  /** Where the turn is in the JSON document, for issues. */
  path: (string | number)[];
  /** ShareGPT `function_call` turns: the whole value is one tool call. */
  isCall: boolean;
}

export interface Trajectory {
  shape: 'array' | 'messages' | 'conversations';
  turns: Turn[];
  meta: Record<string, string | number | boolean | null>;
  id: string | null;
  model: string | null;
}

const ROLES = new Map<string, Role>([
  ['system', 'system'],
  ['developer', 'developer'],
  ['user', 'user'],
  ['human', 'user'],
  ['assistant', 'assistant'],
  ['gpt', 'assistant'],
  ['agent', 'assistant'],
  ['function_call', 'assistant'],
  ['environment', 'environment'],
  ['env', 'environment'],
  ['observation', 'environment'],
  ['tool', 'tool'],
  ['function', 'tool'],
]);

/** The normalized role of a raw role/from value; a Map so `constructor` or `__proto__` never match. */
function roleOf(raw: unknown): Role | undefined {
  return typeof raw === 'string' ? ROLES.get(raw.toLowerCase()) : undefined;
}

interface Container {
  shape: Trajectory['shape'];
  list: unknown[];
  body: JsonObject | null;
  roleKey: 'role' | 'from';
  textKey: 'content' | 'value';
}

function containerOf(value: unknown): Container | null {
  if (Array.isArray(value)) return { shape: 'array', list: value, body: null, roleKey: 'role', textKey: 'content' };
  if (!isObject(value)) return null;
  const conversations = arr(value, 'conversations');
  if (conversations) return { shape: 'conversations', list: conversations, body: value, roleKey: 'from', textKey: 'value' };
  const messages = arr(value, 'messages');
  if (messages) return { shape: 'messages', list: messages, body: value, roleKey: 'role', textKey: 'content' };
  return null;
}

function basePath(c: Container): (string | number)[] {
  return c.shape === 'array' ? [] : [c.shape];
}

/**
 * The first turns' roles and texts without reporting anything: for sniffing. Entries without a role
 * string come back with role '' so the sniffer can judge the share of valid turns.
 */
export function peekTurns(doc: Document, limit = 200): { shape: Trajectory['shape']; turns: { role: string; text: string }[] } | null {
  if (doc.kind !== 'json') return null;
  const c = containerOf(doc.value);
  if (!c || c.list.length === 0) return null;
  const turns = c.list.slice(0, limit).map((m) => {
    const role = isObject(m) ? get(m, c.roleKey) : undefined;
    return typeof role === 'string' && isObject(m) ? { role, text: chatContentText(get(m, c.textKey)) } : { role: '', text: '' };
  });
  return { shape: c.shape, turns };
}

/** Reads the container; problems in single turns are reported and the turn is skipped. Null when the shape is not a container. */
export function readTrajectory(value: unknown, ctx: ParseContext): Trajectory | null {
  const c = containerOf(value);
  if (!c) return null;
  const turns: Turn[] = [];
  const base = basePath(c);
  if (c.body && c.shape === 'conversations') {
    // LLaMA-Factory keeps the system prompt beside the conversation.
    const system = str(c.body, 'system');
    if (system) turns.push({ id: 'system', role: 'system', text: system, path: ['system'], isCall: false });
  }
  c.list.forEach((m, i) => {
    const path = [...base, i];
    if (!isObject(m)) {
      ctx.error({ path }, `expected a turn object, got ${m === null ? 'null' : Array.isArray(m) ? 'an array' : typeof m}`);
      return;
    }
    const raw = get(m, c.roleKey);
    const role = roleOf(raw);
    if (!role) {
      ctx.error({ path: [...path, c.roleKey] }, `unknown ${c.roleKey} ${JSON.stringify(raw)}; expected ${c.roleKey === 'from' ? 'human, gpt, system, observation, function_call or tool' : 'system, user, assistant, environment or tool'}`);
      return;
    }
    const content = get(m, c.textKey);
    if (content !== undefined && content !== null && typeof content !== 'string' && !Array.isArray(content)) {
      ctx.warn({ path: [...path, c.textKey] }, `expected ${c.textKey} to be text; shown as JSON`);
    }
    turns.push({ id: `m${i}`, role, text: chatContentText(content), path, isCall: raw === 'function_call' });
  });
  return { shape: c.shape, turns, ...topLevel(c.body) };
}

function topLevel(body: JsonObject | null): Pick<Trajectory, 'meta' | 'id' | 'model'> {
  const meta: Trajectory['meta'] = {};
  if (!body) return { meta, id: null, model: null };
  const success = get(body, 'success');
  if (typeof success === 'boolean') meta['success'] = success;
  else if (typeof success === 'number' && Number.isFinite(success)) meta['success'] = success > 0;
  const reward = num(body, 'reward') ?? num(body, 'score');
  if (reward !== undefined) meta['reward'] = reward;
  const task = str(body, 'task') ?? str(body, 'task_description');
  if (task !== undefined) meta['task'] = task;
  const done = bool(body, 'done');
  if (done !== undefined) meta['done'] = done;
  const rawId = get(body, 'id') ?? get(body, 'item_id');
  const id = typeof rawId === 'string' && rawId ? rawId : typeof rawId === 'number' ? String(rawId) : null;
  return { meta, id, model: str(body, 'model') ?? null };
}

// ---------------------------------------------------------------------------------------------
// Tags

export interface TagPart {
  /** Tag name (`think`, `tool_call`, `omit_tool_response_1_2`, …), or null for text between tags. */
  tag: string | null;
  body: string;
  /** The part as written, tags included. */
  raw: string;
}

const KNOWN_TAG = /^(think|action|tool_call|answer|summary|omit_tool_response(?:_\d+)+|omitted_tool_response_\d+|tool_response(?:_\d+)?)$/;
const PAIRED = /<([A-Za-z]\w*)>([\s\S]*?)<\/\1>/;

/**
 * Splits a turn into known tagged parts and the text between them.
 * Unknown tags stay in the surrounding text; an unclosed `<think>` runs to the end of the turn.
 */
export function splitTags(text: string): TagPart[] {
  const parts: TagPart[] = [];
  let pending = '';
  const flushText = () => {
    if (pending.trim()) parts.push(...unclosedThink(pending));
    pending = '';
  };
  const re = new RegExp(PAIRED.source, 'g');
  let last = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const raw = m[0];
    const tag = m[1]!;
    if (!KNOWN_TAG.test(tag)) {
      // An unknown tag may wrap known ones: look inside it.
      re.lastIndex = m.index + 1;
      continue;
    }
    pending += text.slice(last, m.index);
    flushText();
    parts.push({ tag, body: m[2]!, raw });
    last = re.lastIndex;
  }
  pending += text.slice(last);
  flushText();
  return parts;
}

function unclosedThink(text: string): TagPart[] {
  const at = text.indexOf('<think>');
  if (at < 0) return [{ tag: null, body: text.trim(), raw: text }];
  const before = text.slice(0, at);
  const body = text.slice(at + '<think>'.length);
  const out: TagPart[] = [];
  if (before.trim()) out.push({ tag: null, body: before.trim(), raw: before });
  out.push({ tag: 'think', body, raw: text.slice(at) });
  return out;
}

/**
 * A reasoning model's output split at `</think>`: the reasoning and the post-think answer.
 * Handles a missing opening tag (R1 distills put it in the prompt) and a missing closing tag (cut off).
 */
export function splitThink(output: string): { thinking: string | null; answer: string } {
  const close = output.indexOf('</think>');
  const open = output.indexOf('<think>');
  if (close >= 0) {
    const start = open >= 0 && open < close ? open + '<think>'.length : 0;
    return { thinking: output.slice(start, close).trim(), answer: output.slice(close + '</think>'.length).trim() };
  }
  if (open >= 0) return { thinking: output.slice(open + '<think>'.length).trim(), answer: output.slice(0, open).trim() };
  return { thinking: null, answer: output.trim() };
}

/** Numbers in an Agent-Omit tag: `omit_tool_response_1_2` → ['1', '2']. */
export function tagNumbers(tag: string): string[] {
  return tag.match(/\d+/g) ?? [];
}

const OMITTED_PLACEHOLDER = /<omitted_tool_response_(\d+)>/;
const RESPONSE_NUMBER = /<tool_response_(\d+)>/;

// ---------------------------------------------------------------------------------------------
// Turns → items

export interface ItemOptions {
  /** Self-Sum style: a user turn right after an action is the environment's feedback to it. */
  userTurnsAnswerCalls: boolean;
}

/** A tool call written as `{"name": …, "arguments": …}` keeps its name and arguments; anything else is the call text. */
function callParts(body: string, tag: string): { name: string; text: string } {
  const t = body.trim();
  if (t.startsWith('{')) {
    try {
      const v: unknown = JSON.parse(t);
      if (isObject(v)) {
        const name = str(v, 'name');
        if (name) {
          const args = get(v, 'arguments') ?? get(v, 'parameters');
          return { name, text: args === undefined ? '' : typeof args === 'string' ? args : JSON.stringify(args) };
        }
      }
    } catch {
      // not JSON: the body is the action text itself
    }
  }
  return { name: tag, text: t };
}

function looksLikeObservation(text: string): boolean {
  const t = text.trimStart();
  return t.startsWith('<tool_response') || t.startsWith('<omitted_tool_response');
}

/**
 * Converts turns to items: agent turns split by tag, observation turns as tool results.
 * Calls are paired in order: each observation answers the oldest unanswered call.
 * Tool results carry `meta.turn` = N, counting observations from 1 (Agent-Omit's `<tool_response_N>`).
 * A summary starts a new context, so calls still open then are never answered.
 */
export function trajectoryItems(traj: Trajectory, file: string, opts: ItemOptions): Item[] {
  const items: Item[] = [];
  const open: Item[] = [];
  let observations = 0;
  for (const turn of traj.turns) {
    const source = { file, line: null };
    const base = { role: turn.role, source };
    const isObservation =
      turn.role === 'environment' || turn.role === 'tool' || (turn.role === 'user' && (looksLikeObservation(turn.text) || (opts.userTurnsAnswerCalls && open.length > 0)));
    if (isObservation) {
      observations++;
      const call = open.shift();
      const item: Item = { ...base, id: turn.id, kind: 'tool_result', text: turn.text, meta: { turn: Number(RESPONSE_NUMBER.exec(turn.text)?.[1] ?? observations) } };
      if (call?.callId) item.callId = call.callId;
      const placeholder = OMITTED_PLACEHOLDER.exec(turn.text);
      if (placeholder) item.omission = { target: 'observation', refs: [placeholder[1]!], marker: placeholder[0] };
      items.push(item);
      continue;
    }
    if (turn.role !== 'assistant') {
      items.push({ ...base, id: turn.id, kind: 'message', text: turn.text });
      continue;
    }
    if (turn.isCall) {
      const call = callParts(turn.text, 'function_call');
      const item: Item = { ...base, id: `${turn.id}.call`, kind: 'tool_call', text: call.text, name: call.name, callId: `${turn.id}.call` };
      items.push(item);
      open.push(item);
      continue;
    }
    const parts = splitTags(turn.text);
    if (parts.length === 0) {
      items.push({ ...base, id: turn.id, kind: 'message', text: turn.text });
      continue;
    }
    const seen = new Map<string, number>();
    // First item of a kind keeps the plain suffix; later ones are numbered (`m3.call`, `m3.call1`).
    const idFor = (suffix: string) => {
      const n = seen.get(suffix) ?? 0;
      seen.set(suffix, n + 1);
      if (suffix === '') return n === 0 ? turn.id : `${turn.id}.text${n}`;
      return n === 0 ? `${turn.id}.${suffix}` : `${turn.id}.${suffix}${n}`;
    };
    for (const part of parts) {
      if (part.tag === null) items.push({ ...base, id: idFor(''), kind: 'message', text: part.body });
      else if (part.tag === 'think') {
        const text = part.body.trim();
        const item: Item = { ...base, id: idFor('think'), kind: 'thinking', text };
        if (!text) {
          item.omission = { target: 'thought', refs: [] };
          item.meta = { omittedThought: true };
        }
        items.push(item);
      } else if (part.tag === 'action' || part.tag === 'tool_call') {
        const id = idFor('call');
        const call = callParts(part.body, part.tag);
        const item: Item = { ...base, id, kind: 'tool_call', text: call.text, name: call.name, callId: id };
        items.push(item);
        open.push(item);
      } else if (part.tag === 'answer') items.push({ ...base, id: idFor('answer'), kind: 'message', text: part.body.trim(), meta: { answer: true } });
      else if (part.tag === 'summary') {
        items.push({ ...base, id: idFor('summary'), kind: 'summary', text: part.body.trim() });
        open.length = 0;
      } else if (part.tag.startsWith('omit_tool_response')) {
        const marker = `<${part.tag}>`;
        items.push({ ...base, id: idFor('omit'), kind: 'omission', text: part.raw, omission: { target: 'observation', refs: tagNumbers(part.tag), marker } });
      } else items.push({ ...base, id: idFor(''), kind: 'message', text: part.raw });
    }
  }
  return items;
}

/** Roles and tag signals of a document's turns, for the three tagged-trajectory sniffers. */
export interface TrajectorySignals {
  shape: Trajectory['shape'];
  /** Agent turns joined. */
  agentText: string;
  /** Every other turn joined. */
  otherText: string;
  hasEnvironmentRole: boolean;
}

export function trajectorySignals(doc: Document): TrajectorySignals | null {
  const peek = peekTurns(doc);
  if (!peek) return null;
  const roles = peek.turns.map((t) => t.role.toLowerCase());
  // A stray bad turn is reported by the parser; many of them mean another format.
  if (peek.turns.filter((t) => roleOf(t.role)).length / peek.turns.length < 0.8) return null;
  const isAgent = (t: { role: string }) => roleOf(t.role) === 'assistant';
  const agentText = peek.turns.filter(isAgent).map((t) => t.text).join('\n');
  const otherText = peek.turns.filter((t) => !isAgent(t)).map((t) => t.text).join('\n');
  return { shape: peek.shape, agentText, otherText, hasEnvironmentRole: roles.some((r) => r === 'environment' || r === 'env' || r === 'observation') };
}
