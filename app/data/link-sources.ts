// A link's sources (`?src=`, a share link's source URLs): opened at once when they are on the app's own origin
// or were accepted in this tab; otherwise nothing is fetched and the page asks, once, for all of them
// (components/FetchConsent.tsx). Yes records the answer for this tab and reloads, so the page's policy admits
// those origins from its start (fetch-consent.ts); no fetches nothing.
import { useApp } from '../store';
import { acceptedUrls, acceptUrls, planFetch } from './fetch-consent';
import { openUrls } from './open-files';

function tabStorage(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}

/** What happened: the sources are loading (or loaded), the user was asked, or none could be fetched. */
export async function openLinkSources(urls: readonly string[], via: 'src' | 'share'): Promise<'opened' | 'asked' | 'nothing'> {
  const plan = planFetch(urls, location.href, acceptedUrls(tabStorage()));
  if (plan.refused.length) {
    const { beginLoad, finishLoad } = useApp.getState();
    beginLoad();
    finishLoad(
      plan.refused.map((r) => r.url),
      [],
      plan.refused.map((r) => ({ file: r.url, line: null, field: null, message: `not opened: ${r.reason}`, severity: 'error' as const })),
    );
  }
  if (plan.ask) {
    useApp.getState().setFetchConsent({ ...plan.ask, via });
    return 'asked';
  }
  if (plan.open.length === 0) return 'nothing';
  const remote = plan.open.some((u) => new URL(u).origin !== location.origin);
  await openUrls(plan.open, { askToKeep: remote });
  return 'opened';
}

/** The user said yes: remember it for this tab and reload, so the page starts with those origins admitted. */
export function acceptFetch(reload: () => void = () => location.reload()): void {
  const consent = useApp.getState().fetchConsent;
  if (!consent) return;
  const storage = tabStorage();
  try {
    if (!storage) throw new Error('no session storage');
    acceptUrls(storage, consent.urls);
  } catch {
    useApp.getState().setFetchConsent({
      ...consent,
      problem: 'This browser does not let the page keep your answer across the reload that admits these sites (storage is blocked here), so nothing can be fetched. Download the files and drop them on the page instead.',
    });
    return;
  }
  reload();
}

/** The user said no: nothing is fetched; a share link asks for its file instead. */
export function declineFetch(): void {
  const { fetchConsent, sharedLink, setFetchConsent, setSharedLink } = useApp.getState();
  setFetchConsent(null);
  if (fetchConsent?.via === 'share' && sharedLink?.share && sharedLink.phase === 'consent') {
    setSharedLink({ ...sharedLink, phase: 'need-file', message: 'Its source was not fetched, as you chose.' });
  }
}
