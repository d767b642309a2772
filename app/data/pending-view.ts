// A view state waiting for its session's inspector: set when a link or bundle opens a session, taken
// once the analysis is ready (the call count and items are known), fitted to the session and applied.
import type { AnalysisView } from '../../src/analysis/analysis-view';
import type { Session } from '../../src/model/types';
import { fitViewState, type ViewState } from '../../src/share';
import { useApp } from '../store';
import { panelIdsFor, type PanelId } from '../store/panel-ids';

const pending = new WeakMap<Session, ViewState>();

export function setPendingView(session: Session, view: ViewState): void {
  pending.set(session, view);
}

/** Applies the view waiting for `session`, if any; true when it did (the caller skips its own opening spot). */
export function applyPendingView(session: Session, view: AnalysisView): boolean {
  const wanted = pending.get(session);
  if (!wanted) return false;
  pending.delete(session);
  const ids = new Set(view.items.map((i) => i.id));
  const fit = fitViewState(wanted, { calls: view.calls.length, panels: panelIdsFor(session), hasItem: (id) => ids.has(id) });
  const s = useApp.getState();
  s.setCall(fit.turn - 1);
  s.selectItem(fit.item);
  s.setPanel(fit.panel as PanelId);
  if (s.rule !== fit.rule) s.setRule(fit.rule);
  s.setLeftView(view.calls.length === 0 ? 'transcript' : fit.leftView);
  return true;
}
