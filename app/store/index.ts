import { create } from 'zustand';
import { createInspectorSlice, type InspectorSlice } from './inspector-slice';
import { createSessionSlice, type SessionSlice } from './session-slice';
import { createViewSlice, type ViewSlice } from './view-slice';

export type AppState = SessionSlice & ViewSlice & InspectorSlice;

export const useApp = create<AppState>()((...a) => ({
  ...createSessionSlice(...a),
  ...createViewSlice(...a),
  ...createInspectorSlice(...a),
}));

export function useActiveSession() {
  return useApp((s) => s.sessions.find((x) => x.key === s.activeKey) ?? null);
}
