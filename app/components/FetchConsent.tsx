// The one question a link's sources on another origin ask before anything is fetched:
// "Open 1 file from example.com?", with every URL listed, and one click to open them or not.
import { useId } from 'react';
import { describeFetch, MAX_SOURCE_BYTES } from '../data/fetch-consent';
import { acceptFetch, declineFetch } from '../data/link-sources';
import { formatBytes } from '../data/library-policy';
import { useApp } from '../store';
import './share.css';

export function FetchConsent() {
  const consent = useApp((s) => s.fetchConsent);
  const headingId = useId();
  if (!consent) return null;
  const what = describeFetch(consent);
  const hosts = consent.origins.map((o) => new URL(o).host);
  return (
    <section className="banner banner-ask fetch-consent" aria-labelledby={headingId}>
      <div>
        <h2 id={headingId}>
          Open <bdi>{what}</bdi>?
        </h2>
        <p>
          {consent.via === 'share' ? 'This share link' : 'This link'} asks the page to download {consent.urls.length === 1 ? 'a file' : 'files'} from{' '}
          {hosts.length === 1 ? 'a site' : 'sites'} other than this app. Nothing has been fetched yet. If you open {consent.urls.length === 1 ? 'it' : 'them'}, the page
          reloads, allows only {hosts.length === 1 ? 'this site' : 'these sites'}, and downloads (at most {formatBytes(MAX_SOURCE_BYTES)} a file); the session is
          not stored unless you keep it.
        </p>
        <ul className="fetch-consent-urls" aria-label="Files the link would open">
          {consent.urls.map((u) => (
            <li key={u}>
              <code>
                <bdi>{u}</bdi>
              </code>
            </li>
          ))}
        </ul>
        {consent.problem ? (
          <p className="share-error" role="alert">
            {consent.problem}
          </p>
        ) : null}
      </div>
      <div className="banner-actions">
        <button type="button" className="primary" onClick={() => acceptFetch()}>
          Open {consent.urls.length === 1 ? 'the file' : `${consent.urls.length} files`}
        </button>
        <button type="button" onClick={declineFetch}>
          Don't open
        </button>
      </div>
    </section>
  );
}
