// Rules about what a thing is, each on a small hand-made session (session 41, from the first hold-out's study part;
// docs/audit.md): another compaction's summary, a program of the machine, a commit's trailer, a measure. Session 42
// (from the second hold-out's study part, and kinds left from the first): a harness's task notification, git's
// conflict markers, the working directory, a path in written content, a release line.
import { describe, expect, it } from 'vitest';
import { auditSummary, type AuditInput } from './audit-summary';
import { isNoise } from './noise';
import { haystack, referencedIn } from './normalize';
import type { CallTarget } from '../refetch/call-target';
import { assistant as said, boundary, compaction, session, summary as summaryItem, toolCall, toolResult, user } from '../test/builders';
import { auditInputFor, auditSession } from './audit-session';
import type { Item } from '../model/types';

const CWD = '/home/u/kiosk';
const bash = (command: string): CallTarget => ({ tool: 'Bash', target: command, file: null, writes: false, kind: 'command' });
const read = (file: string): CallTarget => ({ tool: 'Read', target: file, file, writes: false, kind: 'file' });
const write = (file: string): CallTarget => ({ tool: 'Write', target: file, file, writes: true, kind: 'file' });
const needed = (input: AuditInput) => {
  const a = auditSummary(input);
  return [...a.lostReferencedLater.map((r) => r.value), ...a.lostRefetchedLater.map((r) => r.value)];
};

describe('another compaction’s summary', () => {
  it('is a summarizer’s writing in the user’s turn: it shows no need of what it repeats', () => {
    const input: AuditInput = {
      summary: 'Set up the kiosk.',
      sources: ['Ticket KIO-4411 is the one to close.'],
      sourceMeta: [{ role: 'user', kind: 'message' }],
      later: [{ id: 's2', role: 'user', kind: 'summary', text: '- Still open: KIO-4411' }],
      project: { cwd: CWD },
    };
    expect(needed(input)).toEqual([]);
    // The same words in a person's message are a need.
    expect(needed({ ...input, later: [{ id: 'm', role: 'user', kind: 'message', text: 'Close KIO-4411 now' }] })).toEqual(['KIO-4411']);
  });
});

describe('a program of the machine', () => {
  it('(/bin/bash, /usr/bin/env) is what a line runs with, not a file of the work, even when a later command runs it', () => {
    const audit = auditSummary({
      summary: 'Read the build script.',
      sources: ['     1→#!/bin/bash\n     2→#!/usr/bin/env python3'],
      sourceMeta: [{ role: 'tool', kind: 'tool_result', target: read(`${CWD}/build.sh`) }],
      later: [{ id: 'c', role: 'assistant', kind: 'tool_call', target: bash('sudo chroot /mnt/x /bin/bash -c "apt-get update"'), text: 'Bash({"command":"sudo chroot /mnt/x /bin/bash -c \\"apt-get update\\""})' }],
      project: { cwd: CWD },
    });
    expect(audit.lost).not.toContain('/bin/bash');
    expect(audit.lostReferencedLater).toEqual([]);
  });
});

describe('a Windows program named without a folder', () => {
  // Modelled on judged flags of a Windows C++ session (s154): the build ran through cmd.exe and PowerShell, and the
  // agent later looked for cmake.exe by name.
  it('(cmd.exe, powershell.exe, cmake.exe) is one Windows finds on its PATH: a later command running it uses nothing of the work', () => {
    const win = 'C:\\Users\\dev\\game';
    const input: AuditInput = {
      summary: 'Built the engine with CMake.',
      sources: ['cmd.exe /c "cmake --build build" && powershell.exe -Command "Get-ChildItem build"\nFound cmake.exe under Visual Studio'],
      sourceMeta: [{ role: 'tool', kind: 'tool_result', target: bash('cmd.exe /c "cmake --build build"') }],
      later: [{ id: 'c', role: 'assistant', kind: 'tool_call', target: bash('where cmake.exe && cmd.exe /c "cmake --build build"'), text: 'Bash({"command":"where cmake.exe && cmd.exe /c \\"cmake --build build\\""})' }],
      project: { cwd: win },
    };
    expect(needed(input)).toEqual([]);
    // A program the project builds is run by its path, and stays a file of the work.
    const built = needed({
      ...input,
      sources: ['Linking build/Release/game.exe'],
      later: [{ id: 'r', role: 'assistant', kind: 'tool_call', target: bash('build/Release/game.exe --smoke'), text: 'Bash({"command":"build/Release/game.exe --smoke"})' }],
    });
    expect(built).toEqual(['build/Release/game.exe']);
  });
});

describe('a commit’s trailer', () => {
  const commit = (msg: string) => `Bash({"command":"git commit -m \\"${msg}\\""})`;
  it('is the same signature on every commit: a later commit carrying it again uses nothing', () => {
    const trailer = 'feat: x\\n\\n🤖 Generated with [Claude Code](https://claude.ai/code)\\n\\nCo-Authored-By: Claude <bot@example.dev>';
    const input: AuditInput = {
      summary: 'Committed the launcher.',
      sources: [commit(trailer)],
      sourceMeta: [{ role: 'assistant', kind: 'tool_call', target: bash('git commit') }],
      later: [{ id: 'c2', role: 'assistant', kind: 'tool_call', target: bash('git commit'), text: commit(trailer.replace('feat: x', 'chore: y')) }],
      project: { cwd: CWD },
    };
    expect(needed(input)).toEqual([]);
    // A URL in the commit's body is the commit's content, and a later call taking it is a use.
    const body = 'fix: follow https://status.kiosk.dev/incidents/881 closely';
    expect(needed({ ...input, sources: [commit(body)], later: [{ id: 'f', role: 'assistant', kind: 'tool_call', target: bash('curl'), text: 'Bash({"command":"curl https://status.kiosk.dev/incidents/881"})' }] })).toEqual([
      'https://status.kiosk.dev/incidents/881',
    ]);
  });
});

describe('a measure', () => {
  it('in a document, a banner or output names nothing a later turn needs, even when another text says it again', () => {
    const input: AuditInput = {
      summary: 'Wrote the README.',
      sources: ['Write({"file_path":"/home/u/kiosk/README.md","content":"- **RAM**: 8GB minimum (64GB recommended)\\n- Git operations: < 50ms"})', '✓ Sufficient memory: 62GB'],
      sourceMeta: [
        { role: 'assistant', kind: 'tool_call', target: write(`${CWD}/README.md`) },
        { role: 'tool', kind: 'tool_result', target: bash('./run.sh') },
      ],
      later: [
        { id: 'w', role: 'assistant', kind: 'tool_call', target: write(`${CWD}/PLAN.md`), text: 'Write({"file_path":"/home/u/kiosk/PLAN.md","content":"64GB DDR5; saves in <50ms; 62GB free"})' },
      ],
      project: { cwd: CWD },
    };
    expect(needed(input)).toEqual([]);
  });

  it('counts when a tool call sets it (a flag, an assignment) or the user writes it', () => {
    const audit = auditSummary({
      summary: 'Started the VM.',
      sources: ['Bash({"command":"qemu-system-x86_64 --memory 4GB -smp 2"})', 'keep the timeout at 45s please'],
      sourceMeta: [
        { role: 'assistant', kind: 'tool_call', target: bash('qemu-system-x86_64 --memory 4GB -smp 2') },
        { role: 'user', kind: 'message' },
      ],
      later: [{ id: 'c', role: 'assistant', kind: 'tool_call', target: bash('qemu'), text: 'Bash({"command":"qemu-system-x86_64 --memory 4GB --timeout 45s"})' }],
      project: { cwd: CWD },
    });
    expect(audit.lostReferencedLater.map((r) => r.value)).toEqual(['4GB', '45s']);
  });
});

describe('a definition as a tool prints it', () => {
  it('a shell function (`name() {`) under the Read tool’s line numbers is the project’s; re-read, then called, it was re-fetched', () => {
    const file = `${CWD}/wrapper.sh`;
    const input: AuditInput = {
      summary: 'Reviewed the wrapper.',
      sources: ['   470→auto_fix_issues() {\n   619→            auto_fix_issues'],
      sourceMeta: [{ role: 'tool', kind: 'tool_result', target: read(file) }],
      sourceCalls: [`Read ${file}`],
      later: [
        { id: 'r', role: 'tool', kind: 'tool_result', target: read(file), text: '   470→auto_fix_issues() {' },
        { id: 'c', role: 'assistant', kind: 'tool_call', target: bash('bash -c "source ./wrapper.sh && auto_fix_issues"'), text: 'Bash({"command":"bash -c \\"source ./wrapper.sh && auto_fix_issues\\""})' },
      ],
      project: { cwd: CWD },
    };
    expect(auditSummary(input).lostRefetchedLater).toMatchObject([{ value: 'auto_fix_issues()', itemId: 'r', usedIn: 'c' }]);
  });

  it('a property an object gives a function body (`setToken: (t) => set(…)`) is the project’s; a type’s member (`onDone: () => void`) is a slot', () => {
    const hook = `${CWD}/src/hooks/useAuth.ts`;
    const store = `${CWD}/src/stores/auth.store.ts`;
    const input = (storeText: string): AuditInput => ({
      summary: 'Reworked the auth hook.',
      sources: ['   37→    setToken,\n  156→      setToken(response.token);'],
      sourceMeta: [{ role: 'tool', kind: 'tool_result', target: read(hook) }],
      later: [
        { id: 'r', role: 'tool', kind: 'tool_result', target: read(store), text: storeText },
        { id: 'e', role: 'assistant', kind: 'tool_call', target: { ...read(hook), tool: 'Edit', writes: true }, text: 'Edit({"old_string":"setToken(response.token);"})' },
      ],
      project: { cwd: CWD },
    });
    expect(needed(input('   53→  setToken: (token) => set({ token, isAuthenticated: true }),'))).toEqual(['setToken()']);
    expect(needed(input('   30→  setToken: (token: string) => void;'))).toEqual([]);
  });
});

