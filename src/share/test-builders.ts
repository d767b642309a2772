// One-line builders for share tests.
import type { Annotation, AnnotationTarget } from './annotations';
import type { ViewState } from './view-state';

export const T0 = '2025-03-01T10:00:00.000Z';
export const HASH = 'a'.repeat(64);

export const onItem = (itemId: string): AnnotationTarget => ({ kind: 'item', itemId });
export const onCall = (call: number): AnnotationTarget => ({ kind: 'call', call });
export const onCalls = (fromCall: number, toCall: number): AnnotationTarget => ({ kind: 'range', fromCall, toCall });
export const onItems = (fromItemId: string, toItemId: string): AnnotationTarget => ({ kind: 'item-range', fromItemId, toItemId });

export function note(id: string, target: AnnotationTarget, text: string, extra: Partial<Annotation> = {}): Annotation {
  return { id, target, note: text, tags: [], createdAt: T0, updatedAt: T0, ...extra };
}

export function view(extra: Partial<ViewState> = {}): ViewState {
  return { turn: 3, item: 'm7', panel: 'cache', rule: 'anthropic', leftView: 'context', ...extra };
}
