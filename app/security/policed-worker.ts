// Workers that the page's Content-Security-Policy governs. A worker loaded from the app's own URL takes its
// policy from that response's headers, which a static host does not send, so it could fetch anywhere. A worker
// started from a blob: URL inherits the page's policy, so its requests obey the same connect-src.
export function policedWorker(scriptUrl: string, options: WorkerOptions): Worker {
  if (!import.meta.env.PROD) return new Worker(scriptUrl, options);
  const absolute = new URL(scriptUrl, location.href).href;
  const bootstrap = new Blob([`import ${JSON.stringify(absolute)};`], { type: 'text/javascript' });
  const url = URL.createObjectURL(bootstrap);
  const worker = new Worker(url, { ...options, type: 'module' });
  // The module graph is fetched when the worker starts; the bootstrap URL is not needed after that.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
  return worker;
}
