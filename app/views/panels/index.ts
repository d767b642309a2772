// The inspector's panels, each a region with its accessible name. Loaded apart so the landing page is small, and
// fetched when the user goes to open a session (open-intent.ts) or once the first view is up (panel-module.ts).
import type { Session } from '../../../src/model/types';
import { panelIdsFor, RESEARCH_PANELS, type PanelId } from '../../store/panel-ids';
import { warmMermaid } from './mermaid-module';
import { panelModule, type PanelModule } from './panel-module';

export interface PanelDef {
  id: PanelId;
  /** Accessible name of the panel's region and its tab label. */
  name: string;
  module: PanelModule;
  /** Fetches code the panel loads on its own (Mermaid), when the user points at or focuses its tab. */
  warm?(): void;
}

export type { PanelId };

export const PANELS: readonly PanelDef[] = [
  { id: 'budget', name: 'Token budget', module: panelModule(() => import('./TokenBudgetPanel')) },
  { id: 'cache', name: 'Cache prefix', module: panelModule(() => import('./CachePanel')) },
  { id: 'audit', name: 'Summary audit', module: panelModule(() => import('./AuditPanel')) },
  { id: 'lints', name: 'Lints', module: panelModule(() => import('./LintsPanel')) },
  { id: 'rules', name: 'Rules', module: panelModule(() => import('./RulesPanel')) },
  { id: 'eviction', name: 'Eviction map', module: panelModule(() => import('./EvictionMapPanel')) },
  { id: 'log', name: 'Compaction log', module: panelModule(() => import('./CompactionLogPanel')) },
  { id: 'flow', name: 'Flow', module: panelModule(() => import('./FlowPanel')), warm: warmMermaid },
  { id: 'diff', name: 'Diff', module: panelModule(() => import('./DiffPanel')) },
  { id: 'annotations', name: 'Annotations', module: panelModule(() => import('./AnnotationsPanel')) },
  { id: 'compare', name: 'Compare policies', module: panelModule(() => import('./ComparePanel')) },
  { id: 'rerun', name: 'Re-run', module: panelModule(() => import('./RerunPanel')) },
  { id: 'self-sum', name: 'Self-Sum', module: panelModule(() => import('./SelfSumPanel')) },
  { id: 'agent-omit', name: 'Agent-Omit', module: panelModule(() => import('./AgentOmitPanel')) },
  { id: 'iterations', name: 'Iterations', module: panelModule(() => import('./IteratedPanel')) },
];

/** Fetches these panels' code, so a first click on their tab shows them at once. */
export function preloadPanels(panels: readonly PanelDef[]): void {
  for (const p of panels) void p.module.load().catch(() => undefined);
}

/**
 * Fetches the code of the panels every session shows, when the user goes to open one (open-intent.ts): fetched at
 * the first view instead, their parsing and compiling took a core from the token count (on 2 cores, exact counts
 * of the typical 3 MB session came ~150 ms later).
 */
export function preloadCommonPanels(): void {
  preloadPanels(PANELS.filter((p) => !RESEARCH_PANELS.some((r) => r.id === p.id)));
}

/** The panels that apply to a session (store/panel-ids.ts), research panels first where they apply. */
export function panelsFor(session: Session): PanelDef[] {
  return panelIdsFor(session).map((id) => PANELS.find((p) => p.id === id)!);
}
