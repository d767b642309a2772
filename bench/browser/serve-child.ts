// `serve` for the page's measure (serve-page.ts), in its own process as a user runs it: what runServe
// (src/cli/serve.ts) starts for a named folder — its listing, the per-file index beside the result cache under this
// engine's id, the glance worker — but serving the bench's fresh build instead of the package's dist/.
// Prints the address with its token, and closes (writing the index) on SIGTERM.
// Usage: node --import tsx bench/browser/serve-child.ts <sessions folder> <built app> <cache folder>
import { join, resolve } from 'node:path';
import { engineId } from '../../src/cli/result-cache';
import { startServer } from '../../src/cli/serve';
import { openGlanceIndex } from '../../src/cli/serve-index';
import { openRoots } from '../../src/cli/serve-listing';

const [sessions, dist, cacheDir] = process.argv.slice(2);
if (!sessions || !dist || !cacheDir) throw new Error('usage: serve-child.ts <sessions> <dist> <cache dir>');
const { roots, missing } = openRoots([{ dir: resolve(sessions), harness: null }]);
if (missing.length) throw new Error(`cannot serve ${missing.join(', ')}`);
const index = openGlanceIndex(join(cacheDir, 'serve-index.json'), engineId());
const running = await startServer({ roots, dist, port: 0, index });
console.log(running.url);
process.once('SIGTERM', () => {
  void running.close().then(() => {
    console.log(`index: ${index.stats.hits} hits, ${index.stats.misses} misses`);
    process.exit(0);
  });
});
