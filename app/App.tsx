import { useEffect, useRef } from 'react';
import { DropZone } from './components/DropZone';
import { ErrorBoundary } from './components/ErrorBoundary';
import { onTablistKeyDown } from './components/tablist-keys';
import { BannerStack } from './components/BannerStack';
import { Library } from './components/LibraryList';
import { LoadProgressBar } from './components/LoadProgressBar';
import { DemoList, FollowFileButton, OpenFileButton, PasteButton } from './components/OpenControls';
import { ShareControls } from './components/ShareControls';
import { SharedLinkBanner } from './components/SharedLinkBanner';
import { FetchConsent } from './components/FetchConsent';
import { openLinkSources } from './data/link-sources';
import { openUrls, sayOpenFailed } from './data/open-files';
import { warmAnalysisWorker } from './data/analysis-client';
import { warmFirstLoadWorker } from './data/load-client';
import { useScrollCue } from './hooks/use-scroll-cue';
import { demoInUrl, fileInUrl, followPlace, keepAddressForNextPlace, libraryHashInUrl, offerUrlSpot, readUrlSpot, restoreFromHistory, servedInUrl } from './data/url-state';
import { openFromLibrary } from './data/share-actions';
import { openServedById } from './data/live-follow';
import { demoUrls } from './demos';
import { useActiveSession, useApp } from './store';
import { FirstLookHeader, formatLabel, SessionHeader } from './views/SessionHeader';
import { Inspector, ReportedInspector } from './views/Inspector';
import { PreviewStatus } from './views/PreviewStatus';
import { CorpusMain, CorpusTab, useCorpusInFront } from './views/corpus/CorpusMain';
import { plain, Untrusted } from './components/Untrusted';
import { servedMode } from './data/serve-api';
import { FollowStatus } from './views/FollowStatus';
import { ServedSessions } from './views/ServedSessions';

let srcOpened = false;

/** Opens what an address names (?demo=…[&file=…], ?src=…, ?served=… or ?lib=…), in the history entry of that address. */
async function openFromAddress(search: string): Promise<void> {
  const demo = demoInUrl(search);
  const src = new URLSearchParams(search).getAll('src');
  const lib = libraryHashInUrl(search);
  const served = servedMode() ? servedInUrl(search) : null;
  if (!demo && src.length === 0 && !lib && !served) return;
  const spot = readUrlSpot(search);
  keepAddressForNextPlace();
  try {
    // A session of `serve`'s list, by its path; dropped files, from the library that kept them.
    if (served) return void (await openServedById(served));
    if (lib) return void (await openFromLibrary(lib, 'address'));
    // A demo is the app's own file; a `src` on another origin waits for the user's consent (link-sources.ts).
    if (demo) await openUrls(demoUrls(demo));
    else await openLinkSources(src, 'src');
    const file = demo ? fileInUrl(search) : null;
    if (!file) return;
    // A demo of several sessions: the address names the one to show.
    const s = useApp.getState();
    const named = s.sessions.find((x) => x.sourceUrls?.length === 1 && x.sourceUrls[0]!.endsWith(`/${encodeURIComponent(file)}`));
    if (named && named.key !== s.activeKey) {
      keepAddressForNextPlace();
      offerUrlSpot(spot);
      s.setActive(named.key);
    }
  } finally {
    keepAddressForNextPlace(false);
  }
}

/** Past this many open sessions the strip also offers a menu of them all (it scrolls sideways too). */
const TAB_MENU_FROM = 6;

function SessionTabs() {
  const sessions = useApp((s) => s.sessions);
  const activeKey = useApp((s) => s.activeKey);
  const setActive = useApp((s) => s.setActive);
  const close = useApp((s) => s.closeSession);
  const strip = useRef<HTMLDivElement>(null);
  useScrollCue(strip, [sessions.length], { selector: '.tab.active', key: activeKey });
  const show = (key: string) => {
    setActive(key);
    useApp.getState().showCorpus(false);
  };
  if (sessions.length === 0) return null;
  const focusable = sessions.some((x) => x.key === activeKey) ? activeKey : sessions[0]!.key;
  return (
    <nav className="tabs" aria-label="Open sessions">
      <div role="tablist" ref={strip} onKeyDown={onTablistKeyDown}>
        {sessions.map(({ key, session }) => (
          <span key={key} className={key === activeKey ? 'tab active' : 'tab'} data-key={key}>
            <button type="button" role="tab" aria-selected={key === activeKey} tabIndex={key === focusable ? 0 : -1} onClick={() => show(key)} title={plain(session.files.join(', '))}>
              <Untrusted text={session.title} /> <span className="muted small">{formatLabel(session.format)}</span>
            </button>
            <button type="button" className="close" aria-label={`Close ${plain(session.title)}`} onClick={() => close(key)}>
              ×
            </button>
          </span>
        ))}
      </div>
      {sessions.length >= TAB_MENU_FROM ? (
        <select className="tab-menu" aria-label={`All ${sessions.length} open sessions`} value={activeKey ?? ''} onChange={(e) => e.target.value && show(e.target.value)}>
          {activeKey === null ? <option value="">{sessions.length} sessions…</option> : null}
          {sessions.map(({ key, session }, i) => (
            <option key={key} value={key}>
              {i + 1}. {session.title}
            </option>
          ))}
        </select>
      ) : null}
    </nav>
  );
}

