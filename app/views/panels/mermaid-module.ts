// Mermaid's code (several hundred KB over a few chunks), fetched once a session with a Flow tab has exact counts
// (Inspector.tsx, then its diagram is drawn in idle time: flow-drawing.ts), or when the user points at or focuses the
// Flow tab. Never part
// of the page's initial code (issue 9), nor fetched for a session without a Flow tab.
let pending: Promise<typeof import('mermaid')> | null = null;

// Mermaid imports its flowchart code when a render first meets a flowchart, and dagre's layout when that render
// lays it out: two more round trips and compiles, one after the other. Asked for beside Mermaid itself, they
// arrive together. Their file names carry mermaid's build hashes, hence globs (mermaid-module.test.ts checks each
// matches one file).
export const flowchartParts = {
  ...import.meta.glob('/node_modules/mermaid/dist/chunks/mermaid.core/flowDiagram-*.mjs'),
  ...import.meta.glob('/node_modules/mermaid/dist/chunks/mermaid.core/dagre-*.mjs'),
};

export function loadMermaid(): Promise<typeof import('mermaid')> {
  pending ??= Promise.all([import('mermaid'), ...Object.values(flowchartParts).map((load) => load().catch(() => undefined))])
    .then(([m]) => m)
    .catch((e: unknown) => {
      // A failed fetch may be tried again.
      pending = null;
      throw e;
    });
  return pending;
}

/** For a tab's pointer-enter and focus handlers. */
export function warmMermaid(): void {
  void loadMermaid().catch(() => undefined);
}
