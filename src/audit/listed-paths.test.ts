import { describe, expect, it } from 'vitest';
import { listedPaths, locatesPath } from './listed-paths';

const cwd = '/home/u/app';

describe('listedPaths', () => {
  it('reads git status short lines as paths relative to the folder it runs in', () => {
    // Modelled on blackgirlbytes/planetfall-seed-signalkit (s51): `git status --short` after the compaction.
    expect(listedPaths('git status --short', ' M PLAN.md\n M README.md\n M src/main.js\n?? notes.txt\n', cwd).paths).toEqual(['PLAN.md', 'README.md', 'src/main.js', 'notes.txt']);
  });

  it('reads the long status form, renames by their new path', () => {
    const out = 'Changes not staged for commit:\n\tmodified:   README.md\n\trenamed:    a.ts -> lib/b.ts\nUntracked files:\n\tdocs/new.md\n';
    expect(listedPaths('git status', out, cwd).paths).toEqual(['README.md', 'lib/b.ts', 'docs/new.md']);
    // A chain that also prints code: its tab-indented lines are not untracked files.
    expect(listedPaths('git status && cat main.go', 'Untracked files:\n\tnotes.md\nfunc main() {\n\treturn nil\n}\n', cwd).paths).toEqual(['notes.md']);
  });

  it('reads only the status lines of a chain, not another command\'s names', () => {
    // A chain as s51 ran it: `git status --short && ls src && wc -l …`; `ls src` lists src's files, wc prints counts.
    const out = ' M README.md\nislandView.js\nmain.js\n  120 src/main.js\n  40 index.html\n';
    expect(listedPaths('git status --short && ls src && wc -l src/*.js index.html', out, cwd).paths).toEqual(['README.md', 'src/islandView.js', 'src/main.js']);
  });

  it('joins an ls entry to the folder listed, after a cd', () => {
    expect(listedPaths('ls node_modules/three/build/', 'three.cjs\nthree.core.js\nthree.module.js\n', cwd).paths).toContain('node_modules/three/build/three.core.js');
    expect(listedPaths('cd packages/core && ls -la src', '-rw-r--r--  1 u staff  120 Jan  1 10:00 index.ts\ndrwxr-xr-x  3 u staff   96 Jan  1 10:00 .\n', cwd).paths).toEqual(['packages/core/src/index.ts']);
    expect(listedPaths(`cd ${cwd} && ls`, 'README.md\n', cwd).paths).toEqual(['README.md']);
  });

  it('reads no ls entry when one command lists two folders, nor a recursive or globbed listing', () => {
    expect(listedPaths('ls src && ls docs', 'README.md\n', cwd).paths).toEqual([]);
    expect(listedPaths('ls -R src', 'README.md\n', cwd).paths).toEqual([]);
    expect(listedPaths('ls src/*.md', 'src/README.md\n', cwd).paths).toEqual([]);
    expect(listedPaths('git ls-files && ls docs', 'README.md\n', cwd).paths).toEqual([]);
  });

  it('reads a --stat line, keeping the tail of a path whose head git elided', () => {
    // Modelled on w-toguchi83/dynamic-sanmei (s63): `git diff --stat main...worktree-agent-…`.
    const out = ' .../sanmei-core/src/sanmei_core/domain/meishiki.py |   4 +\n .../tests/unit/calculators/test_fortune.py         | 231 +++++\n README.md | 2 +-\n 3 files changed, 235 insertions(+)\n';
    const listed = listedPaths(`cd ${cwd} && git diff --stat main...worktree-agent-a49b0f51`, out, cwd);
    expect(listed.paths).toEqual(['README.md']);
    expect(listed.tails).toEqual(['sanmei-core/src/sanmei_core/domain/meishiki.py', 'tests/unit/calculators/test_fortune.py']);
  });

  it('reads --numstat and --name-status lines', () => {
    expect(listedPaths('git diff --numstat', '12\t3\tREADME.md\n-\t-\tassets/logo.png\n', cwd).paths).toEqual(['README.md', 'assets/logo.png']);
    expect(listedPaths('git show --name-status HEAD', 'M\tREADME.md\nR100\tsrc/a.ts\tlib/a.ts\n', cwd).paths).toEqual(['README.md', 'lib/a.ts']);
  });

  it('reads nothing from a command that lists no files', () => {
    expect(listedPaths('cat README.md', 'README.md\n', cwd)).toEqual({ paths: [], tails: [] });
    expect(listedPaths('git log --oneline', 'abc1234 README.md\n', cwd)).toEqual({ paths: [], tails: [] });
  });
});

describe('locatesPath', () => {
  // Modelled on Safecast's sessions: `grep -r` over a remote folder (hold-out 3's study part, h3sc2-031) starts its
  // lines with each file it found; `systemctl status` (Safecast/safecast-map-MCP, s21) names the binary inside a line.
  it('reads a line that starts with the path, as a search or a listing prints the files it found', () => {
    expect(locatesPath('/etc/nginx/sites-enabled/site:    location /mcp {\n', '/etc/nginx/sites-enabled/site')).toBe(true);
    expect(locatesPath('./a\n/root/app/bin\n', '/root/app/bin')).toBe(true);
  });
  it('does not read a path inside a line, nor a longer path it begins', () => {
    expect(locatesPath('    Process: 676901 ExecStart=/root/app/bin (code=exited)\n', '/root/app/bin')).toBe(false);
    expect(locatesPath('/root/app/bin.new\n/root/app/bin/x\n', '/root/app/bin')).toBe(false);
  });
});
