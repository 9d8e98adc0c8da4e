// `npm run test:e2e`: the console's browser tests. Playwright drives Debian's chromium (never a
// downloaded browser) against a real `parley serve` on a fresh PGlite data folder (global-setup.ts).
import { defineConfig } from '@playwright/test';

/** Chromium's own connections (updates, sync, QUIC) would be refused on a closed network and slow it. */
export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export default defineConfig({
  testDir: '.',
  testMatch: '*.e2e.ts',
  outputDir: '../test-results/e2e',
  globalSetup: './global-setup.ts',
  // One server, one browser: the tests run in order on a 2-core machine.
  workers: 1,
  fullyParallel: false,
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  use: {
    browserName: 'chromium',
    headless: true,
    launchOptions: { executablePath: process.env.PARLEY_E2E_CHROMIUM ?? '/usr/bin/chromium', args: CHROMIUM_FLAGS },
    actionTimeout: 10_000,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
});
