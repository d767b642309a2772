// The inspector's panels, each a region with its accessible name. Loaded lazily so the first view is small.
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import type { Session } from '../../../src/model/types';
import type { PanelProps } from './panel-props';

export interface PanelDef {
  id: PanelId;
  /** Accessible name of the panel's region and its tab label. */
  name: string;
  Component: LazyExoticComponent<ComponentType<PanelProps>>;
  /** Research panels appear only for the trajectories they describe. */
  when?(session: Session): boolean;
}

export type PanelId = 'budget' | 'cache' | 'audit' | 'lints' | 'rules' | 'eviction' | 'log' | 'flow' | 'diff' | 'self-sum' | 'agent-omit' | 'iterations' | 'annotations' | 'rerun';

export const PANELS: readonly PanelDef[] = [
  { id: 'budget', name: 'Token budget', Component: lazy(() => import('./TokenBudgetPanel')) },
  { id: 'cache', name: 'Cache prefix', Component: lazy(() => import('./CachePanel')) },
  { id: 'audit', name: 'Summary audit', Component: lazy(() => import('./AuditPanel')) },
  { id: 'lints', name: 'Lints', Component: lazy(() => import('./LintsPanel')) },
  { id: 'rules', name: 'Rules', Component: lazy(() => import('./RulesPanel')) },
  { id: 'eviction', name: 'Eviction map', Component: lazy(() => import('./EvictionMapPanel')) },
  { id: 'log', name: 'Compaction log', Component: lazy(() => import('./CompactionLogPanel')) },
  { id: 'flow', name: 'Flow', Component: lazy(() => import('./FlowPanel')) },
  { id: 'diff', name: 'Diff', Component: lazy(() => import('./DiffPanel')) },
  { id: 'annotations', name: 'Annotations', Component: lazy(() => import('./AnnotationsPanel')) },
  { id: 'rerun', name: 'Re-run', Component: lazy(() => import('./RerunPanel')) },
  { id: 'self-sum', name: 'Self-Sum', Component: lazy(() => import('./SelfSumPanel')), when: (s) => s.format === 'self-sum' },
  { id: 'agent-omit', name: 'Agent-Omit', Component: lazy(() => import('./AgentOmitPanel')), when: (s) => s.format === 'agent-omit' },
  { id: 'iterations', name: 'Iterations', Component: lazy(() => import('./IteratedPanel')), when: (s) => s.format === 'reasoning-trace' },
];

/** The panels that apply to a session, research panels first where they apply. */
export function panelsFor(session: Session): PanelDef[] {
  const research = PANELS.filter((p) => p.when?.(session));
  return [...research, ...PANELS.filter((p) => !p.when)];
}
