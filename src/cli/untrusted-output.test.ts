// Issue 33: session content reached the CLI's output raw. A session id taken from the file forged GitHub workflow
// commands in `check --format github`, and escape sequences from the file reached the terminal in text output.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { CliIo } from './cli-io';
import { run } from './main';
import { terminalText } from './terminal-text';

const claude = readFileSync(new URL('../formats/__fixtures__/claude-code-session.jsonl', import.meta.url), 'utf8');
// The same session with a hostile id: a line break that starts a command of its own, a `%0A` GitHub would decode,
// `::`/`,` that would end a property, and an ANSI escape (red, then clear the screen).
const FORGED = 'x\n::error file=.github/workflows/ci.yml,line=1::forged%0A::add-mask::y,z\u001b[31m\u001b[2J\r';
const hostile = claude.replace(/"sessionId":"[^"]*"/g, `"sessionId":${JSON.stringify(FORGED)}`);
const NAME = 'evil\u001b]0;retitled\u0007\u202eld.jsonl';

function fakeIo(files: Record<string, string>) {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = {
    out: (t) => out.push(t),
    err: (t) => err.push(t),
    readFile: (p) => new TextEncoder().encode(files[p] ?? ''),
    listDir: () => [],
    isDir: () => false,
    exists: (p) => p in files,
  };
  return { io, out: () => out.join('\n'), err: () => err.join('\n') };
}

const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

describe('check --format github', () => {
  it('escapes every field, so a forged session id cannot start a workflow command of its own', async () => {
    const { io, out } = fakeIo({ [NAME]: hostile });
    expect(await run(['check', NAME, '--max-lost-needed', '0', '--format', 'github'], io)).toBe(1);
    const lines = out().split('\n');
    // Our annotations, and the verdict: nothing else, whatever the id held.
    for (const line of lines) expect(line).toMatch(/^(::(error|warning) file=[^:]*::|check (failed|passed): )/);
    expect(lines.filter((l) => l.startsWith('::error file=.github'))).toEqual([]);
    expect(out()).not.toMatch(CONTROL);
    // The id is still there to read, escaped: % first, then the line break.
    expect(out()).toContain('x%0A::error file=.github/workflows/ci.yml,line=1::forged%250A');
    // In a property (the file name) `:` and `,` are escaped too.
    expect(out()).toMatch(/::error file=evil␛\]0;retitled␇⟨RLO⟩ld\.jsonl,/);
  });
});

describe('text output', () => {
  it('inspect prints control characters from the file as marks, never as escapes', async () => {
    const { io, out } = fakeIo({ [NAME]: hostile });
    await run(['inspect', NAME], io);
    expect(out()).not.toMatch(CONTROL);
    // A line break in a field shows as a mark: the id cannot start a line, which a CI runner would read as a command.
    expect(out()).toContain('session x␊::error file=.github/workflows/ci.yml,line=1::forged%0A::add-mask::y,z');
    for (const line of out().split('\n')) expect(line.trimStart()).not.toMatch(/^::/);
    expect(out()).toContain('␛[31m␛[2J␍');
    expect(out()).toContain('evil␛]0;retitled␇⟨RLO⟩ld.jsonl');
  });

  it('check prints them as marks too', async () => {
    const { io, out } = fakeIo({ [NAME]: hostile });
    await run(['check', NAME], io);
    expect(out()).not.toMatch(CONTROL);
    expect(out()).toContain('␛[31m');
  });

  it('check keeps every field on its line: a forged id starts no workflow command and no verdict of its own', async () => {
    // The default text format is what a CI step prints when no --format is given; the runner reads every line.
    const { io, out } = fakeIo({ [NAME]: hostile });
    expect(await run(['check', NAME, '--max-lost-needed', '0'], io)).toBe(1);
    const lines = out().split('\n');
    for (const line of lines) expect(line.trimStart()).not.toMatch(/^::/);
    expect(lines.filter((l) => /^check (failed|passed)/.test(l))).toHaveLength(1);
    expect(lines.at(-1)).toMatch(/^check failed: x␊::error file=.*more than --max-lost-needed 0$/);
  });

  it('rerun keeps the file name and the model on the line they name', async () => {
    const evilModel = claude.replace(/"model":"[^"]*"/g, `"model":${JSON.stringify('m\n::error::forged')}`);
    const { io, out } = fakeIo({ [NAME]: evilModel });
    await run(['rerun', NAME, '--policy', 'claude-code'], io);
    expect(out()).toContain('m␊::error::forged');
    for (const line of out().split('\n')) expect(line.trimStart()).not.toMatch(/^::/);
  });

  it('terminalText keeps line feeds and tabs, and marks a carriage return', () => {
    expect(terminalText('a\tb\nc\rd\u001b[0m')).toBe('a\tb\nc␍d␛[0m');
  });
});
