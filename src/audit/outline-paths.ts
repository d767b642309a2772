// The paths a project's notes name by their shape rather than by writing them out: a directory tree drawn as `tree`
// draws it (`│   ├── reviewers/` under `├── wfc/` is `wfc/reviewers/`), a file listed under a heading that names its
// folder (`committed.go` under "Checkpoint Package (`cmd/entire/cli/checkpoint/`)"), and a file listed under a list
// item that names its folder. A CLAUDE.md describes its project this way, and the model reads those paths from it.

/** Every path the text's trees and outlines name, with a folder's closing slash. */
export function outlinePaths(text: string): string[] {
  return [...treePaths(text), ...listedPaths(text)];
}

// A tree's entry: its drawn prefix (`│   `, spaces), the branch (`├──`, `└──`, `|--`, `` `-- ``) and the name.
// One character at a time: a prefix of nested runs (`(?: +)*`) backtracks exponentially on a long line of spaces.
const TREE_ENTRY = /^([│|┃ \u00a0]*)(?:[├└┣┗][─━]+|[|`]--)[ \u00a0]*([^\s#]+)/;
// A tree's root: a folder name alone on its line (`src/`, `./`), maybe with a comment.
const TREE_ROOT = /^\s*([\w.@~-][\w.@/~-]*\/)\s*(?:#.*)?$/;

/** The paths of every directory tree drawn in the text, each entry joined to its parents (and to its root folder). */
export function treePaths(text: string): string[] {
  const out: string[] = [];
  const names: string[] = [];
  let root: string | null = null;
  // The width of one level: the prefix of the first entry drawn below the top.
  let unit = 0;
  for (const line of text.split(/\r?\n/)) {
    const m = TREE_ENTRY.exec(line);
    if (!m) {
      // A line of bars alone continues the tree; any other ends it (and may be the next tree's root).
      if (/^[\s│|┃]*$/.test(line)) continue;
      names.length = 0;
      unit = 0;
      root = TREE_ROOT.exec(line)?.[1] ?? null;
      continue;
    }
    const prefix = m[1]!.length;
    if (prefix > 0 && unit === 0) unit = prefix;
    const depth = unit === 0 ? 0 : Math.round(prefix / unit);
    const name = m[2]!.replace(/[`*]/g, '');
    if (!/^[\w.@~-][\w.@/~-]*$/.test(name)) continue;
    names.length = depth;
    names[depth] = name.replace(/\/+$/, '');
    if (names.some((n) => n === undefined)) continue;
    const path = names.join('/') + (name.endsWith('/') ? '/' : '');
    out.push(path);
    if (root && root !== './') out.push(root + path);
  }
  return out;
}

const HEADING = /^\s{0,3}#{1,6}\s+(.*)$/;
const LIST_ITEM = /^(\s*)(?:[-*+]|\d+[.)])\s+`([^`\s]+)`/;
const FOLDER_IN_CODE = /`([^`\s]+\/)`/g;

/** The files and folders an outline lists under a heading or a list item that names their folder. */
export function listedPaths(text: string): string[] {
  const out: string[] = [];
  let headingFolder: string | null = null;
  const open: { indent: number; folder: string }[] = [];
  for (const line of text.split(/\r?\n/)) {
    const h = HEADING.exec(line);
    if (h) {
      // Only a heading that names one folder says where what it lists is.
      const folders = [...h[1]!.matchAll(FOLDER_IN_CODE)].map((f) => f[1]!);
      headingFolder = folders.length === 1 ? folders[0]!.replace(/^\.\//, '') : null;
      open.length = 0;
      continue;
    }
    const item = LIST_ITEM.exec(line);
    if (!item) continue;
    const indent = item[1]!.length;
    while (open.length > 0 && open[open.length - 1]!.indent >= indent) open.pop();
    const parent = open.length > 0 ? open[open.length - 1]!.folder : headingFolder;
    const name = item[2]!.replace(/^\.\//, '');
    if (!/^[\w.@~-][\w.@/~-]*$/.test(name)) continue;
    // A name already written from the parent, or from the root, is whole as it stands.
    const path = parent && !name.startsWith(parent) && !name.startsWith('/') && !name.startsWith('~') ? parent + name : name;
    if (path !== name) out.push(path);
    if (name.endsWith('/')) open.push({ indent, folder: path });
  }
  return out;
}
