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

/**
 * Waits for the session itself, not its first look: a load shows the reported usage with the call stepper first
 * (ReportedInspector), and the panel tabs only once the session is in. A test that reads the tabs right after the
 * stepper shows raced that hand-over on a busy machine.
 */
export async function sessionIn(page: Page, timeout = 60_000): Promise<void> {
  try {
    await expect(page.getByRole('toolbar', { name: 'Step through calls' })).toBeVisible({ timeout });
    await expect(page.getByRole('tablist', { name: 'Panels' })).toBeVisible({ timeout });
  } catch (e) {
    // CI prints only the log: say what the page showed instead (its notices, progress and address).
    throw new Error(`${e instanceof Error ? e.message : String(e)}\n${await pageState(page)}`);
  }
}

/** The address, and every alert, status line and progress text the page shows, for a failure's message. */
async function pageState(page: Page): Promise<string> {
  const said = await page
    .locator('[role="alert"], [role="status"], [role="progressbar"]')
    .allInnerTexts()
    .catch(() => ['(the page could not be read)']);
  return [`page at ${page.url()}`, ...said.map((t) => `shows: ${t.replace(/\s+/g, ' ').slice(0, 300)}`)].join('\n');
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
  const more = page.getByRole('combobox', { name: /^More panels/ });
  // The strip moves tabs to the menu while its width settles (a tab seen a moment ago can be hidden by the click):
  // try the tab when shown, else the menu, until the panel shows. A tab kept in the DOM but hidden counts as not shown.
  await expect(async () => {
    if (await tab.isVisible()) await tab.click({ timeout: 5_000 });
    else await more.selectOption({ label: name }, { timeout: 5_000 });
    await expect(page.getByRole('tabpanel', { name, exact: true })).toBeVisible({ timeout: 5_000 });
  }).toPass({ timeout: 60_000 });
}
