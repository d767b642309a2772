// Under `compaction-inspector serve` (the address carries ?token=…), asks for the session listing while the app's
// own code is still loading, so the server's answer (a few hundred ms for 1,000 sessions on a busy machine) and the
// app's start overlap instead of following each other. The app takes this answer once (app/data/serve-api.ts,
// listServedSessions). Plain script from public/, run by index.html before the app's module; the token is looked up
// as serveToken() does. Without a token (the static app) it does nothing.
(function () {
  var token = new URLSearchParams(location.search).get('token');
  if (!token) {
    try {
      token = sessionStorage.getItem('compaction-inspector.serve-token');
    } catch (e) {
      token = null;
    }
  }
  if (!token) return;
  var asked = fetch('/api/sessions?' + new URLSearchParams({ token: token }).toString(), { credentials: 'omit' });
  // Handled here too: a failure is reported by the app when it takes the answer, never as an unhandled rejection.
  asked.catch(function () {});
  window.__servedListing = asked;
})();
