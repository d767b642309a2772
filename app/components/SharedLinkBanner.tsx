// What happened to the share link this page was opened with, and the prompt for its file.
import { useEffect } from 'react';
import { shortHash } from '../../src/share';
import { openUserSources } from '../data/open-files';
import { FilePicker } from './FilePicker';
import { addLinkNotesAnyway, watchShareLinks } from '../data/share-actions';
import { describeShare } from '../data/share-build';
import { clearShareFragment } from '../data/session-open';
import { useApp } from '../store';
import './share.css';

export function SharedLinkBanner() {
  const link = useApp((s) => s.sharedLink);
  const setLink = useApp((s) => s.setSharedLink);
  useEffect(() => watchShareLinks(), []);
  if (!link) return null;
  const dismiss = (
    <button
      type="button"
      className="link banner-dismiss"
      onClick={() => {
        clearShareFragment();
        setLink(null);
      }}
    >
      Dismiss
    </button>
  );
  const share = link.share;
  const what = share ? describeShare(share.view, share.annotations.length) : '';

  if (link.phase === 'error') {
    return (
      <div className="banner banner-error" role="alert">
        <p>
          <strong>This share link could not be opened.</strong> {link.message} Nothing that was open has changed.
        </p>
        {dismiss}
      </div>
    );
  }
  if (!share) return null;
  // The question about its sources is FetchConsent's, just above.
  if (link.phase === 'consent') return null;
  if (link.phase === 'opening') {
    return (
      <div className="banner" role="status">
        <p>
          Opening the shared view ({what}) of session <code>{shortHash(share.sessionHash)}</code>
          {share.sourceUrls.length ? ' from its source…' : '…'}
        </p>
      </div>
    );
  }
  if (link.phase === 'need-file') {
    return (
      <section className="banner banner-ask" aria-label="Shared link">
        <div>
          <h2>Open the session file to see the shared view</h2>
          <p>
            A teammate shared <strong>{what}</strong> of a session this browser has not seen. Drop its file anywhere on this page (with its logs if it had them), or choose it.
            It is checked against the link's fingerprint <code title={`sha256 ${share.sessionHash}`}>{shortHash(share.sessionHash)}</code> and never leaves your computer.
          </p>
          {link.message ? <p className="muted small">{link.message}</p> : null}
        </div>
        <div className="banner-actions">
          <FilePicker label="Choose the shared session's files" button={{ className: 'primary' }} onFiles={openUserSources}>
            Choose the file…
          </FilePicker>
          {dismiss}
        </div>
      </section>
    );
  }
  if (link.phase === 'applied') {
    return (
      <div className="banner banner-ok" role="status">
        <p>
          Opened the shared view: call {share.view.turn}
          {share.annotations.length
            ? `, ${share.annotations.length} note${share.annotations.length === 1 ? '' : 's'} from the link (${link.added ?? 0} new, merged with your notes on this session)`
            : ''}
          . <span className="muted small">Files you open while this notice is up are checked against the link.</span>
        </p>
        {dismiss}
      </div>
    );
  }
  // mismatch
  return (
    <div className="banner banner-warn" role="alert">
      <p>
        <strong>This file differs from the one the link was made from</strong> (link <code>{shortHash(share.sessionHash)}</code>, file{' '}
        <code>{link.fileHash ? shortHash(link.fileHash) : 'unknown'}</code>). It is open anyway, at the link's call where it exists
        {link.message ? `. ${link.message}` : share.annotations.length ? `; the link's ${share.annotations.length} note${share.annotations.length === 1 ? ' was' : 's were'} not added, since they may point at other items.` : '.'}
      </p>
      <div className="banner-actions">
        {share.annotations.length && !link.message ? (
          <button type="button" onClick={addLinkNotesAnyway}>
            Add the link's notes anyway
          </button>
        ) : null}
        {dismiss}
      </div>
    </div>
  );
}
