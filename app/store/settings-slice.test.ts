// The persistence rule of the endpoint settings: nothing is stored unless "remember" is ticked, and the API key
// only when "remember the API key" is ticked as well.
import { describe, expect, it } from 'vitest';
import { create } from 'zustand';
import { DEFAULT_ENDPOINT, ENDPOINT_ORIGIN_KEY, endpointOrigin, LINT_RULES_KEY, makeSettingsSlice, persistedSettings, readSettings, SETTINGS_KEY, type SettingsSlice } from './settings-slice';

const KEY = 'sk-test-5a4b3c2d1e';

function memoryStorage(initial: Record<string, string> = {}) {
  const data = new Map(Object.entries(initial));
  const writes: string[] = [];
  return {
    data,
    writes,
    getItem: (k: string) => data.get(k) ?? null,
    setItem: (k: string, v: string) => {
      writes.push(`${k}=${v}`);
      data.set(k, v);
    },
    removeItem: (k: string) => void data.delete(k),
  };
}

const storeWith = (storage: ReturnType<typeof memoryStorage>) => create<SettingsSlice>()(makeSettingsSlice(storage));
const everything = (storage: ReturnType<typeof memoryStorage>) => [...storage.data.values()].join('\n') + storage.writes.join('\n');

describe('settings persistence', () => {
  it('stores nothing while remember is off, whatever is typed', () => {
    const storage = memoryStorage();
    const store = storeWith(storage);
    store.getState().setEndpoint({ baseUrl: 'http://127.0.0.1:8080/v1', apiKey: KEY, model: 'm', timeoutS: 3 });
    expect(store.getState().endpoint).toMatchObject({ baseUrl: 'http://127.0.0.1:8080/v1', apiKey: KEY, timeoutS: 3 });
    expect(storage.writes).toEqual([]);
    expect(storage.data.size).toBe(0);
  });

  it('with remember stores the settings and the endpoint origin, but not the key', () => {
    const storage = memoryStorage();
    const store = storeWith(storage);
    store.getState().setEndpoint({ baseUrl: 'http://127.0.0.1:8080/v1', apiKey: KEY, model: 'm' });
    store.getState().setRemember(true);
    expect(JSON.parse(storage.data.get(SETTINGS_KEY)!)).toEqual({ baseUrl: 'http://127.0.0.1:8080/v1', model: 'm', temperature: 0.2, maxTokens: 512, timeoutS: 25 });
    expect(storage.data.get(ENDPOINT_ORIGIN_KEY)).toBe('http://127.0.0.1:8080');
    store.getState().setEndpoint({ apiKey: `${KEY}-changed` });
    expect(everything(storage)).not.toContain(KEY);
  });

  it('stores the key only when remember-the-key is ticked too, and forgets it when unticked', () => {
    const storage = memoryStorage();
    const store = storeWith(storage);
    store.getState().setEndpoint({ baseUrl: 'http://h:1', apiKey: KEY });
    store.getState().setRememberKey(true);
    expect(store.getState().rememberKey).toBe(false);
    expect(storage.data.size).toBe(0);
    store.getState().setRemember(true);
    store.getState().setRememberKey(true);
    expect(JSON.parse(storage.data.get(SETTINGS_KEY)!)).toMatchObject({ apiKey: KEY, rememberKey: true });
    store.getState().setRememberKey(false);
    expect([...storage.data.values()].join()).not.toContain(KEY);
    store.getState().setRememberKey(true);
    store.getState().setRemember(false);
    expect(store.getState().rememberKey).toBe(false);
    expect(storage.data.size).toBe(0);
  });

  it('reads remembered settings back on start, the key only if it was remembered', () => {
    const withKey = storeWith(memoryStorage({ [SETTINGS_KEY]: JSON.stringify({ baseUrl: 'http://h:1/v1', model: 'm', timeoutS: 5, apiKey: KEY, rememberKey: true }) }));
    expect(withKey.getState()).toMatchObject({ remember: true, rememberKey: true, endpoint: { baseUrl: 'http://h:1/v1', model: 'm', timeoutS: 5, apiKey: KEY, temperature: 0.2 } });
    const stray = storeWith(memoryStorage({ [SETTINGS_KEY]: JSON.stringify({ baseUrl: 'http://h:1/v1', apiKey: KEY }) }));
    expect(stray.getState()).toMatchObject({ remember: true, rememberKey: false, endpoint: { apiKey: '' } });
  });

  it('ignores malformed entries and bad numbers', () => {
    expect(readSettings('{not json')).toEqual({ endpoint: DEFAULT_ENDPOINT, remember: false, rememberKey: false });
    expect(readSettings('[1]').remember).toBe(false);
    expect(readSettings(JSON.stringify({ temperature: 'hot', maxTokens: -5, timeoutS: 1e9 })).endpoint).toMatchObject({ temperature: 0.2, maxTokens: 512, timeoutS: 25 });
  });

  it('keeps working when storage throws', () => {
    const broken = { getItem: () => { throw new Error('denied'); }, setItem: () => { throw new Error('quota'); }, removeItem: () => { throw new Error('denied'); } };
    const store = create<SettingsSlice>()(makeSettingsSlice(broken));
    store.getState().setRemember(true);
    store.getState().setEndpoint({ model: 'm' });
    expect(store.getState()).toMatchObject({ remember: true, endpoint: { model: 'm' } });
  });
});

