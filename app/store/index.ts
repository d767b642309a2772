import { create } from 'zustand';
import { createAnnotationsSlice, type AnnotationsSlice } from './annotations-slice';
import { createCorpusSlice, type CorpusSlice } from './corpus-slice';
import { createFollowSlice, type FollowSlice } from './follow-slice';
import { createInspectorSlice, type InspectorSlice } from './inspector-slice';
import { createSessionSlice, type SessionSlice } from './session-slice';
import { createPricesSlice, type PricesSlice } from './prices-slice';
import { createSettingsSlice, type SettingsSlice } from './settings-slice';
import { createShareSlice, type ShareSlice } from './share-slice';
import { createViewSlice, type ViewSlice } from './view-slice';

export type AppState = SessionSlice & ViewSlice & InspectorSlice & AnnotationsSlice & ShareSlice & SettingsSlice & CorpusSlice & PricesSlice & FollowSlice;

export const useApp = create<AppState>()((...a) => ({
  ...createSessionSlice(...a),
  ...createViewSlice(...a),
  ...createInspectorSlice(...a),
  ...createAnnotationsSlice(...a),
  ...createShareSlice(...a),
  ...createSettingsSlice(...a),
  ...createCorpusSlice(...a),
  ...createPricesSlice(...a),
  ...createFollowSlice(...a),
}));

export function useActiveSession() {
  return useApp((s) => s.sessions.find((x) => x.key === s.activeKey) ?? null);
}
