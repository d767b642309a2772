// The module app/build/rank-tables.ts provides: each encoding's rank table address.
declare module 'virtual:rank-table-urls' {
  const urls: Record<import('../../src/tokens/encoding').EncodingName, string>;
  export default urls;
}
