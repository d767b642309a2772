// Single-key shortcuts, ignored while the user types in a field.
import { useLayoutEffect } from 'react';

export const SHORTCUTS: { keys: string; does: string }[] = [
  { keys: 'j / →', does: 'next call' },
  { keys: 'k / ←', does: 'previous call' },
  { keys: 'Home / End', does: 'first / last call' },
  { keys: 'n', does: 'next compaction' },
  { keys: 'p', does: 'previous compaction' },
  { keys: 'b', does: 'next cache break (reported or predicted)' },
  { keys: 'B', does: 'previous cache break' },
  { keys: 'd', does: 'jump to the first cache divergence of this call' },
  { keys: '/', does: 'search the session' },
  { keys: '?', does: 'show this help' },
  { keys: 'Esc', does: 'close search or help' },
];

function typing(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName);
}

export function useShortcuts(handlers: Record<string, () => void>): void {
  // Registered before the view paints: a key pressed as soon as the view shows is never lost.
  useLayoutEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.metaKey || e.ctrlKey || e.altKey || e.defaultPrevented) return;
      if (e.key !== 'Escape' && typing(e.target)) return;
      const h = handlers[e.key];
      if (!h) return;
      e.preventDefault();
      h();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [handlers]);
}
