// Which BPE encoding counts a model's tokens. Only OpenAI publishes its tokenizers; every other
// model is counted with o200k_base as a stand-in and its counts are flagged approximate.

export const ENCODINGS = ['o200k_base', 'cl100k_base'] as const;
export type EncodingName = (typeof ENCODINGS)[number];

export interface EncodingChoice {
  encoding: EncodingName;
  /** True when the encoding is not the model's own tokenizer, so every count is an approximation. */
  approximate: boolean;
  /** One line for the UI: why this encoding. */
  reason: string;
}

export function isEncodingName(v: unknown): v is EncodingName {
  return typeof v === 'string' && (ENCODINGS as readonly string[]).includes(v);
}

// Order matters: `gpt-4o` and `gpt-4.1` must match before the bare `gpt-4` family.
const NATIVE: ReadonlyArray<readonly [RegExp, EncodingName]> = [
  [/^(chatgpt-4o|gpt-4o|gpt-4\.1|gpt-4\.5|gpt-5|gpt-oss|o1|o3|o4|codex-mini|gpt-realtime|gpt-audio|omni-moderation)(?![a-z0-9])/, 'o200k_base'],
  [/^(gpt-4|gpt-3\.5|gpt-35|text-embedding-3|text-embedding-ada-002)(?![a-z0-9])/, 'cl100k_base'],
];

/** `openai/gpt-4o`, `azure:gpt-4o`, `ft:gpt-4o-mini:org::id`, `GPT-4o` → `gpt-4o…`. */
function normalizeModel(model: string): string {
  let m = model.trim().toLowerCase();
  if (m.startsWith('ft:')) m = m.slice(3);
  const slash = m.lastIndexOf('/');
  if (slash >= 0) m = m.slice(slash + 1);
  const provider = /^(openai|azure|azure_openai|openrouter):/.exec(m);
  if (provider) m = m.slice(provider[0].length);
  return m;
}

/** The model's own encoding when it is an OpenAI model we know, else null. */
export function nativeEncoding(model: string | null | undefined): EncodingName | null {
  if (!model) return null;
  const m = normalizeModel(model);
  for (const [re, enc] of NATIVE) if (re.test(m)) return enc;
  return null;
}

/**
 * Picks the encoding for a model name, or honours the user's choice. A user's choice is exact only
 * when it is the model's own encoding; choosing an encoding cannot make a Claude count exact.
 */
export function pickEncoding(model: string | null | undefined, chosen?: EncodingName | null): EncodingChoice {
  const native = nativeEncoding(model);
  const name = model?.trim() || 'unknown model';
  if (chosen) {
    if (native === chosen) return { encoding: chosen, approximate: false, reason: `${chosen} (chosen; ${name} uses it)` };
    return { encoding: chosen, approximate: true, reason: `${chosen} (chosen; not the tokenizer of ${name})` };
  }
  if (native) return { encoding: native, approximate: false, reason: `${native} (the tokenizer of ${name})` };
  return { encoding: 'o200k_base', approximate: true, reason: `o200k_base as an approximation (${name} has no public tokenizer)` };
}
