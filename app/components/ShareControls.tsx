// Topbar share actions for the open session: Copy share link, Export bundle, and the Library drawer.
import { useEffect, useRef, useState } from 'react';
import { SHARE_LINK_LONG, shareLinkAdvice, shortHash, type RedactionPreview } from '../../src/share';
import { formatBytes } from '../data/library-policy';
import { useAnalysis } from '../data/analysis-client';
import { buildShareLink, copyText, currentView, exportAtif, exportBundle, exportOtlp, exportReport, notesOf, previewBundleRedaction, type BuiltLink } from '../data/share-actions';
import { useActiveSession, useApp } from '../store';
import type { LoadedSession } from '../store/session-slice';
import { Library } from './LibraryList';
import { ChangeList, NO_REDACTION, RedactionOptions, redactOptions, type RedactChoice } from './RedactionOptions';
import './share.css';
import { count as formatCount } from '../format/count';

export function ShareControls() {
  const active = useActiveSession();
  const dialog = useApp((s) => s.shareDialog);
  const setDialog = useApp((s) => s.setShareDialog);
  const libraryOpen = useApp((s) => s.libraryOpen);
  const setLibraryOpen = useApp((s) => s.setLibraryOpen);
  const [first, setFirst] = useState<{ link: BuiltLink | null; error: string | null; copied: boolean } | null>(null);
  if (!active) return null;

  const copyLink = async () => {
    // Built and copied inside the click, while the browser still counts it as the user's gesture.
    const built = buildShareLink(active, null);
    const copied = built.ok ? await copyText(built.value.url) : false;
    setFirst(built.ok ? { link: built.value, error: null, copied } : { link: null, error: built.error, copied: false });
    setDialog('share');
  };

  return (
    <>
      <button type="button" onClick={() => void copyLink()} disabled={!active.hash} title={active.hash ? 'A link to this view with your notes' : 'This session has no content hash'}>
        Copy share link
      </button>
      <button type="button" onClick={() => setDialog('bundle')} disabled={!active.files?.length} title="One file with the session, its notes and this view; or the analysis as an HTML report, OpenTelemetry spans (OTLP) or an ATIF trajectory">
        Export bundle
      </button>
      <button type="button" aria-expanded={libraryOpen} aria-controls="library-drawer" onClick={() => setLibraryOpen(!libraryOpen)}>
        Library
      </button>
      {dialog === 'share' && first ? <ShareLinkDialog loaded={active} first={first} onClose={() => setDialog(null)} onBundle={() => setDialog('bundle')} /> : null}
      {dialog === 'bundle' ? <ExportBundleDialog loaded={active} onClose={() => setDialog(null)} /> : null}
      {libraryOpen ? (
        <LibraryDrawer onClose={() => setLibraryOpen(false)} />
      ) : null}
    </>
  );
}

function LibraryDrawer({ onClose }: { onClose(): void }) {
  useDialog(onClose);
  return (
    <aside className="library-drawer" id="library-drawer">
      <Library
        heading="h2"
        extra={
          <button type="button" className="drawer-close" onClick={onClose} aria-label="Close the library" autoFocus>
            ×
          </button>
        }
      />
    </aside>
  );
}

/** Escape closes; focus returns to where it was. */
function useDialog(onClose: () => void) {
  const ref = useRef<HTMLDivElement>(null);
  const close = useRef(onClose);
  close.current = onClose;
  useEffect(() => {
    const back = document.activeElement as HTMLElement | null;
    const key = (e: KeyboardEvent) => {
      if (e.key === 'Escape') {
        e.stopPropagation();
        close.current();
      }
    };
    window.addEventListener('keydown', key, true);
    return () => {
      window.removeEventListener('keydown', key, true);
      if (back?.isConnected) back.focus();
    };
  }, []);
  return ref;
}

