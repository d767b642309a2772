// Caps on everything a link or bundle may carry. They bound the work a hostile link can cause
// (decompression bombs, million-entry arrays, megabyte strings) while staying far above real use.

export const LIMITS = {
  /** Annotations per link or bundle. */
  annotations: 5_000,
  /** Characters in one note. */
  noteChars: 20_000,
  /** Tags on one annotation, and characters in one tag. */
  tags: 32,
  tagChars: 80,
  /** Annotation ids, item ids. Real item ids are short (`m3`, `toolu_…`, UUIDs). */
  idChars: 256,
  authorChars: 120,
  /** Panel ids are short slugs (`budget`, `cache`). */
  panelChars: 40,
  /** Highest call number (1-based) a view or target may name. */
  call: 10_000_000,
  /** Source URLs in a link, and characters in one. */
  sourceUrls: 32,
  urlChars: 4_096,
  /** Characters of a fragment we even try to decode (browsers accept ~2 MB URLs). */
  fragmentChars: 2_000_000,
  /** Bytes of JSON a link may inflate to: a bomb stops here. */
  linkJsonBytes: 8 * 1024 * 1024,
} as const;

/** Bundles carry whole session files, so their caps are in bytes and can be lowered per call. */
export interface BundleLimits {
  files: number;
  /** Bytes of one file after decoding. */
  fileBytes: number;
  /** Bytes of all files after decoding. */
  totalBytes: number;
  fileNameChars: number;
}

export const BUNDLE_LIMITS: BundleLimits = {
  files: 200,
  fileBytes: 128 * 1024 * 1024,
  // A bundle is read as one JS string; base64 of this much stays under V8's ~512M-character string cap.
  totalBytes: 256 * 1024 * 1024,
  fileNameChars: 255,
};
