import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

import { launchBrowser } from '../support/chromium';

const RECORDS = 100;
const COLD_LOADS = 5;

async function graphql(base: string, token: string | null, query: string, variables: Record<string, unknown> = {}) {
  const response = await fetch(`${base}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({ query, variables }),
  });
  return ((await response.json()) as { data: Record<string, any> }).data;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** The gzipped KB of what the first screen loads: its files listed by the build (scripts/dashboard-bundle.mjs). */
function firstScreenKb(root: string): number {
  const { firstScreen } = JSON.parse(readFileSync(path.join(root, 'dist/dashboard-meta.json'), 'utf8')) as {
    firstScreen: string[];
  };
  return firstScreen.reduce(
    (sum, file) => sum + gzipSync(readFileSync(path.join(root, 'dist/dashboard', file))).length / 1024,
    0,
  );
}

/**
 * The dashboard from a cold load (a new browser context each time: no cache, no service worker, no storage but
 * the token) to the painted Overview of a 100-record user (its totals a month and a year, drawn from the
 * server's answer), the median of five; and the gzipped size of what the first screen loads.
 * Null when no Chromium is installed.
 */
export async function dashboardLoads(
  base: string,
  root: string,
): Promise<{ overviewPaintedMs: number; firstPaintMs: number; shippedKb: number } | null> {
  const shippedKb = firstScreenKb(root);
  let browser;
  try {
    browser = await launchBrowser();
  } catch (error) {
    console.log(`dashboard: skipped (${(error as Error).message})`);
    return null;
  }
  try {
    const { signUp } = await graphql(
      base,
      null,
      'mutation { signUp(input: {email: "dashboard@example.com", password: "bench password", name: "Dana"}) { token } }',
    );
    const token = signUp.token as string;
    for (let n = 0; n < RECORDS; n++) {
      const input = {
        productName: `Service ${n}`,
        price: `${3 + (n % 20)}.99`,
        currency: n % 3 ? 'USD' : 'EUR',
        billingCycle: n % 2 ? 'YEARLY' : 'MONTHLY',
        type: 'SUBSCRIPTION',
        paymentDate: `2026-${String(1 + (n % 12)).padStart(2, '0')}-15`,
      };
      const { createSubscription } = await graphql(
        base,
        token,
        'mutation($input: CreateSubscriptionInput!) { createSubscription(input: $input) { subscription { id } userErrors { message } } }',
        { input },
      );
      if (!createSubscription?.subscription)
        throw new Error(`createSubscription was refused: ${JSON.stringify(createSubscription)}`);
    }
    const painted: number[] = [];
    const firstPaint: number[] = [];
    for (let run = 0; run < COLD_LOADS; run++) {
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.goto(`${base}/static/avatar.svg`);
      await page.evaluate(`sessionStorage.setItem("subledger.token", ${JSON.stringify(token)})`);
      const started = Date.now();
      await page.goto(`${base}/`);
      await page.getByTestId('overview-totals').waitFor();
      painted.push(Date.now() - started);
      firstPaint.push(
        Number(await page.evaluate(`performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? 0`)),
      );
      await context.close();
    }
    return {
      overviewPaintedMs: median(painted),
      firstPaintMs: Math.round(median(firstPaint)),
      shippedKb: Math.round(shippedKb * 10) / 10,
    };
  } finally {
    await browser.close();
  }
}
