// What a tool call fetched: its tool and main argument (a file path, a command, a URL, a pattern plus path).
// Two calls with the same target fetch the same thing: the second is a re-fetch, and its result repeats the first's
// unless something changed in between. Tool arguments are untrusted JSON, narrowed here.
import type { Item } from '../model/types';

export interface CallTarget {
  tool: string;
  /** The main argument as shown to a user: `/repo/lib/a.ex`, `mix test`, `https://…`, `def fire in lib/`. */
  target: string;
  /** A file the call reads or writes, when it names one: a write to it changes what a later read returns. */
  file: string | null;
  /** Does the call change `file` (Edit, Write, apply_patch)? */
  writes: boolean;
  /** What the main argument is: a file read or written, a shell command, a URL, or a search pattern. */
  kind: 'file' | 'command' | 'url' | 'search';
}

const FILE_KEYS = ['file_path', 'path', 'notebook_path', 'filename', 'file', 'target_file'];
const WRITE_TOOLS = /^(?:Edit|MultiEdit|Write|NotebookEdit|str_replace_based_edit_tool|write_file|edit_file|create_file|apply_patch)$/i;
// Tools whose calls never repeat a fetch: asking the user, spawning agents, planning.
const NOT_FETCHES = /^(?:Task|Agent|TodoWrite|TodoRead|AskUserQuestion|ExitPlanMode|update_plan|TaskOutput|KillShell|KillBash)$/;

function parseArgs(text: string): Record<string, unknown> | null {
  const t = text.trim();
  if (!t.startsWith('{')) return null;
  try {
    const v: unknown = JSON.parse(t);
    return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v.trim() : null);

/** A shell command given as a string or an argv list (`["bash", "-lc", "ls"]` reads as `ls`). */
function command(v: unknown): string | null {
  if (typeof v === 'string') return str(v);
  if (Array.isArray(v) && v.every((x) => typeof x === 'string')) {
    const argv = v as string[];
    const shell = argv.length >= 3 && /(?:^|\/)(?:ba|z)?sh$/.test(argv[0]!) && /^-l?c$/.test(argv[1]!);
    return str(shell ? argv.slice(2).join(' ') : argv.join(' '));
  }
  return null;
}

/**
 * Each call's target, by the call: the audit (for the call and again for its result) and the re-fetch tax ask for every call's, and parsing
 * the arguments (a Write's are the whole file) was a tenth of a cold `inspect`'s audit. Kept with the name and text
 * it was read from, so a call whose text changed is read again.
 */
const known = new WeakMap<object, { name: string | undefined; text: string; target: CallTarget | null }>();

/** The target of a tool call item, or null when it fetches nothing nameable (or its arguments are not JSON). */
export function callTarget(call: Pick<Item, 'kind' | 'name' | 'text'>): CallTarget | null {
  if (call.kind !== 'tool_call' || !call.name || NOT_FETCHES.test(call.name)) return null;
  const seen = known.get(call);
  if (seen && seen.text === call.text && seen.name === call.name) return seen.target;
  const target = readTarget(call.name, call.text);
  known.set(call, { name: call.name, text: call.text, target });
  return target;
}

function readTarget(name: string, text: string): CallTarget | null {
  const tool = name;
  const args = parseArgs(text);
  if (!args) return null;
  const writes = WRITE_TOOLS.test(tool);
  let file: string | null = null;
  for (const k of FILE_KEYS) {
    file = str(args[k]);
    if (file) break;
  }
  const url = str(args.url);
  if (url) return { tool, target: url, file: null, writes: false, kind: 'url' };
  const cmd = command(args.command ?? args.cmd);
  if (cmd) return { tool, target: cmd, file: null, writes: false, kind: 'command' };
  const pattern = str(args.pattern) ?? str(args.query) ?? str(args.glob);
  if (pattern) return { tool, target: file ? `${pattern} in ${file}` : pattern, file: null, writes: false, kind: 'search' };
  // A partial read (offset/limit) of a file is still a read of that file: the main argument is the path.
  if (file) return { tool, target: file, file, writes, kind: 'file' };
  return null;
}

/** One key per fetch: same tool, same main argument. */
export const targetKey = (t: CallTarget): string => `${t.tool}\u0000${t.target}`;