describe('a method a class inherits', () => {
  // Modelled on a pydantic model and an Oban worker called through their own names (ElixirTrials/medgemma-hackathon,
  // marot/spotter: half A of bench/flag-judgements.json, sessions s05 and s29).
  const file = `${CWD}/reasoning.py`;
  const input = (declaration: string, call: string): AuditInput => ({
    summary: 'Reviewed the reasoning node.',
    sources: [`    49→${declaration}\n    88→        result = ${call}(raw)`],
    sourceMeta: [{ role: 'tool', kind: 'tool_result', target: read(file) }],
    sourceCalls: [`Read ${file}`],
    later: [
      { id: 'r', role: 'tool', kind: 'tool_result', target: read(file), text: `    88→        result = ${call}(raw)` },
      { id: 'e', role: 'assistant', kind: 'tool_call', target: { ...read(file), tool: 'Edit', writes: true }, text: `Edit({"old_string":"        result = ${call}(raw)"})` },
    ],
    project: { cwd: CWD },
  });
  it('from its parent (`model_validate` on `class Result(BaseModel)`), the session never declaring it, is the library’s, not the project’s', () => {
    expect(needed(input('class AgenticResult(BaseModel):', 'AgenticResult.model_validate'))).not.toContain('AgenticResult.model_validate()');
  });
  it('is the project’s when the session declares it, or when the class has no parent', () => {
    expect(needed(input('class AgenticResult(BaseModel):\n    90→    def from_raw(cls, raw):', 'AgenticResult.from_raw'))).toContain('AgenticResult.from_raw()');
    expect(needed(input('class AgenticResult:', 'AgenticResult.model_validate'))).toContain('AgenticResult.model_validate()');
  });
  it('from a module an Elixir module `use`s (`new` of `use Oban.Worker`) is that library’s', () => {
    const ex = `${CWD}/lib/app/jobs/enrich_commits.ex`;
    const worker = `     1→defmodule App.Jobs.EnrichCommits do\n     2→  @moduledoc "Oban worker"\n     3→  use Oban.Worker, queue: :default`;
    const pipe = '   121→    |> EnrichCommits.new()';
    const audit = auditSummary({
      summary: 'Reviewed the hooks controller.',
      sources: [`   2→  alias App.Jobs.EnrichCommits\n${pipe}`, worker],
      sourceMeta: [{ role: 'tool', kind: 'tool_result', target: read(`${CWD}/lib/app_web/hooks_controller.ex`) }, { role: 'tool', kind: 'tool_result', target: read(ex) }],
      later: [
        { id: 'r', role: 'tool', kind: 'tool_result', target: read(`${CWD}/lib/app_web/hooks_controller.ex`), text: pipe },
        { id: 'e', role: 'assistant', kind: 'tool_call', target: { ...read(`${CWD}/lib/app_web/hooks_controller.ex`), tool: 'Edit', writes: true }, text: 'Edit({"old_string":"    |> EnrichCommits.new()"})' },
      ],
      project: { cwd: CWD },
    });
    expect([...audit.lostReferencedLater, ...audit.lostRefetchedLater].map((r) => r.value)).not.toContain('EnrichCommits.new()');
  });
});

describe('a placeholder file name', () => {
  // Modelled on entireio/cli (half A of bench/flag-judgements.json, s37): throwaway git experiments that each make
  // their own `file.txt`.
  const input = (name: string): AuditInput => ({
    summary: 'Checked how git restore treats a modified file.',
    sources: [`Bash({"command":"cd /tmp/t1 && git init && echo a > ${name} && git add ${name} && git restore ${name}"})`],
    sourceMeta: [{ role: 'assistant', kind: 'tool_call', target: bash(`cd /tmp/t1 && git init && echo a > ${name}`) }],
    later: [{ id: 'c', role: 'assistant', kind: 'tool_call', target: bash(`cat ${name}`), text: `Bash({"command":"cd /tmp/t2 && echo b > ${name} && cat ${name}"})` }],
    project: { cwd: CWD },
  });
  it('(`file.txt`, `foo.py`) stands for any file: no summary loses it, and a later command making its own uses nothing', () => {
    const audit = auditSummary(input('file.txt'));
    expect(audit.lost).not.toContain('file.txt');
    expect(needed(input('file.txt'))).toEqual([]);
  });
  it('a name of the work is still lost', () => {
    expect(auditSummary(input('ledger.txt')).lost).toContain('ledger.txt');
  });
});

describe('a typed method declaration (C#, Java)', () => {
  // Modelled on a MonoGame project's screen class read with tab-numbered lines (roo-oliv/monodreams, the pool's study part).
  const file = `${CWD}/Screens/DemoScreen.cs`;
  const input = (declaration: string, name: string): AuditInput => ({
    summary: 'Reviewed the demo screen.',
    sources: [`170\t        ${name}();\n178\t    ${declaration}\n179\t    {`],
    sourceMeta: [{ role: 'tool', kind: 'tool_result', target: read(file) }],
    sourceCalls: [`Read ${file}`],
    later: [
      { id: 'r', role: 'tool', kind: 'tool_result', target: read(file), text: `175\t        ${name}();` },
      { id: 'e', role: 'assistant', kind: 'tool_call', target: { ...read(file), tool: 'Edit', writes: true }, text: `Edit({"old_string":"        ${name}();\n    }"})` },
    ],
    project: { cwd: CWD },
  });
  it('with its return type after a modifier, its `{` on the next line, declares a project method: re-read, then edited, it was re-fetched', () => {
    expect(auditSummary(input('private void RefreshFloorTint()', 'RefreshFloorTint')).lostRefetchedLater).toMatchObject([{ value: 'RefreshFloorTint()', itemId: 'r', usedIn: 'e' }]);
    expect(needed(input('private static MeshData BuildCaretMesh(float size)', 'BuildCaretMesh'))).toEqual(['BuildCaretMesh()']);
  });
  it('of one word (`Dispose()`), or an `override`, is a framework’s hook or the base class’s method, not the project’s', () => {
    expect(needed(input('public void Dispose()', 'Dispose'))).toEqual([]);
    expect(needed(input('protected override void RefreshFloorTint()', 'RefreshFloorTint'))).toEqual([]);
  });
});

describe('a relative path written from a folder below the working directory', () => {
  // Modelled on roo-oliv/monodreams (the pool's study part): a plan names files relative to the engine's folder
  // (`Component/Transform.cs`), while the calls open them from the working directory (`MonoDreams/Component/…`).
  const find = { tool: 'Bash', target: 'find MonoDreams -name "*.cs"', file: null, writes: false, kind: 'command' } as const;
  const input = (planned: string, listed: string): AuditInput => ({
    summary: 'Planned the foundation block.',
    sources: [`Read({"file_path":"${CWD}/MonoDreams/Game.cs"})`, `- ${planned}`],
    sourceMeta: [
      { role: 'assistant', kind: 'tool_call', target: read(`${CWD}/MonoDreams/Game.cs`) },
      { role: 'tool', kind: 'tool_result' },
    ],
    later: [
      { id: 'f', role: 'tool', kind: 'tool_result', target: find, text: listed },
      { id: 'w', role: 'assistant', kind: 'tool_call', target: write(`${CWD}/MonoDreams/foundation.json`), text: `Write({"file_path":"${CWD}/MonoDreams/foundation.json","content":"{ \\"source\\": \\"${listed}\\" }"})` },
    ],
    project: { cwd: CWD },
  });
  it('(its first folder none the calls open files under) names the file a longer path ending with it names', () => {
    expect(auditSummary(input('Component/Transform.cs', 'MonoDreams/Component/Transform.cs')).lostRefetchedLater).toMatchObject([
      { value: 'Component/Transform.cs', itemId: 'f', usedIn: 'w' },
    ]);
  });
  it('from a folder the calls open files under, it is that folder’s file: a longer path ending with it is another', () => {
    expect(needed(input('MonoDreams/Component/Transform.cs', 'sandbox/MonoDreams/Component/Transform.cs'))).toEqual([]);
  });
  it('a URL’s path ending with it is a request to a server, not the file', () => {
    expect(needed(input('well-known/jwks.json', 'https://api.example.dev/auth/well-known/jwks.json'))).toEqual([]);
  });
});

describe('a Go call without a package qualifier', () => {
  // Modelled on Safecast/safecast-map-MCP (the pool's study part): a tool file of `package main` returns through a
  // helper of the package whose declaration the session never reads; a new tool file the agent writes calls it again.
  const tool = `${CWD}/cmd/server/tool_stats.go`;
  const input = (call: string): AuditInput => ({
    summary: 'Added the stats tool.',
    sources: [`    62→\treturn ${call}(map[string]any{\n    63→\t\t"stats": stats,`],
    sourceMeta: [{ role: 'tool', kind: 'tool_result', target: read(tool) }],
    later: [
      { id: 'w', role: 'assistant', kind: 'tool_call', target: write(`${CWD}/cmd/server/tool_extremes.go`), text: `Write({"file_path":"${CWD}/cmd/server/tool_extremes.go","content":"package main\n\nfunc handleExtremes() {\n\treturn ${call}(map[string]any{})\n}"})` },
    ],
    project: { cwd: CWD },
  });
  it('of a name of several words in MixedCaps is a function of the package, the project’s: a later call of it uses it', () => {
    expect(auditSummary(input('jsonResult')).lostReferencedLater).toMatchObject([{ value: 'jsonResult()', itemId: 'w' }]);
  });
  it('of one word (a builtin, a function value) or in snake_case (SQL in a query string) is not known to be the project’s', () => {
    expect(needed(input('append'))).toEqual([]);
    expect(needed(input('to_timestamp'))).toEqual([]);
  });
});

