// The user's share actions: open a link, reopen from the library, build a link, export a bundle.
import {
  bundleFileName,
  createRedactor,
  decodeShareFragment,
  encodeBundle,
  encodeShareFragment,
  hasShareFragment,
  redactAnnotations,
  redactFiles,
  type Annotation,
  type RedactOptions,
  type RedactionPreview,
  type Result,
  type ViewState,
} from '../../src/share';
import type { AnalysisView } from '../../src/analysis/analysis-view';
import { atifText } from '../../src/export/atif-export';
import { otlpText } from '../../src/export/otlp-export';
import { useApp } from '../store';
import { formatLabel } from '../format/format-label';
import { reportFileName, reportHtml } from './report-html';
import { EMPTY_NOTES, notesKey } from '../store/annotations-slice';
import type { LoadedSession } from '../store/session-slice';
import { mergeNotes } from './annotation-actions';
import { getLibraryMeta, loadLibraryFiles } from './library';
import { storageProblem } from './library-policy';
import { openLinkSources } from './link-sources';
import { openSources } from './open-files';
import { clearShareFragment } from './session-open';
import { bundleInputFor, shareBase, shareInputFor, viewFromStore } from './share-build';

/**
 * Opens the share link in `fragment`: from its source URLs, else from the library, else asks for the
 * file. A bad link only shows an error; nothing open is touched.
 */
export async function openShareLink(fragment: string): Promise<void> {
  const { setSharedLink } = useApp.getState();
  const decoded = decodeShareFragment(fragment);
  // Kept in the address bar until the view opens (a reload while asking for the file asks again).
  if (!decoded.ok) {
    clearShareFragment();
    setSharedLink({ phase: 'error', share: null, message: decoded.error });
    return;
  }
  const share = decoded.value.value;
  // The sharer's lint rule settings come with the view (a link without them leaves the user's own alone).
  if (share.lintRules) useApp.getState().replaceLintRules(share.lintRules);
  setSharedLink({ phase: 'opening', share });
  const stillOpening = () => {
    const s = useApp.getState().sharedLink;
    return s?.share === share && s.phase === 'opening';
  };
  if (share.sourceUrls.length) {
    // Sources on another origin wait for the user's yes (the banner asks); on this app's origin they open at once.
    const outcome = await openLinkSources(share.sourceUrls, 'share');
    if (outcome === 'asked') {
      if (stillOpening()) setSharedLink({ phase: 'consent', share });
      return;
    }
    if (stillOpening()) setSharedLink({ phase: 'need-file', share, message: 'Its source could not be loaded (see the message above).' });
    return;
  }
  let files: File[] | null = null;
  try {
    const meta = await getLibraryMeta(share.sessionHash);
    if (meta?.stored) files = await loadLibraryFiles(share.sessionHash);
  } catch {
    files = null; // no library here: ask for the file
  }
  if (files?.length) {
    const meta = await getLibraryMeta(share.sessionHash).catch(() => undefined);
    await openSources(files, { sourceUrls: meta?.sourceUrls ?? [] });
    if (stillOpening()) setSharedLink({ phase: 'need-file', share, message: 'The copy in your library could not be opened.' });
    return;
  }
  setSharedLink({ phase: 'need-file', share });
}

/** Opens the link in the address bar, once at start-up and whenever a link is pasted into this tab. */
let startupDone = false;
export function watchShareLinks(): () => void {
  const handle = () => {
    if (hasShareFragment(location.hash)) void openShareLink(location.hash);
  };
  if (!startupDone) {
    startupDone = true;
    handle();
  }
  window.addEventListener('hashchange', handle);
  return () => window.removeEventListener('hashchange', handle);
}

/**
 * Reopens a library session without dropping its files again: from the Library, or from the address (a reload of
 * a session whose files were dropped names it by `?lib=<hash>`).
 */
