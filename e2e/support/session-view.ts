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
