// A Vite plugin: `virtual:rank-table-urls` gives the address of each gpt-tokenizer rank table as JSON, and
// `virtual:packed-rank-table-urls` that of the same table packed (src/tokens/rank-lookup.ts: two strings, no array of
// 200k). The build emits the tables as assets; `npm start` serves them from memory. Workers fetch and parse the packed
// ones (app/workers/fetched-rank-tables.ts) instead of compiling the package's 2 MB array-literal modules: parsing the
// table's 200k strings and joining them again took a token worker ~0.3 s of CPU beside the first view, the packed JSON
// parses in a few milliseconds. Beside each packed table goes its lookup's hash table (`rankSlots`, raw Int32 little
// endian, as the CLI's ranks-*.slots): filling it in a cold worker took another ~0.15 s.
import type { Plugin } from 'vite';
import { ENCODINGS, type EncodingName } from '../../src/tokens/encoding.ts';
import { packRankTable, rankSlots } from '../../src/tokens/rank-lookup.ts';
import { loadRankTable } from '../../src/tokens/rank-tables.ts';

const ID = 'virtual:rank-table-urls';
const PACKED_ID = 'virtual:packed-rank-table-urls';
const RESOLVED = '\0' + ID;
const PACKED_RESOLVED = '\0' + PACKED_ID;
const DEV_PREFIX = '/@rank-tables/';
const PACKED_SUFFIX = '.packed';
const SLOTS_EXT = '.slots';

const json = new Map<string, Promise<string>>();
function tableJson(encoding: EncodingName, packed = false): Promise<string> {
  const key = packed ? encoding + PACKED_SUFFIX : encoding;
  let p = json.get(key);
  if (!p) json.set(key, (p = loadRankTable(encoding).then((t) => JSON.stringify(packed ? packRankTable(t) : t))));
  return p;
}

const slotBytes = new Map<EncodingName, Promise<Uint8Array>>();
function tableSlots(encoding: EncodingName): Promise<Uint8Array> {
  let p = slotBytes.get(encoding);
  if (!p)
    slotBytes.set(
      encoding,
      (p = loadRankTable(encoding).then((t) => {
        const slots = rankSlots(packRankTable(t));
        return new Uint8Array(slots.buffer, slots.byteOffset, slots.byteLength);
      })),
    );
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
      return id === ID ? RESOLVED : id === PACKED_ID ? PACKED_RESOLVED : null;
    },
    async load(id) {
      if (id !== RESOLVED && id !== PACKED_RESOLVED) return null;
      const packed = id === PACKED_RESOLVED;
      const suffix = packed ? PACKED_SUFFIX : '';
      const entries: string[] = [];
      for (const encoding of ENCODINGS) {
        // The packed module gives each table's address and its lookup's (`{ json, slots }`).
        if (serving) {
          const json = JSON.stringify(DEV_PREFIX + encoding + suffix + '.json');
          entries.push(packed ? `${encoding}: { json: ${json}, slots: ${JSON.stringify(DEV_PREFIX + encoding + SLOTS_EXT)} }` : `${encoding}: ${json}`);
        } else {
          const ref = this.emitFile({ type: 'asset', name: `${encoding}${suffix}.json`, source: await tableJson(encoding, packed) });
          if (!packed) entries.push(`${encoding}: import.meta.ROLLUP_FILE_URL_${ref}`);
          else {
            const slots = this.emitFile({ type: 'asset', name: `${encoding}${SLOTS_EXT}`, source: await tableSlots(encoding) });
            entries.push(`${encoding}: { json: import.meta.ROLLUP_FILE_URL_${ref}, slots: import.meta.ROLLUP_FILE_URL_${slots} }`);
          }
        }
      }
      return `export default { ${entries.join(', ')} };`;
    },
    configureServer(server) {
      server.middlewares.use((req, res, next) => {
        const path = req.url?.startsWith(DEV_PREFIX) ? req.url.slice(DEV_PREFIX.length).replace(/\?.*$/, '') : null;
        const slots = path ? ENCODINGS.find((e) => path === e + SLOTS_EXT) : undefined;
        if (slots) {
          tableSlots(slots).then(
            (body) => {
              res.setHeader('Content-Type', 'application/octet-stream');
              res.end(body);
            },
            (e: unknown) => next(e),
          );
          return;
        }
        const name = path ? path.replace(/\.json$/, '') : null;
        const packed = name?.endsWith(PACKED_SUFFIX) ?? false;
        const encoding = ENCODINGS.find((e) => e === (packed ? name!.slice(0, -PACKED_SUFFIX.length) : name));
        if (!encoding) return next();
        tableJson(encoding, packed).then(
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
