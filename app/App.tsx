import { useEffect } from 'react';
import { DropZone } from './components/DropZone';
import { LoadReports } from './components/IssueList';
import { Library } from './components/LibraryList';
import { LoadProgressBar } from './components/LoadProgressBar';
import { DemoList, OpenFileButton, PasteButton } from './components/OpenControls';
import { ShareControls } from './components/ShareControls';
import { Notices, SharedLinkBanner } from './components/SharedLinkBanner';
import { openUrls } from './data/open-files';
import { useActiveSession, useApp } from './store';
import { formatLabel, SessionHeader } from './views/SessionHeader';
import { Inspector } from './views/Inspector';
import { PreviewStatus } from './views/PreviewStatus';
import { CorpusMain, CorpusTab, useCorpusInFront } from './views/corpus/CorpusMain';
import { servedMode } from './data/serve-api';
import { FollowStatus } from './views/FollowStatus';
import { ServedSessions } from './views/ServedSessions';

let srcOpened = false;

function SessionTabs() {
  const sessions = useApp((s) => s.sessions);
  const activeKey = useApp((s) => s.activeKey);
  const setActive = useApp((s) => s.setActive);
  const close = useApp((s) => s.closeSession);
  if (sessions.length === 0) return null;
  return (
    <nav className="tabs" aria-label="Open sessions">
      <div role="tablist">
        {sessions.map(({ key, session }) => (
          <span key={key} className={key === activeKey ? 'tab active' : 'tab'}>
            <button type="button" role="tab" aria-selected={key === activeKey} onClick={() => (setActive(key), useApp.getState().showCorpus(false))} title={session.files.join(', ')}>
              {session.title} <span className="muted small">{formatLabel(session.format)}</span>
            </button>
            <button type="button" className="close" aria-label={`Close ${session.title}`} onClick={() => close(key)}>
              ×
            </button>
          </span>
        ))}
      </div>
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
      onClick={() => {
        useApp.getState().showCorpus(false);
        useApp.setState({ activeKey: null });
      }}
    >
      Sessions on this machine
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
      <h3>Or open a demo</h3>
      <Library hideWhenEmpty />
      <DemoList />
    </section>
  );
}

export function App() {
  const active = useActiveSession();
  const corpusInFront = useCorpusInFront();
  const theme = useApp((s) => s.theme);
  const setTheme = useApp((s) => s.setTheme);
  useEffect(() => {
    document.documentElement.dataset.theme = theme;
  }, [theme]);
  useEffect(() => {
    // StrictMode runs effects twice in development; the URL's sources are opened once per page.
    if (srcOpened) return;
    srcOpened = true;
    void openUrls(new URLSearchParams(location.search).getAll('src'));
  }, []);
  return (
    <div className="app">
      <header className="topbar">
        <h1>Compaction Inspector</h1>
        <div className="actions">
          {servedMode() ? <ServedListButton /> : null}
          <OpenFileButton />
          <PasteButton />
          <ShareControls />
          <button type="button" onClick={() => setTheme(theme === 'dark' ? 'light' : 'dark')} aria-label={`Switch to ${theme === 'dark' ? 'light' : 'dark'} theme`}>
            {theme === 'dark' ? '☀' : '☾'}
          </button>
        </div>
      </header>
      <LoadProgressBar />
      <LoadReports />
      <SharedLinkBanner />
      <Notices />
      <CorpusTab />
      <SessionTabs />
      <main>
        {corpusInFront ? (
          <CorpusMain />
        ) : active ? (
          <div className="session" key={active.key}>
            <PreviewStatus loaded={active} />
            <FollowStatus sessionKey={active.key} />
            <SessionHeader sessionKey={active.key} session={active.session} />
            <Inspector sessionKey={active.key} session={active.session} />
          </div>
        ) : (
          <Welcome />
        )}
      </main>
      <DropZone />
    </div>
  );
}
