// `inspect --otlp FILE` and `--atif FILE`: the analysis written as OTLP spans or an ATIF trajectory. Each session is
// analysed here as the app analyses it (buildAnalysisView → analyzeSession, the module `--json` reads), so the files
// carry the same figures as the report printed beside them.
import { describeAnalysisFailure } from '../analysis/analysis-failure';
import { buildAnalysisView, type AnalysisView } from '../analysis/analysis-view';
import type { ProviderRule } from '../cache';
import type { PriceOverrides } from '../cost/prices';
import { atifText } from '../export/atif-export';
import { otlpText } from '../export/otlp-export';
import type { Session } from '../model/types';
import { pickEncoding } from '../tokens/encoding';
import { counters, type CliIo } from './cli-io';

export interface ExportRequest {
  otlp?: string;
  atif?: string;
  rule: ProviderRule | 'auto';
  prices?: PriceOverrides;
  version: string;
}

/** Writes the files asked for; false when a session could not be analysed or a file could not be written. */
export async function writeExports(sessions: readonly Session[], req: ExportRequest, io: CliIo): Promise<boolean> {
  if (!req.otlp && !req.atif) return true;
  const counterFor = counters();
  const analysed: { session: Session; view: AnalysisView }[] = [];
  let ok = true;
  for (const session of sessions) {
    const count = await counterFor(pickEncoding(session.model).encoding);
    try {
      analysed.push({ session, view: buildAnalysisView(session, { count, rule: req.rule, ghosts: false, ...(req.prices ? { prices: req.prices } : {}) }) });
    } catch (e) {
      const f = describeAnalysisFailure(e, 'cli');
      io.err(`${session.files.join(', ')}: not exported: ${f.message} (${f.detail})`);
      ok = false;
    }
  }
  const write = (path: string, text: string, what: string) => {
    if (!io.writeFile) throw new Error('this command cannot write files here');
    try {
      io.writeFile(path, text);
      io.err(`wrote ${what} to ${path}`);
    } catch (e) {
      io.err(`cannot write ${path}: ${e instanceof Error ? e.message : String(e)}`);
      ok = false;
    }
  };
  const n = analysed.length;
  const sessionsWord = `${n} session${n === 1 ? '' : 's'}`;
  if (req.otlp) {
    const spans = analysed.reduce((s, a) => s + 1 + a.view.calls.length + a.view.compactions.length, 0);
    write(req.otlp, otlpText(analysed, { version: req.version }), `${spans} spans (${sessionsWord}) as OTLP JSON`);
  }
  if (req.atif) write(req.atif, atifText(analysed, { version: req.version }), `${sessionsWord} as ATIF${n > 1 ? ' (one trajectory per line)' : ''}`);
  return ok;
}
