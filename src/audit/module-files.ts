// An import specifier of the project names a file without its extension (`../hooks/usePageMeta`, `@/lib/store`): the
// file the resolver finds is that stem with an extension (`src/hooks/usePageMeta.js`), or the folder's index
// (`lib/store/index.ts`). A summary that keeps the file keeps the module the specifier names.
import { isProjectSpecifier } from './project-scope';

/**
 * The specifier's path below its anchor (`./`, `../`, `@/`, `~/`, `#/`, `$lib/`), or null when it names no module file
 * by its stem: a package, a file written with its extension, or a stem of one segment (`./utils`), which many folders
 * share.
 */
export function moduleStem(spec: string): string | null {
  if (!isProjectSpecifier(spec) || /\.[A-Za-z0-9]{1,10}$/.test(spec)) return null;
  const stem = spec.replace(/^(?:\.{1,2}\/)+|^(?:@|~|#|\$lib)\//, '').replace(/\/+$/, '');
  return stem.includes('/') ? stem : null;
}

/** Is `path` the file a module of this stem resolves to: the stem with an extension, or its folder's index file? */
export function resolvesTo(stem: string, path: string): boolean {
  const p = path.replace(/\\/g, '/');
  const dot = p.lastIndexOf('.');
  if (dot <= p.lastIndexOf('/')) return false;
  const bare = p.slice(0, dot);
  const ends = (s: string) => s === stem || s.endsWith(`/${stem}`);
  return ends(bare) || (bare.endsWith('/index') && ends(bare.slice(0, -'/index'.length)));
}
