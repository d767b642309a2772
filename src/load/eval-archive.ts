// An Inspect AI `.eval` log is a zip: `header.json` (the log without samples; `_journal/start.json` while the
// eval still runs), one `samples/<id>_epoch_<n>.json` per sample, `summaries.json` and `_journal/…`. It is read
// here into the value a `.json` log holds, `{version, status, eval, plan, results, stats, samples: […]}`, so one
// adapter reads both. fflate is synchronous and the same in browsers, workers and Node.
import { unzipSync, type UnzipFileInfo } from 'fflate';
import type { ParseIssue } from '../model/types';

export type EvalArchive = { ok: true; value: Record<string, unknown>; issues: ParseIssue[] } | { ok: false; message: string };

const SAMPLE_ENTRY = /^samples\/.+\.json$/;
const WANTED = (f: UnzipFileInfo) => f.name === 'header.json' || f.name === '_journal/start.json' || SAMPLE_ENTRY.test(f.name);

/** `samples/<id>_epoch_<n>.json` → [epoch, id]: samples are listed epoch by epoch, ids in natural order. */
function sampleKey(name: string): [number, string] {
  const m = /^samples\/(.+)_epoch_(\d+)\.json$/.exec(name);
  return m ? [Number(m[2]), m[1]!] : [Number.MAX_SAFE_INTEGER, name];
}

/**
 * How many samples an Inspect `.eval` holds (0 when it is not one), read from the zip's directory without
 * inflating anything: the drop decides from it whether a log opens as a corpus.
 */
export function evalSampleCount(bytes: Uint8Array): number {
  let samples = 0;
  try {
    unzipSync(bytes, {
      filter: (f) => {
        if (SAMPLE_ENTRY.test(f.name)) samples++;
        return false;
      },
    });
  } catch {
    return 0;
  }
  return samples;
}

export function readEvalArchive(file: string, bytes: Uint8Array): EvalArchive {
  let entries: Record<string, Uint8Array>;
  try {
    entries = unzipSync(bytes, { filter: WANTED });
  } catch (e) {
    return { ok: false, message: `this zip archive could not be read (${e instanceof Error ? e.message : String(e)})` };
  }
  const names = Object.keys(entries);
  const head = entries['header.json'] ?? entries['_journal/start.json'];
  const samples = names.filter((n) => SAMPLE_ENTRY.test(n));
  if (!head && samples.length === 0) {
    return { ok: false, message: 'this is a zip archive but not an Inspect log (no header.json or samples/ inside); unzip it and drop the files inside' };
  }
  const issues: ParseIssue[] = [];
  const decoder = new TextDecoder('utf-8');
  const parse = (name: string): unknown => {
    try {
      return JSON.parse(decoder.decode(entries[name]!));
    } catch (e) {
      issues.push({ file, line: null, field: name, message: `invalid JSON in archive entry ${name}: ${e instanceof Error ? e.message : String(e)}`, severity: 'error' });
      return undefined;
    }
  };
  const header = head ? parse(entries['header.json'] ? 'header.json' : '_journal/start.json') : undefined;
  const value: Record<string, unknown> = typeof header === 'object' && header !== null && !Array.isArray(header) ? { ...(header as Record<string, unknown>) } : {};
  if (!entries['header.json']) {
    issues.push({ file, line: null, field: null, message: 'the archive has no header.json (the eval had not finished); read from its journal and samples', severity: 'warning' });
  }
  samples.sort((a, b) => {
    const [ea, ia] = sampleKey(a);
    const [eb, ib] = sampleKey(b);
    return ea - eb || ia.localeCompare(ib, 'en', { numeric: true });
  });
  value['samples'] = samples.map(parse).filter((s) => s !== undefined);
  return { ok: true, value, issues };
}
