import { defineConfig } from '@playwright/test';

// E2E_PORT lets several checkouts run their suites side by side.
const PORT = Number(process.env.E2E_PORT ?? 4173);

export default defineConfig({
  testDir: 'e2e',
  // e2e/dev runs against the dev server (playwright.dev.config.ts).
  testIgnore: ['dev/**'],
  outputDir: 'test-results',
  fullyParallel: true,
  workers: 2,
  // One retry: a run that passes only on its retry is listed as flaky in the log (with the first failure's message),
  // rather than failing CI for a hang seen once in hundreds of runs; a test that fails twice still fails the run.
  retries: 1,
  reporter: [['list']],
  // Waits catch a hang, not slowness: a busy CI runner (two CPU burners beside the suite) is several times slower
  // than an idle one, and every budget is measured in `npm run bench` instead.
  timeout: 180_000,
  expect: { timeout: 20_000 },
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    trace: 'off',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      // Without the background-networking flags Chromium tries to reach Google's hosts on this closed network.
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    },
  },
  webServer: {
    command: `npx vite preview --port ${PORT} --strictPort`,
    url: `http://127.0.0.1:${PORT}`,
    reuseExistingServer: !process.env.CI,
    timeout: 60_000,
  },
});
