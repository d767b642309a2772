import { describe, expect, it, vi } from 'vitest';
import { loadRankTable } from '../../src/tokens/rank-tables';
import { rankTables } from './rank-tables';

type Hook = (...args: unknown[]) => unknown;
const call = (hook: unknown, self: unknown, ...args: unknown[]) => (hook as Hook).apply(self, args);

describe('rankTables (the Vite plugin behind virtual:rank-table-urls)', () => {
  it('a build emits each table as a JSON asset and exports its address', async () => {
    const plugin = rankTables();
    call(plugin.configResolved, null, { command: 'build' });
    const id = call(plugin.resolveId, null, 'virtual:rank-table-urls') as string;
    const emitted: { name: string; source: string }[] = [];
    const emitFile = vi.fn((f: { name: string; source: string }) => (emitted.push(f), `ref${emitted.length}`));
    const code = (await call(plugin.load, { emitFile }, id)) as string;
    expect(code).toBe('export default { o200k_base: import.meta.ROLLUP_FILE_URL_ref1, cl100k_base: import.meta.ROLLUP_FILE_URL_ref2 };');
    expect(emitted.map((e) => e.name)).toEqual(['o200k_base.json', 'cl100k_base.json']);
    expect(JSON.parse(emitted[0]!.source)).toEqual(await loadRankTable('o200k_base'));
  });

  it('`npm start` serves the tables from memory at the addresses it exports, and passes other requests on', async () => {
    const plugin = rankTables();
    call(plugin.configResolved, null, { command: 'serve' });
    const code = (await call(plugin.load, {}, call(plugin.resolveId, null, 'virtual:rank-table-urls'))) as string;
    expect(code).toContain('o200k_base: "/@rank-tables/o200k_base.json"');
    let middleware: Hook | null = null;
    call(plugin.configureServer, null, { middlewares: { use: (m: Hook) => (middleware = m) } });
    const served = await new Promise<{ type: unknown; body: string }>((resolve, reject) => {
      const headers = new Map<string, unknown>();
      const res = { setHeader: (k: string, v: unknown) => headers.set(k, v), end: (body: string) => resolve({ type: headers.get('Content-Type'), body }) };
      middleware!({ url: '/@rank-tables/cl100k_base.json' }, res, reject);
    });
    expect(served.type).toBe('application/json');
    expect(JSON.parse(served.body)).toEqual(await loadRankTable('cl100k_base'));
    const next = vi.fn();
    middleware!({ url: '/@rank-tables/p50k_base.json' }, {}, next);
    middleware!({ url: '/assets/app.js' }, {}, next);
    expect(next).toHaveBeenCalledTimes(2);
  });
});
