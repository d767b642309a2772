// A bundle, decoded where it does not block the page: unzipping and parsing a 250 MB bundle took about three
// seconds of the main thread. The load worker decodes it and hands back its files as File objects (a Blob
// crosses threads by reference), so the page only receives small values. Without a Worker (unit tests,
// Node) the same code runs inline.
import { decodeBundle, type Annotation, type Result, type ViewState } from '../../src/share';

export interface OpenedBundle {
  sessionHash: string;
  view: ViewState;
  annotations: Annotation[];
  files: File[];
  warnings: string[];
}

/** Decodes a bundle's bytes or text into what opening it needs. */
export async function readBundle(input: Uint8Array | string): Promise<Result<OpenedBundle>> {
  const r = await decodeBundle(input);
  if (!r.ok) return r;
  const { value, warnings } = r.value;
  return {
    ok: true,
    value: {
      sessionHash: value.sessionHash,
      view: value.view,
      annotations: value.annotations,
      files: value.files.map((f) => new File([f.bytes as Uint8Array<ArrayBuffer>], f.name)),
      warnings,
    },
  };
}
