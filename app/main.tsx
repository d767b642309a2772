import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { ErrorBoundary } from './components/ErrorBoundary';
import { buildCsp, installCsp, startupOrigins } from './security/csp';
import './styles.css';

// The built app locks itself down before rendering anything; the dev server needs inline scripts for hot reload.
if (import.meta.env.PROD) {
  const storageOf = (name: 'localStorage' | 'sessionStorage'): Storage | null => {
    try {
      return window[name];
    } catch {
      return null;
    }
  };
  installCsp(document, buildCsp({ connectOrigins: startupOrigins(location, storageOf('localStorage'), storageOf('sessionStorage')) }));
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <ErrorBoundary name="Compaction Inspector">
      <App />
    </ErrorBoundary>
  </StrictMode>,
);
