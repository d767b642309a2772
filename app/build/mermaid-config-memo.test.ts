import { readdir, readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { MERMAID_GET_CONFIG, memoizeGetConfig } from './mermaid-config-memo';

const DIR = 'node_modules/mermaid/dist/chunks/mermaid.core';

describe('memoizeGetConfig', () => {
  it('finds getConfig in exactly one of Mermaid’s chunks, so an upgrade that changes it is noticed', async () => {
    const files = (await readdir(DIR)).filter((f) => /^chunk-\w+\.mjs$/.test(f));
    const holding = [];
    for (const f of files) if ((await readFile(`${DIR}/${f}`, 'utf8')).includes(MERMAID_GET_CONFIG)) holding.push(f);
    expect(holding).toHaveLength(1);
  });

  it('copies the config once per config object, and again once Mermaid replaces it', () => {
    // The chunk's shape: a config variable Mermaid reassigns, and a deep copy per getConfig call.
    const code = `let copies = 0;
const __name = (f) => f;
const assignWithDepth_default = (dst, src) => (copies++, Object.assign(dst, structuredClone(src)));
var currentConfig = { theme: 'base', flowchart: { curve: 'basis' } };
${MERMAID_GET_CONFIG}
const setConfig = (c) => { currentConfig = { ...currentConfig, ...c }; };
const a = getConfig(), b = getConfig();
setConfig({ theme: 'dark' });
const c = getConfig(), d = getConfig();
return { copies, same: a === b && c === d, themes: [a.theme, c.theme], distinct: a !== c && a !== currentConfig };`;
    const run = (src: string) => new Function(src)() as { copies: number; same: boolean; themes: string[]; distinct: boolean };
    expect(run(code)).toMatchObject({ copies: 4, same: false, themes: ['base', 'dark'] });
    const memo = memoizeGetConfig(code)!;
    expect(memo).not.toContain(MERMAID_GET_CONFIG);
    expect(run(memo)).toEqual({ copies: 2, same: true, themes: ['base', 'dark'], distinct: true });
  });

  it('leaves a chunk without getConfig as it is', () => {
    expect(memoizeGetConfig('var getConfig2 = () => getConfig();')).toBeNull();
  });
});
