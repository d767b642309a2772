// Modelled on half A of bench/flag-judgements.json (aicuai/p-aicujp, s84–s85: a summary keeping
// src/hooks/usePageMeta.js and src/components/charts/PopulationPyramid.tsx while the slice imported them by specifier).
import { describe, expect, it } from 'vitest';
import { keptAndLost } from './audit-summary';
import { moduleStem, resolvesTo } from './module-files';

describe('moduleStem', () => {
  it('reads a relative or aliased specifier below its anchor', () => {
    expect(moduleStem('../hooks/usePageMeta')).toBe('hooks/usePageMeta');
    expect(moduleStem('@/components/charts/PopulationPyramid')).toBe('components/charts/PopulationPyramid');
  });
  it('names no module file for a package, a file with its extension, or a one-segment stem', () => {
    expect(moduleStem('react-dom/client')).toBeNull();
    expect(moduleStem('./hooks/usePageMeta.js')).toBeNull();
    expect(moduleStem('./utils')).toBeNull();
  });
});

describe('resolvesTo', () => {
  it('is the stem with an extension, or its folder index', () => {
    expect(resolvesTo('hooks/usePageMeta', 'src/hooks/usePageMeta.js')).toBe(true);
    expect(resolvesTo('lib/store', 'src/lib/store/index.ts')).toBe(true);
    expect(resolvesTo('hooks/usePageMeta', 'src/hooks/usePageMetaX.js')).toBe(false);
    expect(resolvesTo('hooks/usePageMeta', 'src/myhooks/usePageMeta.js')).toBe(false);
  });
});

describe('keptAndLost with a specifier', () => {
  const ids = [{ value: '../hooks/usePageMeta', kind: 'path' as const, index: 0 }];
  it('keeps it when the summary keeps the file it resolves to', () => {
    expect(keptAndLost('Added src/hooks/usePageMeta.js and its call.', ids, {}).kept).toEqual(['../hooks/usePageMeta']);
  });
  it('loses it when the summary names another file', () => {
    expect(keptAndLost('Added src/hooks/useAuth.js.', ids, {}).lost.map((i) => i.value)).toEqual(['../hooks/usePageMeta']);
  });
});
