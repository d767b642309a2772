import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { ErrorBoundary } from './components/ErrorBoundary';
import { buildCsp, installCsp, startupOrigins } from './security/csp';
import './styles.css';

// The app locks itself down before rendering anything, under `npm start` as in the build: the server's header
// (app/security/csp-server.ts) already refuses inline and foreign scripts and framing; this narrows where the
// page may connect to the origins it needs (the dev server's hot-reload socket is its own origin).
const storageOf = (name: 'localStorage' | 'sessionStorage'): Storage | null => {
  try {
    return window[name];
  } catch {
    return null;
  }
};
installCsp(document, buildCsp({ connectOrigins: startupOrigins(location, storageOf('localStorage'), storageOf('sessionStorage')) }));

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <ErrorBoundary name="Compaction Inspector">
      <App />
    </ErrorBoundary>
  </StrictMode>,
);
