// A Vite plugin: the build writes .br/.gz copies of its files, and `vite preview` (the e2e tests' and the bench's
// server) sends them as a static host does, instead of gzipping a 2 MB rank table on every request.
import { createReadStream } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, resolve, sep } from 'node:path';
import type { Plugin } from 'vite';
import { pickPrecompressed, writePrecompressed } from '../../src/cli/precompressed.ts';

const TYPES: Record<string, string> = {
  '.js': 'text/javascript',
  '.mjs': 'text/javascript',
  '.css': 'text/css',
  '.json': 'application/json',
  '.jsonl': 'application/jsonl',
  '.svg': 'image/svg+xml',
  '.map': 'application/json',
};

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
        const type = TYPES[extname(path).toLowerCase()];
        const file = resolve(root, '.' + path);
        if (!type || !file.startsWith(root + sep)) return next();
        const copy = pickPrecompressed(file, req.headers['accept-encoding']);
        if (!copy) return next();
        res.writeHead(200, {
          'Content-Type': type,
          'Content-Encoding': copy.encoding,
          'Content-Length': String(copy.size),
          Vary: 'Accept-Encoding',
          'Cache-Control': path.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
        });
        if (req.method === 'HEAD') return void res.end();
        createReadStream(copy.path).on('error', () => res.destroy()).pipe(res);
      });
    },
  };
}