export async function openFromLibrary(hash: string, from: 'library' | 'address' = 'library'): Promise<boolean> {
  try {
    const meta = await getLibraryMeta(hash);
    const files = await loadLibraryFiles(hash);
    if (!files?.length) {
      const text =
        from === 'address'
          ? meta
            ? `This address names "${meta.title}", whose files this browser's library no longer keeps (too large, or let go for room): drop them again to reopen it (its notes are kept).`
            : "This address names a session this browser's library does not have (it was removed, or opened in another browser): drop its files to open it."
          : 'The library no longer has the files of this session: drop them again to reopen it (its notes are kept).';
      useApp.getState().pushNotice({ id: `library-${hash}`, tone: 'warn', text });
      return false;
    }
    useApp.getState().setLibraryOpen(false);
    await openSources(files, { sourceUrls: meta?.sourceUrls ?? [] });
    return true;
  } catch (e) {
    useApp.getState().pushNotice({ id: 'storage', tone: 'warn', text: `${storageProblem(e)}: the session could not be read from the library.` });
    return false;
  }
}

/** The view of the active session as a share ViewState. */
export function currentView(): ViewState {
  return viewFromStore(useApp.getState());
}

export function notesOf(loaded: LoadedSession): readonly Annotation[] {
  return useApp.getState().annotations[notesKey(loaded)] ?? EMPTY_NOTES;
}

export interface BuiltLink {
  url: string;
  notes: number;
  /** Changes redaction made to the notes (original → placeholder). */
  redacted: { original: string; replacement: string }[];
}

/** The share link of a session at the current view, its notes redacted when `redact` is given. */
export function buildShareLink(loaded: LoadedSession, redact: RedactOptions | null): Result<BuiltLink> {
  if (!loaded.hash) return { ok: false, error: 'This session has no content hash (its files could not be hashed), so a link cannot name it.' };
  let notes = [...notesOf(loaded)];
  const redacted: BuiltLink['redacted'] = [];
  if (redact) {
    const r = createRedactor(redact);
    notes = redactAnnotations(notes, r);
    for (const [original, replacement] of r.placeholders) redacted.push({ original, replacement });
  }
  const frag = encodeShareFragment(shareInputFor({ hash: loaded.hash, sourceUrls: loaded.sourceUrls ?? [] }, currentView(), notes, useApp.getState().lintRules));
  if (!frag.ok) return frag;
  return { ok: true, value: { url: shareBase(location.href) + frag.value, notes: notes.length, redacted } };
}

