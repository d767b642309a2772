// Measures listed sessions for the `serve` landing table, one at a time, off the main thread: load, then the
// session's facts with the fast token estimate (the table needs calls, compactions and the reported hit rate).
import * as Comlink from 'comlink';
import { sessionGlance, type SessionGlance } from '../../src/analysis/session-glance';
import { loadFiles } from '../../src/load/loader';
import { estimateTokens } from '../../src/tokens';

export type GlanceOutcome = { ok: true; glance: SessionGlance } | { ok: false; message: string };

const api = {
  async glance(files: File[]): Promise<GlanceOutcome> {
    try {
      const inputs = await Promise.all(files.map(async (f) => ({ name: f.name, bytes: new Uint8Array(await f.arrayBuffer()) })));
      const loaded = loadFiles(inputs);
      const session = loaded.sessions[0];
      if (!session) return { ok: false, message: loaded.issues.find((i) => i.severity === 'error')?.message ?? 'no session in this file' };
      return { ok: true, glance: sessionGlance(session, estimateTokens) };
    } catch (e) {
      return { ok: false, message: e instanceof Error ? e.message : String(e) };
    }
  },
};

export type GlanceWorkerApi = typeof api;
Comlink.expose(api);
