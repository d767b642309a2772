// What every inspector panel receives. Panels are pure views over the analysis; the shell owns state.
import type { AnalysisView } from '../../../src/analysis/analysis-view';
import type { ProviderRule } from '../../../src/cache';
import type { Item, Session } from '../../../src/model/types';

export interface GoTo {
  /** 0-based call index to step to. */
  call?: number;
  /** Item id to select and scroll to (in the context view or transcript). */
  item?: string;
}

export interface PanelProps {
  session: Session;
  view: AnalysisView;
  /** The call the user is looking at (0-based). */
  callIndex: number;
  /** Every item the views may show, by id (includes request-log items). */
  itemById: ReadonlyMap<string, Item>;
  goTo(target: GoTo): void;
  /** Provider cache rule currently applied; changing it re-runs the analysis. */
  rule: ProviderRule | 'auto';
  setRule(rule: ProviderRule | 'auto'): void;
}
