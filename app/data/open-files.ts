// The one path every way of opening files takes: drop, picker, paste, ?src and demos.
import { useApp } from '../store';
import { fetchSources, loadInWorker, type LoadSource } from './load-client';

export async function openSources(sources: LoadSource[]): Promise<void> {
  if (sources.length === 0) return;
  const { beginLoad, setProgress, finishLoad } = useApp.getState();
  const names = sources.map((s) => s.name);
  beginLoad();
  try {
    const result = await loadInWorker(sources, setProgress);
    finishLoad(names, result.sessions, result.issues);
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    finishLoad(names, [], names.map((file) => ({ file, line: null, field: null, message, severity: 'error' as const })));
  }
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
  if (sources.length) await openSources(sources);
  // The fetch phase counted as a load of its own.
  useApp.getState().finishLoad([], [], []);
}
