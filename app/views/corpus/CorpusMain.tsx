// What the shell renders for corpus mode: a tab to come back to the corpus, and the corpus view (loaded on demand).
import { lazy, Suspense, useEffect, useRef } from 'react';
import { useApp } from '../../store';
import './corpus.css';
import { count as formatCount } from '../../format/count';

const CorpusView = lazy(() => import('./CorpusView'));

/** Shown when a corpus is open: returns to it from a session; hides it when another session is chosen. */
export function CorpusTab() {
  const corpus = useApp((s) => s.corpus);
  const visible = useApp((s) => s.corpusVisible);
  const showCorpus = useApp((s) => s.showCorpus);
  const activeKey = useApp((s) => s.activeKey);
  const lastKey = useRef(activeKey);
  useEffect(() => {
    // A session opened or chosen: the inspector comes to the front.
    if (activeKey !== lastKey.current && activeKey !== null) showCorpus(false);
    lastKey.current = activeKey;
  }, [activeKey, showCorpus]);
  if (!corpus) return null;
  return (
    <nav className="tabs corpus-tab-bar" aria-label="Corpus">
      <button type="button" className={visible ? 'corpus-tab active' : 'corpus-tab'} aria-pressed={visible} onClick={() => showCorpus(!visible)}>
        {visible ? 'Corpus' : '← Back to corpus'} <span className="muted small">{formatCount(corpus.rows.length)} trajectories · {corpus.name}</span>
      </button>
    </nav>
  );
}

/** The corpus view when it is in front, else nothing (the shell shows the session or the welcome page). */
export function useCorpusInFront(): boolean {
  return useApp((s) => s.corpus !== null && s.corpusVisible);
}

export function CorpusMain() {
  return (
    <Suspense fallback={<p className="empty">Loading corpus view…</p>}>
      <CorpusView />
    </Suspense>
  );
}
