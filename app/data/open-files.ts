// The one path every way of opening files takes: drop, picker, paste, ?src and demos.
import { useApp } from '../store';
import { fetchSources, loadInWorker, type LoadSource, type WorkerLoadResult } from './load-client';
import { afterLoad, asFiles, extrasFor, planViews, splitBundles, type FoundBundle, type OpenOptions } from './session-open';

export async function openSources(input: LoadSource[], opts: OpenOptions = {}): Promise<void> {
  if (input.length === 0) return;
  // Many files at once, or a JSONL of whole trajectories, opens corpus mode instead.
  const corpus = await import('../views/corpus/corpus-open');
  if (!opts.bundle && (await corpus.shouldOpenAsCorpus(input))) return corpus.openSourcesAsCorpus(input);
  const { beginLoad, setProgress, finishLoad } = useApp.getState();
  // A bundle carries its own files, notes and view: each opens as a load of its own.
  const { plain: sources, bundles } = await splitBundles(input);
  for (const b of bundles) await openBundle(b);
  if (sources.length === 0) return;
  const names = sources.map((s) => s.name);
  beginLoad();
  let result: WorkerLoadResult;
  try {
    result = await loadInWorker(sources, setProgress);
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    finishLoad(names, [], names.map((file) => ({ file, line: null, field: null, message, severity: 'error' as const })));
    return;
  }
  const extras = extrasFor(result, asFiles(sources), opts);
  const plan = planViews(result.sessions, extras, opts);
  finishLoad(names, result.sessions, result.issues, extras);
  await afterLoad(result.sessions, plan, opts).catch((e: unknown) => {
    useApp.getState().pushNotice({ id: 'after-load', tone: 'warn', text: `The session opened, but its library entry or notes could not be updated: ${e instanceof Error ? e.message : String(e)}` });
  });
}

async function openBundle(b: FoundBundle): Promise<void> {
  const { beginLoad, finishLoad, pushNotice } = useApp.getState();
  if (!b.result.ok) {
    beginLoad();
    finishLoad([b.name], [], [{ file: b.name, line: null, field: null, message: b.result.error, severity: 'error' }]);
    return;
  }
  const { value, warnings } = b.result.value;
  if (warnings.length) pushNotice({ id: `bundle-warn-${b.name}`, tone: 'warn', text: `${b.name}: ${warnings.join(' ')}` });
  const files = value.files.map((f) => new File([f.bytes as Uint8Array<ArrayBuffer>], f.name));
  await openSources(files, { bundle: { name: b.name, hash: value.sessionHash, view: value.view, annotations: value.annotations } });
}

export async function openUrls(urls: string[]): Promise<void> {
  if (urls.length === 0) return;
  useApp.getState().beginLoad();
  const { sources, failures } = await fetchSources(urls);
  if (failures.length) {
    useApp.getState().beginLoad();
    useApp.getState().finishLoad(
      failures.map((f) => f.url),
      [],
      failures.map((f) => ({ file: f.url, line: null, field: null, message: `could not fetch: ${f.message}`, severity: 'error' as const })),
    );
  }
  if (sources.length) await openSources(sources, { sourceUrls: urls });
  // The fetch phase counted as a load of its own.
  useApp.getState().finishLoad([], [], []);
}