function ShareLinkDialog({ loaded, first, onClose, onBundle }: { loaded: LoadedSession; first: { link: BuiltLink | null; error: string | null; copied: boolean }; onClose(): void; onBundle(): void }) {
  const ref = useDialog(onClose);
  const [choice, setChoice] = useState<RedactChoice>(NO_REDACTION);
  const [state, setState] = useState(first);
  const [copy, setCopy] = useState<'copied' | 'refused' | 'changed' | 'none'>(first.link ? (first.copied ? 'copied' : 'refused') : 'none');
  const field = useRef<HTMLTextAreaElement>(null);

  const rebuild = (c: RedactChoice) => {
    setChoice(c);
    const built = buildShareLink(loaded, redactOptions(c));
    setState({ link: built.ok ? built.value : null, error: built.ok ? null : built.error, copied: false });
    setCopy(built.ok ? 'changed' : 'none');
  };
  const copyAgain = async () => {
    if (!state.link) return;
    const ok = await copyText(state.link.url);
    setCopy(ok ? 'copied' : 'refused');
    if (!ok) field.current?.select();
  };
  const copyNote = {
    copied: 'Copied to the clipboard.',
    refused: 'The browser did not let this page copy: select the link below and copy it (Ctrl+C).',
    changed: 'The link changed: press Copy link to copy the new one.',
    none: '',
  }[copy];
  const link = state.link;
  const long = link ? shareLinkAdvice(link.url.length) === 'long' : false;
  const view = currentView();
  return (
    <div className="dialog-backdrop" onClick={onClose}>
      <div ref={ref} role="dialog" aria-modal="true" aria-label="Share link" className="dialog share-dialog" onClick={(e) => e.stopPropagation()}>
        <h2>Share link</h2>
        {state.error ? (
          <p role="alert" className="share-error">
            {state.error}
          </p>
        ) : null}
        {link ? (
          <>
            <p className="share-what">
              Opens <strong>call {view.turn}</strong>
              {view.item ? (
                <>
                  {' '}
                  with item <code>{view.item}</code> selected
                </>
              ) : null}{' '}
              and <strong>{link.notes === 0 ? 'no notes' : `${link.notes} note${link.notes === 1 ? '' : 's'}`}</strong>.{' '}
              {loaded.sourceUrls?.length
                ? 'The session loads from its URL by itself.'
                : `The link carries no transcript: your teammate opens the same file (session ${shortHash(loaded.hash ?? '')}), and the app checks it is the same.`}
            </p>
            <p className={`share-copied ${copy}`} role="status">
              {copyNote}
            </p>
            <textarea ref={field} className="share-url" aria-label="Share link URL" readOnly value={link.url} rows={3} onFocus={(e) => e.currentTarget.select()} />
            <p className={long ? 'share-length long' : 'share-length'}>
              <span>{formatCount(link.url.length)} characters</span>
              {long ? (
                <span role="note">
                  {' '}
                  — over about {formatCount(SHARE_LINK_LONG)}, chat apps and mail clients may cut it.{' '}
                  <button type="button" className="link" onClick={onBundle}>
                    Export a bundle instead
                  </button>
                </span>
              ) : (
                <span className="muted"> — short enough for chat apps and mail.</span>
              )}
            </p>
          </>
        ) : null}
        <RedactionOptions value={choice} onChange={rebuild} what="the notes" />
        {choice.on && link ? (
          link.redacted.length ? (
            <>
              <p className="small">In the link, these are replaced:</p>
              <ChangeList changes={link.redacted} label="Redacted in the notes" />
            </>
          ) : (
            <p className="small muted">Nothing in the notes matches: the link is unchanged.</p>
          )
        ) : null}
        <div className="dialog-actions">
          <button type="button" className={copy === 'changed' ? 'primary' : undefined} onClick={() => void copyAgain()} disabled={!link}>
            Copy link
          </button>
          <button type="button" className={copy === 'changed' ? undefined : 'primary'} onClick={onClose} autoFocus>
            Done
          </button>
        </div>
      </div>
    </div>
  );
}

