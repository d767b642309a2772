// The import-direction check `npm test` runs (`npm run check:layers`, rules in .dependency-cruiser.cjs): run on small
// trees written here, it names every arrow that points up and every circle, and lets the arrows that point down
// pass. (`npm run check:layers` runs the same rules on the sources.)
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const made: string[] = [];
afterAll(() => made.forEach((d) => rmSync(d, { recursive: true, force: true })));

interface Violation {
  rule: string;
  from: string;
  to: string;
}

/** Runs the project's checker with the project's rules over `files` (path → text) in a folder of their own. */
function cruise(files: Record<string, string>): Violation[] {
  const dir = mkdtempSync(join(tmpdir(), 'layers-'));
  made.push(dir);
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { module: 'ESNext', moduleResolution: 'bundler', jsx: 'react-jsx', allowImportingTsExtensions: true, noEmit: true } }));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  const r = spawnSync(process.execPath, [join(ROOT, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs'), 'src', 'app', '--config', join(ROOT, '.dependency-cruiser.cjs'), '--output-type', 'json'], { cwd: dir, encoding: 'utf8', maxBuffer: 256 << 20 });
  if (r.status !== 0 && !r.stdout.startsWith('{')) throw new Error(`the checker crashed (${r.status}): ${r.stderr}`);
  const out = JSON.parse(r.stdout) as { summary: { violations: { rule: { name: string }; from: string; to: string }[] } };
  return out.summary.violations.map((v) => ({ rule: v.rule.name, from: v.from, to: v.to }));
}

describe('the import-direction check', () => {
  it('names each arrow that points up, a circle, and an import that leads nowhere', () => {
    const found = cruise({
      'app/views/Panel.tsx': "import { setPanel } from '../store/panel';\nexport const Panel = () => setPanel(1);\n",
      'app/views/panel-id.ts': 'export type PanelId = number;\n',
      // store → views: the store takes a type from a view.
      'app/store/panel.ts': "import type { PanelId } from '../views/panel-id';\nexport const setPanel = (p: PanelId) => p;\n",
      // store → data: the store saves through a data module.
      'app/store/notes.ts': "import { save } from '../data/save';\nexport const add = () => save();\n",
      'app/data/save.ts': 'export const save = () => 1;\n',
      // data → views: a data module calls into a view.
      'app/data/open.ts': "import { Panel } from '../views/Panel';\nexport const open = () => Panel();\n",
      // a worker reads the page store at run time.
      'app/workers/load.worker.ts': "import { add } from '../store/notes';\nadd();\n",
      // format (a leaf) reads data.
      'app/format/label.ts': "import { save } from '../data/save';\nexport const label = () => String(save());\n",
      // the engine reads the app, and a state library.
      'src/engine.ts': "import { add } from '../app/store/notes';\nimport { create } from 'zustand';\nexport const run = () => [add(), create];\n",
      // a worker's address left behind when its importer moved.
      'app/data/judge.ts': "import url from '../../workers/corpus.worker.ts?worker&url';\nexport const judge = () => url;\n",
      // a circle inside the engine.
      'src/a.ts': "import { b } from './b';\nexport const a = () => b;\n",
      'src/b.ts': "import { a } from './a';\nexport const b = () => a;\n",
    });
    const arrows = found.map((v) => `${v.rule}: ${v.from} → ${v.to}`);
    expect(arrows).toEqual(
      expect.arrayContaining([
        'store-is-state-only: app/store/panel.ts → app/views/panel-id.ts',
        'store-is-state-only: app/store/notes.ts → app/data/save.ts',
        'data-not-views: app/data/open.ts → app/views/Panel.tsx',
        'workers-not-store: app/workers/load.worker.ts → app/store/notes.ts',
        'helpers-are-leaves: app/format/label.ts → app/data/save.ts',
        'engine-not-app: src/engine.ts → app/store/notes.ts',
        'no-circular: src/a.ts → src/b.ts',
        'not-to-unresolvable: app/data/judge.ts → ../../workers/corpus.worker.ts?worker&url',
      ]),
    );
    expect(found.some((v) => v.rule === 'engine-framework-free' && v.from === 'src/engine.ts' && /node_modules\/zustand\//.test(v.to))).toBe(true);
  });

  it('lets arrows that point down pass: views → data → store → engine, and workers → store types', () => {
    const found = cruise({
      'src/model.ts': 'export type Item = { id: string };\nexport const item = (id: string): Item => ({ id });\n',
      'app/store/items.ts': "import type { Item } from '../../src/model';\nexport let items: Item[] = [];\nexport const setItems = (v: Item[]) => { items = v; };\n",
      'app/format/count.ts': "export const count = (n: number) => n.toLocaleString('en-US');\n",
      'app/workers/load.worker.ts': "import type { Item } from '../../src/model';\nimport type { items } from '../store/items';\nexport const load = (): Item[] => [] as typeof items;\n",
      'app/data/load-client.ts': "import { item } from '../../src/model';\nimport { setItems } from '../store/items';\nimport { count } from '../format/count';\nexport const load = () => { setItems([item('a')]); return count(1); };\nexport const worker = () => new URL('../workers/load.worker.ts', import.meta.url);\n",
      'app/components/Count.tsx': "import { count } from '../format/count';\nexport const Count = () => count(2);\n",
      'app/views/List.tsx': "import { items } from '../store/items';\nimport { load } from '../data/load-client';\nimport { Count } from '../components/Count';\nexport const List = () => [items, load(), Count()];\n",
    });
    expect(found).toEqual([]);
  });

});
