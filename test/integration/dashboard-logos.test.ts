import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';

import { accessibilityProblems, describeInBrowser, launchBrowser, offlinePage, step } from '../support/browser';
import { graphqlData, type SignedUpUser, signUp, sql, startTestApp, type TestApp } from '../support/test-app';
import { today } from '../support/test-clock';
import { until } from '../support/wait';

const LOGO_URL = /^\/logos\/[0-9a-f]{32}\.webp$/;
const CREATE = `mutation($input: CreateSubscriptionInput!) { createSubscription(input: $input) {
  subscription { id } userErrors { message } } }`;
const LOGOS = `{ subscriptions(first: 10) { nodes { productName logo } } }`;

/**
 * Issue 43's logos in Chromium: a record of a catalogue product shows the logo the server fetched from the
 * vendor's (local, fake) site, one uploaded in the record form shows at once and can be removed, and the
 * others a monogram, on the records list, the upcoming list and the calendar; the page loads nothing from
 * another origin (the vendor's site included).
 */
describeInBrowser('logos in the dashboard, in Chromium', () => {
  let testApp: TestApp;
  let vendor: Server;
  let vendorHits = 0;
  let browser: Browser;
  let page: Page;
  let outside: string[];
  let refusedByPolicy: string[];
  let user: SignedUpUser;

  const logos = async () =>
    Object.fromEntries(
      (
        (await graphqlData(testApp, user.token, LOGOS)).subscriptions.nodes as Array<{
          productName: string;
          logo: string | null;
        }>
      ).map((node) => [node.productName, node.logo]),
    );

  beforeAll(async () => {
    const png = await sharp({ create: { width: 240, height: 120, channels: 4, background: '#1f6feb' } })
      .png()
      .toBuffer();
    vendor = createServer((_req, res) => {
      vendorHits++;
      res.writeHead(200, { 'content-type': 'image/png' }).end(png);
    });
    await new Promise<void>((resolve) => vendor.listen(0, '127.0.0.1', resolve));
    const vendorUrl = `http://127.0.0.1:${(vendor.address() as AddressInfo).port}/logo.png`;

    testApp = await startTestApp({ LOGO_FETCH: 'on', LOGO_ALLOW_PRIVATE: 'true' });
    user = await signUp(testApp, 'Lou Logo');
    const [{ id }] = await sql<{ id: number }>(
      testApp,
      `insert into "products" ("owner_id", "category_id", "product_name", "brandname", "image", "favicon")
       values (null, 1, 'Vendorly', 'Vendorly', ?, '') returning "id"`,
      [vendorUrl],
    );
    // Paid first today, monthly: due today, so in the upcoming list and in this month's calendar.
    const record = { type: 'SUBSCRIPTION', price: '4', currency: 'USD', billingCycle: 'MONTHLY', paymentDate: today() };
    for (const product of [
      { productId: Buffer.from(`Product:${id}`).toString('base64url') },
      { productName: 'Own Tool' },
      { productName: 'Plain Thing' },
    ]) {
      const made = await graphqlData(testApp, user.token, CREATE, { input: { ...record, ...product } });
      expect(made.createSubscription.userErrors).toEqual([]);
    }
    testApp.app.logoRelay.nudge();
    await until(async () => (await logos()).Vendorly !== null, 'the vendor’s logo to be fetched');
    expect(vendorHits).toBe(1);

    browser = await launchBrowser();
    ({ page, outside, refusedByPolicy } = await offlinePage(browser, testApp.baseUrl));
    await page.goto(`${testApp.baseUrl}/static/avatar.svg`);
    await page.evaluate(`sessionStorage.setItem("subledger.token", ${JSON.stringify(user.token)})`);
    await page.goto(`${testApp.baseUrl}/#/subscriptions`);
    await page.getByRole('heading', { level: 1, name: 'Subscriptions' }).waitFor();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await testApp?.close();
    await new Promise((resolve) => vendor?.close(resolve));
  });
  afterEach(() => {
    expect(outside).toEqual([]);
    expect(refusedByPolicy).toEqual([]);
  });

  const notice = (text: string) => page.getByRole('status').filter({ hasText: text }).waitFor();
  const row = (name: string) =>
    page.getByRole('row').filter({ has: page.getByRole('rowheader', { name, exact: true }) });
  /** The logo shown in `scope`: its image's URL once loaded (a path on the origin), or the monogram's letters. */
  const shownLogo = async (scope: ReturnType<Page['locator']>) => {
    const logo = scope.locator('.logo').first();
    await logo.waitFor();
    // A monogram's letters are drawn by the style sheet: what is drawn is what is read here.
    if ((await logo.evaluate((element) => element.tagName)) !== 'IMG') {
      const drawn = await logo.evaluate(
        (element) =>
          (
            globalThis as unknown as { getComputedStyle(of: unknown, pseudo: string): { content: string } }
          ).getComputedStyle(element, '::before').content,
      );
      return `monogram ${drawn.replace(/"/g, '')}`;
    }
    await until(
      () =>
        logo.evaluate((image) => {
          const loaded = image as unknown as { complete: boolean; naturalWidth: number };
          return loaded.complete && loaded.naturalWidth > 0;
        }),
      'the logo to load',
    );
    return logo.getAttribute('src');
  };
  const screen = async (name: string) => {
    await page.getByRole('navigation', { name: 'Screens' }).getByRole('link', { name, exact: true }).click();
    await page.getByRole('heading', { level: 1, name }).waitFor();
    await page.waitForLoadState('networkidle');
    expect(await accessibilityProblems(page)).toEqual([]);
  };

  it('the records list shows the fetched logo, and a monogram where there is none', () =>
    step(page, 'logos-records', async () => {
      const fetched = (await logos()).Vendorly;
      expect(fetched).toMatch(LOGO_URL);
      expect(await shownLogo(row('Vendorly'))).toBe(fetched);
      expect(await shownLogo(row('Own Tool'))).toBe('monogram OT');
      expect(await shownLogo(row('Plain Thing'))).toBe('monogram PT');
      expect(await accessibilityProblems(page)).toEqual([]);
    }));

  it('uploads a logo in the record form, shows it, and removes it again', () =>
    step(page, 'logos-upload', async () => {
      await page.getByRole('button', { name: 'Actions for Own Tool', exact: true }).click();
      await page.getByRole('button', { name: 'Edit Own Tool', exact: true }).click();
      const form = page.getByRole('form', { name: 'Edit Own Tool' });
      const picture = await sharp({ create: { width: 90, height: 90, channels: 3, background: '#b5179e' } })
        .jpeg()
        .toBuffer();
      await form
        .getByLabel('Upload a logo')
        .setInputFiles({ name: 'tool.jpg', mimeType: 'image/jpeg', buffer: picture });
      await form.getByRole('button', { name: 'Save' }).click();
      await notice('The logo of Own Tool is saved.');
      const uploaded = (await logos())['Own Tool'];
      expect(uploaded).toMatch(LOGO_URL);
      expect(await shownLogo(row('Own Tool'))).toBe(uploaded);

      await page.getByRole('button', { name: 'Actions for Own Tool', exact: true }).click();
      await page.getByRole('button', { name: 'Edit Own Tool', exact: true }).click();
      expect(await shownLogo(page.getByRole('form', { name: 'Edit Own Tool' }))).toBe(uploaded);
      await page.getByRole('button', { name: 'Remove the logo of Own Tool', exact: true }).click();
      await notice('The logo of Own Tool is removed.');
      expect((await logos())['Own Tool']).toBeNull();
      expect(await shownLogo(row('Own Tool'))).toBe('monogram OT');
    }));

  it('the upcoming list and the calendar show the same logos', () =>
    step(page, 'logos-upcoming-calendar', async () => {
      const fetched = (await logos()).Vendorly;
      await screen('Upcoming');
      const due = (name: string) => page.locator('ul.upcoming li').filter({ hasText: name });
      expect(await shownLogo(due('Vendorly'))).toBe(fetched);
      expect(await shownLogo(due('Plain Thing'))).toBe('monogram PT');

      await screen('Calendar');
      const entry = (name: string) => page.locator(`li[data-date="${today()}"] .entry`).filter({ hasText: name });
      expect(await shownLogo(entry('Vendorly'))).toBe(fetched);
      expect(await shownLogo(entry('Plain Thing'))).toBe('monogram PT');
      // Fetched once, and never by the browser.
      expect(vendorHits).toBe(1);
    }));
});
