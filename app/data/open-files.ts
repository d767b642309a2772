// The one path every way of opening files takes: drop, picker, paste, ?src and demos.
import type { Session } from '../../src/model/types';
import type { Result } from '../../src/share';
import type { OpenedBundle } from './bundle-open';
import type { OpenPlan } from '../../src/load/plan-open';
import type { PageSource } from './corpus-open';
import { useApp } from '../store';
import type { FirstLook } from '../store/session-slice';
import { forgetSession } from './analysis-client';
import { readUrlSpot } from './url-state';
import { dropEarlyLoad, fetchSources, loadInWorker, readBundleOffThread, startEarlyLoad, type LoadPreview, type LoadProgress, type LoadSource, type WorkerLoadResult } from './load-client';
import { afterLoad, asFiles, carryPreviewNotes, extrasFor, keepPreviewPlace, planViews, type OpenOptions } from './session-open';
import { isInstructionFile } from '../../src/load/instruction-files';
import { addToSessionInFront, notReadInCorpus, readInstructionFiles, withInstructionFiles, type InstructionSource } from './instruction-files';

/** The plan every open starts with (planOpen); fetched while the user picks a file (the first drop waited 30–60 ms for it). */
const corpusOpen = () => import('./corpus-open');
export function warmOpenPath(): void {
  void corpusOpen().catch(() => undefined);
}

/**
 * Opens what the user dropped, picked or pasted. A failure the load itself cannot report (its code could not be
 * fetched, say) is said in a notice: the user's action is never silently lost.
 */
export function openUserSources(input: LoadSource[]): void {
  openSources(input).catch((e: unknown) => sayOpenFailed(input.map((s) => s.name).join(', '), e));
}

/** Opens URLs the user chose (a demo), saying a failure as `openUserSources` does. */
export function openUserUrls(urls: string[]): void {
  openUrls(urls).catch((e: unknown) => sayOpenFailed(urls.map((u) => decodeURIComponent(u.slice(u.lastIndexOf('/') + 1))).join(', '), e));
}

/** Says that an open failed in a way its load could not report (its code could not be fetched, say). */
export function sayOpenFailed(names: string, e: unknown): void {
  useApp.getState().pushNotice({ id: 'open-failed', tone: 'error', text: `${names} could not be opened: ${e instanceof Error ? e.message : String(e)}. Try again, or reload the page.` });
}

