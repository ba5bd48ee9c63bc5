import { mkdirSync } from 'node:fs';
import path from 'node:path';

import AxeBuilder from '@axe-core/playwright';
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';

import { CHROMIUM } from './chromium';

export { launchBrowser } from './chromium';

/** Where a failed browser test leaves a screenshot of its page. */
export const SCREENSHOTS = path.resolve(__dirname, '../../test-results/screenshots');

/**
 * describe, or — only in the embedded pass, where nothing but Node may be installed — describe.skip with a
 * line saying why. The services pass always runs them: a missing browser fails there.
 */
export function describeInBrowser(name: string, body: () => void): void {
  if (CHROMIUM || process.env.DATABASE_URL) return describe(name, body);
  console.warn(`${name}: skipped, no Chromium here (apt-get install chromium, or set CHROMIUM_PATH)`);
  describe.skip(name, body);
}

/**
 * A browser context whose pages read the clock this test process reads: under libfaketime (the CI pass at a
 * faked date, which Chromium does not run under) the pages' clock is set to the faked time and runs on.
 */
export async function newClockedContext(
  browser: Browser,
  options: BrowserContextOptions = {},
): Promise<BrowserContext> {
  const context = await browser.newContext(options);
  if (process.env.FAKETIME) await context.clock.install({ time: Date.now() });
  return context;
}

/**
 * A page that may load only from `origin` (and the `alsoAllowed` origins, such as a test's identity provider):
 * anything else is aborted and listed in `outside`; what the CSP refused is in `refusedByPolicy`.
 */
export async function offlinePage(
  browser: Browser,
  origin: string,
  alsoAllowed: string[] = [],
): Promise<{ page: Page; outside: string[]; refusedByPolicy: string[] }> {
  // Its own context: axe-core's runner opens pages in the page's context.
  const page = await (await newClockedContext(browser)).newPage();
  const outside: string[] = [];
  // What the Content-Security-Policy kept from running or loading: Chromium reports each on the console.
  const refusedByPolicy: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && message.text().includes('Content Security Policy'))
      refusedByPolicy.push(message.text());
  });
  await page.route('**/*', (route) => {
    const url = route.request().url();
    if ([origin, ...alsoAllowed].includes(new URL(url).origin)) return route.continue();
    outside.push(url);
    return route.abort();
  });
  return { page, outside, refusedByPolicy };
}

/** Runs a step; when it fails, the page's screenshot is written to SCREENSHOTS/<name>.png first. */
export async function step<T>(page: Page, name: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    mkdirSync(SCREENSHOTS, { recursive: true });
    await page
      .screenshot({ path: path.join(SCREENSHOTS, `${name.replace(/[^a-z0-9-]+/gi, '-')}.png`), fullPage: true })
      .catch(() => undefined);
    throw error;
  }
}

/** What axe-core finds against WCAG 2.1 A and AA on the page as it is now (labels, contrast, roles…). */
export async function accessibilityProblems(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  return violations.map(
    (violation) =>
      `${violation.id}: ${violation.help} at ${violation.nodes
        .map((node) => node.target.join(' '))
        .slice(0, 3)
        .join('; ')}`,
  );
}
