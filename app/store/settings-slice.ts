// The summarizer endpoint the user configured. It lives in memory; nothing is stored unless the user ticks
// "remember", and the API key only when they tick "remember the API key" too. Never put any of it in a URL,
// a share link, a bundle or a log line.
import type { StateCreator } from 'zustand';
import { chatCompletionsUrl } from '../../src/client';
import { DEFAULT_RULE_SETTINGS, parseRuleSettings, type RuleSetting, type RuleSettings } from '../../src/lints/rules';
import type { LintRule } from '../../src/lints/lint-types';
import { FORMAT_IDS, type FormatId } from '../../src/model/types';

export interface EndpointSettings {
  baseUrl: string;
  apiKey: string;
  model: string;
  temperature: number;
  maxTokens: number;
  /** Seconds. */
  timeoutS: number;
}

export const DEFAULT_ENDPOINT: EndpointSettings = { baseUrl: '', apiKey: '', model: '', temperature: 0.2, maxTokens: 512, timeoutS: 25 };

export interface SettingsSlice {
  endpoint: EndpointSettings;
  /** Store the endpoint settings (not the key) in this browser. */
  remember: boolean;
  /** Store the API key too; only with `remember`, never by default. */
  rememberKey: boolean;
  setEndpoint(patch: Partial<EndpointSettings>): void;
  setRemember(on: boolean): void;
  setRememberKey(on: boolean): void;
  /** Lint rules the user muted or tuned, per harness; saved in this browser and carried in share links. */
  lintRules: RuleSettings;
  setLintRule(rule: LintRule, harness: FormatId | '*', patch: RuleSetting): void;
  /** Replaces every rule setting (a share link's); `null` restores the defaults. */
  replaceLintRules(settings: RuleSettings | null): void;
}

/** Where the lint rule settings are kept: they hold no secret, so they are always saved. */
export const LINT_RULES_KEY = 'compaction-inspector.lint-rules';

/** Rule settings read back from storage; anything malformed is dropped (the defaults stand). */
export function readLintRules(raw: string | null): RuleSettings {
  if (raw === null) return DEFAULT_RULE_SETTINGS;
  try {
    return parseRuleSettings(JSON.parse(raw), { formats: FORMAT_IDS }).settings;
  } catch {
    return DEFAULT_RULE_SETTINGS;
  }
}

/** `settings` with one rule's setting on one harness patched; an empty setting is removed. */
export function withLintRule(settings: RuleSettings, rule: LintRule, harness: FormatId | '*', patch: RuleSetting): RuleSettings {
  const byHarness = { ...(settings.rules[rule] ?? {}) };
  const next: RuleSetting = { ...(byHarness[harness] ?? {}), ...patch };
  if (next.muted === false) delete next.muted;
  if (next.threshold === undefined) delete next.threshold;
  if (Object.keys(next).length === 0) delete byHarness[harness];
  else byHarness[harness] = next;
  const rules = { ...settings.rules };
  if (Object.keys(byHarness).length === 0) delete rules[rule];
  else rules[rule] = byHarness;
  return { version: 1, rules };
}

/** Where remembered settings go (the CSP reads only the origin, under its own key). */
export const SETTINGS_KEY = 'compaction-inspector.endpoint-settings';

/** Where the configured endpoint's origin (never its key) is kept so the policy can allow it at start-up (security/csp.ts). */
export const ENDPOINT_ORIGIN_KEY = 'compaction-inspector.endpoint-origin';

type SettingsStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

/** What may be written for these settings: null means nothing at all (and whatever was stored goes). */
export function persistedSettings(s: Pick<SettingsSlice, 'endpoint' | 'remember' | 'rememberKey'>): Record<string, unknown> | null {
  if (!s.remember) return null;
  const { apiKey, ...rest } = s.endpoint;
  return s.rememberKey && apiKey !== '' ? { ...rest, apiKey, rememberKey: true } : { ...rest };
}

const finite = (v: unknown, fallback: number, min: number, max: number) => (typeof v === 'number' && Number.isFinite(v) && v >= min && v <= max ? v : fallback);
const text = (v: unknown, fallback: string) => (typeof v === 'string' ? v : fallback);

