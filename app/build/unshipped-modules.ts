// A Vite plugin for the app's build: modules the engine can import but the built app never loads are left out of it,
// each replaced by a module that throws when imported. They are js-tiktoken (an encoder the app never selects: its
// counts equal gpt-tokenizer's, `npm run bench` compares the two from source) and gpt-tokenizer's rank tables as
// JavaScript (every counting worker reads the packed JSON copies instead: fetched-rank-tables.ts). Each was a chunk
// of 1–2.3 MB, plus its .gz and .br copies, in dist/ and so in the package (the CLI's build leaves js-tiktoken out
// the same way, with the stub written here: bin/build-cli.mjs). Builds only: the dev server and the unit tests import them as they are.
import type { Plugin } from 'vite';

/** Which module specifiers are left out, and why an import of one fails in the build. */
export const UNSHIPPED: readonly { pattern: RegExp; reason: string }[] = [
  { pattern: /^js-tiktoken(\/.*)?$/, reason: 'js-tiktoken is not part of the built package (gpt-tokenizer, the default encoder, counts the same)' },
  { pattern: /^gpt-tokenizer\/bpeRanks\/(o200k_base|cl100k_base)$/, reason: 'the rank tables come packed beside the build, not as JavaScript modules' },
];

const PREFIX = '\0unshipped:';

/** The source of the module that stands in for `spec` in a build, or null when `spec` ships. */
export function unshippedStub(spec: string): string | null {
  const left = UNSHIPPED.find((u) => u.pattern.test(spec));
  return left ? `throw new Error(${JSON.stringify(`${spec}: ${left.reason}`)});\nexport default undefined;\n` : null;
}

export function unshippedModules(): Plugin {
  return {
    name: 'compaction-inspector:unshipped-modules',
    apply: 'build',
    enforce: 'pre',
    resolveId(id) {
      return UNSHIPPED.some((u) => u.pattern.test(id)) ? PREFIX + id : null;
    },
    load(id) {
      if (!id.startsWith(PREFIX)) return null;
      return unshippedStub(id.slice(PREFIX.length));
    },
  };
}
