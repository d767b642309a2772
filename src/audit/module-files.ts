// An import specifier of the project names a file without its extension (`../hooks/usePageMeta`, `@/lib/store`): the
// file the resolver finds is that stem with an extension (`src/hooks/usePageMeta.js`), or the folder's index
// (`lib/store/index.ts`). A summary that keeps the file keeps the module the specifier names.
/** A module specifier that names a file of the project rather than a package: relative, rooted, or an alias. */
export function isProjectSpecifier(spec: string): boolean {
  return /^(?:\.{1,2}\/|\/|@\/|~\/|#\/|\$lib\/|src\/|app\/|lib\/|components\/)/.test(spec);
}

/** The specifier's path below its anchor (`./`, `../`, `@/`, `~/`, `#/`, `$lib/`); null when it is written with its extension, or empty. */
export function specifierStem(spec: string): string | null {
  if (/\.[A-Za-z0-9]{1,10}$/.test(spec)) return null;
  return spec.replace(/^(?:\.{1,2}\/)+|^(?:@|~|#|\$lib)\//, '').replace(/\/+$/, '') || null;
}

/**
 * The stem of a project specifier by which a summary keeps its file, or null when it names no module file by its
 * stem: a package, a file written with its extension, or a stem of one segment (`./utils`), which many folders share.
 */
export function moduleStem(spec: string): string | null {
  const stem = isProjectSpecifier(spec) ? specifierStem(spec) : null;
  return stem?.includes('/') ? stem : null;
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
