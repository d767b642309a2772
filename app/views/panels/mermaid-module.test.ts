import { describe, expect, it } from 'vitest';
import { flowchartParts } from './mermaid-module';

describe('flowchartParts', () => {
  it('finds exactly Mermaid’s flowchart chunk and dagre layout chunk, so an upgrade that renames them is noticed', () => {
    const names = Object.keys(flowchartParts).map((p) => p.split('/').pop());
    expect(names).toHaveLength(2);
    expect(names.filter((n) => /^flowDiagram-\w+\.mjs$/.test(n ?? ''))).toHaveLength(1);
    expect(names.filter((n) => /^dagre-\w+\.mjs$/.test(n ?? ''))).toHaveLength(1);
  });

  it('names chunks that Mermaid itself imports, so the browser fetches each once', async () => {
    const { readFile, readdir } = await import('node:fs/promises');
    const dir = 'node_modules/mermaid/dist/chunks/mermaid.core';
    const core = await readFile('node_modules/mermaid/dist/mermaid.core.mjs', 'utf8');
    const chunks = await Promise.all((await readdir(dir)).filter((f) => f.endsWith('.mjs')).map((f) => readFile(`${dir}/${f}`, 'utf8')));
    const [flow, dagre] = ['flowDiagram-', 'dagre-'].map((n) => Object.keys(flowchartParts).find((p) => p.includes(n))!.split('/').pop());
    expect(core).toContain(`import("./chunks/mermaid.core/${flow}")`);
    expect(chunks.some((c) => c.includes(`import("./${dagre}")`))).toBe(true);
  });
});
