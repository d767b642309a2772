import { create } from 'zustand';
import { createInspectorSlice, type InspectorSlice } from './inspector-slice';
import { createSessionSlice, type SessionSlice } from './session-slice';
import { createSettingsSlice, type SettingsSlice } from './settings-slice';
import { createViewSlice, type ViewSlice } from './view-slice';

export type AppState = SessionSlice & ViewSlice & InspectorSlice & SettingsSlice;

export const useApp = create<AppState>()((...a) => ({
  ...createSessionSlice(...a),
  ...createViewSlice(...a),
  ...createInspectorSlice(...a),
  ...createSettingsSlice(...a),
}));

export function useActiveSession() {
  return useApp((s) => s.sessions.find((x) => x.key === s.activeKey) ?? null);
}
