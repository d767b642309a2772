// What the user is looking at inside a session.
import type { StateCreator } from 'zustand';

export type Theme = 'light' | 'dark';

export interface ViewSlice {
  selectedItemId: string | null;
  /** Item ids shown in full. A Set: ids come from the file, and `constructor` or `__proto__` is an id like any other. */
  expanded: ReadonlySet<string>;
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
  expanded: new Set<string>(),
  theme: initialTheme(),
  selectItem: (selectedItemId) => set({ selectedItemId }),
  toggleExpanded: (id) =>
    set((s) => {
      const expanded = new Set(s.expanded);
      if (!expanded.delete(id)) expanded.add(id);
      return { expanded };
    }),
  setTheme: (theme) => set({ theme }),
});
