// Every relative link in README.md and docs/*.md reaches a file of the repository, and a link to a heading
// (`file.md#a-heading`, `#a-heading`) reaches a heading that file has, by GitHub's anchor rule.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const DOCS = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens (repeats get -1, -2…). */
function anchorsOf(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const line of withoutFences(markdown).split('\n')) {
    const m = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!m) continue;
    const text = m[1]!.replace(/`/g, '').replace(/\[([^\]]*)\]\([^)]*\)/g, '$1');
    const base = text.toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

/** The text outside fenced code blocks (a heading or link written in code is none). */
function withoutFences(markdown: string): string {
  return markdown.replace(/^(```|~~~)[\s\S]*?^\1[^\n]*$/gm, '');
}

/** …and outside inline code spans too. */
function withoutCode(markdown: string): string {
  return withoutFences(markdown).replace(/`[^`\n]*`/g, '');
}

/** Link and image targets, `[text](target "title")` and `[id]: target`, with their line. */
function linksOf(markdown: string): { target: string; line: number }[] {
  const out: { target: string; line: number }[] = [];
  withoutCode(markdown)
    .split('\n')
    .forEach((text, i) => {
      for (const m of text.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) out.push({ target: m[1]!, line: i + 1 });
      const ref = /^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+"[^"]*")?\s*$/.exec(text);
      if (ref) out.push({ target: ref[1]!, line: i + 1 });
    });
  return out;
}

/** Why a relative link does not resolve, or null when it does. */
function brokenLink(from: string, target: string): string | null {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return null; // https:, mailto: — not a file of this repository
  const [pathPart, anchor] = target.split('#') as [string, string | undefined];
  const file = pathPart === '' ? join(ROOT, from) : join(ROOT, dirname(from), decodeURIComponent(pathPart));
  if (!file.startsWith(ROOT) || !existsSync(file)) return `no file ${relative(ROOT, file)}`;
  if (anchor === undefined || !file.endsWith('.md')) return null;
  return anchorsOf(readFileSync(file, 'utf8')).has(decodeURIComponent(anchor)) ? null : `no heading #${anchor} in ${relative(ROOT, file)}`;
}

describe('the documents', () => {
  it('link only to files and headings that exist', () => {
    const broken: string[] = [];
    let checked = 0;
    for (const doc of DOCS) {
      for (const { target, line } of linksOf(readFileSync(join(ROOT, doc), 'utf8'))) {
        checked++;
        const why = brokenLink(doc, target);
        if (why) broken.push(`${doc}:${line} → ${target}: ${why}`);
      }
    }
    expect(broken).toEqual([]);
    expect(checked).toBeGreaterThan(10);
  });

  it('tells a broken link, a missing heading and a link in code apart', () => {
    const md = '# Using it\n## Using it\n## Serving: `serve`\n[a](docs/nowhere.md) [b](#using-it-1) `[c](nope.md)`\n```\n[d](nope.md)\n```\n[e]: ./README.md#nope';
    expect([...anchorsOf(md)]).toEqual(['using-it', 'using-it-1', 'serving-serve']);
    expect(linksOf(md).map((l) => l.target)).toEqual(['docs/nowhere.md', '#using-it-1', './README.md#nope']);
    expect(brokenLink('README.md', 'docs/nowhere.md')).toBe('no file docs/nowhere.md');
    expect(brokenLink('docs/cli.md', 'formats.md#no-such-heading')).toBe('no heading #no-such-heading in docs/formats.md');
    expect(brokenLink('docs/cli.md', '../README.md')).toBeNull();
    expect(brokenLink('README.md', 'https://example.com/x')).toBeNull();
  });
});
