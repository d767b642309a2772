import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { BreakAtSeparators } from './BreakAtSeparators';

describe('a name that wraps at its separators', () => {
  it('offers a break after each separator, never inside a folder name', () => {
    const html = renderToStaticMarkup(<BreakAtSeparators text="deps/ash_computer/live_view.ex" />);
    expect(html).toBe('deps/<wbr/>ash_computer/<wbr/>live_view.<wbr/>ex');
  });

  it('keeps a name without separators whole, and shows control characters as marks', () => {
    expect(renderToStaticMarkup(<BreakAtSeparators text="b7636e2" />)).toBe('b7636e2');
    expect(renderToStaticMarkup(<BreakAtSeparators text={'x\u202Ey'} />)).not.toContain('\u202E');
  });
});
