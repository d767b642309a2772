// Output that prints a path under another spelling than the path's own. A listing prints each entry relative to the
// folder it lists: `ls node_modules/three/build/` prints `three.core.js`, `git status` run in the working directory
// prints ` M README.md`, and `git diff --stat` prints `src/a.ts | 3 +-`, eliding a long path's head as
// `.../unit/test_a.py`. A person reading such output reads the entry joined to the folder listed, so the output
// printed that file afresh; the audit's walk, which looks for the path as written, does not see it there.
//
// Only the command's own listings are read, each by its format: a `git status` line carries its status mark, a
// `--stat` line its `|` and count, an `ls` line is one name (or, with `-l`, ends with one). Commands chained with
// `&&`, `;` or `||` are read in order, a `cd` moving the folder the later ones run in; when one command prints names
// alone from two folders (`ls src && ls docs`), a bare name could be either's and no such line is read.
import type { CallTarget } from '../refetch/call-target';
import { exactPathIn } from './normalize';
import { projectRelative } from './spellings';

/** The files a command's output lists: each path relative to the working directory (or as it stands outside it), and elided tails. */
export interface Listed {
  /** Entries joined to the folder listed, as `projectRelative` spells them. */
  paths: string[];
  /** Tails of paths whose head git elided (`.../unit/test_a.py` → `unit/test_a.py`), each of two or more segments. */
  tails: string[];
}

const ABSOLUTE = /^(?:[~/\\]|[A-Za-z]:[\\/])/;

/** `folder` joined with `rel`, `.` and `..` resolved; `folder` '' is the working directory. */
function join(folder: string, rel: string): string {
  const r = rel.replace(/\\/g, '/');
  const parts = (ABSOLUTE.test(r) ? r : folder ? `${folder}/${r}` : r).split('/');
  const out: string[] = [];
  parts.forEach((p, k) => {
    if (p === '.' || (p === '' && k > 0)) return;
    if (p === '..' && out.length > 0 && out[out.length - 1] !== '..' && out[out.length - 1] !== '') out.pop();
    else out.push(p);
  });
  return out.join('/');
}

// git status, short (`XY path`, a rename `R  old -> new`) and long (`\tmodified:   path`, `\tpath` under "Untracked files:").
const STATUS_SHORT = /^[ MADRCUT?!]{2} (?:.+ -> )?(\S.*)$/;
// An untracked file is a tab and a path alone: a tab-indented line of another command's output (Go's `\treturn nil`) is not.
const STATUS_LONG = /^\t(?:(?:modified|new file|deleted|renamed|copied|typechange|both modified|both added|both deleted|added by us|added by them|deleted by us|deleted by them):\s+(?:.+ -> )?(\S.*)|(\S+))$/;
// git's --stat line: ` path | 12 +++--`, ` path | Bin 0 -> 12 bytes`.
const STAT = /^ (\S.*?)\s+\|\s+(?:\d+|Bin\b)/;
// git's --numstat line: `12\t3\tpath` (`-\t-\tpath` for a binary file).
const NUMSTAT = /^(?:\d+|-)\t(?:\d+|-)\t(\S.*)$/;
// git's --name-status line: `M\tpath`, `R100\told\tnew`.
const NAME_STATUS = /^[MADRCTU]\d*\t(?:[^\t]+\t)?(\S.*)$/;

type Reader = (line: string) => string | null;

/** How one command of a chain lists files: the folder its entries are relative to and how a line of its output reads. */
interface Listing {
  folder: string;
  read: Reader;
  /** Does it read a line that is one name alone, which any listing of another folder could print too? */
  bare: boolean;
}

/** The words of a simple command, quotes removed (a quoted word with spaces stays one word). */
const wordsOf = (cmd: string): string[] =>
  [...cmd.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2] ?? m[3]!).filter((w) => !/^\d*[<>]|^&>/.test(w));

