// Entire (entireio/cli) redacts what looks like a secret before it commits a session: every run of ten or more of
// [A-Za-z0-9/+_=-] whose Shannon entropy passes 4.5 becomes "REDACTED" (its redact/redact.go). A long absolute path is
// such a run up to its first dot, so `/home/u/shop/reports/NATAL_a_20260216/report_data.json` reads
// `REDACTED.json` in the file, while the summary's shorter relative spelling of it may survive. The file then no
// longer shows what the summarizer read: a path the summary names is not judged invented when the summarizer read a
// redacted path that ends as it does (its extension).
import type { Identifier } from './identifiers';

const REDACTED_TOKEN = /[^\s"'`<>()[\]{},;]*REDACTED[^\s"'`<>()[\]{},;]*/g;
const extensionOf = (path: string): string | null => /\.([A-Za-z0-9]{1,10})$/.exec(path.replace(/[/\\]+$/, ''))?.[1]?.toLowerCase() ?? null;

/** The extensions of the redacted paths the texts hold (`REDACTED.json`, `src/REDACTED.md`). */
export function redactedExtensions(texts: Iterable<string>): Set<string> {
  const out = new Set<string>();
  for (const text of texts) {
    if (!text.includes('REDACTED')) continue;
    for (const token of text.match(REDACTED_TOKEN) ?? []) {
      const ext = extensionOf(token);
      if (ext) out.add(ext);
    }
  }
  return out;
}

/** Is the identifier a path the redaction may have hidden from the sources (one of those extensions)? */
export function hiddenByRedaction(id: Pick<Identifier, 'kind' | 'value'>, extensions: ReadonlySet<string>): boolean {
  if (id.kind !== 'path' || extensions.size === 0) return false;
  const ext = extensionOf(id.value);
  return ext !== null && extensions.has(ext);
}
