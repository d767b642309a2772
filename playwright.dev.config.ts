import { defineConfig } from '@playwright/test';
import base from './playwright.config';

// The same app under the dev server (`npm start`, the README's first command), which the build never shows: the
// React-refresh preamble inline in its page, its headers on a revalidated page (issue 33). E2E_DEV_PORT lets
// several checkouts run this beside each other.
const PORT = Number(process.env.E2E_DEV_PORT ?? 5180);

export default defineConfig({
  ...base,
  testDir: 'e2e/dev',
  testIgnore: [],
  // The dev server compiles each module on its first request: one worker, so two pages do not race it.
  workers: 1,
  timeout: 180_000,
  expect: { timeout: 20_000 },
  use: { ...base.use, baseURL: `http://127.0.0.1:${PORT}` },
  webServer: {
    command: `npx vite --port ${PORT} --strictPort`,
    url: `http://127.0.0.1:${PORT}`,
    reuseExistingServer: !process.env.CI,
    timeout: 120_000,
  },
});
