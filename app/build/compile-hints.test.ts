import { describe, expect, it } from 'vitest';
import { addCompileHint, COMPILE_HINT, compileHints } from './compile-hints';

describe('compile hints', () => {
  it('puts the hint on the first line and moves the source map down one line', () => {
    const chunk = { code: 'export const a=1;\nexport const b=2;', map: { mappings: 'AAAA;AACA' } };
    addCompileHint(chunk);
    expect(chunk.code.split('\n')[0]).toBe('//# allFunctionsCalledOnLoad');
    expect(chunk.code.slice(COMPILE_HINT.length)).toBe('export const a=1;\nexport const b=2;');
    expect(chunk.map.mappings).toBe(';AAAA;AACA');
  });

  it('adds it once, however often the bundle is generated', () => {
    const chunk = { code: 'x()', map: { mappings: 'AAAA' } };
    addCompileHint(chunk);
    addCompileHint(chunk);
    expect(chunk.code).toBe(`${COMPILE_HINT}x()`);
    expect(chunk.map.mappings).toBe(';AAAA');
  });

  it('hints every chunk of a bundle and leaves its other files alone', () => {
    const plugin = compileHints();
    const hook = plugin.generateBundle as { handler: (o: unknown, b: Record<string, unknown>) => void };
    const bundle = {
      'w.js': { type: 'chunk', code: 'run()', map: null },
      'part.js': { type: 'chunk', code: 'f()', map: { mappings: 'A' } },
      'ranks.json': { type: 'asset', source: '{"a":1}' },
    };
    hook.handler({}, bundle);
    expect(bundle['w.js'].code).toBe(`${COMPILE_HINT}run()`);
    expect(bundle['part.js'].code).toBe(`${COMPILE_HINT}f()`);
    expect(bundle['ranks.json'].source).toBe('{"a":1}');
    expect(plugin.apply).toBe('build');
  });
});
