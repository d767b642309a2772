// The inspector's panels by id, and which of them apply to a session: the store's `panel` is one of these, a link's
// view is fitted to them (data/pending-view.ts), and views/panels/ gives each its name and its code.
import type { Session } from '../../src/model/types';

export type PanelId = 'budget' | 'cache' | 'audit' | 'lints' | 'rules' | 'eviction' | 'log' | 'flow' | 'diff' | 'self-sum' | 'agent-omit' | 'iterations' | 'annotations' | 'compare' | 'rerun';

/** Every session's panels, in tab order. */
export const COMMON_PANELS: readonly PanelId[] = ['budget', 'cache', 'audit', 'lints', 'rules', 'eviction', 'log', 'flow', 'diff', 'annotations', 'compare', 'rerun'];

/** Research panels appear only for the trajectories they describe. */
export const RESEARCH_PANELS: readonly { id: PanelId; format: Session['format'] }[] = [
  { id: 'self-sum', format: 'self-sum' },
  { id: 'agent-omit', format: 'agent-omit' },
  { id: 'iterations', format: 'reasoning-trace' },
];

/** The panels that apply to a session, research panels first where they apply. */
export function panelIdsFor(session: Pick<Session, 'format'>): PanelId[] {
  return [...RESEARCH_PANELS.filter((p) => p.format === session.format).map((p) => p.id), ...COMMON_PANELS];
}
