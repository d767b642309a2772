// What the user is looking at inside a session.
import type { StateCreator } from 'zustand';

export type Theme = 'light' | 'dark';

export interface ViewSlice {
  selectedItemId: string | null;
  expanded: Record<string, boolean>;
  theme: Theme;
  selectItem(id: string | null): void;
  toggleExpanded(id: string): void;
  setTheme(theme: Theme): void;
}

function initialTheme(): Theme {
  if (typeof window === 'undefined' || !window.matchMedia) return 'light';
  return window.matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

export const createViewSlice: StateCreator<ViewSlice, [], [], ViewSlice> = (set) => ({
  selectedItemId: null,
  expanded: {},
  theme: initialTheme(),
  selectItem: (selectedItemId) => set({ selectedItemId }),
  toggleExpanded: (id) => set((s) => ({ expanded: { ...s.expanded, [id]: !s.expanded[id] } })),
  setTheme: (theme) => set({ theme }),
});
