import { describe, expect, it } from 'vitest';
import { DEFAULT_VIEW_STATE, fitViewState, parseViewState, viewStateWith } from './view-state';
import { view } from './test-builders';

describe('parseViewState', () => {
  it('accepts a full view state, item null or an id', () => {
    expect(parseViewState(view())).toEqual({ ok: true, value: view() });
    expect(parseViewState(view({ item: null, rule: 'auto', leftView: 'transcript' }))).toEqual({ ok: true, value: view({ item: null, rule: 'auto', leftView: 'transcript' }) });
  });

  it('rejects missing, extra and mistyped fields with their path', () => {
    const { panel: _p, ...noPanel } = view();
    expect(parseViewState(noPanel)).toEqual({ ok: false, error: 'view: missing field "panel"' });
    expect(parseViewState({ ...view(), apiKey: 'sk' })).toEqual({ ok: false, error: 'view: unknown field "apiKey"' });
    expect(parseViewState(view({ turn: 0 }))).toEqual({ ok: false, error: 'view.turn: 0 is outside 1..10000000' });
    expect(parseViewState(view({ turn: 1.5 }))).toEqual({ ok: false, error: 'view.turn: expected an integer, got number' });
    expect(parseViewState({ ...view(), rule: 'gemini' })).toEqual({ ok: false, error: 'view.rule: expected one of "auto", "openai", "anthropic", "vllm", "deepseek", "exact", got "gemini"' });
    expect(parseViewState({ ...view(), leftView: 3 })).toEqual({ ok: false, error: 'view.leftView: expected one of "context", "transcript", got number' });
    expect(parseViewState(view({ panel: 'Cache Panel' }))).toEqual({ ok: false, error: 'view.panel: is not a panel id (lowercase letters, digits, dashes)' });
    expect(parseViewState(view({ item: '' }))).toEqual({ ok: false, error: 'view.item: must not be empty' });
    expect(parseViewState([])).toEqual({ ok: false, error: 'view: expected an object, got an array' });
  });
});

describe('viewStateWith', () => {
  it('fills missing fields from the defaults and copies nothing else', () => {
    expect(viewStateWith({ turn: 4, ...({ apiKey: 'x' } as object) })).toEqual({ ...DEFAULT_VIEW_STATE, turn: 4 });
  });
});

describe('fitViewState', () => {
  it('clamps the turn to the calls, drops unknown panels and items', () => {
    const fit = fitViewState(view({ turn: 40, panel: 'future', item: 'm7' }), { calls: 12, panels: ['budget', 'cache'], hasItem: () => false });
    expect(fit).toEqual(view({ turn: 12, panel: 'budget', item: null }));
    expect(fitViewState(view(), { calls: 0, panels: ['cache'] })).toEqual(view({ turn: 1 }));
  });
});
