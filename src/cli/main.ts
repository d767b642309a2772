// `compaction-inspector`: the engine from the command line. Exit 0 = all loaded, 1 = input errors, 2 = bad usage.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { PROVIDER_RULES, type ProviderRule } from '../cache';
import { parsePriceOverrides, type PriceOverrides } from '../cost/prices';
import { parseRuleSettings, type RuleSettings } from '../lints/rules';
import { isObject, str } from '../model/narrow';
import { FORMAT_IDS } from '../model/types';
import { nodeIo, packageRoot, readInputs, TRANSCRIPT_EXT, type CliIo } from './cli-io';
import { inspectReport, renderText, type InspectSession } from './inspect-report';
import { cacheFor } from './result-cache';
import { oneLine, terminalText } from './terminal-text';
import { defaultThreads, metricsOfSessions } from './session-pool';
import { COUNT_THREADS_MIN_BYTES, startCountThreads } from './count-threads';
import { openInputs } from './open-inputs';
import { giveInstructions, joinInstructions, readInstructionFiles, type InstructionFilesRead } from './instruction-files';

export type { CliIo } from './cli-io';

/** Read from package.json at start-up, so `--version` never drifts from the published version. */
const VERSION: string = (() => {
  try {
    const pkg: unknown = JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8'));
    return (isObject(pkg) ? str(pkg, 'version') : undefined) ?? 'unknown';
  } catch {
    return 'unknown';
  }
})();

/**
 * The usage text. The other commands' lines live with them: their modules (and the packages they bring, the HTTP
 * server's among them) load only when a command needs them or the usage is printed, not on every `inspect`.
 */
async function usage(): Promise<string> {
  const [{ CHECK_USAGE }, { SERVE_USAGE }, { CORPUS_USAGE }, { RERUN_USAGE }] = await Promise.all([import('./check'), import('./serve'), import('./corpus'), import('./rerun')]);
  return `Usage:
  compaction-inspector inspect <files or folders…> [--json] [--provider openai|anthropic|vllm|deepseek|exact]
                                                   load files as the app does (joined where they belong together;
                                                   a folder gives its .json/.jsonl files, e.g. an OpenHands conversation;
                                                   a bundle gives the files it carries);
                                                   --json adds per-call cache figures, summary audits and lints;
                                                   --rules FILE reads lint settings (muted rules, thresholds per harness)
                                                   in the app's shape: {"version":1,"rules":{"<rule>":{"<harness>|*":{…}}}};
                                                   --threads N analyses N sessions side by side (default: the idle cores
                                                   for sessions of 1 M characters of text or more, else one);
                                                   a session analysed before, unchanged, is read back from
                                                   ~/.cache/compaction-inspector (or $COMPACTION_INSPECTOR_CACHE_DIR);
                                                   --no-cache analyses every session again;
                                                   --otlp FILE writes the analysis as OTLP JSON spans (a trace per
                                                   session: the facts, a span per model call, a span per compaction);
                                                   --atif FILE writes the sessions as ATIF trajectories;
                                                   --instructions PATH (repeatable) gives the summary audit the
                                                   CLAUDE.md, AGENTS.md or GEMINI.md files the harness loaded unrecorded:
                                                   a file, or a project folder (its CLAUDE.md, CLAUDE.local.md,
                                                   .claude/CLAUDE.md, .claude/rules/*.md, AGENTS.md, GEMINI.md, and
                                                   their @imports, each given to the sessions of the harness
                                                   that loads it); auto: each session's own, from the working
                                                   directory it recorded and the folders above it, and the user's
                                                   ~/.claude/CLAUDE.md (or Codex's, Gemini CLI's), when on this
                                                   machine; --json lists them as instructionFiles
  compaction-inspector check-samples [dir]         inspect every .json/.jsonl/.eval file in dir (default ../shared/samples); fail on any error
${CHECK_USAGE}
${SERVE_USAGE}
${CORPUS_USAGE}
${RERUN_USAGE}
  compaction-inspector --version | --help

Exit status: 0 everything loaded (check: and within limits), 1 some input had errors (check: or a limit crossed), 2 bad usage.`;
}

interface InspectOptions {
  json: boolean;
  rule: ProviderRule | 'auto';
  prices?: PriceOverrides;
  rules?: RuleSettings;
  /** Threads analysing sessions side by side, this one among them (default: see metricsOfSessions). */
  threads?: number;
  /** Analyse every session again instead of reading back the ones analysed before (result-cache.ts). */
  noCache?: boolean;
  /** Files to write the analysis to, as OTLP spans and as ATIF trajectories. */
  otlp?: string;
  atif?: string;
  /** `--instructions`: the files the harness loaded unrecorded, given to every session's audit (instruction-files.ts). */
  instructions?: InstructionFilesRead;
}

