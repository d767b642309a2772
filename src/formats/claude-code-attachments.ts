// Claude Code `attachment` records other than queued messages (claude-code-queue.ts): context the harness adds to
// the user's turn (a file the person @-mentioned, one they changed, a nested CLAUDE.md, hook output, listings of
// skills, tools and agents). Claude Code renders each into the next request as a meta user message (mostly inside a
// `<system-reminder>`); the record holds the text, not the wrapper.
//
// Read from public session files of 2.1.92–2.1.235 (docs/formats.md, Claude Code section). What reaches the model,
// and at the next call after the record: an `edited_text_file` grows that call's reported prompt by about its
// snippet's size; SessionStart and UserPromptSubmit hook output is context (Claude Code's hooks reference), and
// other hooks' success output is not (a `PostToolUse` `hook_success` grows the next prompt by no more than a call
// without one does).
import { get, isObject, obj, str, type JsonObject } from '../model/narrow';
import type { Item } from '../model/types';
import { toolResultText } from './claude-code-items';
import type { TreeRecord } from './claude-code-tree';

/** A model-visible attachment: the text Claude Code sends and a label naming what it is. */
export interface AttachmentText {
  type: string;
  label: string;
  text: string;
  /** A file attachment's path as Claude Code's Read of it names it (absolute; the label shows the shorter display path). */
  path?: string;
}

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
const joined = (v: unknown) => strings(v).join('\n');

/** The text of a file attachment's content: a text file's body, else a placeholder of its kind (image, PDF, notebook). */
function fileText(content: JsonObject | undefined): string {
  if (!content) return '';
  const file = obj(content, 'file');
  const body = file ? get(file, 'content') : undefined;
  if (typeof body === 'string') return body;
  return `[${str(content, 'type') ?? 'file'}]`;
}

/**
 * The model-visible text of an attachment record, or undefined when its text does not reach the model, is not in
 * the file, or the record is a queued message (read by claude-code-queue.ts).
 */