/** Under `serve`: back to the machine's sessions, the open tabs staying open. */
function ServedListButton() {
  const showing = useApp((s) => s.activeKey === null && !(s.corpus !== null && s.corpusVisible));
  return (
    <button
      type="button"
      disabled={showing}
      aria-label="Sessions on this machine"
      onClick={() => {
        useApp.getState().showCorpus(false);
        useApp.setState({ activeKey: null });
      }}
    >
      {/* A narrow window says "Sessions": the full label pushed Library and the theme out of a 1000 px window. */}
      Sessions<span className="wide-only"> on this machine</span>
    </button>
  );
}

function Welcome() {
  // Served by `compaction-inspector serve`: the sessions on this machine come first.
  const served = servedMode();
  return (
    <section className={served ? 'welcome wide' : 'welcome'} aria-label="Welcome">
      <h2>See what your agent's context window held, and what compaction did to it</h2>
      <p>
        Drop a Claude Code session, a Codex rollout, an OpenHands or LiveKit export, OpenAI or Anthropic messages, an RL trajectory, or a compaction or request log.
        Several files at once are joined. Everything is parsed in this tab; nothing is uploaded.
      </p>
      {served ? <ServedSessions /> : null}
      <Library hideWhenEmpty />
      <h3>Or open a demo</h3>
      <DemoList />
    </section>
  );
}

export function App() {
  const active = useActiveSession();
  const corpusInFront = useCorpusInFront();
  const firstLook = useApp((s) => s.firstLook);
  const theme = useApp((s) => s.theme);
  const setTheme = useApp((s) => s.setTheme);
  useEffect(() => {
    document.documentElement.dataset.theme = theme;
  }, [theme]);
  useEffect(() => {
    // StrictMode runs effects twice in development; the URL's sources are opened (or asked about) once per page.
    if (srcOpened) return;
    srcOpened = true;
    // History follows what is in front for the life of the page; Back/Forward bring it back.
    followPlace(useApp.getState());
    useApp.subscribe(followPlace);
    window.addEventListener('popstate', (e) => restoreFromHistory(e.state as never, (search) => void openFromAddress(search).catch((err: unknown) => sayOpenFailed(search, err))));
    void openFromAddress(location.search).catch((err: unknown) => sayOpenFailed(location.search, err));
    // The workers a first session needs start while the user picks one (same-origin scripts, nothing else). The
    // open plan's code waits for an intent to open (open-intent.ts): fetched at start it put the page over its
    // initial-JavaScript budget.
    setTimeout(() => {
      warmAnalysisWorker();
      warmFirstLoadWorker();
    }, 0);
  }, []);
  return (
    <div className="app">
      <header className="topbar">
        <h1>Compaction Inspector</h1>
        <div className="actions">
          {servedMode() ? <ServedListButton /> : null}
          <OpenFileButton />
          <FollowFileButton />
          <PasteButton />
          <ShareControls />
          <button type="button" onClick={() => setTheme(theme === 'dark' ? 'light' : 'dark')} aria-label={`Switch to ${theme === 'dark' ? 'light' : 'dark'} theme`}>
            {theme === 'dark' ? '☀' : '☾'}
          </button>
        </div>
      </header>
      {/* Over the page, not in its flow: the session appears before the load ends, and the bar leaving moved it up. */}
      <div className="progress-anchor">
        <LoadProgressBar />
      </div>
      <FetchConsent />
      <SharedLinkBanner />
      <BannerStack />
      <CorpusTab />
      <SessionTabs />
      <main>
        {corpusInFront ? (
          <ErrorBoundary name="The corpus view">
            <CorpusMain />
          </ErrorBoundary>
        ) : firstLook ? (
          // A load's session as its reported usage shows it, until the session itself is in (a few frames).
          <div className="session first-look">
            <FirstLookHeader look={firstLook} />
            <ReportedInspector reported={firstLook} />
          </div>
        ) : active ? (
          <div className="session" key={active.key}>
            <ErrorBoundary name="The session header">
              <PreviewStatus loaded={active} />
              <FollowStatus sessionKey={active.key} />
              <SessionHeader sessionKey={active.key} session={active.session} />
            </ErrorBoundary>
            <ErrorBoundary name="The inspector">
              <Inspector sessionKey={active.key} session={active.session} />
            </ErrorBoundary>
          </div>
        ) : (
          <div className="page-scroll">
            <ErrorBoundary name="The start page">
              <Welcome />
            </ErrorBoundary>
          </div>
        )}
      </main>
      <DropZone />
    </div>
  );
}
