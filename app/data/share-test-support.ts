// Engine pieces the app's share tests use, plus a way to read a link's JSON.
import { inflateSync } from 'fflate';
export { decodeBundle, decodeShareFragment, encodeBundle, encodeShareFragment, sessionHash, type Annotation } from '../../src/share';

/** The JSON text inside a `#ci=1.<payload>` fragment. */
export function inflateForTest(fragment: string): string {
  const payload = fragment.slice(fragment.indexOf('.') + 1).replace(/-/g, '+').replace(/_/g, '/');
  return new TextDecoder().decode(inflateSync(Uint8Array.from(Buffer.from(payload, 'base64'))));
}
