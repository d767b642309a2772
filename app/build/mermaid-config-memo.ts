// A Vite plugin for Mermaid's code: its getConfig() deep-copies the whole config (every diagram type's settings and
// ~200 theme variables) on each call, and one render of a four-node flowchart calls it 46 times. That copying was a
// fifth of the Flow panel's render (Chrome profile of the real 3 MB sample; 184 → 143 ms of CPU per render in a
// page that draws only the diagram). The patch keeps one copy per config: Mermaid replaces its config object on
// every initialize, setConfig and render (directives), so a new config makes a new copy. The one caller on the
// flowchart path that writes into its copy (the flowchart's init) sets the same value with setConfig right after.
import type { Plugin } from 'vite';

export const MERMAID_GET_CONFIG = `var getConfig = /* @__PURE__ */ __name(() => {
  return assignWithDepth_default({}, currentConfig);
}, "getConfig");`;

// As many lines as the original, so the chunk's later lines keep their place for its source map.
const MEMOIZED = `var getConfigCopyOf, getConfigCopy, getConfig = /* @__PURE__ */ __name(() => {
  if (getConfigCopyOf !== currentConfig) getConfigCopy = assignWithDepth_default({}, getConfigCopyOf = currentConfig);
  return getConfigCopy;
}, "getConfig");`;

/** The chunk's code with getConfig memoized, or null when the chunk does not hold Mermaid's getConfig. */
export function memoizeGetConfig(code: string): string | null {
  const at = code.indexOf(MERMAID_GET_CONFIG);
  if (at < 0) return null;
  return code.slice(0, at) + MEMOIZED + code.slice(at + MERMAID_GET_CONFIG.length);
}

const MERMAID_CHUNK = /[\\/]node_modules[\\/]mermaid[\\/]dist[\\/]chunks[\\/]mermaid\.core[\\/]chunk-\w+\.mjs$/;

export function mermaidConfigMemo(): Plugin {
  let patched = false;
  return {
    name: 'compaction-inspector:mermaid-config-memo',
    apply: 'build',
    transform(code, id) {
      if (!MERMAID_CHUNK.test(id) || !code.includes('var getConfig = ')) return null;
      const out = memoizeGetConfig(code);
      if (out === null) return null;
      patched = true;
      // Line for line: the chunk's own source map still places every other line.
      return { code: out, map: null };
    },
    buildEnd() {
      // Mermaid's getConfig changed shape (an upgrade): the app still works, only slower; say so.
      if (!patched && this.getModuleIds && [...this.getModuleIds()].some((id) => MERMAID_CHUNK.test(id))) this.warn("Mermaid's getConfig was not found: the Flow panel's renders copy the config on every call");
    },
  };
}
