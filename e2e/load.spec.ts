import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { DEMOS } from '../app/demos';
import { analyzeSession } from '../src/analysis/analyze-session';
import type { Session } from '../src/model/types';
import { dropFiles, fromDisk, fromText } from './support/drop';
import { engineLoad } from './support/engine';
import { expectSessionFacts, sessionTabs } from './support/session-view';

const FIXTURES = join(import.meta.dirname, '..', 'src', 'formats', '__fixtures__');
const DEMO_DIR = join(import.meta.dirname, '..', 'public', 'demos');
const SHOTS = join(import.meta.dirname, '..', '.e2e-artifacts', 'screens');

/** The header's figures as the engine's facts give them (recorded and inferred compactions together). */
const facts = (s: Session) => {
  const f = analyzeSession(s, { count: (t) => t.length, defer: ['cache', 'lints', 'audits'] }).facts;
  return { items: f.items, toolCalls: f.toolCalls, compactions: `${f.compactions.total}${f.compactions.inferred ? ` (${f.compactions.inferred} inferred)` : ''}` };
};

test.describe('opening demos', () => {
  for (const demo of DEMOS) {
    test(`the ${demo.id} demo opens with one click and shows every session the engine finds`, async ({ page }) => {
      const expected = engineLoad(...demo.files.map((f) => join(DEMO_DIR, f)));
      expect(expected.issues.filter((i) => i.severity === 'error')).toEqual([]);
      await page.goto('/');
      await page.getByRole('button', { name: demo.title }).click();
      const tabs = sessionTabs(page);
      await expect(tabs).toHaveCount(expected.sessions.length);
      for (let i = 0; i < expected.sessions.length; i++) {
        await tabs.nth(i).click();
        await expectSessionFacts(page, facts(expected.sessions[i]!));
      }
      await expect(page.getByRole('alert')).toHaveCount(0);
    });
  }
});

test.describe('dropping fixtures', () => {
  // A tau-bench result holds a whole evaluation and opens as a corpus (e2e/formats-swe.spec.ts).
  const files = readdirSync(FIXTURES).filter((f) => /\.(jsonl?|ndjson|traj)$/.test(f) && !f.startsWith('tau-bench')).sort();
  for (const file of files) {
    test(`${file} dropped into the page shows what the engine parsed`, async ({ page }) => {
      const expected = engineLoad(join(FIXTURES, file));
      await page.goto('/');
      await dropFiles(page, fromDisk(join(FIXTURES, file)));
      const errors = expected.issues.filter((i) => i.severity === 'error');
      const tabs = sessionTabs(page);
      await expect(tabs).toHaveCount(expected.sessions.length);
      for (let i = 0; i < expected.sessions.length; i++) {
        await tabs.nth(i).click();
        await expectSessionFacts(page, facts(expected.sessions[i]!));
      }
      // Every error the engine reports is shown with its file, line and field.
      for (const e of errors.slice(0, 5)) {
        const where = [e.file, e.line !== null ? `line ${e.line}` : null, e.field !== null ? `field ${e.field}` : null].filter(Boolean).join(' · ');
        await expect(page.getByRole('alert').getByText(where, { exact: true }).first()).toBeVisible();
      }
    });
  }
});

test('a broken file is reported with file, line and field, and the open session stays', async ({ page }) => {
  await page.goto('/');
  await dropFiles(page, fromDisk(join(FIXTURES, 'openai-chat-course.json')));
  await expect(sessionTabs(page)).toHaveCount(1);
  await dropFiles(page, [fromText('broken.json', '{\n  "messages": [\n    {"role": "user", "content": "hi"},\n    {"role": 7}\n  ]\n}'), fromText('garbage.jsonl', '{"a":1}\nnot json\n')]);
  const alert = page.getByRole('alert');
  await expect(alert.getByText('broken.json · line 4 · field messages[1].role', { exact: true })).toBeVisible();
  await expect(alert.getByText('garbage.jsonl · line 1', { exact: true })).toBeVisible();
  await expect(sessionTabs(page).filter({ hasText: 'openai-chat-course' })).toBeVisible();
  await sessionTabs(page).filter({ hasText: 'openai-chat-course' }).click();
  await expectSessionFacts(page, { items: 7, toolCalls: 1, compactions: 0 });
  await page.screenshot({ path: join(SHOTS, 'error-view.png') });
});

test('files open from the picker, from pasted text and from ?src=', async ({ page }) => {
  await page.goto('/');
  await page.getByLabel('Choose files').setInputFiles(join(FIXTURES, 'openai-chat-course.json'));
  await expect(sessionTabs(page).filter({ hasText: 'openai-chat-course' })).toBeVisible();

  await page.getByRole('button', { name: 'Paste…' }).click();
  await page.getByRole('textbox', { name: 'Transcript text' }).fill('{"messages":[{"role":"user","content":"pasted hello"}]}');
  await page.getByRole('button', { name: 'Open pasted text' }).click();
  await expect(sessionTabs(page).filter({ hasText: 'pasted' })).toBeVisible();
  await expect(page.getByText('pasted hello')).toBeVisible();

  await page.goto('/?src=demos/alfworld-self-sum.json');
  await expect(sessionTabs(page)).toHaveCount(1);
  await expect(page.getByRole('region', { name: 'Session' })).toContainText('Self-Sum');
});

test('a tool call links to its result and back', async ({ page }) => {
  await page.goto('/');
  await dropFiles(page, fromDisk(join(FIXTURES, 'openai-chat-course.json')));
  await page.getByRole('tab', { name: /All items/ }).click();
  const call = page.getByRole('article', { name: 'assistant tool call m2.call0' });
  await call.getByRole('button', { name: /result/ }).click();
  await expect(page.locator('.row.selected')).toContainText('host: db-prod-1');
  await page.getByRole('article', { name: 'tool tool result m3' }).getByRole('button', { name: /call/ }).click();
  await expect(page.locator('.row.selected')).toContainText('read_file');
});

test('screenshots of the loaded view in both themes', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('button', { name: DEMOS[0]!.title }).click();
  await expect(sessionTabs(page).first()).toBeVisible();
  await page.screenshot({ path: join(SHOTS, 'loaded-light.png') });
  await page.getByRole('button', { name: 'Switch to dark theme' }).click();
  await page.screenshot({ path: join(SHOTS, 'loaded-dark.png') });
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
});
