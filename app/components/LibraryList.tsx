// The Library: sessions opened before in this browser, reopened with one click, removed on request.
import { useEffect, useState, type ReactNode } from 'react';
import { shortHash } from '../../src/share';
import { clearLibraryEntries, refreshLibrary, removeLibraryEntry } from '../data/library-actions';
import type { LibraryEntry } from '../data/library';
import { formatBytes } from '../data/library-policy';
import { opensSessions } from '../views/open-intent';
import { openFromLibrary } from '../data/share-actions';
import { useApp } from '../store';
import { formatLabel } from '../format/format-label';
import './share.css';
import { plain, Untrusted } from './Untrusted';

export function Library({ heading = 'h3', extra, hideWhenEmpty = false }: { heading?: 'h2' | 'h3'; extra?: ReactNode; hideWhenEmpty?: boolean }) {
  const entries = useApp((s) => s.library);
  const problem = useApp((s) => s.libraryProblem);
  // Read afresh each time it is shown: note counts change while sessions are open.
  useEffect(() => {
    void refreshLibrary();
  }, []);
  if (hideWhenEmpty && entries !== null && entries.length === 0 && !problem) return null;
  const H = heading;
  return (
    <section className="library" aria-label="Library">
      <header className="library-head">
        <H>Library</H>
        {extra}
      </header>
      <p className="muted small library-about">
        Sessions opened in this browser, with their files and notes, so a reload or a later visit reopens them. They stay on this device; nothing is uploaded.
        {entries?.length ? <ForgetAll hashes={entries.map((e) => e.hash)} /> : null}
      </p>
      {problem ? (
        <p className="library-problem" role="status">
          {problem}
        </p>
      ) : null}
      {entries === null ? (
        <p className="muted small">Reading the library…</p>
      ) : entries.length === 0 ? (
        problem ? null : <p className="muted small">Nothing yet: sessions you open appear here.</p>
      ) : (
        <ul className="library-list">
          {entries.map((e) => (
            <LibraryRow key={e.hash} e={e} />
          ))}
        </ul>
      )}
    </section>
  );
}

/** Forgets every kept session at once (files and notes), after asking. */
function ForgetAll({ hashes }: { hashes: string[] }) {
  const [confirm, setConfirm] = useState(false);
  if (!confirm) {
    return (
      <>
        {' '}
        <button type="button" className="link" onClick={() => setConfirm(true)}>
          Forget all…
        </button>
      </>
    );
  }
  return (
    <span className="library-confirm" role="group" aria-label="Forget every session in the library?">
      {' '}
      Forget all {hashes.length} session{hashes.length === 1 ? '' : 's'}, their files and notes, from this browser?{' '}
      <button type="button" className="danger" onClick={() => void clearLibraryEntries(hashes).then(() => setConfirm(false))}>
        Forget all
      </button>{' '}
      <button type="button" onClick={() => setConfirm(false)} autoFocus>
        Keep
      </button>
    </span>
  );
}

function LibraryRow({ e }: { e: LibraryEntry }) {
  const [confirm, setConfirm] = useState(false);
  const [busy, setBusy] = useState(false);
  const format = formatLabel(e.format as never) ?? e.format;
  const files = e.fileNames.length === 1 ? e.fileNames[0]! : `${e.fileNames.length} files`;
  return (
    <li className="library-row">
      <div className="library-main">
        {e.stored ? (
          <button
            type="button"
            className="library-open"
            aria-label={`Open ${e.title}`}
            {...opensSessions}
            disabled={busy}
            onClick={() => {
              setBusy(true);
              void openFromLibrary(e.hash).finally(() => setBusy(false));
            }}
          >
            <Untrusted text={e.title} />
          </button>
        ) : (
          <span className="library-title">
            <Untrusted text={e.title} />
          </span>
        )}
        <span className="library-meta muted small">
          {format} · <span title={plain(e.fileNames.join(', '))}>
            <Untrusted text={files} />
          </span> · {formatBytes(e.totalBytes)}
          {e.notes ? ` · ${e.notes} note${e.notes === 1 ? '' : 's'}` : ''} · opened {openedLabel(e.openedAt)} · <span title={`sha256 ${e.hash}`}>{shortHash(e.hash)}</span>
        </span>
        {!e.stored ? <span className="library-meta small warn-note">Files not kept (too large or dropped for space): drop them again to reopen.</span> : null}
      </div>
      {confirm ? (
        <div className="library-confirm" role="group" aria-label={`Remove ${e.title}?`}>
          <span className="small">Remove it{e.notes ? ` and its ${e.notes} note${e.notes === 1 ? '' : 's'}` : ''} from this browser?</span>
          <button type="button" className="danger" onClick={() => void removeLibraryEntry(e.hash)}>
            Remove
          </button>
          <button type="button" onClick={() => setConfirm(false)} autoFocus>
            Keep
          </button>
        </div>
      ) : (
        <button type="button" className="link library-remove" aria-label={`Remove ${e.title} from the library`} onClick={() => setConfirm(true)}>
          Remove
        </button>
      )}
    </li>
  );
}

function openedLabel(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return d.toLocaleString('en-US', { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' });
}