/** Copies text; false when the browser refuses (no permission, not a secure page). */
export async function copyText(text: string): Promise<boolean> {
  try {
    if (!navigator.clipboard?.writeText) return false;
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

async function filesOf(loaded: LoadedSession): Promise<{ name: string; bytes: Uint8Array }[]> {
  if (!loaded.files?.length) throw new Error('the files of this session are not available in this tab');
  return Promise.all(loaded.files.map(async (f) => ({ name: f.name, bytes: new Uint8Array(await f.arrayBuffer()) })));
}

/** What redaction would change in the session's files and notes, for the preview. */
export async function previewBundleRedaction(loaded: LoadedSession, redact: RedactOptions): Promise<{ preview: RedactionPreview; notes: { original: string; replacement: string }[] }> {
  const r = redactFiles(await filesOf(loaded), redact);
  // The notes go through the same redactor, so a secret gets the same placeholder in both.
  const notes = new Map<string, string>();
  for (const a of notesOf(loaded)) {
    for (const text of [a.note, ...a.tags, a.author ?? '']) for (const rep of r.redactor.redact(text).replacements) notes.set(rep.original, rep.replacement);
  }
  return { preview: r.preview, notes: [...notes].map(([original, replacement]) => ({ original, replacement })) };
}

/** Builds the bundle and downloads it; returns the file name or the error. */
export async function exportBundle(loaded: LoadedSession, redact: RedactOptions | null): Promise<Result<{ name: string; bytes: number }>> {
  let files: { name: string; bytes: Uint8Array }[];
  try {
    files = await filesOf(loaded);
  } catch (e) {
    return { ok: false, error: `Cannot export this bundle: ${e instanceof Error ? e.message : String(e)}.` };
  }
  let notes = [...notesOf(loaded)];
  if (redact) {
    const r = redactFiles(files, redact);
    files = r.files;
    notes = redactAnnotations(notes, r.redactor);
  }
  const text = await encodeBundle(bundleInputFor(files, currentView(), notes, new Date().toISOString()));
  if (!text.ok) return text;
  const name = bundleFileName(loaded.hash ?? '');
  return { ok: true, value: { name, bytes: download(name, text.value, 'application/json') } };
}

/** Saves `text` as a download through a Blob URL; returns its size in bytes. */
function download(name: string, text: string, type: string): number {
  const blob = new Blob([text], { type });
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.style.display = 'none';
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
  return blob.size;
}

/** Saves the self-contained HTML report of a session (redacted when asked). */
export function exportReport(loaded: LoadedSession, view: AnalysisView, redact: RedactOptions | null): { name: string; bytes: number } {
  let notes = [...notesOf(loaded)];
  let shown = view;
  if (redact) {
    const r = createRedactor(redact);
    shown = { ...view, items: view.items.map((i) => ({ ...i, text: r.redact(i.text).text, ...(i.name ? { name: r.redact(i.name).text } : {}) })) };
    notes = redactAnnotations(notes, r);
  }
  const s = loaded.session;
  const html = reportHtml({
    title: s.title,
    formatLabel: formatLabel(s.format),
    hash: loaded.hash ?? null,
    files: s.files,
    model: s.model,
    view: shown,
    annotations: notes,
    viewState: currentView(),
    createdAt: new Date().toISOString(),
    ...(loaded.instructionFiles?.length ? { instructionFiles: loaded.instructionFiles.map(({ path, size }) => ({ path, size })) } : {}),
  });
  const name = reportFileName(loaded.hash ?? null);
  return { name, bytes: download(name, html, 'text/html') };
}

/** The session and view with their transcript texts (and the title) redacted, as an export writes them. */
function redactedInput(loaded: LoadedSession, view: AnalysisView, redact: RedactOptions | null): { session: LoadedSession['session']; view: AnalysisView } {
  if (!redact) return { session: loaded.session, view };
  const r = createRedactor(redact);
  const item = <T extends { text: string; name?: string }>(i: T): T => ({ ...i, text: r.redact(i.text).text, ...(i.name ? { name: r.redact(i.name).text } : {}) });
  return {
    session: { ...loaded.session, title: r.redact(loaded.session.title).text, items: loaded.session.items.map(item) },
    view: { ...view, items: view.items.map(item), variants: new Map([...view.variants].map(([id, v]) => [id, item(v)])) },
  };
}

const exportName = (hash: string | null, ext: string) => `compaction-inspector-${hash && /^[0-9a-f]{64}$/.test(hash) ? hash.slice(0, 12) : 'session'}.${ext}`;

/**
 * Saves the analysis as OTLP JSON spans (src/export/otlp-export.ts, the figures the CLI's `--otlp` writes): a file to
 * send to a collector or open in a tracing tool; nothing leaves the page. Needs the finished analysis.
 */
export function exportOtlp(loaded: LoadedSession, view: AnalysisView, redact: RedactOptions | null): { name: string; bytes: number; spans: number } {
  const text = otlpText([redactedInput(loaded, view, redact)], { version: 'app' });
  const name = exportName(loaded.hash ?? null, 'otlp.json');
  return { name, bytes: download(name, text, 'application/json'), spans: 1 + view.calls.length + view.compactions.length };
}

/** Saves the session as an ATIF trajectory (src/export/atif-export.ts), as `inspect --atif` writes it. */
export function exportAtif(loaded: LoadedSession, view: AnalysisView, redact: RedactOptions | null): { name: string; bytes: number } {
  const text = atifText([redactedInput(loaded, view, redact)], { version: 'app' });
  const name = exportName(loaded.hash ?? null, 'atif.json');
  return { name, bytes: download(name, text, 'application/json') };
}

/** Adds the link's notes to a session opened despite a different hash (the user asked for it). */
export function addLinkNotesAnyway(): void {
  const s = useApp.getState();
  const link = s.sharedLink;
  const target = s.sessions.find((x) => x.key === link?.targetKey);
  if (!link?.share || !target) return;
  const added = mergeNotes(notesKey(target), link.share.annotations);
  s.setSharedLink({ ...link, added, phase: 'mismatch', message: `${added} note${added === 1 ? '' : 's'} from the link added to this file.` });
}
