#!/usr/bin/env node
// An installed package runs the built CLI (dist-cli/, plain JavaScript). A checkout runs the TypeScript source
// through tsx, so an edit is never shadowed by a stale build.
import { existsSync } from 'node:fs';

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
