import { describe, expect, it, vi } from 'vitest';
import { RankLookup, unpackRanks, type PackedRanks } from '../../src/tokens/rank-lookup';
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

  it('the packed module emits each table packed with its lookup slots, which find every token at its rank', async () => {
    const plugin = rankTables();
    call(plugin.configResolved, null, { command: 'build' });
    const id = call(plugin.resolveId, null, 'virtual:packed-rank-table-urls') as string;
    const emitted: { name: string; source: string | Uint8Array }[] = [];
    const emitFile = vi.fn((f: { name: string; source: string | Uint8Array }) => (emitted.push(f), `ref${emitted.length}`));
    const code = (await call(plugin.load, { emitFile }, id)) as string;
    expect(code).toBe(
      'export default { o200k_base: { json: import.meta.ROLLUP_FILE_URL_ref1, slots: import.meta.ROLLUP_FILE_URL_ref2 }, cl100k_base: { json: import.meta.ROLLUP_FILE_URL_ref3, slots: import.meta.ROLLUP_FILE_URL_ref4 } };',
    );
    expect(emitted.map((e) => e.name)).toEqual(['o200k_base.packed.json', 'o200k_base.slots', 'cl100k_base.packed.json', 'cl100k_base.slots']);
    const table = await loadRankTable('cl100k_base');
    const packed = JSON.parse(emitted[2]!.source as string) as PackedRanks;
    expect(unpackRanks(packed)).toEqual(table);
    const bytes = emitted[3]!.source as Uint8Array;
    const slots = new Int32Array(bytes.slice().buffer);
    const lookup = RankLookup.fromPacked({ ...packed, slots });
    // The build's slots are the ones the lookup uses (not refilled), and they find each string token at its rank.
    expect(lookup.slots).toBe(slots);
    table.forEach((t, r) => {
      if (typeof t === 'string' && t.length > 0) expect(lookup.get(t)).toBe(r);
    });
  });
});
