import { existsSync } from 'node:fs';

import { type Browser, chromium } from 'playwright-core';

/** Debian's chromium (or CHROMIUM_PATH); .ci/run installs it when it is missing. */
export const CHROMIUM =
  process.env.CHROMIUM_PATH ??
  ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((candidate) => existsSync(candidate));

export async function launchBrowser(): Promise<Browser> {
  if (!CHROMIUM) throw new Error('Chromium is missing: apt-get install chromium (or set CHROMIUM_PATH)');
  // The flags keep Chromium from calling Google's services, which this machine's closed network refuses.
  return chromium.launch({
    executablePath: CHROMIUM,
    // Chromium's processes do not start under libfaketime (the faked-date CI pass): the browser runs on the
    // real clock, and each page is given the test's clock instead (newClockedContext).
    env: Object.fromEntries(
      Object.entries(process.env).filter(([name]) => name !== 'LD_PRELOAD' && !name.startsWith('FAKETIME')),
    ),
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}
