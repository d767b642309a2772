// A Vite plugin: the build writes .br/.gz copies of its files, and `vite preview` (the e2e tests' and the bench's
// server) sends them as a static host does, instead of gzipping a 2 MB rank table on every request.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { resolve, sep } from 'node:path';
import type { Plugin } from 'vite';
import { mimeOf } from '../../src/cli/mime-types.ts';
import { pickPrecompressed, sendPrecompressed, writePrecompressed } from '../../src/cli/precompressed.ts';

export function precompressedAssets(): Plugin {
  let outDir = '';
  return {
    name: 'compaction-inspector:precompressed-assets',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    closeBundle: {
      order: 'post',
      handler() {
        if (outDir) writePrecompressed(outDir);
      },
    },
    configurePreviewServer(server) {
      const root = resolve(server.config.root, server.config.build.outDir);
      server.middlewares.use((req: IncomingMessage, res: ServerResponse, next: () => void) => {
        if (req.method !== 'GET' && req.method !== 'HEAD') return next();
        let path: string;
        try {
          path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
        } catch {
          return next();
        }
        const file = resolve(root, '.' + path);
        // The page itself is left to Vite: its policy header hashes the inline scripts of the HTML it sends.
        if (!file.startsWith(root + sep) || path.endsWith('.html')) return next();
        const copy = pickPrecompressed(file, req.headers['accept-encoding']);
        if (!copy) return next();
        sendPrecompressed(req, res, copy, { 'Content-Type': mimeOf(file), 'Cache-Control': path.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache' });
      });
    },
  };
}
