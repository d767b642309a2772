#!/usr/bin/env node
// An installed package runs the built CLI (dist-cli/, plain JavaScript). A checkout runs the TypeScript source
// through tsx, so an edit is never shadowed by a stale build.
import { existsSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';

// A run is short: V8 by default optimizes a function after ~130 KB of bytecode has run in it, so a one-shot
// `inspect` spent about a quarter of its CPU compiling code it then ran briefly (TurboFan, on its own threads).
// Tiering up later leaves that compilation to the code that stays hot. Set before any module of the CLI loads (the
// budget is read as each function gets its feedback); it holds for the worker threads too. Measured with
// `inspect --json --no-cache`, CPU: 4 generated 3 MB sessions 1.44 s -> 1.05 s, the real 3 MB sample 0.54 s -> 0.49 s.
// Without inlining, TurboFan compiles each function alone, not again in every caller it was inlined into: the real
// sample 0.49 s -> 0.46 s, a 27 MB session 3.06 s -> 2.87 s (the 4 sessions alike).
// A regular expression's first run is in V8's regexp interpreter, its native code compiled from the second run on
// (on texts of 1,000 characters or more, from the first). The engine holds hundreds of patterns that a run uses a few
// times each on short texts, and interpreting 480 characters costs more than compiling (50 fresh patterns: 1.5 ms ->
// 1.0 ms): compiled from the first run, the real sample 433 -> 425 ms of CPU, the 4 sessions 913 -> 910 ms (medians
// of 11 alternated runs, load 3-5).
setFlagsFromString('--interrupt-budget=1000000');
setFlagsFromString('--no-turbo-inlining');
setFlagsFromString('--regexp-tier-up-ticks=0');

const source = new URL('../src/cli/main.ts', import.meta.url);
const built = new URL('../dist-cli/main.mjs', import.meta.url);
let run;
if (existsSync(source) || !existsSync(built)) {
  const { register } = await import('tsx/esm/api');
  register();
  ({ run } = await import(source.href));
} else {
  ({ run } = await import(built.href));
}
process.exitCode = await run(process.argv.slice(2));
