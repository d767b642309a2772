// Builds the CLI to plain JavaScript (dist-cli/), so an installed package runs without a TypeScript compiler.
// Packages stay external: npm installs them from package.json's dependencies.
import { build } from 'esbuild';

await build({
  entryPoints: { main: 'src/cli/main.ts', 'corpus-worker': 'src/cli/corpus-worker.ts', 'metrics-worker': 'src/cli/metrics-worker.ts', 'count-worker': 'src/cli/count-worker.ts' },
  outdir: 'dist-cli',
  outExtension: { '.js': '.mjs' },
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  logLevel: 'warning',
});
