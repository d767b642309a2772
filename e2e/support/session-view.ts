// Reads the facts the session header shows.
import { expect, type Page } from '@playwright/test';

export function fact(page: Page, label: string) {
  return page.getByRole('region', { name: 'Session' }).locator('.facts > div').filter({ has: page.locator(`dt:text-is("${label}")`) }).locator('dd');
}

export async function expectSessionFacts(page: Page, facts: { items: number; toolCalls: number; compactions: number | string }) {
  await expect(fact(page, 'Items')).toHaveText(facts.items.toLocaleString('en-US'));
  await expect(fact(page, 'Tool calls')).toHaveText(facts.toolCalls.toLocaleString('en-US'));
  await expect(fact(page, 'Compactions')).toHaveText(String(facts.compactions));
}

/** The tabs of open sessions (not the inspector's own tabs). */
export function sessionTabs(page: Page) {
  return page.getByRole('navigation', { name: 'Open sessions' }).getByRole('tab');
}

/**
 * Shows a panel by name: its tab when the strip shows it, else through the "More panels" menu a narrow window
 * puts the tabs that do not fit in.
 */
export async function openPanel(page: Page, name: string): Promise<void> {
  const tab = page.getByRole('tablist', { name: 'Panels' }).getByRole('tab', { name, exact: true });
  // A tab the strip keeps in the DOM but hides (it went to the menu) counts as not shown.
  if (await tab.isVisible()) return tab.click();
  await page.getByRole('combobox', { name: /^More panels/ }).selectOption({ label: name });
}
