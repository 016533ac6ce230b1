// Playwright Test config for the trueclick/test example, with Debian's Chromium (no browser download).
// Run it from the repository root after `npm run build`:
//   npx playwright test -c dist/examples/playwright-test/playwright.config.js
import { defineConfig } from '@playwright/test';

export default defineConfig({
  testDir: '.',
  testMatch: '*.spec.js',
  // Traces and .last-run.json go under out/ (ignored), not into a test-results/ folder in the checkout.
  outputDir: '../../../out/playwright-test-results',
  reporter: 'list',
  timeout: 120_000,
  workers: 1,
  use: {
    browserName: 'chromium',
    launchOptions: {
      executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
    },
  },
});
