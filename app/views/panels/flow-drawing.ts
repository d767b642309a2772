// Drawing the flow diagram with Mermaid, apart from the panel: the panel draws through it, and the inspector draws
// the session's diagram ahead in idle time (predrawFlow), so a first open of the Flow tab finds it drawn. Mermaid's
// first render in a page costs ~0.4-0.5 s of main-thread CPU (its code run cold, text measuring, dagre's layout,
// DOMPurify); after the click it was the longest part of opening every panel.
import { loadMermaid } from './mermaid-module';
import { mermaidFlow, type FlowInput, type FlowPalette } from '../../../src/flow/mermaid-source';

export interface Colors {
  palette: Partial<FlowPalette>;
  /** Mermaid's `base` theme variables from the app's colours, or null to use mermaid's own theme. */
  themeVariables: Record<string, string> | null;
}

/** Built CSS may shorten colours (#fff), so both hex forms are read. */
const HEX = /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/;

export function readColors(): Colors {
  const css = getComputedStyle(document.documentElement);
  const v = (name: string) => css.getPropertyValue(name).trim();
  const [panel, bg, text, muted, border, accentSoft] = ['--panel', '--bg', '--text', '--muted', '--border', '--accent-soft'].map(v) as [string, string, string, string, string, string];
  const ok = [panel, bg, text, muted, border, accentSoft].every((c) => HEX.test(c));
  return {
    palette: { segment: v('--accent'), compaction: v('--c-compaction'), summary: v('--c-summary'), fallback: v('--c-omission') },
    themeVariables: ok
      ? {
          background: panel,
          mainBkg: bg,
          primaryColor: bg,
          primaryTextColor: text,
          primaryBorderColor: border,
          secondaryColor: accentSoft,
          tertiaryColor: panel,
          lineColor: muted,
          textColor: text,
          nodeTextColor: text,
          edgeLabelBackground: panel,
          fontSize: '14px',
          fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
        }
      : null,
  };
}

let renders = 0;
/** A fresh id for Mermaid's render (its element ids). */
export const nextRenderId = () => ++renders;

export type MermaidConfig = Parameters<Awaited<ReturnType<typeof loadMermaid>>['default']['initialize']>[0];

export function mermaidConfig(colors: Colors, theme: string): MermaidConfig {
  return {
    startOnLoad: false,
    securityLevel: 'strict',
    htmlLabels: false,
    flowchart: { htmlLabels: false, curve: 'basis', padding: 10, useMaxWidth: false },
    ...(colors.themeVariables ? { theme: 'base' as const, themeVariables: { ...colors.themeVariables, darkMode: theme === 'dark' } } : { theme: theme === 'dark' ? ('dark' as const) : ('default' as const) }),
    fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
    maxTextSize: 200_000,
    maxEdges: 2_000,
  };
}

/**
 * Drawn diagrams by source and look: Mermaid's render is the panel's whole cost (~150 ms of CPU for four nodes, more
 * cold), so a tab opened again, or a view whose diagram did not change, reuses the SVG.
 */
const drawn = new Map<string, string>();
const DRAWN_KEPT = 8;
/** The config Mermaid was last initialized with: initializing merges and re-derives its whole theme each time. */
let initializedWith: string | null = null;
/** Renders one at a time: each initializes Mermaid's global config before it draws. */
let queue: Promise<unknown> = Promise.resolve();

/**
 * Where Mermaid measures its labels: off screen, its layout and style contained, so each measurement (a text
 * appended, measured, removed, several per node) lays out this box instead of the whole inspector.
 */
function measuringBox(): HTMLElement {
  let box = document.getElementById('flow-measure');
  if (!box) {
    box = document.createElement('div');
    box.id = 'flow-measure';
    box.setAttribute('aria-hidden', 'true');
    box.style.cssText = 'position:fixed;left:-20000px;top:0;width:8000px;height:8000px;contain:strict;visibility:hidden;pointer-events:none';
    document.body.append(box);
  }
  return box;
}

/** A drawing's key in `drawn`: the config as Mermaid gets it, then the source. */
const drawnKey = (source: string, configKey: string) => `${configKey}\n${source}`;

export function drawFlow(source: string, config: MermaidConfig, id: string): Promise<string> {
  const configKey = JSON.stringify(config);
  const key = drawnKey(source, configKey);
  const hit = drawn.get(key);
  if (hit !== undefined) return Promise.resolve(hit);
  const run = queue.then(async () => {
    const again = drawn.get(key);
    if (again !== undefined) return again;
    const { default: mermaid } = await loadMermaid();
    if (initializedWith !== configKey) {
      mermaid.initialize(config);
      initializedWith = configKey;
    }
    const { svg } = await mermaid.render(id, source, measuringBox());
    drawn.delete(key);
    drawn.set(key, svg);
    while (drawn.size > DRAWN_KEPT) drawn.delete(drawn.keys().next().value!);
    return svg;
  });
  queue = run.catch(() => undefined);
  return run;
}

/** The SVG already drawn for this source and look, if any. */
export function drawnFor(source: string, config: MermaidConfig): string | null {
  return drawn.get(drawnKey(source, JSON.stringify(config))) ?? null;
}


/**
 * Draws `view`'s diagram into the kept drawings, with the look the panel reads now, unless it is there already. For
 * idle time: a failure is left for the panel to show when it is opened.
 */
export function predrawFlow(view: FlowInput): Promise<void> {
  const colors = readColors();
  const theme = document.documentElement.dataset.theme ?? 'light';
  const { source } = mermaidFlow(view, { palette: colors.palette, direction: 'TD' });
  const config = mermaidConfig(colors, theme);
  if (drawnFor(source, config) !== null) return Promise.resolve();
  return drawFlow(source, config, `flow-ahead-${nextRenderId()}`).then(
    // Marked for the e2e test and traces: a drawing is ready before its tab is opened.
    () => void performance.mark('flow:drawn-ahead'),
    () => undefined,
  );
}
