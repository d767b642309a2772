// `compaction-inspector`: the engine from the command line. Exit 0 = all loaded, 1 = input errors, 2 = bad usage.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { PROVIDER_RULES, type ProviderRule } from '../cache';
import { loadFiles, type InputFile } from '../load/loader';
import { createTokenCounter, pickEncoding, TokenMemo, type EncodingName, type TokenCounter } from '../tokens';
import { CORPUS_USAGE, runCorpus } from './corpus';
import { inspectReport, renderText } from './inspect-report';
import { parseRuleSettings, type RuleSettings } from '../lints/rules';
import { FORMAT_IDS } from '../model/types';
import { sessionMetrics } from './session-metrics';

const USAGE = `Usage:
  compaction-inspector inspect <files…> [--json] [--provider openai|anthropic|vllm|deepseek|exact] [--rules FILE]
                                                   load files as the app does (joined where they belong together);
                                                   --json adds per-call cache figures, summary audits and lints;
                                                   --rules reads lint settings (muted rules, thresholds per harness)
                                                   in the app's shape: {"version":1,"rules":{"<rule>":{"<harness>|*":{…}}}}
  compaction-inspector check-samples [dir]         inspect every .json/.jsonl file in dir (default ../shared/samples); fail on any error
${CORPUS_USAGE}

Exit status: 0 everything loaded, 1 some input had errors, 2 bad usage.`;

export interface CliIo {
  out(text: string): void;
  err(text: string): void;
  readFile(path: string): Uint8Array;
  listDir(path: string): string[];
  isDir(path: string): boolean;
  exists(path: string): boolean;
}

const nodeIo: CliIo = {
  out: (t) => process.stdout.write(`${t}\n`),
  err: (t) => process.stderr.write(`${t}\n`),
  readFile: (p) => readFileSync(p),
  listDir: (p) => readdirSync(p),
  isDir: (p) => statSync(p).isDirectory(),
  exists: (p) => existsSync(p),
};

const TRANSCRIPT_EXT = /\.(jsonl?|ndjson)$/i;

function readInputs(paths: string[], io: CliIo): { inputs: InputFile[]; missing: string[] } {
  const inputs: InputFile[] = [];
  const missing: string[] = [];
  for (const p of paths) {
    try {
      inputs.push({ name: basename(p), bytes: io.readFile(p) });
    } catch (e) {
      missing.push(`${p}: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  return { inputs, missing };
}

interface InspectOptions {
  json: boolean;
  rule: ProviderRule | 'auto';
  rules?: RuleSettings;
}

/** One memoized counter per encoding: request logs repeat their prefix every call. */
function counters() {
  const made = new Map<EncodingName, Promise<(text: string) => number>>();
  return (encoding: EncodingName) => {
    let c = made.get(encoding);
    if (!c) {
      c = createTokenCounter(encoding).then((counter: TokenCounter) => {
        const memo = new TokenMemo();
        return (text: string) => memo.count(text, (t) => counter.count(t)).tokens;
      });
      made.set(encoding, c);
    }
    return c;
  };
}

async function inspect(paths: string[], opts: InspectOptions, io: CliIo): Promise<number> {
  const { inputs, missing } = readInputs(paths, io);
  if (missing.length) {
    for (const m of missing) io.err(`cannot read ${m}`);
    return 2;
  }
  const loaded = loadFiles(inputs);
  const report = inspectReport(loaded);
  if (opts.json) {
    const counterFor = counters();
    const sessions = [];
    for (let i = 0; i < loaded.sessions.length; i++) {
      const s = loaded.sessions[i]!;
      const count = await counterFor(pickEncoding(s.model).encoding);
      const { refetch, ...metrics } = sessionMetrics(s, count, opts.rule, opts.rules);
      const base = report.sessions[i]!;
      // Each compaction carries its re-fetch tax; null where it records no removed items to measure against.
      const compactions = base.compactions.map((c) => {
        const r = refetch.find((x) => x.compaction === c.index);
        return { ...c, refetches: r?.refetches ?? null, refetchTokens: r?.refetchTokens ?? null, rereadsAfterChange: r?.rereadsAfterChange ?? null };
      });
      sessions.push({ ...base, compactions, ...metrics });
    }
    io.out(JSON.stringify({ ...report, sessions }, null, 2));
  } else {
    io.out(renderText(report));
  }
  return report.errors.length ? 1 : 0;
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
    if ((a === '--provider' || a === '--rules') && i + 1 < argv.length) out.push(`${a}=${argv[++i]}`);
    else out.push(a);
  }
  return out;
}

export async function run(argvRaw: string[], io: CliIo = nodeIo): Promise<number> {
  if (argvRaw[0] === 'corpus') return runCorpus(argvRaw.slice(1), io);
  const [command, ...rest] = joinValueFlags(argvRaw);
  const flagList = rest.filter((a) => a.startsWith('--'));
  const flags = new Set(flagList);
  const args = rest.filter((a) => !a.startsWith('--'));
  const unknown = flagList.filter((f) => f !== '--json' && !f.startsWith('--provider') && !f.startsWith('--rules='));
  if (command === '--help' || command === '-h' || command === 'help') {
    io.out(USAGE);
    return 0;
  }
  if (unknown.length) {
    io.err(`unknown option ${unknown.join(', ')}\n\n${USAGE}`);
    return 2;
  }
  const rule = parseProvider(flagList);
  if (rule === null) {
    io.err(`--provider must be one of ${PROVIDER_RULES.join(', ')}\n\n${USAGE}`);
    return 2;
  }
  if (command === 'inspect') {
    if (args.length === 0) {
      io.err(`inspect needs at least one file\n\n${USAGE}`);
      return 2;
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
    return inspect(args, { json: flags.has('--json'), rule, ...(rules ? { rules } : {}) }, io);
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
      io.err(`no .json or .jsonl files in ${dir}`);
      return 2;
    }
    io.out(`Checking ${files.length} sample files in ${dir}`);
    const code = await inspect(files, { json: flags.has('--json'), rule }, io);
    io.out(code === 0 ? 'All samples loaded without errors.' : 'Some samples have errors.');
    return code;
  }
  io.err(`${command ? `unknown command ${command}` : 'no command given'}\n\n${USAGE}`);
  return 2;
}