async function inspect(paths: string[], opts: InspectOptions, io: CliIo): Promise<number> {
  const { inputs, missing } = readInputs(paths, io);
  if (missing.length) {
    for (const m of missing) io.err(`cannot read ${m}`);
    return 2;
  }
  // A long session is counted on threads, which load their rank tables while the files are parsed here (several
  // sessions of about one size are analysed side by side instead, a thread each).
  const threads = opts.threads ?? defaultThreads();
  const bytes = inputs.reduce((n, f) => n + f.bytes.length, 0);
  const largest = inputs.reduce((n, f) => Math.max(n, f.bytes.length), 0);
  const counting = threads > 1 && largest >= COUNT_THREADS_MIN_BYTES && largest * 2 >= bytes ? startCountThreads(Math.min(threads, 2)) : null;
  counting?.warm('o200k_base');
  try {
    const loaded = await openInputs(inputs);
    // On the session itself, so the result cache's key (the session's bytes) holds the files' text too.
    const given = joinInstructions(opts.instructions, loaded.instructions);
    const instructionFiles = given ? giveInstructions(loaded.sessions, given, io) : null;
    const report = inspectReport(loaded);
    // Text and JSON read the same analysis, so the two never disagree.
    const request = { rule: opts.rule, ...(opts.prices ? { prices: opts.prices } : {}), ...(opts.rules ? { rules: opts.rules } : {}), ...(opts.json ? {} : { defer: TEXT_DEFERS }) };
    const outcomes = await metricsOfSessions(loaded.sessions, request, opts.threads, cacheFor(io, opts.noCache === true), counting);
    const sessions: InspectSession[] = [];
    let failed = false;
    outcomes.forEach((o, i) => {
      if (o.ok) sessions.push({ ...report.sessions[i]!, ...o.metrics });
      else {
        // One session's analysis failing loses neither the others nor what was loaded: it is reported, not thrown.
        io.err(terminalText(oneLine(`${loaded.sessions[i]!.files.join(', ')}: ${o.message} (${o.detail})`)));
        sessions.push({ ...report.sessions[i]!, analysisError: o.message });
        failed = true;
      }
    });
    const full = { ...report, ...(instructionFiles ? { instructionFiles } : {}), sessions };
    // The readable report carries names and text from the files: their control characters print as marks.
    io.out(opts.json ? JSON.stringify(full, null, 2) : terminalText(renderText(full)));
    const exported = !opts.otlp && !opts.atif ? true : await (await import('./inspect-export')).writeExports(loaded.sessions, { ...(opts.otlp ? { otlp: opts.otlp } : {}), ...(opts.atif ? { atif: opts.atif } : {}), rule: opts.rule, ...(opts.prices ? { prices: opts.prices } : {}), version: VERSION }, io);
    return report.errors.length || failed || !exported ? 1 : 0;
  } finally {
    await counting?.close();
  }
}

function parseProvider(flags: string[]): ProviderRule | 'auto' | null {
  const flag = flags.find((f) => f.startsWith('--provider'));
  if (!flag) return 'auto';
  const value = flag.split('=')[1];
  return value && (PROVIDER_RULES as readonly string[]).includes(value) ? (value as ProviderRule) : null;
}

/** `--provider x` and `--provider=x` are both accepted. */
function joinValueFlags(argv: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if ((a === '--provider' || a === '--prices' || a === '--rules' || a === '--threads' || a === '--otlp' || a === '--atif' || a === '--instructions') && i + 1 < argv.length) out.push(`${a}=${argv[++i]}`);
    else out.push(a);
  }
  return out;
}

/** The readable report prints facts, cache and compactions, not lints or audits: it skips working them out. */
const TEXT_DEFERS = ['lints', 'audits'] as const;

