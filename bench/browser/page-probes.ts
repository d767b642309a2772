// Code that runs inside the app's page: long-task recording from the first script on, a drop of a file the
// page fetches itself (100 MB never crosses the DevTools protocol), the first-view / exact-count watch, the
// split-and-parse baseline, and stepping with `j`.

/** Installed with page.addInitScript before any app script: every long task of the page's main thread. */
export function recordLongTasks(): void {
  const w = window as unknown as { __longTasks: { start: number; duration: number }[] };
  w.__longTasks = [];
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) w.__longTasks.push({ start: e.startTime, duration: e.duration });
    }).observe({ type: 'longtask', buffered: true });
  } catch {
    // no longtask support: the list stays empty and the bench says so
  }
}

export interface DropWatch {
  t0: number;
  /**
   * The stepper is shown: a big file's preview (its first megabytes) or the whole session; from the reported usage
   * (header and stepper) before the analysis's first view.
   */
  firstView: number | null;
  /** The analysis's first view: a call's context (or the transcript) beside the panels. */
  contextView?: number | null;
  /** The whole session is shown (no preview status any more). */
  fullView: number | null;
  /** The whole session's exact counts are shown. */
  exact: number | null;
  error: string | null;
}

/**
 * Fetches `url` into a File, then drags it over the page for `dragMs` (dragover every 50 ms, as a moving pointer
 * sends them) and drops it; the watch notes when the views appear, from the drop.
 */
export async function dropFetched({ url, name, dragMs = 0 }: { url: string; name: string; dragMs?: number }): Promise<number> {
  const blob = await (await fetch(url)).blob();
  const file = new File([blob], name);
  const w = window as unknown as { __drop: DropWatch };
  const watch: DropWatch = { t0: 0, firstView: null, contextView: null, fullView: null, exact: null, error: null };
  w.__drop = watch;
  const check = () => {
    const stepper = document.querySelector('[role="toolbar"][aria-label="Step through calls"]');
    const previewing = document.querySelector('.preview-status') !== null;
    // Marked too, so a trace of the run (bench/trace-drop.ts, BENCH_TRACE) places them among the threads' work.
    if (watch.firstView === null && stepper) performance.mark('bench:first-view', { startTime: (watch.firstView = performance.now()) });
    if (watch.fullView === null && stepper && !previewing) watch.fullView = performance.now();
    if (watch.contextView === null && document.querySelector('.inspector-body')) performance.mark('bench:context-view', { startTime: (watch.contextView = performance.now()) });
    const status = document.querySelector('.count-status');
    if (watch.exact === null && !previewing && status && !status.classList.contains('estimating')) performance.mark('bench:exact', { startTime: (watch.exact = performance.now()) });
    const error = document.querySelector('.view-error, .load-error');
    if (watch.error === null && error) watch.error = error.textContent;
  };
  new MutationObserver(check).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['class'] });
  const dt = new DataTransfer();
  dt.items.add(file);
  const target = document.querySelector('main') ?? document.body;
  const send = (type: string) => target.dispatchEvent(new DragEvent(type, { dataTransfer: dt, bubbles: true, cancelable: true }));
  send('dragenter');
  for (let left = dragMs; left > 0; left -= 50) {
    send('dragover');
    await new Promise((resolve) => setTimeout(resolve, Math.min(50, left)));
  }
  watch.t0 = performance.now();
  performance.mark('bench:drop', { startTime: watch.t0 });
  send('dragover');
  send('drop');
  return blob.size;
}

/** The baseline of the first budget: split the same file into lines and JSON.parse each, in this page. */
export async function splitAndParse(url: string): Promise<{ decodeMs: number; splitParseMs: number; lines: number }> {
  const blob = await (await fetch(url)).blob();
  const t0 = performance.now();
  const text = await blob.text();
  const t1 = performance.now();
  let lines = 0;
  for (const line of text.split('\n')) {
    if (!line) continue;
    JSON.parse(line);
    lines++;
  }
  const t2 = performance.now();
  return { decodeMs: t1 - t0, splitParseMs: t2 - t1, lines };
}

