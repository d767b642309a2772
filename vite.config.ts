import react from '@vitejs/plugin-react';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';
import { precompressedAssets } from './app/build/precompressed-assets.ts';
import { rankTables } from './app/build/rank-tables.ts';
import { cspHeaders } from './app/security/csp-server.ts';
import { compileHints } from './app/build/compile-hints.ts';
import { unshippedModules } from './app/build/unshipped-modules.ts';
import { mermaidConfigMemo } from './app/build/mermaid-config-memo.ts';

export default defineConfig({
  // The same Content-Security-Policy header from `npm start` and `vite preview` as the built app runs under.
  // The CSP middleware goes first: it sets its headers on every response, the precompressed ones too.
  plugins: [react(), cspHeaders(), rankTables(), unshippedModules(), mermaidConfigMemo(), precompressedAssets()],
  // Workers import `virtual:rank-table-urls`, so their bundles need the plugin that provides it. Their code is
  // compiled when they start (compile-hints.ts).
  worker: { format: 'es', plugins: () => [rankTables(), unshippedModules(), compileHints()] },
  server: { port: 5173, host: '127.0.0.1' },
  preview: { port: 4173, host: '127.0.0.1' },
  test: {
    include: ['src/**/*.test.ts', 'app/**/*.test.ts', 'app/**/*.test.tsx', 'bench/**/*.test.ts'],
    environment: 'node',
    // A time limit catches a hang, not slowness: on a 2-core runner with two CPU burners beside it, tests that take
    // 2 s idle took over 20 s (prototype-ids, the 100,000-record chain, the 50,000-record log limit).
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // CLIs the tests run (and the processes they spawn) keep their result cache out of the user's home.
    env: { COMPACTION_INSPECTOR_CACHE_DIR: join(tmpdir(), `compaction-inspector-test-cache-${process.pid}`) },
  },
});