function ExportBundleDialog({ loaded, onClose }: { loaded: LoadedSession; onClose(): void }) {
  const ref = useDialog(onClose);
  const [choice, setChoice] = useState<RedactChoice>(NO_REDACTION);
  const [preview, setPreview] = useState<{ preview: RedactionPreview; notes: { original: string; replacement: string }[] } | null>(null);
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<{ ok: boolean; text: string } | null>(null);
  const files = loaded.files ?? [];
  const size = files.reduce((n, f) => n + f.size, 0);
  const notes = notesOf(loaded).length;
  const view = currentView();

  useEffect(() => {
    const opts = redactOptions(choice);
    if (!opts) {
      setPreview(null);
      return;
    }
    let live = true;
    // Debounced: the custom-strings box changes on every key.
    const t = setTimeout(() => {
      previewBundleRedaction(loaded, opts)
        .then((p) => live && setPreview(p))
        .catch((e: unknown) => live && setResult({ ok: false, text: `The preview failed: ${e instanceof Error ? e.message : String(e)}` }));
    }, 250);
    return () => {
      live = false;
      clearTimeout(t);
    };
  }, [choice, loaded]);

  const rule = useApp((s) => s.rule);
  // The report's audit is the panel's: read with the instruction files the user added (their text stays out of it).
  const analysis = useAnalysis(loaded.key, loaded.session, rule, { instructionFiles: loaded.instructionFiles });
  const saveReport = () => {
    if (analysis.status !== 'ready') return;
    const r = exportReport(loaded, analysis.result.view, redactOptions(choice));
    setResult({ ok: true, text: `Saved ${r.name} (${formatBytes(r.bytes)}): a read-only report that opens in any browser and loads nothing.` });
  };
  // The exports carry every figure: they wait for the whole analysis (cache, lints, audits).
  const finished = analysis.status === 'ready' && analysis.result.view.pending.length === 0;
  const saveOtlp = () => {
    if (!finished) return;
    const r = exportOtlp(loaded, analysis.result.view, redactOptions(choice));
    setResult({ ok: true, text: `Saved ${r.name} (${formatBytes(r.bytes)}): ${r.spans} OpenTelemetry spans (OTLP JSON) — the session, each call and each compaction with its figures. Send it to your collector or tracing tool.` });
  };
  const saveAtif = () => {
    if (!finished) return;
    const r = exportAtif(loaded, analysis.result.view, redactOptions(choice));
    setResult({ ok: true, text: `Saved ${r.name} (${formatBytes(r.bytes)}): an ATIF trajectory, a step per call with its usage.` });
  };
  const download = async () => {
    setBusy(true);
    const r = await exportBundle(loaded, redactOptions(choice));
    setBusy(false);
    setResult(r.ok ? { ok: true, text: `Saved ${r.value.name} (${formatBytes(r.value.bytes)}). Dropping it into Compaction Inspector restores the session, the notes and this view.` } : { ok: false, text: r.error });
  };

  return (
    <div className="dialog-backdrop" onClick={onClose}>
      <div ref={ref} role="dialog" aria-modal="true" aria-label="Export bundle" className="dialog share-dialog" onClick={(e) => e.stopPropagation()}>
        <h2>Export bundle</h2>
        <p className="share-what">
          One file with the session's {files.length === 1 ? 'file' : `${files.length} files`} ({formatBytes(size)}), {notes === 0 ? 'no notes' : `${notes} note${notes === 1 ? '' : 's'}`} and this view (call {view.turn}). Send it
          where a link would be too long, or keep it as a record.
        </p>
        <ul className="bundle-files" aria-label="Files in the bundle">
          {files.map((f, i) => (
            <li key={`${f.name}-${i}`}>
              <code>{f.name}</code> <span className="muted small">{formatBytes(f.size)}</span>
            </li>
          ))}
        </ul>
        <RedactionOptions value={choice} onChange={setChoice} what="the files and notes" />
        {choice.on ? <RedactionPreviewView preview={preview} /> : null}
        {result ? (
          <p role={result.ok ? 'status' : 'alert'} className={result.ok ? 'share-done' : 'share-error'}>
            {result.text}
          </p>
        ) : null}
        <div className="export-formats" role="group" aria-label="Save the analysis">
          <span className="small muted">Or save the analysis{choice.on ? ' (redacted)' : ''}:</span>
          <button type="button" onClick={saveReport} disabled={analysis.status !== 'ready'} title="One HTML file with the facts, notes, calls and items; no script, no network">
            Download HTML report
          </button>
          <button type="button" onClick={saveOtlp} disabled={!finished} title={finished ? 'OpenTelemetry spans (OTLP JSON): a span per call and per compaction with our figures, for Jaeger, Tempo, Phoenix or Langfuse' : 'Waiting for the analysis to finish'}>
            Export as OTLP
          </button>
          <button type="button" onClick={saveAtif} disabled={!finished} title={finished ? 'An ATIF trajectory (Harbor): a step per call with its usage' : 'Waiting for the analysis to finish'}>
            Export as ATIF
          </button>
        </div>
        <div className="dialog-actions">
          <button type="button" onClick={onClose}>
            {result?.ok ? 'Close' : 'Cancel'}
          </button>
          <button type="button" className="primary" onClick={() => void download()} disabled={busy || files.length === 0}>
            {busy ? 'Preparing…' : 'Download bundle'}
          </button>
        </div>
      </div>
    </div>
  );
}

function RedactionPreviewView({ preview }: { preview: { preview: RedactionPreview; notes: { original: string; replacement: string }[] } | null }) {
  if (!preview) return <p className="small muted">Looking for secrets…</p>;
  const p = preview.preview;
  if (p.total === 0 && preview.notes.length === 0) return <p className="small muted">Nothing matches: the bundle is unchanged.</p>;
  return (
    <section className="redact-preview" aria-label="Redaction preview">
      <p className="small">
        {p.total} replacement{p.total === 1 ? '' : 's'} of {p.distinct} secret{p.distinct === 1 ? '' : 's'} in the files
        {preview.notes.length ? `, ${preview.notes.length} in the notes` : ''}. The same secret gets the same placeholder everywhere.
      </p>
      {p.files
        .filter((f) => f.count > 0)
        .map((f) => (
          <div key={f.name} className="redact-file">
            <p className="small">
              <code>{f.name}</code>: {f.count} change{f.count === 1 ? '' : 's'}
            </p>
            <ul className="redact-snippets">
              {f.snippets.map((s, i) => (
                <li key={i}>
                  <div className="before">
                    <span className="visually-hidden">Before: </span>
                    {s.before}
                  </div>
                  <div className="after">
                    <span className="visually-hidden">After: </span>
                    {s.after}
                  </div>
                </li>
              ))}
            </ul>
          </div>
        ))}
      <ChangeList changes={preview.notes} label="Redacted in the notes" />
    </section>
  );
}