/** Presses `j` `steps` times; each step is timed from the key to the frame after the call label changed. */
export async function stepWithJ({ steps, budgetMs }: { steps: number; budgetMs: number }): Promise<{ times: number[]; first: string | null; last: string | null }> {
  const label = () => document.querySelector('.call-label')?.textContent ?? null;
  const nextFrame = () => new Promise<void>((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
  const times: number[] = [];
  const first = label();
  const start = performance.now();
  for (let i = 0; i < steps && performance.now() - start < budgetMs; i++) {
    const before = label();
    const t0 = performance.now();
    document.body.dispatchEvent(new KeyboardEvent('keydown', { key: 'j', bubbles: true, cancelable: true }));
    await nextFrame();
    while (label() === before && performance.now() - t0 < 5000) await nextFrame();
    times.push(performance.now() - t0);
  }
  return { times, first, last: label() };
}

/**
 * Once the drop watch has seen exact counts (checked every frame, so no polling delay of the harness is measured),
 * opens every panel in turn and waits until it shows its final content (no lazy-load line, no part of the analysis
 * still being worked out, nothing marked aria-busy: the flow diagram until Mermaid has drawn it): when, on the page's clock, the last one was final (null past `timeoutMs`), how long each
 * panel took from its click, and when the first was clicked.
 */
export async function allPanelsFinal({ timeoutMs }: { timeoutMs: number }): Promise<{ at: number | null; walkFrom: number; panels: { name: string; ms: number }[] }> {
  const start = performance.now();
  const frame = () => new Promise<void>((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
  const watch = (window as unknown as { __drop?: DropWatch }).__drop;
  while (!watch || watch.exact === null) {
    if (performance.now() - start > timeoutMs) return { at: null, walkFrom: performance.now(), panels: [] };
    await frame();
  }
  const walkFrom = performance.now();
  const tabs = [...document.querySelectorAll<HTMLElement>('[role="tablist"][aria-label="Panels"] [role="tab"]')];
  const busy = () => document.querySelector('.panel .panel-loading, .panel .pending-part, .panel [aria-busy="true"], .analysis-loading') !== null;
  const panels: { name: string; ms: number }[] = [];
  for (const tab of tabs) {
    const t0 = performance.now();
    // Marked, so a trace of the walk (BENCH_TRACE) gives each panel's thread time.
    performance.mark(`bench:panel:${tab.textContent ?? ''}`, { startTime: t0 });
    tab.click();
    await frame();
    while (busy()) {
      if (performance.now() - start > timeoutMs) return { at: null, walkFrom, panels };
      await frame();
    }
    panels.push({ name: tab.textContent ?? '', ms: Math.round(performance.now() - t0) });
  }
  const at = performance.now();
  performance.mark('bench:panels-final', { startTime: at });
  return { at, walkFrom, panels };
}

/** What `serve`'s session table showed, on the page's clock (ms from navigation start). */
export interface ServeWatch {
  /** The app's first render in its root element. */
  appShown: number | null;
  /** The table lists every session (its status counts them all) and its rows fill its scroll area: the frame after. */
  listed: number | null;
  /** No measured cell waits any more (none reads `…`, the status measures nothing): the frame after. */
  filled: number | null;
  /** Rows in the table's body in the frame it was listed (those in view, when the table is virtualized). */
  rows: number;
}

/**
 * Installed with page.addInitScript before any app script: follows `serve`'s table until it lists `expected`
 * sessions and every measured cell is filled. Each time is that of the frame after the change (a requestAnimationFrame
 * then a task), so it counts the paint; the checks run on every DOM change, so no polling delay is measured.
 */
export function watchServeTable(expected: number): void {
  const watch: ServeWatch = { appShown: null, listed: null, filled: null, rows: 0 };
  (window as unknown as { __serve: ServeWatch }).__serve = watch;
  const afterFrame = (set: (t: number) => void) => requestAnimationFrame(() => setTimeout(() => set(performance.now()), 0));
  let listedSeen = false;
  let filledSeen = false;
  const check = () => {
    if (watch.appShown === null && document.getElementById('root')?.firstElementChild) watch.appShown = performance.now();
    const table = document.querySelector('table.served-table');
    const status = document.querySelector('.served-toolbar [role="status"]')?.textContent ?? '';
    const rows = [...(table?.querySelectorAll('tbody tr:not([aria-hidden])') ?? [])];
    // The rows reach the bottom of the table's scroll area (a virtualized table may first paint fewer than fit).
    const scroll = table?.closest('.served-scroll');
    const fills = () => rows.length === expected || (!!scroll && rows.at(-1)!.getBoundingClientRect().bottom >= scroll.getBoundingClientRect().bottom - 1);
    if (!listedSeen && rows.length > 0 && status.startsWith(`${expected} sessions`) && fills()) {
      listedSeen = true;
      afterFrame((t) => {
        // The rows the painted frame holds (a virtualized table: those in view).
        watch.rows = table!.querySelectorAll('tbody tr:not([aria-hidden])').length;
        performance.mark('bench:serve-listed', { startTime: (watch.listed = t) });
      });
    }
    if (listedSeen && !filledSeen && !status.includes('measuring') && ![...table!.querySelectorAll('td.num')].some((td) => td.textContent === '…')) {
      filledSeen = true;
      afterFrame((t) => performance.mark('bench:serve-filled', { startTime: (watch.filled = t) }));
    }
  };
  const start = () => new MutationObserver(check).observe(document.documentElement, { subtree: true, childList: true, characterData: true });
  if (document.documentElement) start();
  else document.addEventListener('readystatechange', start, { once: true });
}