describe('persistedSettings', () => {
  it('is null without remember and never carries an empty key', () => {
    const endpoint = { ...DEFAULT_ENDPOINT, apiKey: KEY };
    expect(persistedSettings({ endpoint, remember: false, rememberKey: true })).toBeNull();
    expect(persistedSettings({ endpoint: { ...endpoint, apiKey: '' }, remember: true, rememberKey: true })).not.toHaveProperty('apiKey');
  });
});

describe('endpointOrigin', () => {
  it('is the origin requests go to, or null when no valid endpoint is set', () => {
    expect(endpointOrigin({ endpoint: { ...DEFAULT_ENDPOINT, baseUrl: 'http://127.0.0.1:11434' } })).toBe('http://127.0.0.1:11434');
    expect(endpointOrigin({ endpoint: { ...DEFAULT_ENDPOINT, baseUrl: 'https://api.example.com/v1?x=1' } })).toBe('https://api.example.com');
    expect(endpointOrigin({ endpoint: DEFAULT_ENDPOINT })).toBeNull();
    expect(endpointOrigin({ endpoint: { ...DEFAULT_ENDPOINT, baseUrl: 'ftp://x' } })).toBeNull();
  });
});

describe('lint rule settings', () => {
  it('saves a muted rule and a threshold per harness, reads them back on start, and forgets a setting undone', () => {
    const storage = memoryStorage();
    const store = storeWith(storage);
    store.getState().setLintRule('summary-too-long', 'claude-code', { threshold: 2500 });
    store.getState().setLintRule('causal-order', '*', { muted: true });
    expect(JSON.parse(storage.data.get(LINT_RULES_KEY)!)).toEqual({ version: 1, rules: { 'summary-too-long': { 'claude-code': { threshold: 2500 } }, 'causal-order': { '*': { muted: true } } } });
    expect(storeWith(storage).getState().lintRules).toEqual(store.getState().lintRules);
    store.getState().setLintRule('causal-order', '*', { muted: false });
    store.getState().setLintRule('summary-too-long', 'claude-code', { threshold: undefined });
    expect(store.getState().lintRules).toEqual({ version: 1, rules: {} });
    expect(storage.data.has(LINT_RULES_KEY)).toBe(false);
  });

  it('starts from the defaults when what is stored is malformed', () => {
    const storage = memoryStorage({ [LINT_RULES_KEY]: '{"version":1,"rules":{"summary-too-long":{"claude-code":{"threshold":"many"}},"made-up":{}}}' });
    expect(storeWith(storage).getState().lintRules).toEqual({ version: 1, rules: { 'summary-too-long': { 'claude-code': {} } } });
    expect(storeWith(memoryStorage({ [LINT_RULES_KEY]: 'not json' })).getState().lintRules).toEqual({ version: 1, rules: {} });
  });
});