describe('a Rust method called on `self`', () => {
  // Modelled on nakamura-shuta/tij (the pool's study part): an input handler notifies through a method of the app
  // whose definition the session never reads; a later search looks for its calls.
  const input = (method: string): AuditInput => ({
    summary: 'Reviewed the input handler.',
    sources: [`   386→                self.${method}("Use 'c' to create from current change");`],
    sourceMeta: [{ role: 'tool', kind: 'tool_result', target: read(`${CWD}/src/app/input.rs`) }],
    later: [
      {
        id: 'g',
        role: 'assistant',
        kind: 'tool_call',
        target: { tool: 'Grep', target: `${method}.*fetch in ${CWD}/src/app/actions.rs`, file: null, writes: false, kind: 'search' },
        text: `Grep({"pattern":"${method}(.*fetch","path":"${CWD}/src/app/actions.rs"})`,
      },
    ],
    project: { cwd: CWD },
  });
  it('of a snake_case name of several words is its type’s own: a later call of it uses it', () => {
    expect(auditSummary(input('notify_info')).lostReferencedLater).toMatchObject([{ value: 'notify_info()', itemId: 'g' }]);
  });
  it('named as Rust names conversions and predicates (`is_empty`, `as_bytes`) may be a standard trait’s', () => {
    expect(needed(input('is_selected'))).toEqual([]);
    expect(needed(input('as_display'))).toEqual([]);
  });
});

describe('a URL that is only an origin, kept', () => {
  // Modelled on Safecast/safecast-map-MCP (the pool's study part): the summary names the subdomain it set up.
  const kept = (summary: string, url: string) =>
    auditSummary({ summary, sources: [`Bash({"command":"curl -s ${url} | head"})`], sourceMeta: [{ role: 'assistant', kind: 'tool_call', target: bash(`curl -s ${url} | head`) }], later: [], project: { cwd: CWD } }).kept;
  it('by the summary naming its host and port: the server it stands for', () => {
    expect(kept('Set up assistant.example.org to bypass the CDN.', 'https://assistant.example.org')).toContain('https://assistant.example.org');
    expect(kept('The server listens on localhost:3333.', 'http://localhost:3333')).toContain('http://localhost:3333');
  });
  // Modelled on yutakobayashidev/dotnix (session 51, half A): "NOSTR_RELAYS: damus, nos.lol, nostr.band".
  it('by the summary naming the site a service’s subdomain serves, unless everyone’s services share it', () => {
    expect(kept('NOSTR_RELAYS: damus, nos.lol, nostr.band', 'wss://relay.nostr.band')).toContain('wss://relay.nostr.band');
    expect(kept('Relays: maps.nostr.band only.', 'wss://relay.nostr.band')).not.toContain('wss://relay.nostr.band');
    expect(kept('Opened the PR on github.com.', 'https://api.github.com')).not.toContain('https://api.github.com');
  });
  it('not by another host, nor by a bare `localhost` (any server of the machine)', () => {
    expect(kept('Set up maps.example.org.', 'https://assistant.example.org')).not.toContain('https://assistant.example.org');
    expect(kept('Started it on localhost.', 'http://localhost:3333')).not.toContain('http://localhost:3333');
  });
});

describe('a URL that is only an origin', () => {
  it('names a server: a later call to a URL on it uses it', () => {
    const input: AuditInput = {
      summary: 'Opened a tunnel.',
      sources: ['https://86f0-2003.tunnel-free.app'],
      sourceMeta: [{ role: 'tool', kind: 'tool_result', target: bash('curl -s http://127.0.0.1:4040/api/tunnels') }],
      later: [{ id: 'c', role: 'assistant', kind: 'tool_call', target: bash('curl'), text: 'Bash({"command":"curl -s https://86f0-2003.tunnel-free.app/auth/jwks.json"})' }],
      project: { cwd: CWD },
    };
    expect(needed(input)).toEqual(['https://86f0-2003.tunnel-free.app']);
    // A URL with a path is one resource: a longer URL under it is another.
    expect(needed({ ...input, sources: ['https://86f0-2003.tunnel-free.app/auth'] })).toEqual([]);
  });
});

describe('a year alone', () => {
  // Modelled on Safecast/safecast-map-MCP (the pool's study part): the agent drafts example questions, later written
  // into the README.
  const input = (laterText: string, target: CallTarget): AuditInput => ({
    summary: 'Drafted example questions.',
    sources: ['Show me radiation trends near Fukushima since 2011'],
    sourceMeta: [{ role: 'tool', kind: 'tool_result', target: read(`${CWD}/docs/questions.txt`) }],
    later: [{ id: 'l', role: 'assistant', kind: 'tool_call', target, text: laterText }],
    project: { cwd: CWD },
  });
  it('names a time: written content that repeats it uses nothing', () => {
    expect(needed(input(`Edit({"file_path":"${CWD}/README.md","new_string":"- Show me measurements from Fukushima in March 2011"})`, { ...write(`${CWD}/README.md`), tool: 'Edit' }))).toEqual([]);
  });
  it('counts when a later call takes it as its argument', () => {
    expect(needed(input('Bash({"command":"./query --since 2011"})', bash('./query --since 2011')))).toEqual(['2011']);
  });
});

describe('a day without its year', () => {
  // Modelled on LAF-US/IDAHO-VAULT (a studied dev row): `April 3` in a note, printed again by a grep, then written into
  // another note: no one day is named, and repeating it uses nothing.
  const input = (laterText: string, target: CallTarget): AuditInput => ({
    summary: 'Updated the plugin notes.',
    sources: ['The day-accent plugin was built on April 3 and sat dormant.'],
    sourceMeta: [{ role: 'tool', kind: 'tool_result', target: read(`${CWD}/notes/plugins.md`) }],
    later: [
      { id: 'g', role: 'tool', kind: 'tool_result', target: bash('grep -n accent notes/plugins.md'), text: '268: The day-accent plugin was built on April 3 and sat dormant.' },
      { id: 'l', role: 'assistant', kind: 'tool_call', target, text: laterText },
    ],
    project: { cwd: CWD },
  });
  it('names no day: output that reprints it and content that repeats it use nothing', () => {
    expect(needed(input(`Edit({"file_path":"${CWD}/notes/state.md","new_string":"- accent plugin (built April 3)"})`, { ...write(`${CWD}/notes/state.md`), tool: 'Edit' }))).toEqual([]);
  });
  it('counts when a later call takes it as its argument', () => {
    expect(needed(input('Bash({"command":"git log --since \'April 3\'"})', bash("git log --since 'April 3'")))).toEqual(['April 3']);
  });
});

describe('the session’s own year', () => {
  it('alone (`2026`) is the time the session ran in, not a date of the work; another year is a date', () => {
    const days = new Set(['2026-02-17']);
    expect(isNoise({ kind: 'date', value: '2026', index: 0 }, { sessionDays: days })).toBe(true);
    expect(isNoise({ kind: 'date', value: '2023', index: 0 }, { sessionDays: days })).toBe(false);
    expect(isNoise({ kind: 'date', value: '2026', index: 0 }, {})).toBe(false);
  });
});

describe('a value in a test file', () => {
  it('is the test’s example data: a later test the agent writes with it uses nothing', () => {
    const input: AuditInput = {
      summary: 'Read the incidents docs.',
      sources: ['Severity levels run from SEV-1 through SEV-5.'],
      sourceMeta: [{ role: 'tool', kind: 'tool_result', target: { tool: 'WebFetch', target: 'https://docs.example.dev/incidents', file: null, writes: false, kind: 'url' } }],
      later: [{ id: 'w', role: 'assistant', kind: 'tool_call', target: write(`${CWD}/tests/unit/test_incidents.py`), text: 'Write({"content":"{\"severity\": \"SEV-1\"}"})' }],
      project: { cwd: CWD },
    };
    expect(needed(input)).toEqual([]);
    // The same value in a call outside a test is a use.
    expect(needed({ ...input, later: [{ id: 'c', role: 'assistant', kind: 'tool_call', target: bash('pup incidents list --severity SEV-1'), text: 'Bash({"command":"pup incidents list --severity SEV-1"})' }] })).toEqual(['SEV-1']);
  });
});