export async function openSources(input: LoadSource[], opts: OpenOptions = {}): Promise<void> {
  if (input.length === 0 && !opts.instructions?.length) return;
  // Read and parsed in a load worker while the page plans the open below (load-client.ts, startEarlyLoad). Its first
  // look may come before the plan is done: it is shown once the plan opens these files as sessions. Not for a
  // bundle's files, nor for one corpus row (its first look is of the row's session, picked in the worker's load).
  let firstLookDue = false;
  let heldLook: FirstLook | null = null;
  // Instruction files (CLAUDE.md, …) never load as sessions: the early load goes without them.
  const loadable = input.filter((s) => !isInstructionFile(s.name));
  const early = opts.bundle || opts.only !== undefined || loadable.length === 0 ? null : startEarlyLoad(loadable, (look) => (firstLookDue ? showFirstLook(look) : (heldLook = look)));
  // What the user gave (src/load/plan-open.ts): many files at once, or a JSONL of whole trajectories, opens corpus
  // mode instead; a bundle's own files and one corpus row never do.
  let given: OpenPlan<PageSource>;
  try {
    const { planPage, pageSource, openCorpusPlan } = await corpusOpen();
    given = await planPage(input.map((s) => pageSource(s)), { corpus: !opts.bundle && opts.only === undefined });
    if (given.corpus) {
      dropEarlyLoad(early);
      if (given.instructions.length) notReadInCorpus(given.instructions.map((s) => s.name));
      return openCorpusPlan(given.corpus);
    }
  } catch (e) {
    dropEarlyLoad(early);
    throw e;
  }
  const { beginLoad, setProgress, finishLoad } = useApp.getState();
  const sources = given.sessions.map((s) => s.source);
  // Planned here, or by a dropped folder's plan (its paths are lost on the way: a File knows its name only).
  const instructions: InstructionSource[] = [...given.instructions.map((s) => ({ path: s.name, source: s.source })), ...(opts.instructions ?? [])];
  // The early load goes on only where the plan opens every file it was given as sessions.
  if (given.bundles.length > 0 || sources.length !== loadable.length) dropEarlyLoad(early);
  // A bundle carries its own files, notes and view: each opens as a load of its own.
  for (const b of given.bundles) await openBundle(b.name, await readBundleOffThread(b.source));
  if (sources.length === 0) {
    // Dropped onto an open session (or with a bundle, whose session is now in front).
    await addToSessionInFront(instructions);
    if (given.problems.length) {
      beginLoad();
      finishLoad(given.problems.map((p) => p.file), [], given.problems);
    }
    return;
  }
  const names = sources.map((s) => s.name);
  beginLoad();
  firstLookDue = true;
  if (heldLook && !early?.ended) showFirstLook(heldLook);
  // A lone big JSONL file shows its first lines while the rest loads (the worker decides what is big).
  const preview = opts.bundle ? null : new PreviewTab();
  let result: WorkerLoadResult;
  try {
    const only = opts.only !== undefined ? { only: opts.only } : {};
    // The first look (header and call stepper from the reported usage) goes in front only where the session will:
    // not behind an open corpus, not for a bundle (its view waits for the session).
    const firstLook = opts.bundle ? {} : { onReported: showFirstLook };
    result = await loadInWorker(sources, preview ? preview.progress : setProgress, preview ? { onPreview: preview.show, signal: preview.cancelled, early, ...only, ...firstLook } : { early, ...only, ...firstLook });
  } catch (e) {
    const key = preview?.end();
    if (preview?.cancelled.aborted) {
      finishLoad([], [], []); // its tab was closed: nothing to show or report
      preview.forget();
      return;
    }
    const message = e instanceof Error ? e.message : String(e);
    finishLoad(names, [], names.map((file) => ({ file, line: null, field: null, message, severity: 'error' as const })), undefined, key);
    preview?.forget();
    return;
  }
  const handed = preview ? await preview.handOver(result.sessions[0]) : { previewKey: undefined, fullKey: undefined };
  if (handed === 'closed') {
    finishLoad([], [], []); // the preview's tab was closed: the user does not want this file
    preview?.forget();
    return;
  }
  const { previewKey, fullKey } = handed;
  const extras = extrasFor(result, asFiles(sources), opts);
  // Every session of the load gets the instruction files that came with it (one project's sessions share them), and
  // the full session those the user added to its preview meanwhile.
  const onPreview = previewKey ? useApp.getState().sessions.find((s) => s.key === previewKey)?.instructionFiles : undefined;
  if (instructions.length || onPreview?.length) {
    const files = await readInstructionFiles(instructions);
    for (let i = 0; i < extras.length; i++) {
      const own = withInstructionFiles(i === 0 ? (onPreview ?? []) : [], files);
      if (own.length) extras[i] = { ...extras[i], instructionFiles: own };
    }
  }
  // The full session keeps the key its analysis started under while the preview was shown.
  if (fullKey && extras[0]) extras[0] = { ...extras[0], key: fullKey };
  const plan = planViews(result.sessions, extras, opts);
  if (previewKey) keepPreviewPlace(previewKey, result.sessions, plan, preview?.urlTurn ?? null);
  finishLoad(names, result.sessions, [...given.problems, ...result.issues], extras, previewKey);
  if (previewKey) carryPreviewNotes(previewKey, result.sessions[0]);
  preview?.forget();
  await afterLoad(result.sessions, plan, opts).catch((e: unknown) => {
    useApp.getState().pushNotice({ id: 'after-load', tone: 'warn', text: `The session opened, but its library entry or notes could not be updated: ${e instanceof Error ? e.message : String(e)}` });
  });
}

/** A load's first session as its reported usage shows it, until the session itself is in (finishLoad clears it). */
function showFirstLook(look: FirstLook): void {
  const s = useApp.getState();
  if (s.loads > 0) s.showFirstLook(look);
}

/** The preview is what the user is looking at (its tab is active and no corpus covers it). */
function inFront(s: ReturnType<typeof useApp.getState>, key: string): boolean {
  return s.activeKey === key && !(s.corpus !== null && s.corpusVisible);
}

/**
 * The tab of a load's preview, if the worker sends one: shown at once, given the load's progress, and
 * closing it cancels the load. end() returns its key once the load failed (the error then takes its
 * place); handOver() waits until the full session may take it; forget() then drops its analysis.
 */
