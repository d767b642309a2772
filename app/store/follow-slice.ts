// Sessions followed live from `compaction-inspector serve`: when each last changed, and whether the view rides
// the tail (jumps to the newest call on each update) or stays on the call the user is reading.
import type { StateCreator } from 'zustand';

export interface FollowState {
  /** The file (or folder) followed, as listed. */
  path: string;
  /** When the session was last re-read from a change, ms since the epoch; null before the first change. */
  updated: number | null;
  tail: boolean;
  /** The last re-read failed: why. */
  error: string | null;
}

export interface FollowSlice {
  /** By session key; a re-read session takes a new key and its follow moves with it. */
  follows: Record<string, FollowState>;
  startFollow(key: string, path: string): void;
  moveFollow(from: string, to: string, updated: number): void;
  setFollowTail(key: string, tail: boolean): void;
  setFollowError(key: string, error: string | null): void;
  stopFollow(key: string): void;
}

export const createFollowSlice: StateCreator<FollowSlice, [], [], FollowSlice> = (set) => ({
  follows: {},
  startFollow: (key, path) => set((s) => ({ follows: { ...s.follows, [key]: { path, updated: null, tail: false, error: null } } })),
  moveFollow: (from, to, updated) =>
    set((s) => {
      const f = s.follows[from];
      if (!f) return {};
      const follows = { ...s.follows };
      delete follows[from];
      follows[to] = { ...f, updated, error: null };
      return { follows };
    }),
  setFollowTail: (key, tail) => set((s) => (s.follows[key] ? { follows: { ...s.follows, [key]: { ...s.follows[key], tail } } } : {})),
  setFollowError: (key, error) => set((s) => (s.follows[key] ? { follows: { ...s.follows, [key]: { ...s.follows[key], error } } } : {})),
  stopFollow: (key) =>
    set((s) => {
      const follows = { ...s.follows };
      delete follows[key];
      return { follows };
    }),
});