describe('invented, but backed under another spelling', () => {
  const invented = (summary: string, sources: string[]) => auditSummary({ summary, sources, later: [], project: { cwd: CWD } }).invented;
  it('words written with slashes are a list the sources name word by word, not a path', () => {
    expect(invented('- SloCreateInput supports metric/monitor/time_slice types', ['"type": "metric|monitor|time_slice",'])).toEqual([]);
    expect(invented('- settings from environment/.env', ['- **Environment variables**: Use python-dotenv for .env files'])).toEqual([]);
    // A word the sources never name keeps it invented.
    expect(invented('- supports metric/monitor/burn_rate types', ['"type": "metric|monitor|time_slice",'])).toEqual(['metric/monitor/burn_rate']);
  });

  it('a URL that is only an origin is backed by its host and port, as a host:port is', () => {
    const nc = 'Bash({"command":"nc -z -w2 10.20.30.40 5001 && echo reachable"})';
    expect(invented('Restart with `IPFS_URL=http://10.20.30.40:5001`.', [nc])).toEqual([]);
    expect(invented('Restart with `IPFS_URL=http://10.20.30.40:5002`.', [nc])).toEqual(['http://10.20.30.40:5002']);
  });

  // Session 46, from flags judged on unlabelled sessions of studied repositories (Safecast/safecast-map-MCP,
  // Lightprotocol/light-protocol checkpoints).
  it('an abbreviated hash is the head of a longer hash the sources print', () => {
    const md5 = 'ea5ee3964bef2dcbb0e0d14c81b84ed7  /srv/mcp/safecast-mcp';
    expect(invented('Checksum showed the wrong binary deployed (ea5ee39... vs 6f002a4...).', [md5, '6f002a4d662909789d4c66a6d7ef3450  safecast-mcp'])).toEqual([]);
    expect(invented('Checksum showed the wrong binary deployed (ea5ee40... vs 6f002a4...).', [md5, '6f002a4d662909789d4c66a6d7ef3450  safecast-mcp'])).toEqual(['ea5ee40']);
    // Read as a host after `server:`, it is still the checksum's head.
    expect(invented('- Detection: md5sum comparison (server: ea5ee39... vs local: 6f002a4...)', [md5, '6f002a4d662909789d4c66a6d7ef3450  safecast-mcp'])).toEqual([]);
  });

  // Found on half B of the judged flags (roo-oliv/monodreams), after half A's rules: B no longer holds it out.
  it('numbers a summary joins with bare commas are the numbers a source lists with comma and space', () => {
    const code = 'Write(MonoDreams/SproutPalette.cs): public static readonly Color ButtonFill = new(245, 246, 248); // near-white default';
    expect(invented('Added ButtonFill=new(245,246,248) to SproutPalette.cs.', [code])).toEqual([]);
    expect(invented('Added ButtonFill=new(245,264,248) to SproutPalette.cs.', [code])).toEqual(['245,264,248']);
  });

  it('a whole measure is a measure with a fraction the sources print, rounded or cut', () => {
    const run = 'VERIFICATION:- SUCCESSFUL\nVerification Time: 16818.959s';
    expect(invented('- Ran without stubs: completed in 16818s but failed.', [run])).toEqual([]);
    expect(invented('- Ran without stubs: completed in 16819 seconds but failed.', [run])).toEqual([]);
    expect(invented('- Ran without stubs: completed in 16817s but failed.', [run])).toEqual(['16817s']);
    expect(invented('- Ran without stubs: completed in 16818ms but failed.', [run])).toEqual(['16818ms']);
  });
});

describe('an address a document states', () => {
  it('is prose about the work: a script that repeats it uses nothing, a later call that opens it does', () => {
    const script = `${CWD}/start.sh`;
    const input: AuditInput = {
      summary: 'Wrote the README.',
      sources: ['Write({"file_path":"/home/u/kiosk/README.md","content":"- **Prometheus** - metrics (port 9090)"})'],
      sourceMeta: [{ role: 'assistant', kind: 'tool_call', target: write(`${CWD}/README.md`) }],
      later: [
        { id: 'r', role: 'tool', kind: 'tool_result', target: read(script), text: '  337→  echo "Prometheus: http://localhost:9090"' },
        { id: 'e', role: 'assistant', kind: 'tool_call', target: { ...read(script), tool: 'Edit', writes: true }, text: 'Edit({"new_string":"echo \\"Prometheus: http://localhost:9090\\""})' },
      ],
      project: { cwd: CWD },
    };
    expect(needed(input)).toEqual([]);
    const curl = { id: 'c', role: 'assistant', kind: 'tool_call', target: bash('curl -s http://localhost:9090/-/ready'), text: 'Bash({"command":"curl -s http://localhost:9090/-/ready"})' };
    expect(needed({ ...input, later: [...input.later, curl] })).toEqual(['9090']);
    // The same port in a script the slice read is the script's setting: the later edit uses it.
    expect(needed({ ...input, sourceMeta: [{ role: 'assistant', kind: 'tool_call', target: write(`${CWD}/monitor.sh`) }] })).toEqual(['9090']);
  });
});

describe('a measure’s number is a whole token', () => {
  it('`1ms` is not inside `11ms` or `0.1ms`', () => {
    const id = { kind: 'quantity' as const, value: '1ms', index: 0 };
    expect(referencedIn(id, haystack('| AI Latency (NPU) | <100ms | 11ms INT8 |'))).toBe(false);
    expect(referencedIn(id, haystack('cached: 0.1ms'))).toBe(false);
    expect(referencedIn(id, haystack('usleep(1000);  // Sleep 1ms'))).toBe(true);
  });
});

describe('a version', () => {
  it('names a release: a header or a doc that repeats it uses nothing, a later call that installs it does', () => {
    const input: AuditInput = {
      summary: 'Rewrote the wrapper.',
      sources: ['Write({"file_path":"/home/u/kiosk/wrapper.sh","content":"#!/bin/bash\\n# KIOSK WRAPPER v13.2 - QUIET MODE"})'],
      sourceMeta: [{ role: 'assistant', kind: 'tool_call', target: write(`${CWD}/wrapper.sh`) }],
      later: [
        { id: 'e', role: 'assistant', kind: 'tool_call', target: { ...write(`${CWD}/wrapper.sh`), tool: 'Edit' }, text: 'Edit({"new_string":"# Kiosk Wrapper v13.2 - banner off"})' },
        { id: 'o', role: 'tool', kind: 'tool_result', target: bash('./wrapper.sh --status'), text: 'Kiosk Wrapper v13.2 Status' },
      ],
      project: { cwd: CWD },
    };
    expect(needed(input)).toEqual([]);
    const pin = { id: 'p', role: 'assistant', kind: 'tool_call', target: bash('git checkout v13.2'), text: 'Bash({"command":"git checkout v13.2"})' };
    expect(needed({ ...input, later: [...input.later, pin] })).toEqual(['v13.2']);
  });

  // Modelled on roo-oliv/monodreams (the pool's study part): a .csproj's package references, read again, then a block
  // manifest the agent writes pins the same package versions.
  const csproj = `${CWD}/Engine/Engine.csproj`;
  const manifest = (content: string): AuditInput => ({
    summary: 'Listed the engine’s packages.',
    sources: ['73\t        <PackageReference Include="TileMapKit" Version="1.8.0" />'],
    sourceMeta: [{ role: 'tool', kind: 'tool_result', target: read(csproj) }],
    sourceCalls: [`Read ${csproj}`],
    later: [
      { id: 'r', role: 'tool', kind: 'tool_result', target: read(csproj), text: '73\t        <PackageReference Include="TileMapKit" Version="1.8.0" />' },
      { id: 'w', role: 'assistant', kind: 'tool_call', target: write(`${CWD}/registry/level/block.json`), text: `Write({"file_path":"${CWD}/registry/level/block.json","content":${JSON.stringify(content)}})` },
    ],
    project: { cwd: CWD },
  });
  it('written as a dependency’s version (a manifest’s version field, a range, a pin) pins the release: it uses the version', () => {
    expect(auditSummary(manifest('{ "nugetDependencies": [{ "id": "TileMapKit", "version": "1.8.0" }] }')).lostRefetchedLater).toMatchObject([{ value: '1.8.0', itemId: 'r', usedIn: 'w' }]);
    expect(needed(manifest('{ "dependencies": { "tilemapkit": "^1.8.0" } }'))).toEqual(['1.8.0']);
    expect(needed(manifest('tilemapkit==1.8.0\n'))).toEqual(['1.8.0']);
    // Prose about it, in the same manifest, pins nothing.
    expect(needed(manifest('{ "notes": "Tested with TileMapKit 1.8.0." }'))).toEqual([]);
  });

  it('of zeros after its major is kept by a summary naming that major (`v13` for `v13.0`); `v13` does not keep `v13.2`', () => {
    const kept = (version: string) =>
      auditSummary({ summary: 'Wrote claude-wrapper-v13.sh, the complete v13 wrapper.', sources: [`# Claude Wrapper ${version} - quiet mode`], sourceMeta: [{ role: 'tool', kind: 'tool_result', target: read(`${CWD}/wrapper.sh`) }], later: [], project: { cwd: CWD } }).kept;
    expect(kept('v13.0')).toContain('v13.0');
    expect(kept('v13.2')).not.toContain('v13.2');
  });
});

const edit = (file: string): CallTarget => ({ tool: 'Edit', target: file, file, writes: true, kind: 'file' });
const task = (prompt: string): CallTarget => ({ tool: 'Task', target: prompt, file: null, writes: false, kind: 'command' });

describe('a harness’s task notification', () => {
  // Claude Code tells the model a background command ended with `<task-notification>` parts in the user's turn.
  const notice =
    '<task-id>b1d663d</task-id>\n<output-file>/tmp/claude/tasks/b1d663d.output</output-file>\n<status>completed</status>\n' +
    '<summary>Background command "npx vite --port 5173 &\ncurl -s http://localhost:5173" completed (exit code 0)</summary>';
  const input: AuditInput = {
    summary: 'Started the dev server in the background.',
    sources: ['Bash({"command":"npx vite --port 5173 &\\ncurl -s http://localhost:5173","run_in_background":true})', 'Command running in background with ID: b1d663d.'],
    sourceMeta: [
      { role: 'assistant', kind: 'tool_call', target: bash('npx vite --port 5173 &') },
      { role: 'tool', kind: 'tool_result', target: bash('npx vite --port 5173 &') },
    ],
    later: [{ id: 'n', role: 'user', kind: 'message', text: `thanks\n${notice}` }],
    project: { cwd: CWD },
  };
  it('is the harness repeating the command it ran, also beside a person’s words: its parts name nothing the person needs', () => {
    expect(needed(input)).toEqual([]);
  });
  it('leaves the person’s own words counting', () => {
    expect(needed({ ...input, later: [{ id: 'n', role: 'user', kind: 'message', text: `is port 5173 still up?\n${notice}` }] })).toEqual(['5173']);
  });
});

