// The open path's first step, loaded on demand with the engine: asks planOpen (src/load/plan-open.ts) what the page's
// sources are, and opens a corpus plan in the corpus view. open-files.ts routes the rest. (It is a chunk of its own,
// fetched while the user picks a file; e2e/hostile.spec.ts cuts it off to see that a failed fetch is said.)
import { planOpen, type OpenPlan, type OpenSource, type PlanOptions } from '../../src/load/plan-open';
import { openCorpus } from './corpus-client';
import type { LoadSource } from './load-client';

/** A source the page holds, as planOpen reads it: by its path (a dropped folder's files) or name. */
export interface PageSource extends OpenSource {
  source: LoadSource;
}

/** A file's head is read once, this much of it: the plan asks each kind in turn for its first 4 bytes to 64 KB. */
const HEAD_READ = 64 << 10;

export function pageSource(source: LoadSource, path: string = source.name): PageSource {
  const blob = source instanceof Blob ? source : null;
  let encoded: Uint8Array | null = null;
  const text = () => (encoded ??= new TextEncoder().encode((source as { text: string }).text));
  const read = async () => (blob ? new Uint8Array(await blob.arrayBuffer()) : text());
  // Each read of a blob is a round trip to the browser's process (the first view waited for four of them).
  let first: Promise<Uint8Array> | null = null;
  const head = async (n: number): Promise<Uint8Array> => {
    if (!blob) return text().subarray(0, n);
    if (n > HEAD_READ) return new Uint8Array(await blob.slice(0, n).arrayBuffer());
    first ??= blob
      .slice(0, HEAD_READ)
      .arrayBuffer()
      .then((b) => new Uint8Array(b));
    return (await first).subarray(0, n);
  };
  return { name: path, size: blob ? blob.size : text().length, source, head, read };
}

export function planPage(sources: readonly PageSource[], opts: PlanOptions = {}): Promise<OpenPlan<PageSource>> {
  return planOpen(sources, opts);
}

const asFile = (s: LoadSource): File => (s instanceof File ? s : s instanceof Blob ? new File([s], 'file') : new File([s.text], s.name));

/** Opens a plan's corpus in the corpus view (files keep their paths). */
export function openCorpusPlan(corpus: NonNullable<OpenPlan<PageSource>['corpus']>): void {
  openCorpus(
    corpus.sources.map((s) => ({ file: asFile(s.source), path: s.name })),
    corpus.name,
  );
}
