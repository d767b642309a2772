// Does a later text mention an identifier only by printing again a line the evicted text already held? A build
// log read twice, a file re-read, a test rerun print the same lines: the identifier comes back with the output,
// not because a later turn asked for it. Such an echo is the re-fetch tax (src/refetch), not a reference.

/** A line without the `   42→` numbering a file read adds, trimmed. */
const bare = (line: string): string => line.replace(/^\s*\d+→/, '').trim();

/** The lines of `texts`, bare, long enough to identify output (a short line like `end` says nothing). */
export function lineSet(texts: readonly string[]): Set<string> {
  const out = new Set<string>();
  for (const t of texts) for (const line of t.split('\n')) {
    const b = bare(line);
    if (b.length >= 12) out.add(b);
  }
  return out;
}

/** Is every line of `later` that holds `needle` one of the `source` lines? False when no line holds it. */
export function onlyEchoes(later: string, needle: string, source: ReadonlySet<string> | readonly ReadonlySet<string>[]): boolean {
  const sets = source instanceof Set ? [source] : (source as readonly ReadonlySet<string>[]);
  let seen = false;
  for (let at = later.indexOf(needle); at >= 0; ) {
    const start = later.lastIndexOf('\n', at) + 1;
    const endAt = later.indexOf('\n', at);
    const end = endAt < 0 ? later.length : endAt;
    const line = bare(later.slice(start, end));
    if (!sets.some((set) => set.has(line))) return false;
    seen = true;
    at = later.indexOf(needle, end);
  }
  return seen;
}

/** The text a mention of the identifier's value is searched by: a function without its `()`. */
export const needleOf = (value: string): string => value.replace(/\(\)$/, '');
