// The taxonomy is written once: docs/cache.md repeats it word for word (the panel's help renders it from the table).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CACHE_BREAK_CAUSES } from './cause';
import { CAUSE_TAXONOMY, READ_NOTES } from './cause-taxonomy';

const doc = readFileSync(new URL('../../docs/cache.md', import.meta.url), 'utf8');

describe('the cache-cause taxonomy', () => {
  it('has an entry for every cause', () => {
    expect(Object.keys(CAUSE_TAXONOMY).sort()).toEqual([...CACHE_BREAK_CAUSES].sort());
  });

  it.each([...Object.entries(CAUSE_TAXONOMY), ...Object.entries(READ_NOTES)])('docs/cache.md gives `%s` its label, meaning and evidence as the panel does', (key, entry) => {
    expect(doc).toContain(`| \`${key}\` | ${entry.label} | ${entry.meaning} | ${entry.evidence} |`);
  });

  it('docs/cli.md lists every cause and links the taxonomy', () => {
    const cli = readFileSync(new URL('../../docs/cli.md', import.meta.url), 'utf8');
    for (const c of CACHE_BREAK_CAUSES) expect(cli).toContain(`\`${c}\``);
    expect(cli).toContain('[cache.md](cache.md)');
  });
});
