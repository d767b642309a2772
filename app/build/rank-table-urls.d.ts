// The modules app/build/rank-tables.ts provides: each encoding's rank table address, as the table and packed.
declare module 'virtual:rank-table-urls' {
  const urls: Record<import('../../src/tokens/encoding').EncodingName, string>;
  export default urls;
}
declare module 'virtual:packed-rank-table-urls' {
  /** The packed table (JSON) and its lookup's slots (raw Int32, little endian). */
  const urls: Record<import('../../src/tokens/encoding').EncodingName, { json: string; slots: string }>;
  export default urls;
}
