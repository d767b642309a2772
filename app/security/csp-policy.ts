// The policy text lives with the engine, so the CLI's `serve` and the app's servers send the same one.
export { buildCsp, serverCsp, type CspInput, type ServerCspOptions } from '../../src/security/page-policy.ts';
