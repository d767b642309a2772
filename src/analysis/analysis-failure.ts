// What to tell a user when the analysis of a session throws: what happened and what to do, instead of the
// engine's own words ("Unserializable return value", "Maximum call stack size exceeded").

export type FailureKind = 'unserializable' | 'stack' | 'memory' | 'worker' | 'other';

export interface AnalysisFailure {
  kind: FailureKind;
  /** One or two sentences for the user. */
  message: string;
  /** The original error text, for a bug report. */
  detail: string;
}

function textOf(e: unknown): { name: string; text: string } {
  if (e instanceof Error) return { name: e.name, text: e.message };
  if (typeof e === 'object' && e !== null && 'message' in e) return { name: String((e as { name?: unknown }).name ?? ''), text: String((e as { message: unknown }).message) };
  return { name: '', text: String(e) };
}

/** `where`: the app says "reload", the CLI names its own way round. */
export function describeAnalysisFailure(e: unknown, where: 'app' | 'cli'): AnalysisFailure {
  const { name, text } = textOf(e);
  const detail = name && !text.startsWith(name) ? `${name}: ${text}` : text;
  const smaller = where === 'app' ? 'open a part of the file (its first lines) or run the command line, `compaction-inspector inspect --json FILE`' : 'inspect a part of the file (its first lines), or give Node more memory (`NODE_OPTIONS=--max-old-space-size=8192`)';
  if (/unserializable|could not be cloned|DataCloneError/i.test(detail)) {
    return {
      kind: 'unserializable',
      detail,
      message:
        'The analysis finished but its result could not be handed to the page (it held a value that cannot be copied between threads). This is a bug in the inspector, most likely set off by an unusual id or name in this file. Please report it with the file or its first lines; other sessions are not affected.',
    };
  }
  if (name === 'RangeError' && /call stack/i.test(text)) {
    return { kind: 'stack', detail, message: `The analysis ran out of stack: something in this session is nested or chained deeper than it can follow. To look at it anyway, ${smaller}.` };
  }
  if (/out of memory|allocation failed|Invalid (string|array) length/i.test(detail)) {
    return { kind: 'memory', detail, message: `The analysis ran out of memory on this session: it is larger than ${where === 'app' ? 'this tab' : 'this process'} can hold. To look at it anyway, ${smaller}.` };
  }
  if (/worker (stopped|died|terminated)/i.test(detail)) {
    return { kind: 'worker', detail, message: `The analysis stopped before it finished (its worker ended, often for lack of memory). To look at it anyway, ${smaller}.` };
  }
  return { kind: 'other', detail, message: `The analysis failed: ${detail}. ${where === 'app' ? 'Reload the page to try again; if it fails again, please report it with the file.' : 'Please report it with the file.'}` };
}
