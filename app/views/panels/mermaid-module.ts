// Mermaid's code (several hundred KB over a few chunks), fetched when the flow diagram is first drawn, or when the
// user points at or focuses the Flow tab: a first open of the panel otherwise spent ~250 ms fetching and compiling it
// after the click. Never fetched for a session whose diagram nobody looks at (issue 9: Mermaid loads when first used).
let pending: Promise<typeof import('mermaid')> | null = null;

export function loadMermaid(): Promise<typeof import('mermaid')> {
  pending ??= import('mermaid').catch((e: unknown) => {
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
