// Where the user is in the active session: the call, the selected item, the open panel, the cache rule.
import type { StateCreator } from 'zustand';
import type { ProviderRule } from '../../src/cache';
import type { PanelId } from './panel-ids';

export type LeftView = 'context' | 'transcript';

export interface InspectorSlice {
  callIndex: number;
  rule: ProviderRule | 'auto';
  panel: PanelId;
  leftView: LeftView;
  helpOpen: boolean;
  searchOpen: boolean;
  setCall(index: number): void;
  setRule(rule: ProviderRule | 'auto'): void;
  setPanel(panel: PanelId): void;
  setLeftView(v: LeftView): void;
  setHelpOpen(open: boolean): void;
  setSearchOpen(open: boolean): void;
}

export const createInspectorSlice: StateCreator<InspectorSlice, [], [], InspectorSlice> = (set) => ({
  callIndex: 0,
  rule: 'auto',
  panel: 'budget',
  leftView: 'context',
  helpOpen: false,
  searchOpen: false,
  setCall: (callIndex) => set({ callIndex }),
  setRule: (rule) => set({ rule }),
  setPanel: (panel) => set({ panel }),
  setLeftView: (leftView) => set({ leftView }),
  setHelpOpen: (helpOpen) => set({ helpOpen }),
  setSearchOpen: (searchOpen) => set({ searchOpen }),
});
