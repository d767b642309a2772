// The part of the screen a share link or bundle restores: which call, which item, which panel,
// which cache rule, which left-hand view. Calls are 1-based here (as users count them); the app's
// store is 0-based and converts at its edge.
import { PROVIDER_RULES, type ProviderRule } from '../cache/provider-rules';
import { LIMITS } from './limits';
import { fail, field, integer, oneOf, record, string, validate, type Result } from './schema';

export type CacheRuleChoice = ProviderRule | 'auto';
export const CACHE_RULE_CHOICES: readonly CacheRuleChoice[] = ['auto', ...PROVIDER_RULES];

export type LeftView = 'context' | 'transcript';
export const LEFT_VIEWS: readonly LeftView[] = ['context', 'transcript'];

export interface ViewState {
  /** 1-based model call. */
  turn: number;
  /** Selected item id, or null. */
  item: string | null;
  /** Panel id, a short slug (`budget`, `cache`, …); the app falls back when it does not know it. */
  panel: string;
  rule: CacheRuleChoice;
  leftView: LeftView;
}

export const DEFAULT_VIEW_STATE: Readonly<ViewState> = Object.freeze({ turn: 1, item: null, panel: 'budget', rule: 'auto', leftView: 'context' });

const PANEL_ID = /^[a-z][a-z0-9-]*$/;
const VIEW_KEYS = ['turn', 'item', 'panel', 'rule', 'leftView'] as const;

/** Schema reader: all five fields are required and nothing else is allowed. */
export function readViewState(v: unknown, at: string): ViewState {
  const o = record(v, at, VIEW_KEYS);
  for (const k of VIEW_KEYS) if (field(o, k) === undefined) fail(at, `missing field "${k}"`);
  const item = field(o, 'item');
  return {
    turn: integer(field(o, 'turn'), `${at}.turn`, 1, LIMITS.call),
    item: item === null ? null : string(item, `${at}.item`, { min: 1, max: LIMITS.idChars, plain: true }),
    panel: string(field(o, 'panel'), `${at}.panel`, { min: 1, max: LIMITS.panelChars, pattern: PANEL_ID, patternName: 'a panel id (lowercase letters, digits, dashes)' }),
    rule: oneOf(field(o, 'rule'), `${at}.rule`, CACHE_RULE_CHOICES),
    leftView: oneOf(field(o, 'leftView'), `${at}.leftView`, LEFT_VIEWS),
  };
}

/** Validates an untrusted view state. */
export function parseViewState(v: unknown): Result<ViewState> {
  return validate(() => readViewState(v, 'view'));
}

/** A full view state from a partial one, the rest from the defaults. Only the five known fields are copied. */
export function viewStateWith(partial: Partial<ViewState> = {}): ViewState {
  return {
    turn: partial.turn ?? DEFAULT_VIEW_STATE.turn,
    item: partial.item ?? DEFAULT_VIEW_STATE.item,
    panel: partial.panel ?? DEFAULT_VIEW_STATE.panel,
    rule: partial.rule ?? DEFAULT_VIEW_STATE.rule,
    leftView: partial.leftView ?? DEFAULT_VIEW_STATE.leftView,
  };
}

export interface ViewFit {
  /** Calls in the session now open (0 when it has none). */
  calls: number;
  /** Panel ids the app knows. */
  panels: readonly string[];
  /** Whether the selected item exists in the session now open. */
  hasItem?: (id: string) => boolean;
}

/**
 * A valid view state fitted to the session actually open: a turn past the last call goes to the last
 * call, an unknown panel to the default, a missing item to none. A link made on one session may be
 * opened on another (different hash, the user was warned), so this keeps the app in a real state.
 */
export function fitViewState(view: ViewState, fit: ViewFit): ViewState {
  const last = Math.max(1, fit.calls);
  return {
    turn: Math.min(Math.max(1, view.turn), last),
    item: view.item !== null && (fit.hasItem?.(view.item) ?? true) ? view.item : null,
    panel: fit.panels.includes(view.panel) ? view.panel : (fit.panels.includes(DEFAULT_VIEW_STATE.panel) ? DEFAULT_VIEW_STATE.panel : (fit.panels[0] ?? DEFAULT_VIEW_STATE.panel)),
    rule: view.rule,
    leftView: view.leftView,
  };
}
