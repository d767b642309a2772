// Arrow keys, Home and End inside a tablist move to a tab and show it (the WAI-ARIA tabs pattern, automatic
// activation). The handled key is marked, so the page's single-key shortcuts (← → step calls) leave it alone.
import type { KeyboardEvent } from 'react';

export function onTablistKeyDown(e: KeyboardEvent<HTMLElement>): void {
  const keys = ['ArrowLeft', 'ArrowRight', 'Home', 'End'];
  if (!keys.includes(e.key) || e.altKey || e.ctrlKey || e.metaKey) return;
  const tabs = [...e.currentTarget.querySelectorAll<HTMLElement>('[role="tab"]')].filter((t) => !t.hasAttribute('disabled'));
  const at = tabs.indexOf(document.activeElement as HTMLElement);
  if (at < 0 || tabs.length === 0) return;
  const next = e.key === 'Home' ? 0 : e.key === 'End' ? tabs.length - 1 : (at + (e.key === 'ArrowRight' ? 1 : -1) + tabs.length) % tabs.length;
  e.preventDefault();
  tabs[next]!.focus();
  tabs[next]!.click();
}