/** Settings read back from storage: a remembered entry turns `remember` on; anything malformed is ignored. */
export function readSettings(raw: string | null): Pick<SettingsSlice, 'endpoint' | 'remember' | 'rememberKey'> {
  const none = { endpoint: { ...DEFAULT_ENDPOINT }, remember: false, rememberKey: false };
  if (raw === null) return none;
  let v: unknown;
  try {
    v = JSON.parse(raw);
  } catch {
    return none;
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return none;
  const o = v as Record<string, unknown>;
  const apiKey = o.rememberKey === true ? text(o.apiKey, '') : '';
  return {
    endpoint: {
      baseUrl: text(o.baseUrl, ''),
      apiKey,
      model: text(o.model, ''),
      temperature: finite(o.temperature, DEFAULT_ENDPOINT.temperature, 0, 2),
      maxTokens: Math.floor(finite(o.maxTokens, DEFAULT_ENDPOINT.maxTokens, 1, 1_000_000)),
      timeoutS: finite(o.timeoutS, DEFAULT_ENDPOINT.timeoutS, 0.1, 3600),
    },
    remember: true,
    rememberKey: apiKey !== '',
  };
}

/** The origin requests go to, for the Content-Security-Policy; null when no valid endpoint is set. */
export function originOfBaseUrl(baseUrl: string): string | null {
  const target = chatCompletionsUrl(baseUrl);
  return target.ok ? new URL(target.url).origin : null;
}

export const endpointOrigin = (s: Pick<SettingsSlice, 'endpoint'>): string | null => originOfBaseUrl(s.endpoint.baseUrl);

/** Writes what `persistedSettings` allows, and removes everything when it allows nothing. Storage errors are ignored. */
export function writeSettings(storage: SettingsStorage | null, s: Pick<SettingsSlice, 'endpoint' | 'remember' | 'rememberKey'>): void {
  if (!storage) return;
  try {
    const out = persistedSettings(s);
    if (out === null) {
      storage.removeItem(SETTINGS_KEY);
      storage.removeItem(ENDPOINT_ORIGIN_KEY);
      return;
    }
    storage.setItem(SETTINGS_KEY, JSON.stringify(out));
    const origin = originOfBaseUrl(s.endpoint.baseUrl);
    if (origin) storage.setItem(ENDPOINT_ORIGIN_KEY, origin);
    else storage.removeItem(ENDPOINT_ORIGIN_KEY);
  } catch {
    // Private mode or a full quota: the settings stay in memory.
  }
}

function browserStorage(): SettingsStorage | null {
  try {
    return typeof window !== 'undefined' ? window.localStorage : null;
  } catch {
    return null;
  }
}

function readStored(storage: SettingsStorage | null): string | null {
  try {
    return storage?.getItem(SETTINGS_KEY) ?? null;
  } catch {
    return null;
  }
}

/** Endpoint fields carried across the reload that admits a new endpoint origin; never the key. */
export const PENDING_ENDPOINT_KEY = 'compaction-inspector.endpoint-pending';

function takePending(tab: SettingsStorage | null): Partial<EndpointSettings> {
  try {
    const raw = tab?.getItem(PENDING_ENDPOINT_KEY);
    if (!raw) return {};
    tab?.removeItem(PENDING_ENDPOINT_KEY);
    const v: unknown = JSON.parse(raw);
    if (typeof v !== 'object' || v === null) return {};
    const o = v as Record<string, unknown>;
    const out: Partial<EndpointSettings> = {};
    if (typeof o['baseUrl'] === 'string') out.baseUrl = o['baseUrl'];
    if (typeof o['model'] === 'string') out.model = o['model'];
    return out;
  } catch {
    return {};
  }
}

function readRulesStored(storage: SettingsStorage | null): string | null {
  try {
    return storage?.getItem(LINT_RULES_KEY) ?? null;
  } catch {
    return null;
  }
}

function writeLintRules(storage: SettingsStorage | null, settings: RuleSettings): void {
  try {
    if (Object.keys(settings.rules).length === 0) storage?.removeItem(LINT_RULES_KEY);
    else storage?.setItem(LINT_RULES_KEY, JSON.stringify(settings));
  } catch {
    // Private mode or a full quota: the settings stay in memory.
  }
}

export function makeSettingsSlice(storage: SettingsStorage | null, tab: SettingsStorage | null = null): StateCreator<SettingsSlice, [], [], SettingsSlice> {
  return (set, get) => {
    const save = () => writeSettings(storage, get());
    const stored = readSettings(readStored(storage));
    return {
      ...stored,
      lintRules: readLintRules(readRulesStored(storage)),
      setLintRule: (rule, harness, patch) => {
        set((s) => ({ lintRules: withLintRule(s.lintRules, rule, harness, patch) }));
        writeLintRules(storage, get().lintRules);
      },
      replaceLintRules: (settings) => {
        set({ lintRules: settings ?? DEFAULT_RULE_SETTINGS });
        writeLintRules(storage, get().lintRules);
      },
      endpoint: { ...stored.endpoint, ...takePending(tab) },
      setEndpoint: (patch) => {
        set((s) => ({ endpoint: { ...s.endpoint, ...patch } }));
        if (get().remember) save();
      },
      setRemember: (remember) => {
        set(remember ? { remember } : { remember, rememberKey: false });
        save();
      },
      setRememberKey: (on) => {
        set((s) => ({ rememberKey: on && s.remember }));
        save();
      },
    };
  };
}

function tabStorage(): SettingsStorage | null {
  try {
    return typeof window !== 'undefined' ? window.sessionStorage : null;
  } catch {
    return null;
  }
}

export const createSettingsSlice = makeSettingsSlice(browserStorage(), tabStorage());
