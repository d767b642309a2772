// Opening one corpus row in the inspector. Apart from corpus-client.ts, which the open path itself starts: this
// goes back into that path (open-files.ts), and a module on both ends would close a circle.
import { useApp } from '../store';
import type { CorpusEntry } from '../store/corpus-slice';
import { trajectorySource } from './corpus-client';
import { openSources } from './open-files';

/** Opens a row's trajectory in the inspector, re-read from its File; the corpus stays loaded behind it. */
export async function openCorpusEntry(entry: CorpusEntry): Promise<void> {
  const c = useApp.getState().corpus;
  const ref = c?.files[entry.source];
  if (!ref) return;
  const source = await trajectorySource(entry, ref);
  const { sessions, setActive, showCorpus } = useApp.getState();
  // Opened before: go to its tab instead of loading it twice.
  const open = sessions.find((s) => s.session.files[0] === source.name && s.session.id === entry.id);
  if (open) {
    showCorpus(false);
    return setActive(open.key);
  }
  // The corpus stays in front until the trajectory's tab opens (the shell then shows it): hiding it first showed
  // whichever session was open before, for as long as the load took.
  // A log of many samples (an Inspect .eval) opens just this row's sample.
  await openSources([source], { only: entry.id });
}
