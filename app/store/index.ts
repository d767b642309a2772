import { create } from 'zustand';
import { createSessionSlice, type SessionSlice } from './session-slice';
import { createViewSlice, type ViewSlice } from './view-slice';

export type AppState = SessionSlice & ViewSlice;

export const useApp = create<AppState>()((...a) => ({
  ...createSessionSlice(...a),
  ...createViewSlice(...a),
}));

export function useActiveSession() {
  return useApp((s) => s.sessions.find((x) => x.key === s.activeKey) ?? null);
}