class PreviewTab {
  private key: string | undefined;
  private fullKey: string | undefined;
  private readonly abort = new AbortController();
  private unwatch = () => {};
  readonly cancelled = this.abort.signal;
  /** The call the address bar names, when the preview is the page's first session (it takes that spot, clamped to its calls). */
  urlTurn: number | null = null;

  readonly show = (p: LoadPreview): void => {
    if (this.cancelled.aborted || this.key !== undefined) return;
    const { session, ...info } = p;
    if (useApp.getState().sessions.length === 0) this.urlTurn = readUrlSpot().turn;
    const key = useApp.getState().showPreview(session, info);
    this.key = key;
    this.unwatch = useApp.subscribe((s) => {
      if (!s.sessions.some((x) => x.key === key)) this.abort.abort();
    });
  };

  readonly progress = (p: LoadProgress): void => {
    const s = useApp.getState();
    if (this.key === undefined) s.setProgress(p);
    else s.setPreviewProgress(this.key, p);
  };

  end(): string | undefined {
    this.unwatch();
    return this.key;
  }

  /**
   * Parks the full session beside the preview, whose status line starts its analysis; resolves when the
   * full view is ready (so the tab never falls back to a loading screen), at once when the preview is not
   * in front, or with 'closed' when the user closed it meanwhile.
   */
  async handOver(full: Session | undefined): Promise<{ previewKey: string | undefined; fullKey: string | undefined } | 'closed'> {
    this.unwatch();
    const key = this.key;
    if (this.cancelled.aborted) return 'closed';
    if (key === undefined || !full) return { previewKey: key, fullKey: undefined };
    const state = useApp.getState();
    if (!state.sessions.some((x) => x.key === key)) return 'closed';
    if (!inFront(state, key)) return { previewKey: key, fullKey: undefined };
    const fullKey = state.stagePreviewFull(key, full);
    this.fullKey = fullKey;
    const outcome = await new Promise<'closed' | 'swap'>((resolve) => {
      const check = (s: ReturnType<typeof useApp.getState>) => {
        if (!s.sessions.some((x) => x.key === key)) resolve('closed');
        else if (s.previewLoads[key]?.ready || !inFront(s, key)) resolve('swap');
      };
      this.unwatch = useApp.subscribe(check);
      check(useApp.getState());
    });
    this.unwatch();
    return outcome === 'closed' ? 'closed' : { previewKey: key, fullKey };
  }

  forget(): void {
    // The analysis cache is keyed by session key: the preview's results must not outlive it, nor a
    // full session's whose preview was closed before it could take its place.
    if (this.key !== undefined) forgetSession(this.key);
    if (this.fullKey !== undefined && !useApp.getState().sessions.some((x) => x.key === this.fullKey)) forgetSession(this.fullKey);
  }
}

async function openBundle(name: string, result: Result<OpenedBundle>): Promise<void> {
  const { beginLoad, finishLoad, pushNotice } = useApp.getState();
  if (!result.ok) {
    beginLoad();
    finishLoad([name], [], [{ file: name, line: null, field: null, message: result.error, severity: 'error' }]);
    return;
  }
  const value = result.value;
  if (value.warnings.length) pushNotice({ id: `bundle-warn-${name}`, tone: 'warn', text: `${name}: ${value.warnings.join(' ')}` });
  await openSources(value.files, { bundle: { name, hash: value.sessionHash, view: value.view, annotations: value.annotations } });
}

/**
 * Fetches and opens URLs the user chose (a demo) or agreed to (a link's sources, see link-sources.ts).
 * `askToKeep`: sessions from another origin are not put in the library until the user keeps them.
 */
export async function openUrls(urls: string[], opts: { askToKeep?: boolean } = {}): Promise<void> {
  if (urls.length === 0) return;
  useApp.getState().beginLoad();
  try {
    const { sources, failures } = await fetchSources(urls);
    if (failures.length) {
      useApp.getState().beginLoad();
      useApp.getState().finishLoad(
        failures.map((f) => f.url),
        [],
        failures.map((f) => ({ file: f.url, line: null, field: null, message: f.message, severity: 'error' as const })),
      );
    }
    if (sources.length) await openSources(sources, { sourceUrls: urls, ...(opts.askToKeep ? { askToKeep: true } : {}) });
  } finally {
    // The fetch phase counted as a load of its own; it ends however the open went, so no bar waits forever.
    useApp.getState().finishLoad([], [], []);
  }
}
