// A Vite plugin: `virtual:rank-table-urls` gives the address of each gpt-tokenizer rank table as JSON. The build
// emits the tables as assets; `npm start` serves them from memory. Workers fetch and parse them
// (app/workers/fetched-rank-tables.ts) instead of compiling the package's 2 MB array-literal modules.
import type { Plugin } from 'vite';
import { ENCODINGS, type EncodingName } from '../../src/tokens/encoding.ts';
import { loadRankTable } from '../../src/tokens/rank-tables.ts';

const ID = 'virtual:rank-table-urls';
const RESOLVED = '\0' + ID;
const DEV_PREFIX = '/@rank-tables/';

const json = new Map<EncodingName, Promise<string>>();
function tableJson(encoding: EncodingName): Promise<string> {
  let p = json.get(encoding);
  if (!p) json.set(encoding, (p = loadRankTable(encoding).then((t) => JSON.stringify(t))));
  return p;
}

export function rankTables(): Plugin {
  let serving = false;
  return {
    name: 'compaction-inspector:rank-tables',
    configResolved(config) {
      serving = config.command === 'serve';
    },
    resolveId(id) {
      return id === ID ? RESOLVED : null;
    },
    async load(id) {
      if (id !== RESOLVED) return null;
      const entries: string[] = [];
      for (const encoding of ENCODINGS) {
        if (serving) entries.push(`${encoding}: ${JSON.stringify(DEV_PREFIX + encoding + '.json')}`);
        else {
          const ref = this.emitFile({ type: 'asset', name: `${encoding}.json`, source: await tableJson(encoding) });
          entries.push(`${encoding}: import.meta.ROLLUP_FILE_URL_${ref}`);
        }
      }
      return `export default { ${entries.join(', ')} };`;
    },
    configureServer(server) {
      server.middlewares.use((req, res, next) => {
        const name = req.url?.startsWith(DEV_PREFIX) ? req.url.slice(DEV_PREFIX.length).replace(/\.json(\?.*)?$/, '') : null;
        const encoding = ENCODINGS.find((e) => e === name);
        if (!encoding) return next();
        tableJson(encoding).then(
          (body) => {
            res.setHeader('Content-Type', 'application/json');
            res.end(body);
          },
          (e: unknown) => next(e),
        );
      });
    },
  };
}