describe('a background agent’s report', () => {
  // Claude Code delivers a background agent's report as a `<task-notification>` with a `<result>` in the user's turn
  // (broomva/life, Claude Code 2.1.42): another agent's fresh output, not the person's words nor a notice to blank.
  const report = (result: string) =>
    `<task-notification>\n<task-id>ad5ed02</task-id>\n<status>completed</status>\n<summary>Agent "Explore autonomic" completed</summary>\n<result>${result}</result>\n<usage>total_tokens: 83901</usage>\n</task-notification>`;
  const withLater = (later: Item[]) =>
    session(
      [
        user('u0', 'how does autonomicd start?'),
        toolCall('c1', 'k1', 'Read', '{"file_path":"/home/u/kiosk/autonomic/src/cli.rs"}'),
        toolResult('r1', 'k1', '    #[arg(long, default_value = "127.0.0.1:3002")]'),
        boundary('b'),
        summaryItem('sum', 'Read the daemon’s CLI arguments.'),
        ...later,
      ],
      { compactions: [compaction('c', { atItemId: 'b', summaryId: 'sum', replacedIds: ['u0', 'c1', 'r1'] })] },
    );
  const write = toolCall('c2', 'k2', 'Write', '{"file_path":"/home/u/kiosk/autonomic/CLAUDE.md","content":"cargo run -p autonomicd -- --bind 127.0.0.1:3002"}');
  it('brings back what it prints: a later call that takes it got it back from that output, in both audits', () => {
    const s = withLater([user('n', report('autonomicd binds `127.0.0.1:3002` by default')), write]);
    for (const a of [auditSession(s)[0]!, auditSummary(auditInputFor(s, s.compactions[0]!)!)]) {
      expect(a.lostReferencedLater.map((r) => r.value)).toEqual([]);
      expect(a.lostRefetchedLater.map((r) => [r.value, r.via, r.itemId, r.usedIn])).toEqual([
        ['127.0.0.1:3002', 'reprint', 'n', 'c2'],
        ['3002', 'reprint', 'n', 'c2'],
      ]);
    }
  });
  it('alone shows no need, and its notice parts name nothing', () => {
    expect(auditSession(withLater([user('n', report('autonomicd binds `127.0.0.1:3002` by default'))]))[0]!.lostRefetchedLater).toEqual([]);
    // Without the report, the call used what no output gave back.
    expect(auditSession(withLater([user('n', report('done')), write]))[0]!.lostReferencedLater.map((r) => r.value)).toEqual(['127.0.0.1:3002', '3002']);
  });
});

describe('a subagent’s tool output', () => {
  // adelie-investment (Claude Code 2.1.45): an Explore subagent's Glob printed the dashboard's files; the main
  // conversation's summary then names one relative to the working directory. The file is real, so not invented.
  const withSubagent = (listing: string) =>
    session(
      [
        user('u0', 'fix the dashboard tabs'),
        toolCall('c1', 'k1', 'Task', '{"description":"Explore the dashboard","prompt":"Find the dashboard app"}'),
        toolResult('r1', 'k1', 'The dashboard is a Streamlit app under infra.'),
        boundary('b'),
        summaryItem('sum', 'The dashboard lives in infra/docker-dashboard/app.py.'),
      ],
      {
        meta: { cwd: '/home/hj/adelie' },
        compactions: [compaction('c', { atItemId: 'b', summaryId: 'sum', replacedIds: ['u0', 'c1', 'r1'] })],
        sidechains: [
          {
            id: 'agent-1',
            purpose: 'subagent',
            file: 'f',
            compactionId: null,
            items: [toolCall('s1', 'g1', 'Glob', '{"pattern":"infra/**/*.py"}'), { ...toolResult('s2', 'g1', listing), pairId: 's1' }],
          },
        ],
      },
    );
  it('shows what it printed to exist: a summary naming it invents nothing', () => {
    expect(auditSession(withSubagent('/home/hj/adelie/infra/docker-dashboard/app.py\n/home/hj/adelie/infra/docker-dashboard/config.py'))[0]!.invented).toEqual([]);
    expect(auditSession(withSubagent('/home/hj/adelie/infra/docker-dashboard/config.py'))[0]!.invented).toEqual(['infra/docker-dashboard/app.py']);
  });
});

describe('git’s merge-conflict markers', () => {
  const input: AuditInput = {
    summary: 'Renamed the plugin.',
    sources: ['Task({"prompt":"Read packages/plugin-old/package.json and list its scripts"})'],
    sourceMeta: [{ role: 'assistant', kind: 'tool_call', target: task('Read packages/plugin-old/package.json') }],
    later: [
      { id: 'g', role: 'tool', kind: 'tool_result', target: bash('git status'), text: '\trenamed:    packages/plugin-old/package.json -> packages/plugin-new/package.json' },
      { id: 'r', role: 'tool', kind: 'tool_result', target: read(`${CWD}/packages/plugin-new/package.json`), text: '     7→  "version": "0.2.0",\n     8→>>>>>>> origin/main:packages/plugin-old/package.json' },
      { id: 'e', role: 'assistant', kind: 'tool_call', target: edit(`${CWD}/packages/plugin-new/package.json`), text: 'Edit({"file_path":"/home/u/kiosk/packages/plugin-new/package.json","old_string":"0.2.0\\",\\n>>>>>>> origin/main:packages/plugin-old/package.json","new_string":"0.2.0\\","})' },
    ],
    project: { cwd: CWD, texts: [{ kind: 'tool_call', text: 'Read({"file_path":"/home/u/kiosk/packages/plugin-old/package.json"})' }] },
  };
  it('name the sides of a merge: a file or an edit quoting `>>>>>>> branch:path` does not use the path', () => {
    expect(needed(input)).toEqual([]);
  });
  it('a later call that takes the path still does', () => {
    const again = { id: 'c', role: 'assistant', kind: 'tool_call', target: read(`${CWD}/packages/plugin-old/package.json`), text: 'Read({"file_path":"/home/u/kiosk/packages/plugin-old/package.json"})' };
    expect(needed({ ...input, later: [...input.later, again] })).toEqual(['packages/plugin-old/package.json']);
  });
});

describe('the working directory', () => {
  it('is stated to the model at every call: no summary loses it, and a subagent’s prompt or a longer path under it does not need it', () => {
    const audit = auditSummary({
      summary: 'Checked the package files.',
      sources: ['Bash({"command":"cd /home/u/kiosk && ls package.json apps/ui/package.json"})'],
      sourceMeta: [{ role: 'assistant', kind: 'tool_call', target: bash('cd /home/u/kiosk && ls package.json apps/ui/package.json') }],
      later: [
        { id: 't', role: 'assistant', kind: 'tool_call', target: task('Explore the codebase at /home/u/kiosk'), text: 'Task({"prompt":"Explore the codebase at /home/u/kiosk to see how badges render"})' },
        { id: 'r', role: 'assistant', kind: 'tool_call', target: read(`${CWD}/apps/ui/src/Badge.tsx`), text: 'Read({"file_path":"/home/u/kiosk/apps/ui/src/Badge.tsx"})' },
      ],
      project: { cwd: CWD, texts: [{ kind: 'tool_call', text: 'Bash({"command":"ls /home/u/kiosk"})' }] },
    });
    expect(audit.lost).toContain('/home/u/kiosk');
    expect(audit.lostReferencedLater).toEqual([]);
  });
});

describe('a path in content a call writes', () => {
  const line = "   120→  outFile: './src/generated/kiosk-types.ts',";
  const input: AuditInput = {
    summary: 'Read the plugin’s options.',
    sources: [line],
    sourceMeta: [{ role: 'tool', kind: 'tool_result', target: read(`${CWD}/packages/plugin/src/index.ts`) }],
    later: [
      { id: 'r', role: 'tool', kind: 'tool_result', target: read(`${CWD}/README.md`), text: "    42→      outFile: './src/generated/kiosk-types.ts'," },
      { id: 'e', role: 'assistant', kind: 'tool_call', target: edit(`${CWD}/README.md`), text: 'Edit({"file_path":"/home/u/kiosk/README.md","old_string":"typegen({","new_string":"codegen({\\n  outFile: \'./src/generated/kiosk-types.ts\',"})' },
    ],
    project: { cwd: CWD },
  };
  it('is a literal of the code or the doc (an option’s default), not a file the session shows to exist', () => {
    expect(needed(input)).toEqual([]);
  });
  it('is a file of the work once a call opens it or a listing shows it', () => {
    const shown: AuditInput = { ...input, project: { cwd: CWD, texts: [{ kind: 'tool_result', text: 'src/generated/kiosk-types.ts' }] } };
    expect(needed(shown)).toEqual(['./src/generated/kiosk-types.ts']);
  });
});

describe('a release line', () => {
  it('(`v2`) is backed by the full version it stands for (`@biomejs/biome@2.4.3`); another major is not', () => {
    const audit = (summary: string) =>
      auditSummary({ summary, sources: ['npm warn exec The following package was not found and will be installed: @biomejs/biome@2.4.3'], later: [], project: { cwd: CWD } }).invented;
    expect(audit('Pinned biome 1, as the latest v2 broke the config.')).not.toContain('v2');
    expect(audit('Pinned biome 1, as the latest v3 broke the config.')).toContain('v3');
  });
});

describe('a file in a listed folder', () => {
  it('is backed by the listing: the folder as a call’s path and the name as an entry; a name the listing lacks is not', () => {
    const invented = (path: string) =>
      auditSummary({
        summary: `Next, read \`${path}\` to see how the bridge works.`,
        sources: ['LS({"path":"/home/u/kiosk/hooks"})', '- /home/u/kiosk/hooks/\n  - bridge.py\n  - setup_hooks.sh'],
        later: [],
        project: { cwd: CWD },
      }).invented;
    expect(invented('/home/u/kiosk/hooks/setup_hooks.sh')).toEqual([]);
    expect(invented('/home/u/kiosk/hooks/teardown_hooks.sh')).toEqual(['/home/u/kiosk/hooks/teardown_hooks.sh']);
  });
});

