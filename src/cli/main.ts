// `compaction-inspector`: the engine from the command line. Exit 0 = all loaded, 1 = input errors, 2 = bad usage.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { loadFiles, type InputFile } from '../load/loader';
import { inspectReport, renderText } from './inspect-report';

const USAGE = `Usage:
  compaction-inspector inspect <files…> [--json]   load files as the app does (joined where they belong together)
  compaction-inspector check-samples [dir]         inspect every .json/.jsonl file in dir (default ../shared/samples); fail on any error

Exit status: 0 everything loaded, 1 some input had errors, 2 bad usage.`;

export interface CliIo {
  out(text: string): void;
  err(text: string): void;
  readFile(path: string): Uint8Array;
  listDir(path: string): string[];
  isDir(path: string): boolean;
}

const nodeIo: CliIo = {
  out: (t) => process.stdout.write(`${t}\n`),
  err: (t) => process.stderr.write(`${t}\n`),
  readFile: (p) => readFileSync(p),
  listDir: (p) => readdirSync(p),
  isDir: (p) => statSync(p).isDirectory(),
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

function inspect(paths: string[], json: boolean, io: CliIo): number {
  const { inputs, missing } = readInputs(paths, io);
  if (missing.length) {
    for (const m of missing) io.err(`cannot read ${m}`);
    return 2;
  }
  const report = inspectReport(loadFiles(inputs));
  io.out(json ? JSON.stringify(report, null, 2) : renderText(report));
  return report.errors.length ? 1 : 0;
}

export function run(argv: string[], io: CliIo = nodeIo): number {
  const [command, ...rest] = argv;
  const flags = new Set(rest.filter((a) => a.startsWith('--')));
  const args = rest.filter((a) => !a.startsWith('--'));
  const unknown = [...flags].filter((f) => f !== '--json');
  if (command === '--help' || command === '-h' || command === 'help') {
    io.out(USAGE);
    return 0;
  }
  if (unknown.length) {
    io.err(`unknown option ${unknown.join(', ')}\n\n${USAGE}`);
    return 2;
  }
  if (command === 'inspect') {
    if (args.length === 0) {
      io.err(`inspect needs at least one file\n\n${USAGE}`);
      return 2;
    }
    return inspect(args, flags.has('--json'), io);
  }
  if (command === 'check-samples') {
    const dir = resolve(args[0] ?? join(process.cwd(), '..', 'shared', 'samples'));
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
    const code = inspect(files, flags.has('--json'), io);
    io.out(code === 0 ? 'All samples loaded without errors.' : 'Some samples have errors.');
    return code;
  }
  io.err(`${command ? `unknown command ${command}` : 'no command given'}\n\n${USAGE}`);
  return 2;
}
