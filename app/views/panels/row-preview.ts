// A row's one-line preview of an item's text, as the eviction map's rows show it.

/**
 * The text's first 80 characters with its white space folded, read from a prefix long enough to hold them: folding
 * whole tool results (tens of kB each) for every row drawn was most of the eviction map's first render.
 */
export function rowPreview(text: string, length = 80): string {
  for (let end = 256; ; end *= 4) {
    const flat = text.slice(0, end).replace(/\s+/g, ' ').trim();
    // Past `length` characters, a cut at `end` changes only what follows them.
    if (flat.length > length || end >= text.length) return flat.slice(0, length);
  }
}