describe('a conventional file name without a folder', () => {
  const input: AuditInput = {
    summary: 'Read the status line script.',
    sources: ['   220→  if vim.fn.filereadable("package.json") == 1 then project_type = "node" end'],
    sourceMeta: [{ role: 'tool', kind: 'tool_result', target: read(`${CWD}/scripts/statusline.lua`) }],
    later: [
      { id: 'w', role: 'assistant', kind: 'tool_call', target: write('/home/u/other/CLAUDE.md'), text: 'Write({"file_path":"/home/u/other/CLAUDE.md","content":"- **package.json**: frontend scripts"})' },
      { id: 'l', role: 'tool', kind: 'tool_result', target: bash('cd /home/u/other && ls -la'), text: '-rw-rw-r-- 1 u u    63 Aug 15 02:20 package.json' },
      { id: 'r', role: 'assistant', kind: 'tool_call', target: read('/home/u/other/package.json'), text: 'Read({"file_path":"/home/u/other/package.json"})' },
    ],
    project: { cwd: CWD },
  };
  it('(a manifest, a README) names the kind of file every project holds, not which one: a later package.json may be any project’s', () => {
    expect(needed(input)).toEqual([]);
  });
  it('with its folder it names one file', () => {
    const withFolder: AuditInput = {
      ...input,
      sources: ['Read({"file_path":"/home/u/kiosk/apps/web/package.json"})'],
      sourceMeta: [{ role: 'assistant', kind: 'tool_call', target: read(`${CWD}/apps/web/package.json`) }],
      later: [{ id: 'r', role: 'assistant', kind: 'tool_call', target: read(`${CWD}/apps/web/package.json`), text: 'Read({"file_path":"/home/u/kiosk/apps/web/package.json"})' }],
    };
    expect(needed(withFolder)).toEqual(['/home/u/kiosk/apps/web/package.json']);
  });
  // Session 43 (hold-out 3): the rule above had left out every bare conventional name, also those a command run in
  // the working directory printed, which name that directory's file.
  it('printed by a command run in the working directory (`git status`) is that directory’s file: a later call taking it exactly takes it', () => {
    const status: AuditInput = {
      summary: 'Committed the analytics tool.',
      sources: ['\tmodified:   README.md'],
      sourceMeta: [{ role: 'tool', kind: 'tool_result', target: bash('git status') }],
      later: [
        { id: 'm', role: 'assistant', kind: 'message', text: '## 1. Update README.md' },
        { id: 'r', role: 'assistant', kind: 'tool_call', target: read(`${CWD}/README.md`), text: 'Read({"file_path":"/home/u/kiosk/README.md"})' },
      ],
      project: { cwd: CWD },
    };
    expect(needed(status)).toEqual(['README.md']);
    expect(auditSummary(status).lostReferencedLater[0]!.itemId).toBe('r');
    // Still the exact file only: another folder's README, or the name inside a longer path, is another file.
    expect(needed({ ...status, later: [{ id: 'o', role: 'assistant', kind: 'tool_call', target: read('/home/u/other/README.md'), text: 'Read({"file_path":"/home/u/other/README.md"})' }] })).toEqual([]);
    expect(needed({ ...status, later: [{ id: 'd', role: 'assistant', kind: 'tool_call', target: read(`${CWD}/docs/README.md`), text: 'Read({"file_path":"/home/u/kiosk/docs/README.md"})' }] })).toEqual([]);
  });
  it('named in content a call writes, or at the end of a longer path a call takes, is not tied to the working directory', () => {
    const later: AuditInput['later'] = [{ id: 'w', role: 'assistant', kind: 'tool_call', target: write(`${CWD}/README.md`), text: 'Write({"file_path":"/home/u/kiosk/README.md","content":"# kiosk"})' }];
    // A document the agent wrote that lists conventions (`README.md` → docs) names no file of this folder.
    const written: AuditInput = {
      summary: 'Wrote the guide.',
      sources: ['Write({"file_path":"/home/u/kiosk/GUIDE.md","content":"- `README.md` → project docs"})'],
      sourceMeta: [{ role: 'assistant', kind: 'tool_call', target: write(`${CWD}/GUIDE.md`) }],
      later,
      project: { cwd: CWD },
    };
    expect(needed(written)).toEqual([]);
    // A call that reads another folder's README names that file, not the working directory's.
    const longer: AuditInput = {
      ...written,
      sources: ['Read({"file_path":"/home/u/kiosk/.pytest_cache/README.md"})'],
      sourceMeta: [{ role: 'assistant', kind: 'tool_call', target: read(`${CWD}/.pytest_cache/README.md`) }],
    };
    expect(needed(longer)).toEqual([]);
    // The same Write after a call that took the bare name itself (`cat README.md`, run in the working directory).
    const taken: AuditInput = { ...written, sources: ['Bash({"command":"cat README.md"})'], sourceMeta: [{ role: 'assistant', kind: 'tool_call', target: bash('cat README.md') }] };
    expect(needed(taken)).toEqual(['README.md']);
  });
});

describe('a class the agent moved to another file', () => {
  const input: AuditInput = {
    summary: 'Split the server module.',
    sources: ['Write({"file_path":"/home/u/kiosk/pkg/server.py","content":"class EventsListInput(BaseModel):\\n    limit: int = 10"})'],
    sourceMeta: [{ role: 'assistant', kind: 'tool_call', target: write(`${CWD}/pkg/server.py`) }],
    later: [
      { id: 'r', role: 'tool', kind: 'tool_result', target: read(`${CWD}/src/pkg/tools/events.py`), text: '    13→class EventsListInput(BaseModel):' },
      { id: 't', role: 'assistant', kind: 'tool_call', target: write(`${CWD}/tests/unit/test_events.py`), text: 'Write({"file_path":"/home/u/kiosk/tests/unit/test_events.py","content":"from pkg.tools.events import (\\n    EventsListInput,\\n)"})' },
    ],
    project: { cwd: CWD, texts: [{ text: 'Write({"file_path":"/home/u/kiosk/src/pkg/tools/events.py","content":"\\"\\"\\"Event tools.\\"\\"\\""})' }] },
  };
  it('is the same class where the agent put it: re-read there, then imported, it was re-fetched', () => {
    expect(needed(input)).toEqual(['EventsListInput()']);
  });
  it('a class of that name in a file the agent never wrote is another thing', () => {
    expect(needed({ ...input, project: { cwd: CWD } })).toEqual([]);
  });
});

describe('a file name as a line of a tree or a file list in content a call writes', () => {
  // Modelled on codyborders/pup-mcp: a coverage run lists the tool modules; after the compaction the agent writes a
  // README whose layout lists each module by name with a comment.
  const input = (content: string): AuditInput => ({
    summary: 'Raised coverage to 93%.',
    sources: ['src/pup_mcp/tools/monitors.py               75      2    97%   161-162\nmonitors.py'],
    sourceMeta: [{ role: 'tool', kind: 'tool_result', target: bash('pytest --cov') }],
    later: [{ id: 'w', role: 'assistant', kind: 'tool_call', target: write(`${CWD}/README.md`), text: `Write({"file_path":"/home/u/kiosk/README.md","content":"${content}"})` }],
    project: { cwd: CWD },
  });
  it('(`    monitors.py    # Monitor CRUD`, `├── monitors.py`) is the document’s picture of the project, not a use of the file', () => {
    expect(needed(input('## Layout\\n\\n    tools/\\n      monitors.py          # Monitor CRUD\\n'))).toEqual([]);
    expect(needed(input('## Layout\\n├── monitors.py\\n└── tags.py\\n'))).toEqual([]);
  });
  it('in a sentence it still names the file', () => {
    expect(needed(input('Monitor tools live in monitors.py; run it with the server.'))).toEqual(['src/pup_mcp/tools/monitors.py']);
  });
});

describe('a URL with a query or a fragment', () => {
  // Modelled on Mkid095/vps-system (nextmavens-4a157229): the agent curls a token endpoint; after the compaction the
  // user pastes the browser's console error, which names the same endpoint with its query.
  const input = (later: string): AuditInput => ({
    summary: 'Fixed the sign-in flow.',
    sources: ['Bash({"command":"curl -s -X POST https://auth.kiosk.dev/auth/v1/token -d @body.json"})'],
    sourceMeta: [{ role: 'assistant', kind: 'tool_call', target: bash('curl -s -X POST https://auth.kiosk.dev/auth/v1/token -d @body.json') }],
    later: [{ id: 'u', role: 'user', kind: 'message', text: later }],
    project: { cwd: CWD },
  });
  it('is a request to the same endpoint: naming it uses the URL', () => {
    expect(needed(input('store.ts:71  POST https://auth.kiosk.dev/auth/v1/token?grant_type=password 400 (Bad Request)'))).toEqual(['https://auth.kiosk.dev/auth/v1/token']);
    expect(needed(input('see https://auth.kiosk.dev/auth/v1/token#errors'))).toEqual(['https://auth.kiosk.dev/auth/v1/token']);
  });
  it('a longer path on it is another endpoint', () => {
    expect(needed(input('POST https://auth.kiosk.dev/auth/v1/token/refresh 400'))).toEqual([]);
    expect(needed(input('POST https://auth.kiosk.dev/auth/v1/tokens 400'))).toEqual([]);
  });
});

