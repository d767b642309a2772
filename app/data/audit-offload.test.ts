import { readFileSync } from 'node:fs';
import * as Comlink from 'comlink';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { auditContexts } from '../../src/analysis/audit-contexts';
import { loadFiles } from '../../src/load/loader';
import type { Session } from '../../src/model/types';

const fixture = (name: string): Session => {
  const bytes = readFileSync(new URL(`../../src/formats/__fixtures__/${name}`, import.meta.url));
  return loadFiles([{ name, bytes }]).sessions[0]!;
};

/** A Worker whose far end answers as app/workers/audit.worker.ts does, over a real MessageChannel (so a session is cloned). */
class ChannelWorker extends EventTarget {
  static made = 0;
  readonly port: MessagePort;
  constructor() {
    super();
    ChannelWorker.made++;
    const { port1, port2 } = new MessageChannel();
    Comlink.expose({ audit: (s: Session) => auditContexts(s) }, port2);
    this.port = port1;
    port1.addEventListener('message', (e) => this.dispatchEvent(new MessageEvent('message', { data: (e as MessageEvent).data })));
    port1.start();
  }
  postMessage(data: unknown, transfer?: Transferable[]) {
    this.port.postMessage(data, transfer ?? []);
  }
  terminate() {
    this.port.close();
  }
}

/** A Worker whose script fails to load: it never answers, and says so with an error event. */
class FailingWorker extends EventTarget {
  postMessage() {
    setTimeout(() => this.dispatchEvent(Object.assign(new Event('error'), { message: 'script failed' })), 0);
  }
  terminate() {}
}

describe('auditOffThread', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.resetModules();
  });

  it('gives the audit the analysis worker would work out itself, across a structured clone', async () => {
    vi.stubGlobal('Worker', ChannelWorker);
    const { auditOffThread } = await import('./audit-offload');
    const session = fixture('claude-code-session.jsonl');
    const here = auditContexts(session);
    expect(here.length).toBeGreaterThan(0);
    expect(here[0]!.lost.length).toBeGreaterThan(0);
    expect(await auditOffThread(session)).toEqual(here);
  });

  it('resolves null when the worker fails, and starts a fresh one for the next session', async () => {
    vi.stubGlobal('Worker', FailingWorker);
    const { auditOffThread } = await import('./audit-offload');
    const session = fixture('claude-code-session.jsonl');
    expect(await auditOffThread(session)).toBeNull();
    vi.stubGlobal('Worker', ChannelWorker);
    const before = ChannelWorker.made;
    expect(await auditOffThread(session)).toEqual(auditContexts(session));
    expect(ChannelWorker.made).toBe(before + 1);
  });

  it('resolves null where there are no workers', async () => {
    vi.stubGlobal('Worker', undefined);
    const { auditOffThread } = await import('./audit-offload');
    expect(await auditOffThread(fixture('claude-code-session.jsonl'))).toBeNull();
  });
});
