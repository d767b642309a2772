import { describe, expect, it } from 'vitest';
import { listedPaths, outlinePaths, treePaths } from './outline-paths';

describe('treePaths', () => {
  it('joins each entry of a drawn tree to its parents, whatever the width of a level', () => {
    const tree = ['```', 'Shop - a store front', '│', '├── api/                # HTTP handlers', '│   ├── orders/', '│   │   └── refund.go', '│   └── health.go', '└── web/', '    └── app.tsx', '```'].join('\n');
    expect(treePaths(tree)).toEqual(['api/', 'api/orders/', 'api/orders/refund.go', 'api/health.go', 'web/', 'web/app.tsx']);
    const narrow = ['src/', '├─ lib/', '│  └─ db.ts', '└─ main.ts'].join('\n');
    expect(treePaths(narrow)).toEqual(['lib/', 'src/lib/', 'lib/db.ts', 'src/lib/db.ts', 'main.ts', 'src/main.ts']);
  });

  it('reads ASCII trees, and ends a tree at a line that is not part of it', () => {
    const ascii = ['|-- cmd/', '|   `-- main.go', 'Then run it.', '`-- stray.go'].join('\n');
    expect(treePaths(ascii)).toEqual(['cmd/', 'cmd/main.go', 'stray.go']);
  });
});

describe('listedPaths', () => {
  it('puts a file listed under a heading that names one folder in that folder', () => {
    const md = ['### Checkpoint Package (`cmd/entire/cli/checkpoint/`)', '- `committed.go` - metadata branch', '- `temporary.go` - shadow branches', '### Notes on `a/` and `b/`', '- `x.go` - which folder? neither'].join('\n');
    expect(listedPaths(md)).toEqual(['cmd/entire/cli/checkpoint/committed.go', 'cmd/entire/cli/checkpoint/temporary.go']);
  });

  it('puts a file listed under a list item that names its folder there, and leaves a name written whole as it is', () => {
    const md = ['## Module Structure', '- `src/` - modular JavaScript', '  - `gravity.js` - tiles fall', '  - `src/config.js` - already whole', '- `README.md` - top level'].join('\n');
    expect(listedPaths(md)).toEqual(['src/gravity.js']);
    expect(outlinePaths(md)).toEqual(['src/gravity.js']);
  });
});

describe('outlinePaths on long lines', () => {
  it('reads a line of many spaces and bars that is no tree entry (a prefix pattern of nested runs never returned)', () => {
    const line = `${' '.repeat(5000)}│${' '.repeat(5000)}x`;
    expect(outlinePaths([line, line, `${'- '.repeat(3000)}`].join('\n'))).toEqual([]);
  });
});