describe('a name a Rust `use` line brings in', () => {
  // Modelled on Lightprotocol/light-protocol (lp-345198a8): a Kani proof imports a test helper from the workspace's
  // own crate; after the compaction the agent re-reads its plan, which prints the helper again, and rewrites the plan.
  const plan = '/home/u/.claude/plans/proofs.md';
  const input = (crate: string, folder: string): AuditInput => ({
    summary: 'Planned the Kani contracts.',
    sources: [`    26→    use ${crate}::{\n    27→        mock_account::{set_mock_slot, MockAccountInfo},\n    28→    };\n    72→        set_mock_slot(1_000_000);`],
    sourceMeta: [{ role: 'tool', kind: 'tool_result', target: read(`${CWD}/${folder}/tests/proofs/compression.rs`) }],
    later: [
      { id: 'r', role: 'tool', kind: 'tool_result', target: read(plan), text: '   213→    set_mock_slot(slot);' },
      { id: 'w', role: 'assistant', kind: 'tool_call', target: write(plan), text: 'Write({"content":"let slot: u64 = kani::any();\\nset_mock_slot(slot);"})' },
    ],
    project: { cwd: CWD },
  });
  it('from a crate of the workspace (a folder of the project) or through `crate::`/`super::` is the project’s: re-read, then written, it was re-fetched', () => {
    expect(needed(input('sdk_types_kani', 'sdk-tests/sdk-types-kani'))).toEqual(['set_mock_slot()']);
    expect(needed(input('crate', 'src'))).toEqual(['set_mock_slot()']);
  });
  it('from any other crate is a dependency’s', () => {
    expect(needed(input('solana_program_test', 'sdk-tests/sdk-types-kani'))).toEqual([]);
  });
});

describe('the whole-session audit reads these rules as the per-compaction one does', () => {
  it('an origin a later call uses, a version an edit repeats and the user names', () => {
    const s = session(
      [
        user('u0', 'start the tunnel'),
        toolCall('c1', 'k1', 'Bash', '{"command":"curl -s http://127.0.0.1:4040/api/tunnels"}'),
        toolResult('r1', 'k1', 'https://86f0-2003.tunnel-free.app'),
        toolCall('c2', 'k2', 'Write', '{"file_path":"/home/u/kiosk/README.md","content":"Wrapper v13.2"}'),
        toolResult('r2', 'k2', 'ok'),
        boundary('b'),
        summaryItem('sum', 'Started a tunnel.'),
        toolCall('c3', 'k3', 'Bash', '{"command":"curl -s https://86f0-2003.tunnel-free.app/auth/jwks.json"}'),
        toolResult('r3', 'k3', '{}'),
        toolCall('c4', 'k4', 'Edit', '{"file_path":"/home/u/kiosk/start.sh","new_string":"echo v13.2"}'),
        toolResult('r4', 'k4', 'ok'),
        user('u5', 'is v13.2 the one on the kiosk?'),
        said('a5', 'yes'),
      ],
      { compactions: [compaction('c', { atItemId: 'b', summaryId: 'sum', replacedIds: ['u0', 'c1', 'r1', 'c2', 'r2'] })] },
    );
    expect(auditSession(s)[0]!.lostReferencedLater).toEqual([
      { value: 'https://86f0-2003.tunnel-free.app', itemId: 'c3', via: 'mention' },
      { value: 'v13.2', itemId: 'u5', via: 'mention' },
    ]);
  });

  it('a task notification beside a person’s words, a conflict marker, the working directory, a path in written content and a release line', () => {
    const items: Item[] = [
      user('u0', 'start the server'),
      toolCall('c1', 'k1', 'Bash', '{"command":"cd /home/u/kiosk && npx vite --port 5173 &"}'),
      toolResult('r1', 'k1', 'Command running in background with ID: b1d663d.\nnpm warn exec will be installed: @biomejs/biome@2.4.3'),
      toolCall('c2', 'k2', 'Read', '{"file_path":"/home/u/kiosk/packages/plugin-old/package.json"}'),
      toolResult('r2', 'k2', '     1→{"name": "plugin-old"}'),
      toolCall('c3', 'k3', 'Read', '{"file_path":"/home/u/kiosk/packages/plugin/src/index.ts"}'),
      toolResult('r3', 'k3', "   120→  outFile: './src/generated/kiosk-types.ts',"),
      boundary('b'),
      summaryItem('sum', 'Started the server and read the plugin; the latest v2 of biome broke the config.'),
      user('u4', 'thanks\n<task-id>b1d663d</task-id>\n<summary>Background command "npx vite --port 5173 &" completed (exit code 0)</summary>'),
      toolCall('c5', 'k5', 'Read', '{"file_path":"/home/u/kiosk/packages/plugin-new/package.json"}'),
      toolResult('r5', 'k5', '     8→>>>>>>> origin/main:packages/plugin-old/package.json'),
      toolCall('c5b', 'k5b', 'Edit', '{"file_path":"/home/u/kiosk/packages/plugin-new/package.json","old_string":"\\n>>>>>>> origin/main:packages/plugin-old/package.json","new_string":""}'),
      toolResult('r5b', 'k5b', 'ok'),
      toolCall('c6', 'k6', 'Task', '{"prompt":"Explore the codebase at /home/u/kiosk"}'),
      toolResult('r6', 'k6', 'ok'),
      toolCall('c7', 'k7', 'Edit', '{"file_path":"/home/u/kiosk/README.md","old_string":"x","new_string":"outFile: \'./src/generated/kiosk-types.ts\'"}'),
      toolResult('r7', 'k7', 'ok'),
      user('u8', 'is port 5173 up?'),
    ];
    const s = session(items, { compactions: [compaction('c', { atItemId: 'b', summaryId: 'sum', replacedIds: ['u0', 'c1', 'r1', 'c2', 'r2', 'c3', 'r3'] })] });
    s.meta['cwd'] = CWD;
    const a = auditSession(s)[0]!;
    // Only the person's question uses a lost value; the notification, the marker, the subagent's prompt and the
    // written option name nothing needed.
    expect([...a.lostReferencedLater, ...a.lostRefetchedLater].map((r) => r.value)).toEqual(['5173']);
    expect(a.lostReferencedLater[0]!.itemId).toBe('u8');
    // The release line the summary names is the version the install printed.
    expect(a.invented).not.toContain('v2');
  });

  it('a relative path written from a folder below the working directory, and a typed method declaration', () => {
    const items: Item[] = [
      toolCall('c1', 'k1', 'Read', '{"file_path":"/home/u/kiosk/Engine/Screens/DemoScreen.cs"}'),
      toolResult('r1', 'k1', '170\t        RefreshFloorTint();\n178\t    private void RefreshFloorTint()\n179\t    {'),
      toolCall('c2', 'k2', 'Task', '{"prompt":"map the engine"}'),
      toolResult('r2', 'k2', '- Component/Transform.cs — position, scale, rotation'),
      boundary('b'),
      summaryItem('sum', 'Mapped the engine.'),
      toolCall('c3', 'k3', 'Bash', '{"command":"find Engine -name \"*.cs\""}'),
      toolResult('r3', 'k3', 'Engine/Component/Transform.cs\nEngine/Screens/DemoScreen.cs'),
      toolCall('c4', 'k4', 'Bash', '{"command":"head -20 Engine/Component/Transform.cs"}'),
      toolResult('r4', 'k4', 'public struct Transform'),
      toolCall('c5', 'k5', 'Read', '{"file_path":"/home/u/kiosk/Engine/Screens/DemoScreen.cs"}'),
      toolResult('r5', 'k5', '175\t        RefreshFloorTint();'),
      toolCall('c6', 'k6', 'Edit', '{"file_path":"/home/u/kiosk/Engine/Screens/DemoScreen.cs","old_string":"        RefreshFloorTint();","new_string":""}'),
      toolResult('r6', 'k6', 'ok'),
    ];
    const s = session(items, { compactions: [compaction('c', { atItemId: 'b', summaryId: 'sum', replacedIds: ['c1', 'r1', 'c2', 'r2'] })] });
    s.meta['cwd'] = CWD;
    const a = auditSession(s)[0]!;
    // The listing brought the file back, the command then took it; the re-read brought the method back, the edit used it.
    const rows = a.lostRefetchedLater.map((r) => [r.value, r.itemId, r.usedIn]);
    expect(rows).toContainEqual(['Component/Transform.cs', 'r3', 'c4']);
    expect(rows).toContainEqual(['RefreshFloorTint()', 'r5', 'c6']);
  });

  it('a version a manifest the agent writes pins', () => {
    const items: Item[] = [
      toolCall('c1', 'k1', 'Read', '{"file_path":"/home/u/kiosk/Engine/Engine.csproj"}'),
      toolResult('r1', 'k1', '73\t<PackageReference Include="TileMapKit" Version="1.8.0" />'),
      boundary('b'),
      summaryItem('sum', 'Read the engine project.'),
      toolCall('c2', 'k2', 'Read', '{"file_path":"/home/u/kiosk/Engine/Engine.csproj"}'),
      toolResult('r2', 'k2', '73\t<PackageReference Include="TileMapKit" Version="1.8.0" />'),
      toolCall('c3', 'k3', 'Write', '{"file_path":"/home/u/kiosk/registry/level/block.json","content":"{ \\"id\\": \\"TileMapKit\\", \\"version\\": \\"1.8.0\\" }"}'),
      toolResult('r3', 'k3', 'ok'),
    ];
    const s = session(items, { compactions: [compaction('c', { atItemId: 'b', summaryId: 'sum', replacedIds: ['c1', 'r1'] })] });
    s.meta['cwd'] = CWD;
    expect(auditSession(s)[0]!.lostRefetchedLater.map((r) => [r.value, r.usedIn])).toContainEqual(['1.8.0', 'c3']);
  });

  it('a listed file, a conventional name and a moved class', () => {
    const items: Item[] = [
      toolCall('c0', 'k0', 'Write', '{"file_path":"/home/u/kiosk/src/pkg/tools/events.py","content":"class EventsListInput(BaseModel):\\n    pass"}'),
      toolResult('r0', 'k0', 'ok'),
      boundary('b0'),
      summaryItem('s0', 'Wrote the events module.'),
      toolCall('c1', 'k1', 'Write', '{"file_path":"/home/u/kiosk/pkg/server.py","content":"from pydantic import BaseModel\\n\\nclass EventsListInput(BaseModel):\\n    limit: int = 10"}'),
      toolResult('r1', 'k1', 'ok'),
      toolCall('c2', 'k2', 'LS', '{"path":"/home/u/kiosk/hooks"}'),
      toolResult('r2', 'k2', '- /home/u/kiosk/hooks/\n  - bridge.py\n  - setup_hooks.sh'),
      toolCall('c3', 'k3', 'Read', '{"file_path":"/home/u/kiosk/scripts/statusline.lua"}'),
      toolResult('r3', 'k3', '   220→  if vim.fn.filereadable("package.json") == 1 then'),
      boundary('b1'),
      summaryItem('s1', 'Next, read `/home/u/kiosk/hooks/setup_hooks.sh` to see how the bridge works.'),
      toolCall('c5', 'k5', 'Read', '{"file_path":"/home/u/kiosk/src/pkg/tools/events.py"}'),
      { ...toolResult('r5', 'k5', '    13→class EventsListInput(BaseModel):'), pairId: 'c5' },
      toolCall('c6', 'k6', 'Write', '{"file_path":"/home/u/kiosk/tests/unit/test_events.py","content":"from pkg.tools.events import EventsListInput"}'),
      toolResult('r6', 'k6', 'ok'),
      toolCall('c7', 'k7', 'Bash', '{"command":"cd /home/u/other && ls"}'),
      toolResult('r7', 'k7', 'package.json'),
      toolCall('c8', 'k8', 'Read', '{"file_path":"/home/u/other/package.json"}'),
      toolResult('r8', 'k8', '{}'),
    ];
    const s = session(items, {
      compactions: [
        compaction('x0', { atItemId: 'b0', summaryId: 's0', replacedIds: ['c0', 'r0'] }),
        compaction('x1', { atItemId: 'b1', summaryId: 's1', replacedIds: ['s0', 'c1', 'r1', 'c2', 'r2', 'c3', 'r3'] }),
      ],
    });
    s.meta['cwd'] = CWD;
    const a = auditSession(s)[1]!;
    expect(a.lostRefetchedLater.map((r) => [r.value, r.usedIn])).toEqual([['EventsListInput()', 'c6']]);
    expect(a.lostReferencedLater).toEqual([]);
    expect(a.invented).toEqual([]);
  });

  it('a conventional name a command in the working directory printed, then read there', () => {
    const items: Item[] = [
      toolCall('c1', 'k1', 'Bash', '{"command":"git status"}'),
      { ...toolResult('r1', 'k1', '\tmodified:   README.md'), pairId: 'c1' },
      toolCall('c2', 'k2', 'Read', '{"file_path":"/home/u/kiosk/scripts/statusline.lua"}'),
      { ...toolResult('r2', 'k2', '   220→  if vim.fn.filereadable("package.json") == 1 then'), pairId: 'c2' },
      boundary('b'),
      summaryItem('sum', 'Checked the tree.'),
      toolCall('c3', 'k3', 'Read', '{"file_path":"/home/u/kiosk/README.md"}'),
      toolResult('r3', 'k3', '# kiosk'),
      toolCall('c4', 'k4', 'Read', '{"file_path":"/home/u/kiosk/package.json"}'),
      toolResult('r4', 'k4', '{}'),
    ];
    const s = session(items, { compactions: [compaction('c', { atItemId: 'b', summaryId: 'sum', replacedIds: ['c1', 'r1', 'c2', 'r2'] })] });
    s.meta['cwd'] = CWD;
    // The status line's `package.json` is a literal of a file's content: whose file, it does not say.
    expect(auditSession(s)[0]!.lostReferencedLater).toEqual([{ value: 'README.md', itemId: 'c3', via: 'mention' }]);
  });
});

