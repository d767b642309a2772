import { describe, expect, it } from 'vitest';
import { lineSet, onlyEchoes } from './echo';

describe('onlyEchoes', () => {
  const source = lineSet(['   311→Compiling lib/postgrex/default_types.ex (it\'s taking more than 10s)\n   312→Generated postgrex app']);

  it('is true when every line naming the identifier was printed before, whatever its line number', () => {
    expect(onlyEchoes("Compiling lib/postgrex/default_types.ex (it's taking more than 10s)\nok", 'lib/postgrex/default_types.ex', source)).toBe(true);
    expect(onlyEchoes("    12→Compiling lib/postgrex/default_types.ex (it's taking more than 10s)", 'lib/postgrex/default_types.ex', source)).toBe(true);
  });

  it('is false when one line names it anew, or none names it', () => {
    expect(onlyEchoes("Compiling lib/postgrex/default_types.ex (it's taking more than 10s)\nnow edit lib/postgrex/default_types.ex", 'lib/postgrex/default_types.ex', source)).toBe(false);
    expect(onlyEchoes('nothing here', 'lib/postgrex/default_types.ex', source)).toBe(false);
  });
});
