// The import directions `npm test` holds (npm run check:layers; docs/architecture.md draws them):
//   src/ (the engine) ← app/;  inside app/: store/ ← data/ (with workers/, security/) ← views/, components/, hooks/.
// A circle anywhere in src/ or app/ fails too. src/test/import-layers.test.ts proves each rule fails on an arrow
// that points up.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'A circle means no file on it can be read, tested or replaced alone.',
      severity: 'error',
      from: { path: '^(src|app)/' },
      to: { circular: true },
    },
    {
      name: 'not-to-unresolvable',
      comment: 'An import that leads nowhere (a file moved, its importers not) fails here before it fails the build.',
      severity: 'error',
      from: { path: '^(src|app)/' },
      to: { couldNotResolve: true, path: '^\\.\\.?/' },
    },
    {
      name: 'engine-not-app',
      comment: 'src/ is the headless engine the CLI and the workers share: it never imports the app.',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^app/' },
    },
    {
      name: 'engine-framework-free',
      comment: 'src/ runs in Node and in workers: no React, DOM-bound or state libraries.',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: 'node_modules/(react|react-dom|zustand|idb|mermaid|@tanstack)/' },
    },
    {
      name: 'store-is-state-only',
      comment: 'app/store holds state and plain setters: it reads the engine and itself, nothing else of the app.',
      severity: 'error',
      from: { path: '^app/store/' },
      to: { path: '^app/', pathNot: '^app/store/' },
    },
    {
      name: 'helpers-are-leaves',
      comment: 'app/format (labels, numbers) and app/build (Vite plugins) read the engine only.',
      severity: 'error',
      from: { path: '^app/(format|build)/' },
      to: { path: '^app/', pathNot: '^app/(format|build)/' },
    },
    {
      name: 'data-not-views',
      comment: 'app/data (actions, worker clients, persistence), its workers and security/ never reach up into what renders.',
      severity: 'error',
      from: { path: '^app/(data|workers|security)/' },
      to: { path: '^app/(views|components|hooks)/|^app/[^/]+\\.tsx$' },
    },
    {
      name: 'workers-not-store',
      comment: 'A worker runs in its own realm: the page store is not there (its types are).',
      severity: 'error',
      from: { path: '^app/workers/' },
      to: { path: '^app/store/', dependencyTypesNot: ['type-only'] },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    exclude: { path: '^node_modules' },
  },
};