// Session 44 (from the fourth hold-out's study part): a setting that only documents and tests hold.
describe('a setting that only documents and tests hold', () => {
  const PLAN = '/home/u/.claude/plans/calm-river.md';
  const input: AuditInput = {
    summary: 'Drafted the verification plan.',
    sources: [
      '    12→        retry_limit: 3,\n    40→        retry_limit: 3,',
      'Write({"file_path":"/home/u/.claude/plans/calm-river.md","content":"## Harness\\n    let cfg = Config { retry_limit: 3 };"})',
      'Every harness builds its config with retry_limit: 3.',
    ],
    sourceMeta: [
      { role: 'tool', kind: 'tool_result', target: read(`${CWD}/tests/proofs/retry.rs`) },
      { role: 'assistant', kind: 'tool_call', target: write(PLAN) },
      { role: 'assistant', kind: 'message' },
    ],
    later: [
      { id: 'r', role: 'tool', kind: 'tool_result', target: read(PLAN), text: '   7→    let cfg = Config { retry_limit: 3 };' },
      { id: 'p', role: 'assistant', kind: 'tool_call', target: null, text: 'ExitPlanMode({"plan":"## Harness\\n    let cfg = Config { retry_limit: 3 };"})' },
    ],
    project: { cwd: CWD },
  };
  it('is example data and prose: reading the agent’s own plan back and submitting it uses nothing', () => {
    expect(needed(input)).toEqual([]);
  });
  it('counts when a later call takes it as its argument', () => {
    const sed = `sed -i 's/retry_limit: 3/retry_limit: 5/' ${CWD}/tests/proofs/retry.rs`;
    expect(needed({ ...input, later: [...input.later, { id: 'c', role: 'assistant', kind: 'tool_call', target: bash(sed), text: `Bash(${JSON.stringify({ command: sed })})` }] })).toEqual(['retry_limit: 3']);
  });
  it('read from the project’s own source, the same setting re-read and written again was re-fetched', () => {
    const sources = { ...input, sourceMeta: [{ role: 'tool', kind: 'tool_result', target: read(`${CWD}/src/config.rs`) }, ...(input.sourceMeta ?? []).slice(1)] };
    expect(needed(sources)).toEqual(['retry_limit: 3']);
  });
});

describe('a summary that keeps a thing under another spelling', () => {
  // Modelled on judged flags s134 ("Restarted server (now on port 3001)") and s141 ("components/ui/* (all 13 UI
  // components)"), and hold-out 1's cipher-box ("frontend on :5173").
  it('keeps a loopback address with no path by its port, and not one with a path, nor another port', () => {
    const input = (summary: string, url: string): AuditInput => ({
      summary,
      sources: [`  ➜  Local:   ${url}`],
      sourceMeta: [{ role: 'tool', kind: 'tool_result', target: bash('npm run dev') }],
      later: [{ id: 'c', role: 'assistant', kind: 'tool_call', target: bash(`curl -s ${url}`), text: `Bash({"command":"curl -s ${url}"})` }],
      project: { cwd: CWD },
    });
    expect(needed(input('Restarted the server (now on port 3001).', 'http://localhost:3001'))).toEqual([]);
    expect(needed(input('The frontend runs on :5173.', 'http://localhost:5173/'))).toEqual([]);
    expect(needed(input('The frontend runs on :5173.', 'http://localhost:5173/health'))).toEqual(['http://localhost:5173/health']);
    expect(needed(input('The API runs on port 3000.', 'http://localhost:3001'))).toEqual(['http://localhost:3001']);
    expect(needed(input('Retried 3001 times.', 'http://localhost:3001'))).toEqual(['http://localhost:3001']);
  });

  it('keeps a folder written as one (`wfc/skills/`) by a path inside it that it names, in either slash', () => {
    // Judged flags s66 (wfc/skills/ kept through wfc/skills/wfc-init/SKILL.md) and s96 (.claude/scripts/ through a
    // Windows path of a script in it).
    const input = (summary: string, folder: string): AuditInput => ({
      summary,
      sources: [`$ ls ${folder}\nwfc-init\nwfc-plan`],
      sourceMeta: [{ role: 'tool', kind: 'tool_result', target: bash(`ls ${folder}`) }],
      later: [{ id: 'c', role: 'assistant', kind: 'tool_call', target: bash(`ls ${folder}`), text: `Bash({"command":"ls ${folder}"})` }],
      project: { cwd: CWD, texts: [{ text: `ls ${folder}`, kind: 'tool_call' }] },
    });
    expect(needed(input('Fixed wfc/skills/wfc-init/SKILL.md.', 'wfc/skills/'))).toEqual([]);
    expect(needed(input('Wrote C:\\Users\\dev\\docs\\.claude\\scripts\\setup.ps1.', '.claude/scripts/'))).toEqual([]);
    // A path in another folder whose name starts the same way keeps nothing.
    expect(needed(input('Fixed wfc/skills-old/x.md.', 'wfc/skills/'))).toEqual(['wfc/skills/']);
    expect(needed(input('Fixed the plan.', 'wfc/skills/'))).toEqual(['wfc/skills/']);
  });

  it('keeps each file under a folder it names with a wildcard, an import specifier’s file included', () => {
    const page = `${CWD}/app/keys/page.tsx`;
    const input = (summary: string): AuditInput => ({
      summary,
      sources: ["import { Badge } from '@/components/ui/badge';\nimport { Card } from '@/components/ui/card';"],
      sourceMeta: [{ role: 'tool', kind: 'tool_result', target: read(page) }],
      later: [{ id: 'w', role: 'assistant', kind: 'tool_call', target: write(`${CWD}/app/usage/page.tsx`), text: "Write({\"content\":\"import { Badge } from '@/components/ui/badge';\\nimport { Card } from '@/components/ui/card';\"})" }],
      project: { cwd: CWD, texts: [{ text: 'components/ui/badge.tsx\ncomponents/ui/card.tsx', kind: 'tool_result' }] },
    });
    expect(needed(input('Component library: components/ui/* (all 13 UI components).'))).toEqual([]);
    // A folder of one segment names too much to keep a file by.
    expect(needed(input('UI lives under components/*.')).sort()).toEqual(['@/components/ui/badge', '@/components/ui/card']);
  });
});