function listingOf(words: string[], folder: string): Listing | null {
  let w = words;
  if (w[0] === 'git') {
    // `git -C dir status`: the folder it runs in.
    let f = folder;
    w = w.slice(1);
    while (w[0]?.startsWith('-')) {
      if (w[0] === '-C' && w[1]) {
        f = join(f, w[1]);
        w = w.slice(2);
      } else w = w.slice(1);
    }
    const sub = w[0];
    const flags = w.slice(1);
    const status: Reader = (l) => {
      const long = STATUS_LONG.exec(l);
      return STATUS_SHORT.exec(l)?.[1] ?? long?.[1] ?? long?.[2] ?? null;
    };
    const oneName: Reader = (l) => (/^\S+$/.test(l) && !/^[0-9a-f]{7,40}$/.test(l) ? l : null);
    if (sub === 'status') return { folder: f, bare: false, read: status };
    if (sub === 'ls-files') return { folder: f, bare: true, read: oneName };
    if (sub === 'diff' || sub === 'show' || sub === 'log') {
      if (flags.some((x) => x === '--stat' || x.startsWith('--stat='))) return { folder: f, bare: false, read: (l) => STAT.exec(l)?.[1] ?? null };
      if (flags.includes('--numstat')) return { folder: f, bare: false, read: (l) => NUMSTAT.exec(l)?.[1] ?? null };
      if (flags.includes('--name-only')) return { folder: f, bare: true, read: oneName };
      if (flags.includes('--name-status')) return { folder: f, bare: false, read: (l) => NAME_STATUS.exec(l)?.[1] ?? null };
    }
    return null;
  }
  if (w[0] === 'ls') {
    const flags = w.slice(1).filter((x) => x.startsWith('-'));
    const args = w.slice(1).filter((x) => !x.startsWith('-'));
    // Several folders print headers; a glob or a recursive listing prints names relative to more than one folder.
    if (args.length > 1 || args.some((a) => /[*?[{]/.test(a)) || flags.some((x) => /^-[a-zA-Z]*R/.test(x) || x === '--recursive')) return null;
    const long = flags.some((x) => /^-[a-zA-Z]*[lgno]/.test(x));
    const strip = (n: string) => n.replace(/[/*@|=]$/, '');
    const read: Reader = long
      ? (l) => {
          // `-rw-r--r--  1 u staff  120 Jan  1 10:00 name`, a link `name -> target`.
          const m = /^[-dlcbps][-rwxsStT@+.]{9}[@+.]?\s.*\s(\S+?)(?: -> .*)?$/.exec(l);
          return m && m[1] !== '.' && m[1] !== '..' ? strip(m[1]!) : null;
        }
      : (l) => (/^\S+$/.test(l) && l !== '.' && l !== '..' && !l.endsWith(':') ? strip(l) : null);
    return { folder: join(folder, args[0] ?? '.'), bare: true, read };
  }
  return null;
}

/** The files `command`'s `output` lists, run in the working directory `cwd`. */
export function listedPaths(command: string, output: string, cwd: string | null): Listed {
  let folder = '';
  const listings: Listing[] = [];
  for (const segment of command.split(/&&|\|\||;|\n/)) {
    // The first command of a pipeline prints what the rest filter (`git diff --stat | tail -5`).
    const words = wordsOf(segment.split('|')[0]!.trim());
    if (words[0] === 'cd' && words[1]) {
      folder = join(folder, words[1]);
      continue;
    }
    const l = listingOf(words, folder);
    if (l) listings.push(l);
  }
  const bareFolders = new Set(listings.filter((l) => l.bare).map((l) => l.folder));
  const usable = listings.filter((l) => !l.bare || bareFolders.size === 1);
  const paths = new Set<string>();
  const tails = new Set<string>();
  if (usable.length === 0) return { paths: [], tails: [] };
  for (const raw of output.split('\n')) {
    const line = raw.replace(/\r$/, '');
    for (const l of usable) {
      const entry = l.read(line)?.replace(/^"(.*)"$/, '$1').trim();
      if (!entry) continue;
      if (entry.startsWith('.../')) {
        const tail = entry.slice(4);
        if (tail.includes('/')) tails.add(tail);
        continue;
      }
      paths.add(projectRelative(join(l.folder, entry), cwd));
    }
  }
  return { paths: [...paths], tails: [...tails] };
}

/**
 * Does a command's output start a line with the path, as a search or a listing prints the files it found
 * (`grep -r`'s `/etc/nginx/sites-enabled/site:  location /mcp {`, `find`'s lines)? Then the command printed that file
 * afresh. A path inside a line is something the output says about it (a service's `ExecStart=/root/app`, a route in a
 * build's table), not the file found again.
 */
export function locatesPath(output: string, path: string): boolean {
  for (let at = output.indexOf(path); at >= 0; at = output.indexOf(path, at + 1)) {
    const after = output.charAt(at + path.length);
    if ((at === 0 || output.charAt(at - 1) === '\n') && (after === '' || after === ':' || /\s/.test(after))) return true;
  }
  return false;
}

/** Does a path relative to the working directory end in a tail git elided (`.../tests/unit/x.py`)? */
const endsInTail = (rel: string, tail: string): boolean => rel.endsWith(`/${tail}`);

/** Does the listing print the file at `path` (as `projectRelative` reads it against the working directory)? */
export function listsFile(listed: Listed, path: string, cwd: string | null): boolean {
  const rel = projectRelative(path, cwd);
  return listed.paths.includes(rel) || listed.tails.some((t) => endsInTail(rel, t));
}

/**
 * The listings of a session by the files they print, for many lookups: `first` answers `listsFile` for the first
 * listing at or after a position, without reading every listing again for every file.
 */
export class ListingIndex {
  private readonly byPath = new Map<string, number[]>();
  private readonly tails: { tail: string; at: number }[] = [];

  /** Adds the listing at position `at` (positions added in ascending order). */
  add(at: number, listed: Listed): void {
    for (const path of listed.paths) this.byPath.set(path, [...(this.byPath.get(path) ?? []), at]);
    for (const tail of listed.tails) this.tails.push({ tail, at });
  }

  /** The first position from `from` on, not `skip`ped, whose listing prints the file at `path`; -1 when none. */
  first(path: string, cwd: string | null, from: number, skip: (at: number) => boolean): number {
    const rel = projectRelative(path, cwd);
    const whole = this.byPath.get(rel)?.find((at) => at >= from && !skip(at)) ?? -1;
    const tailed = this.tails.find((x) => x.at >= from && !skip(x.at) && endsInTail(rel, x.tail))?.at ?? -1;
    return whole < 0 ? tailed : tailed < 0 ? whole : Math.min(whole, tailed);
  }
}

/**
 * Does a command's output print the file at `path` afresh where the spelling names one file wherever the command ran:
 * an absolute path (or one from the home folder) that starts a line (`locatesPath`)?
 */
export const locatesFile = (output: string, path: string): boolean => ABSOLUTE.test(path) && locatesPath(output, path);

/**
 * Does a tool's output, answering a call with `target`, print the file at `path` afresh where the spelling names one
 * thing wherever the tool ran: a command's or a search's line that starts with it (`locatesFile`), or any output
 * (a file read, an agent's report, a build's route table) holding an absolute path or route whole. A value outside
 * the project counts only through a call that takes it, yet output that printed it before that call brought it back.
 */
export const reprintsWhole = (output: string, path: string, target: CallTarget | null | undefined, cwd: string | null): boolean =>
  ABSOLUTE.test(path) && (((target?.kind === 'command' || target?.kind === 'search') && locatesPath(output, path)) || exactPathIn(output, path, cwd));