export async function run(argvRaw: string[], io: CliIo = nodeIo): Promise<number> {
  if (argvRaw[0] === 'corpus') return (await import('./corpus')).runCorpus(argvRaw.slice(1), io);
  if (argvRaw[0] === 'rerun') return (await import('./rerun')).runRerun(argvRaw.slice(1), io);
  if (argvRaw[0] === 'check') return (await import('./check')).runCheck(argvRaw.slice(1), io, await usage());
  if (argvRaw[0] === 'serve') return (await import('./serve')).runServe(argvRaw.slice(1), io, await usage());
  if (argvRaw[0] === '--version' || argvRaw[0] === '-v' || argvRaw[0] === 'version') {
    io.out(VERSION);
    return 0;
  }
  const [command, ...rest] = joinValueFlags(argvRaw);
  const flagList = rest.filter((a) => a.startsWith('--'));
  const flags = new Set(flagList);
  const args = rest.filter((a) => !a.startsWith('--'));
  const unknown = flagList.filter((f) => f !== '--json' && f !== '--no-cache' && !f.startsWith('--provider') && !f.startsWith('--prices=') && !f.startsWith('--rules=') && !f.startsWith('--threads=') && !f.startsWith('--otlp=') && !f.startsWith('--atif=') && !f.startsWith('--instructions='));
  if (command === '--help' || command === '-h' || command === 'help') {
    io.out(await usage());
    return 0;
  }
  if (unknown.length) {
    io.err(`unknown option ${unknown.join(', ')}\n\n${await usage()}`);
    return 2;
  }
  const rule = parseProvider(flagList);
  if (rule === null) {
    io.err(`--provider must be one of ${PROVIDER_RULES.join(', ')}\n\n${await usage()}`);
    return 2;
  }
  if (command === 'inspect') {
    if (args.length === 0) {
      io.err(`inspect needs at least one file\n\n${await usage()}`);
      return 2;
    }
    const pricesFlag = flagList.find((f) => f.startsWith('--prices='));
    let prices: PriceOverrides | undefined;
    if (pricesFlag) {
      const file = pricesFlag.slice('--prices='.length);
      let parsed: ReturnType<typeof parsePriceOverrides>;
      try {
        parsed = parsePriceOverrides(JSON.parse(new TextDecoder().decode(io.readFile(file))));
      } catch (e) {
        io.err(`--prices ${file}: ${e instanceof Error ? e.message : String(e)}`);
        return 2;
      }
      if (parsed.errors.length) {
        io.err(parsed.errors.map((m) => `--prices ${file}: ${m}`).join('\n'));
        return 2;
      }
      prices = parsed.prices;
    }
    const rulesFlag = flagList.find((f) => f.startsWith('--rules='));
    let rules: RuleSettings | undefined;
    if (rulesFlag) {
      const path = rulesFlag.slice('--rules='.length);
      let raw: unknown;
      try {
        raw = JSON.parse(new TextDecoder().decode(io.readFile(path)));
      } catch (e) {
        io.err(`--rules ${path}: ${e instanceof Error ? e.message : String(e)}`);
        return 2;
      }
      const parsed = parseRuleSettings(raw, { formats: FORMAT_IDS });
      for (const p of parsed.problems) io.err(`--rules ${path}: ${p.replace(/^rule settings: /, '')}`);
      rules = parsed.settings;
    }
    const threadsFlag = flagList.find((f) => f.startsWith('--threads='));
    const threads = threadsFlag ? Number(threadsFlag.slice('--threads='.length)) : undefined;
    if (threads !== undefined && !(Number.isInteger(threads) && threads >= 1)) {
      io.err(`--threads must be a whole number of at least 1, got ${JSON.stringify(threadsFlag!.slice('--threads='.length))}\n\n${await usage()}`);
      return 2;
    }
    const fileFlag = (name: string) => {
      const f = flagList.find((x) => x.startsWith(`--${name}=`));
      return f ? f.slice(name.length + 3) : undefined;
    };
    const otlp = fileFlag('otlp');
    const atif = fileFlag('atif');
    for (const [name, path] of [['--otlp', otlp], ['--atif', atif]] as const) {
      if (path === '') {
        io.err(`${name} needs a file to write\n\n${await usage()}`);
        return 2;
      }
    }
    const instructionPaths = flagList.filter((f) => f.startsWith('--instructions=')).map((f) => f.slice('--instructions='.length));
    let instructions: InstructionFilesRead | undefined;
    if (instructionPaths.length > 0) {
      const read = readInstructionFiles(instructionPaths, io);
      if ('error' in read) {
        io.err(read.error);
        return 2;
      }
      instructions = read;
    }
    return inspect(
      args,
      { json: flags.has('--json'), rule, ...(prices ? { prices } : {}), ...(rules ? { rules } : {}), ...(threads ? { threads } : {}), noCache: flags.has('--no-cache'), ...(otlp ? { otlp } : {}), ...(atif ? { atif } : {}), ...(instructions ? { instructions } : {}) },
      io,
    );
  }
  if (command === 'check-samples') {
    const dir = resolve(args[0] ?? join(process.cwd(), '..', 'shared', 'samples'));
    // A user's clone has no ../shared beside it: the default folder is optional, a named one is not.
    if (args[0] === undefined && !io.exists(dir)) {
      io.out(`No sample folder at ${dir}: skipped (the project's own fixtures cover the same formats).`);
      return 0;
    }
    let files: string[];
    try {
      files = io.listDir(dir).filter((f) => TRANSCRIPT_EXT.test(f)).sort().map((f) => join(dir, f));
    } catch (e) {
      io.err(`cannot list ${dir}: ${e instanceof Error ? e.message : String(e)}`);
      return 2;
    }
    if (files.length === 0) {
      io.err(`no .json, .jsonl or .eval files in ${dir}`);
      return 2;
    }
    io.out(`Checking ${files.length} sample files in ${dir}`);
    // A test run's check leaves nothing behind in the user's cache.
    const code = await inspect(files, { json: flags.has('--json'), rule, noCache: true }, io);
    io.out(code === 0 ? 'All samples loaded without errors.' : 'Some samples have errors.');
    return code;
  }
  io.err(`${command ? `unknown command ${command}` : 'no command given'}\n\n${await usage()}`);
  return 2;
}