export function attachmentText(v: JsonObject): AttachmentText | undefined {
  if (get(v, 'type') !== 'attachment') return undefined;
  const a = obj(v, 'attachment');
  const type = a ? str(a, 'type') : undefined;
  if (!a || !type) return undefined;
  // `path`: the file Claude Code's Read (or note) names, when the attachment stands for one.
  const at = (label: string | undefined, text: string, path?: string): AttachmentText | undefined =>
    text.trim() === '' ? undefined : { type, label: label ? `${type} · ${label}` : type, text, ...(path ? { path } : {}) };
  const path = str(a, 'displayPath') ?? str(a, 'filename') ?? str(a, 'path');
  switch (type) {
    // An @-mentioned or opened file, or one read again after a compaction: sent as a Read of it.
    case 'file':
      return at(path, fileText(obj(a, 'content')), str(a, 'filename'));
    // An @-mentioned folder: sent as a listing of it.
    case 'directory':
      return at(path, str(a, 'content') ?? '');
    // A file changed outside the agent (by the person or a linter), with the changed lines.
    case 'edited_text_file':
      return at(path, str(a, 'snippet') ?? '');
    // A CLAUDE.md (or rule file) of a folder the agent reached.
    case 'nested_memory': {
      const content = obj(a, 'content');
      return at(path, (content ? str(content, 'content') : undefined) ?? '');
    }
    case 'hook_additional_context':
      return at(str(a, 'hookName'), joined(get(a, 'content')));
    // Only these events' output is context; other hooks' success output is shown to the person.
    case 'hook_success': {
      const event = str(a, 'hookEvent');
      return event === 'SessionStart' || event === 'UserPromptSubmit' ? at(str(a, 'hookName'), str(a, 'content') ?? '') : undefined;
    }
    // Exit code 2: the hook's message goes to the model.
    case 'hook_blocking_error': {
      const e = get(a, 'blockingError');
      return at(str(a, 'hookName'), isObject(e) ? (str(e, 'blockingError') ?? '') : typeof e === 'string' ? e : '');
    }
    // An async hook's context arrives on a later turn; its metrics and other fields do not.
    case 'async_hook_response': {
      const r = obj(a, 'response');
      const specific = r ? obj(r, 'hookSpecificOutput') : undefined;
      return at(str(a, 'hookName'), (specific ? str(specific, 'additionalContext') : undefined) ?? '');
    }
    case 'skill_listing':
      return at(undefined, str(a, 'content') ?? '');
    case 'deferred_tools_delta':
    case 'agent_listing_delta':
      return at(undefined, joined(get(a, 'addedLines')));
    case 'mcp_instructions_delta':
      return at(undefined, joined(get(a, 'addedBlocks')));
    // After a compaction, the instructions of the skills used before it, again.
    case 'invoked_skills': {
      const skills = get(a, 'skills');
      const texts = Array.isArray(skills) ? skills.map((s) => (isObject(s) ? (str(s, 'content') ?? '') : '')) : [];
      return at(undefined, texts.filter(Boolean).join('\n\n'));
    }
    case 'plan_file_reference':
      return at(str(a, 'planFilePath'), str(a, 'planContent') ?? '', str(a, 'planFilePath'));
    // After a compaction, a file read before it that is too large to attach again: Claude Code's fixed note names it.
    case 'compact_file_reference': {
      const filename = str(a, 'filename');
      return filename
        ? at(path, `Note: ${filename} was read before the last conversation was summarized, but the contents are too large to include. Use Read tool if you need to access it.`, filename)
        : undefined;
    }
    case 'total_tokens_reminder':
      return at(undefined, str(a, 'text') ?? '');
    case 'read_truncation_notice':
      return at(undefined, str(a, 'banner') ?? '');
    // Not read:
    // - queued_command: claude-code-queue.ts reads it as the person's message;
    // - hook_system_message, hook_non_blocking_error, hook_cancelled: shown to the person, not sent;
    // - command_permissions: the harness's own permission state;
    // - already_read_file: a mention of a file the context holds unchanged; the next prompt grows by the turn's other
    //   text and the previous output alone (3 of 3 in 2.1.207 and 2.1.226 sessions);
    // - task_reminder, todo_reminder, plan_mode, plan_mode_exit, auto_mode, ultra_effort_*, ultrathink_effort, date_change,
    //   companion_intro: Claude Code writes a fixed reminder from these fields, and that
    //   text is not in the file (its tokens stay in the call's unaccounted part);
    // - types not seen yet: counted until read from real files.
    default:
      return undefined;
  }
}

/** The item of a model-visible attachment: harness text in the user's turn, flagged as the harness's (`isMeta`). */
export function attachmentItem(id: string, a: AttachmentText, file: string, line: number, timestamp: string | undefined): Item {
  const item: Item = { id, kind: 'message', role: 'user', text: a.text, source: { file, line }, name: a.label };
  if (timestamp) item.timestamp = timestamp;
  item.meta = { isMeta: true, attachment: a.type, ...(a.path ? { path: a.path } : {}) };
  return item;
}

/** The text a `user` record carries (its string, text blocks and tool results), '' for any other record. */
function userRecordText(v: JsonObject): string {
  if (get(v, 'type') !== 'user') return '';
  const message = obj(v, 'message');
  const content = message ? get(message, 'content') : undefined;
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((b) => (isObject(b) ? (str(b, 'text') ?? toolResultText(get(b, 'content'))) : '')).join('\n');
}

/**
 * Does a `user` record between the model calls around record `i` carry this text already (older versions wrote hook
 * context as a meta user record)? Then the record is what the model read, and the attachment would count it twice.
 */
export function carriedByUserRecord(records: readonly TreeRecord[], i: number, text: string): boolean {
  const needle = text.trim();
  const isCall = (v: JsonObject) => get(v, 'type') === 'assistant';
  for (let k = i - 1; k >= 0 && !isCall(records[k]!.value); k--) if (userRecordText(records[k]!.value).includes(needle)) return true;
  for (let k = i + 1; k < records.length && !isCall(records[k]!.value); k++) if (userRecordText(records[k]!.value).includes(needle)) return true;
  return false;
}
