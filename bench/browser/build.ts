// Builds the app (its own vite.config.ts) and the baselines page into bench/results/app, apart from dist/ so
// a bench never races another build, and serves them with `vite preview` on a free port.
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { createReadStream, existsSync } from 'node:fs';
import { join } from 'node:path';
import { build, createServer as createViteServer, preview, type Plugin, type PreviewServer, type ViteDevServer } from 'vite';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const APP_OUT = fileURLToPath(new URL('../results/app/', import.meta.url));
const ENGINE_ROOT = fileURLToPath(new URL('./engine/', import.meta.url));

/** `engine: false` leaves the baselines page out (a run that measures only the app). */
export async function buildAll(opts: { engine?: boolean } = {}): Promise<{ seconds: number }> {
  const t = performance.now();
  // Hidden source maps: the code is the one users get, and the bench can name the functions in its profiles.
  await build({ root: ROOT, logLevel: 'warn', build: { outDir: APP_OUT, emptyOutDir: true, sourcemap: 'hidden' } });
  if (opts.engine !== false) await build({
    configFile: false,
    root: ENGINE_ROOT,
    base: './',
    logLevel: 'warn',
    worker: { format: 'es' },
    build: { outDir: `${APP_OUT}bench-engine`, emptyOutDir: true, chunkSizeWarningLimit: 100_000 },
  });
  return { seconds: Math.round((performance.now() - t) / 100) / 10 };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

/** `outDir`: another build to serve (one kept from before a change, to compare the two in one sitting). */
export async function startPreview(outDir = APP_OUT): Promise<{ url: string; server: PreviewServer }> {
  const port = await freePort();
  const server = await preview({ root: ROOT, logLevel: 'warn', build: { outDir }, preview: { port, strictPort: true, host: '127.0.0.1', open: false } });
  return { url: `http://127.0.0.1:${port}`, server };
}

/**
 * The dev server `npm start` runs (the repo's vite.config.ts), on a free port: the built app is compared with it.
 * It serves the bench's inputs from the same path as the preview does (`/bench-data/`, published into APP_OUT).
 */
export async function startDev(): Promise<{ url: string; server: ViteDevServer }> {
  const port = await freePort();
  const benchData: Plugin = {
    name: 'bench-data',
    configureServer(server) {
      server.middlewares.use('/bench-data/', (req, res, next) => {
        const file = join(APP_OUT, 'bench-data', decodeURIComponent((req.url ?? '').split('?')[0]!.replace(/^\/+/, '')));
        if (!file.startsWith(join(APP_OUT, 'bench-data')) || !existsSync(file)) return next();
        res.setHeader('Content-Type', 'application/octet-stream');
        createReadStream(file).pipe(res);
      });
    },
  };
  const server = await createViteServer({ root: ROOT, logLevel: 'warn', plugins: [benchData], server: { port, strictPort: true, host: '127.0.0.1', open: false } });
  await server.listen();
  return { url: `http://127.0.0.1:${port}`, server };
}
