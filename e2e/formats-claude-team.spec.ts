// Claude Code agent teams: a teammate message is shown in the context, marked with who of the team sent it; the
// team's protocol is marked as the harness's; the person's own words carry neither mark (model/harness-messages.ts).
import { expect, test } from '@playwright/test';
import { dropFiles, fromText } from './support/drop';
import { sessionIn } from './support/session-view';
import { teammateSession } from './support/team-session';

test.use({ viewport: { width: 1440, height: 1000 } });

test("a teammate message shows whom of the team it is from, and is not marked as the person's", async ({ page }, info) => {
  await page.goto('/');
  await dropFiles(page, [fromText('integration-dev.jsonl', teammateSession())]);
  await sessionIn(page);
  await page.getByRole('button', { name: 'Next call' }).click();
  await page.getByRole('tab', { name: 'Context at call 2' }).click();
  await expect(page.getByRole('tab', { name: 'Context at call 2' })).toHaveAttribute('aria-selected', 'true');
  const context = page.getByRole('region', { name: 'Context at call 2' });
  const head = (id: string) => context.getByRole('article', { name: new RegExp(`user message ${id}`) }).locator('.item-head');
  // r-0001: the lead's orders; r-0004: a task assignment and a peer's note; r-0005: protocol only; r-0006: the person.
  await expect(head('r-0001')).toContainText('from team-lead');
  await expect(head('r-0001')).not.toContainText('harness');
  await expect(head('r-0004')).toContainText('from ui-dev');
  await expect(head('r-0005')).toContainText('harness');
  await expect(head('r-0005')).not.toContainText('from ');
  await expect(head('r-0006')).not.toContainText('harness');
  await expect(head('r-0006')).not.toContainText('from ');
  await context.getByRole('article', { name: /user message r-0004/ }).scrollIntoViewIfNeeded();
  await page.screenshot({ path: info.outputPath('teammate-messages.png') });
});
