// One file, one row. A slice names a file under several spellings — its bare name (`live_view.ex`), its path relative
// to the working directory (`deps/x/lib/x/live_view.ex`) and its absolute path (`/home/u/app/deps/x/lib/x/live_view.ex`)
// — and the summary keeps or loses the file, not each spelling. So the audit's lists hold one row per file: the
// counts the panel, the CLI, corpus rows and `check` gates read are counts of files.
import type { IdentifierKind } from './identifiers';

/** A path as the working directory sees it: forward slashes, no `./`, relative when it lies under the cwd. */
export function projectRelative(path: string, cwd: string | null): string {
  let p = path.replace(/\\/g, '/').replace(/\/+$/, '').replace(/^\.\//, '');
  if (cwd) {
    const root = cwd.replace(/\\/g, '/').replace(/\/+$/, '');
    const drive = /^([A-Za-z]):\//.exec(root);
    for (const r of drive ? [root, `/${drive[1]!.toLowerCase()}${root.slice(2)}`] : [root]) {
      if (r && p.toLowerCase().startsWith(`${r.toLowerCase()}/`) && p.length > r.length + 1) {
        p = p.slice(r.length + 1);
        break;
      }
    }
  }
  return p;
}

/**
 * A package manager's manifest or lock file, a build file, or a README, as a bare name: the kind of file every project
 * of a stack (or every folder) holds one of, named by convention rather than by the work.
 */
export const CONVENTIONAL_NAME =
  /^(?:package\.json|package-lock\.json|yarn\.lock|pnpm-lock\.yaml|bun\.lockb?|Cargo\.(?:toml|lock)|go\.(?:mod|sum)|pyproject\.toml|requirements(?:-\w+)?\.txt|Pipfile(?:\.lock)?|poetry\.lock|setup\.(?:py|cfg)|Gemfile(?:\.lock)?|mix\.(?:exs|lock)|composer\.(?:json|lock)|pom\.xml|build\.gradle(?:\.kts)?|Package\.swift|Makefile|CMakeLists\.txt|README(?:\.\w+)?)$/;

/** An absolute path (or one from the home folder): as `projectRelative` leaves it, it lies outside the working directory. */
const ANCHORED = /^(?:[~/\\]|[A-Za-z]:[\\/])/;

const hasFileName = (p: string): boolean => /(?:^|\/)[^/.][^/]*\.[A-Za-z0-9]{1,10}$/.test(p);

/**
 * For each path value, the spelling that stands for its file (itself when it has no other). Two spellings are one
 * file when they are the same path relative to the working directory, or when the shorter ends the longer by whole
 * segments and ends no other file of the list (a bare `page.tsx` beside `app/page.tsx` and `app/x/page.tsx` names
 * neither; beside `Component/page.tsx` and `app/Component/page.tsx`, one file, it names that one). The file's row takes its longest spelling relative to the working directory.
 */
export function fileSpellings(paths: readonly string[], cwd: string | null): Map<string, string> {
  const rel = new Map(paths.map((p) => [p, projectRelative(p, cwd)]));
  const parent = new Map(paths.map((p) => [p, p]));
  const find = (p: string): string => {
    let r = p;
    while (parent.get(r) !== r) r = parent.get(r)!;
    return r;
  };
  const union = (a: string, b: string) => parent.set(find(a), find(b));
  const byRel = new Map<string, string>();
  for (const p of paths) {
    const r = rel.get(p)!;
    const seen = byRel.get(r);
    if (seen !== undefined) union(p, seen);
    else byRel.set(r, p);
  }
  // Longest first: the longer spellings of a name are joined before it is asked how many files they are
  // (`Camera.cs` beside `Component/Camera.cs` and `MonoDreams/Component/Camera.cs` names that one file).
  const distinct = [...byRel.keys()].sort((a, b) => b.length - a.length);
  // A path that ends another by whole segments has its last segment: only those are compared (a slice names hundreds).
  const byName = new Map<string, string[]>();
  for (const l of distinct) {
    const name = l.slice(l.lastIndexOf('/') + 1);
    const same = byName.get(name);
    if (same) same.push(l);
    else byName.set(name, [l]);
  }
  const anchoredByRel = new Map<string, string[]>();
  for (const p of paths) {
    if (!ANCHORED.test(p)) continue;
    const r = rel.get(p)!;
    const same = anchoredByRel.get(r);
    if (same) same.push(p);
    else anchoredByRel.set(r, [p]);
  }
  for (const short of distinct) {
    // A conventional name written bare (`README.md`) names the working directory's file where it names one
    // (relevance.ts): it is not another folder's file of that name (`deps/opentelemetry/README.md`).
    if (!hasFileName(short) || CONVENTIONAL_NAME.test(short)) continue;
    // A relative path the slice also writes absolute under the working directory is that directory's file: another
    // folder's file ending alike, outside it (`~/.claude/commands/x.md` for the project's `commands/x.md`), is not it.
    // The relative path merely rooted (`/apps/x.md` for `apps/x.md`) names no other folder.
    const inCwd = (anchoredByRel.get(short) ?? []).some((p) => p !== short);
    const tail = `/${short}`;
    const otherFolder = (l: string) => inCwd && ANCHORED.test(l) && l !== tail;
    const candidates = byName.get(short.slice(short.lastIndexOf('/') + 1)) ?? [];
    const longer = new Set(candidates.filter((l) => l.length > short.length && l.endsWith(tail) && !otherFolder(l)).map((l) => find(byRel.get(l)!)));
    if (longer.size === 1) union(byRel.get(short)!, [...longer][0]!);
  }
  const groups = new Map<string, string[]>();
  for (const p of paths) groups.set(find(p), [...(groups.get(find(p)) ?? []), p]);
  const out = new Map<string, string>();
  for (const members of groups.values()) {
    const rep = [...members].sort((a, b) => rel.get(b)!.length - rel.get(a)!.length || Number(rel.get(a) !== a) - Number(rel.get(b) !== b) || a.length - b.length)[0]!;
    for (const m of members) out.set(m, rep);
  }
  return out;
}

/** A row of one of the "needed later" lists. */
interface NeededRow {
  value: string;
  itemId: string;
  /** The file's other spellings the slice held, when it held several. */
  spellings?: string[];
}

interface FoldableAudit<R extends NeededRow, F extends NeededRow> {
  kept: string[];
  lost: string[];
  lostReferencedLater: R[];
  lostRefetchedLater: F[];
  kinds: Record<string, IdentifierKind>;
}

/**
 * The audit with one row per file in `kept`, `lost` and the two "needed later" lists. A file any spelling of which the
 * summary kept is kept. A file needed under several spellings is listed once, in the list of the spelling whose use
 * came first (`order` of the row's item), under its longest spelling, with the others as `spellings`.
 */
export function foldSpellings<R extends NeededRow, F extends NeededRow, A extends FoldableAudit<R, F>>(audit: A, cwd: string | null, order: (itemId: string) => number): A {
  const paths = [...audit.kept, ...audit.lost].filter((v) => audit.kinds[v] === 'path');
  if (paths.length < 2) return audit;
  const rep = fileSpellings(paths, cwd);
  const of = (v: string) => rep.get(v) ?? v;
  if ([...rep].every(([v, r]) => v === r)) return audit;
  const keptFiles = new Set(audit.kept.map(of));
  const once = (values: string[], keep: (v: string) => boolean) => [...new Set(values.filter(keep).map(of))];
  const kept = once(audit.kept, () => true);
  const lost = once(audit.lost, (v) => !keptFiles.has(of(v)));
  // All spellings of each file that a needed list holds, and the earliest row for it.
  const spellingsOf = new Map<string, Set<string>>();
  const first = new Map<string, { list: 'referenced' | 'refetched'; row: R | F }>();
  const consider = (list: 'referenced' | 'refetched', row: R | F) => {
    const file = of(row.value);
    if (keptFiles.has(file)) return;
    spellingsOf.set(file, new Set([...(spellingsOf.get(file) ?? []), row.value, ...(row.spellings ?? [])]));
    const was = first.get(file);
    if (!was || order(row.itemId) < order(was.row.itemId)) first.set(file, { list, row });
  };
  for (const r of audit.lostReferencedLater) consider('referenced', r);
  for (const r of audit.lostRefetchedLater) consider('refetched', r);
  // Every spelling the slice lost the file under, needed on its own or not: the row names the file, and a reader who
  // knows it by a shorter spelling (`protocol_config/state.rs`) finds it there.
  const lostSpellings = new Map<string, string[]>();
  for (const v of audit.lost) if (rep.has(v)) lostSpellings.set(of(v), [...(lostSpellings.get(of(v)) ?? []), v]);
  const rowOf = <T extends R | F>(row: T, file: string): T => {
    const others = [...new Set([...spellingsOf.get(file)!, ...(lostSpellings.get(file) ?? [])])].filter((s) => s !== file);
    const { spellings: _drop, ...rest } = row;
    return { ...rest, value: file, ...(others.length > 0 ? { spellings: others } : {}) } as T;
  };
  const listed = (list: 'referenced' | 'refetched') =>
    [...first].filter(([, f]) => f.list === list).map(([file, f]) => rowOf(f.row, file));
  // Keep the lists' order: a file's row stands where its first-listed spelling stood.
  const orderIn = (rows: NeededRow[]) => new Map(rows.map((r, i) => [of(r.value), i] as const).reverse());
  const refOrder = orderIn(audit.lostReferencedLater);
  const fetchOrder = orderIn(audit.lostRefetchedLater);
  const byPlace = (o: Map<string, number>) => (a: NeededRow, b: NeededRow) => (o.get(a.value) ?? 0) - (o.get(b.value) ?? 0);
  const kinds = { ...audit.kinds };
  for (const [v, r] of rep) if (v !== r && kinds[r] === undefined) kinds[r] = 'path';
  return {
    ...audit,
    kept,
    lost,
    lostReferencedLater: (listed('referenced') as R[]).sort(byPlace(refOrder)),
    lostRefetchedLater: (listed('refetched') as F[]).sort(byPlace(fetchOrder)),
    kinds,
  };
}
