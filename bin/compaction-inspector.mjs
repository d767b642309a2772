#!/usr/bin/env node
// Runs the TypeScript CLI through tsx, so the same engine source serves the app and the command line.
import { register } from 'tsx/esm/api';

register();
const { run } = await import('../src/cli/main.ts');
process.exitCode = await run(process.argv.slice(2));
