// Debian's headless Chromium driven by playwright-core (no browser download).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';

export const CHROMIUM = process.env.XQ_CHROMIUM ?? '/usr/bin/chromium';

export async function launch() {
  const userDataDir = mkdtempSync(join(tmpdir(), 'xq-chromium-'));
  // Playwright takes the fresh profile directory as launchPersistentContext's argument (it refuses a
  // --user-data-dir flag); each person in a test then gets an isolated context of that browser.
  const persistent = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  const browser = persistent.browser();
  if (!browser) throw new Error('playwright-core gave no Browser for the persistent context');
  return {
    browser,
    async close() {
      await persistent.close();
      rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}
