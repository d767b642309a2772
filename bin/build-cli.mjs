// Builds the CLI to plain JavaScript (dist-cli/) with every package it uses inside, so the published package has no
// runtime dependencies: installing it fetches nothing beside it, and Node starts it without a TypeScript compiler.
// Dynamic imports stay chunks of their own, read only when first used; the chunks sit beside the entries, since a
// worker is found next to the module that starts it (worker-spawn.ts).
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { build } from 'esbuild';

// CLI_OUT and CLI_MINIFY=0 build a readable copy elsewhere, for a CPU profile whose frames have names.
const OUT = process.env.CLI_OUT ?? 'dist-cli';

/**
 * gpt-tokenizer's rank tables become data files beside the bundle: compiling the package's 2 MB array-literal
 * module cost every cold start (and every worker thread) ~0.2 s of CPU, reading them a tenth of it. They are written packed (src/tokens/rank-lookup.ts: two strings instead of 200k) with the lookup's hash
 * table beside them, so the counter builds neither gpt-tokenizer's Map of every token nor a table of its own. The app's workers read plain JSON copies
 * (app/build/rank-tables.ts).
 */
/** The packer and the unshipped stubs are the repository's own TypeScript, read through tsx at build time. */
let tsxRegistered = false;
const importTs = async (path) => {
  if (!tsxRegistered) {
    const { register } = await import('tsx/esm/api');
    register();
    tsxRegistered = true;
  }
  return import(path);
};
const packer = () => importTs('../src/tokens/rank-lookup.ts');

const RANKS = /^gpt-tokenizer\/bpeRanks\/(o200k_base|cl100k_base)$/;
const rankTablesAsJson = {
  name: 'rank-tables-as-json',
  setup(b) {
    b.onResolve({ filter: RANKS }, (args) => ({ path: RANKS.exec(args.path)[1], namespace: 'rank-json' }));
    b.onLoad({ filter: /.*/, namespace: 'rank-json' }, async ({ path: encoding }) => {
      const { default: table } = await import(`gpt-tokenizer/bpeRanks/${encoding}`);
      const { packRankTable, rankSlots } = await packer();
      const packed = packRankTable(table);
      // The two strings as UTF-16LE, read back by a copy: as JSON, decoding the file's UTF-8 (200k characters past
      // ASCII) and parsing it took ~13 ms of every cold run, the copies take under 1 ms. Then where each rank's text
      // starts (`rankStarts`, uint32 LE, checked where read), which the lookup filled in a 200k-step loop (~12 ms
      // cold); the byte tokens stay JSON. Layout: the two strings' sizes in UTF-16 units (uint32 LE each), the
      // strings, zero bytes up to a multiple of 4, the starts, the JSON.
      const { rankStarts } = await packer();
      const head = Buffer.alloc(8);
      head.writeUInt32LE(packed.text.length, 0);
      head.writeUInt32LE(packed.lengths.length, 4);
      const strings = Buffer.concat([head, Buffer.from(packed.text, 'utf16le'), Buffer.from(packed.lengths, 'utf16le')]);
      const starts = rankStarts(packed);
      const parts = [strings, Buffer.alloc((4 - (strings.length % 4)) % 4), Buffer.from(starts.buffer, starts.byteOffset, starts.byteLength), Buffer.from(JSON.stringify(packed.bytes))];
      writeFileSync(`${OUT}/ranks-${encoding}.bin`, Buffer.concat(parts));
      // The lookup's hash table too, little-endian (checked where read: rank-lookup.ts rebuilds it if it disagrees).
      const slots = rankSlots(packed);
      writeFileSync(`${OUT}/ranks-${encoding}.slots`, new Uint8Array(slots.buffer, slots.byteOffset, slots.byteLength));
      return {
        contents: `import { readFileSync } from 'node:fs';
const r = readFileSync(new URL('./ranks-${encoding}.bin', import.meta.url));
const n = r.readUInt32LE(4);
const t = r.readUInt32LE(0) * 2 + 8;
const l = t + n * 2;
const s = l + ((4 - (l % 4)) % 4);
const e = s + (n + 1) * 4;
const starts = (r.byteOffset + s) % 4 === 0 ? new Uint32Array(r.buffer, r.byteOffset + s, n + 1) : new Uint32Array(r.buffer.slice(r.byteOffset + s, r.byteOffset + e));
const table = { packed: 1, text: r.toString('utf16le', 8, t), lengths: r.toString('utf16le', t, l), starts, bytes: JSON.parse(r.toString('utf8', e)) };
const b = readFileSync(new URL('./ranks-${encoding}.slots', import.meta.url));
table.slots = new Int32Array(b.byteOffset % 4 === 0 ? b.buffer : b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength), b.byteOffset % 4 === 0 ? b.byteOffset : 0, b.byteLength >> 2);
export default table;
`,
        loader: 'js',
      };
    });
  },
};

/**
 * js-tiktoken stays an encoder of the engine (the bench and the tests compare it with gpt-tokenizer from source), but
 * no command of the CLI selects it: its two rank tables were 3.4 MB of chunks in the package, which every cached run
 * also hashed (result-cache.ts). The build puts a module that throws in its place, the same stub the app's build
 * writes (app/build/unshipped-modules.ts).
 */
const jsTiktokenLeftOut = {
  name: 'js-tiktoken-left-out',
  setup(b) {
    b.onResolve({ filter: /^js-tiktoken(\/.*)?$/ }, (args) => ({ path: args.path, namespace: 'left-out' }));
    b.onLoad({ filter: /.*/, namespace: 'left-out' }, async ({ path }) => {
      const { unshippedStub } = await importTs('../app/build/unshipped-modules.ts');
      return { contents: unshippedStub(path), loader: 'js' };
    });
  },
};

rmSync(OUT, { recursive: true, force: true });
mkdirSync(OUT);
await build({
  entryPoints: { main: 'src/cli/main.ts', 'corpus-worker': 'src/cli/corpus-worker.ts', 'metrics-worker': 'src/cli/metrics-worker.ts', 'glance-worker': 'src/cli/glance-worker.ts', 'count-worker': 'src/cli/count-worker.ts' },
  outdir: OUT,
  outExtension: { '.js': '.mjs' },
  chunkNames: 'chunk-[hash]',
  bundle: true,
  splitting: true,
  minify: process.env.CLI_MINIFY !== '0',
  platform: 'node',
  // ES module builds first: jsonc-parser's UMD build requires its own files at run time, which a bundle cannot.
  mainFields: ['module', 'main'],
  format: 'esm',
  target: 'node20',
  // CommonJS packages inside an ES module bundle still call require() for Node's own modules.
  banner: { js: "import{createRequire as __cr}from'node:module';const require=__cr(import.meta.url);" },
  legalComments: 'eof',
  plugins: [rankTablesAsJson, jsTiktokenLeftOut],
  logLevel: 'warning',
});
