import { mkdirSync } from 'node:fs';
import path from 'node:path';

import type { Browser } from 'playwright-core';

import {
  accessibilityProblems,
  describeInBrowser,
  launchBrowser,
  newClockedContext,
  SCREENSHOTS,
  step,
} from '../support/browser';
import { graphqlData, mutation, type SignedUpUser, signUp, startTestApp, type TestApp } from '../support/test-app';
import { daysFromToday, monthsFromToday } from '../support/test-clock';
import { until } from '../support/wait';

/**
 * Every screen of the navigation, walked as a person would at a desktop's and a phone's width, in light and
 * dark, and in German: axe finds nothing, nothing overflows the viewport sideways, no visible button text is
 * longer than 40 characters, and no request leaves the server's origin. Each walk leaves a screenshot of each
 * screen in test-results/screenshots/walk-<walk>/; a failure names the walk and the screen.
 */
const WALKS = [
  { name: 'desktop-light', width: 1280, colorScheme: 'light', language: 'EN' },
  { name: 'phone-light', width: 390, colorScheme: 'light', language: 'EN' },
  { name: 'desktop-dark', width: 1280, colorScheme: 'dark', language: 'EN' },
  { name: 'phone-dark', width: 390, colorScheme: 'dark', language: 'EN' },
  { name: 'phone-german', width: 390, colorScheme: 'light', language: 'DE' },
] as const;
/** DASHBOARD_WALKS=<name>,<name> walks only those (CI's embedded pass walks one; its services pass all). */
const WALKED = process.env.DASHBOARD_WALKS
  ? WALKS.filter((walk) => process.env.DASHBOARD_WALKS!.split(',').includes(walk.name))
  : WALKS;
const LONGEST_BUTTON_TEXT = 40;

/**
 * Elements that reach past the viewport's right edge, where no ancestor scrolls or clips them (run in the page;
 * a string, as the server's type check knows no DOM).
 */
const OVERFLOWING = `(() => {
  const width = document.documentElement.clientWidth;
  const clipped = (element) => {
    for (let parent = element.parentElement; parent; parent = parent.parentElement) {
      if (parent === document.body || parent === document.documentElement) return false;
      if (getComputedStyle(parent).overflowX !== 'visible') return true;
    }
    return false;
  };
  const found = [...document.body.querySelectorAll('*')]
    .filter((element) => {
      const box = element.getBoundingClientRect();
      return box.width > 0 && box.height > 0 && box.right > width + 1 && !clipped(element);
    })
    .map((element) => element.tagName.toLowerCase() + (element.id ? '#' + element.id : '') + '.' + element.className);
  if (document.documentElement.scrollWidth > width + 1)
    found.unshift('the page is ' + document.documentElement.scrollWidth + 'px wide');
  return found.slice(0, 5);
})()`;

/** The texts of visible buttons longer than LONGEST_BUTTON_TEXT characters (run in the page). */
const LONG_BUTTONS = `[...document.querySelectorAll('button, [role="button"], input[type="submit"], a.button')]
  .filter((element) => element.offsetParent !== null)
  .map((element) => (element.innerText || element.value || '').trim())
  .filter((text) => text.length > ${LONGEST_BUTTON_TEXT})`;

describeInBrowser('every screen of the dashboard, walked in Chromium', () => {
  let testApp: TestApp;
  let browser: Browser;
  let user: SignedUpUser;
  /** Whether the walker is the instance's admin (the first account is), whose navigation has one link more. */
  let admin: boolean;

  beforeAll(async () => {
    testApp = await startTestApp();
    user = await signUp(testApp, 'Walker');
    admin = (await graphqlData(testApp, user.token, '{ me { admin } }')).me.admin;
    const make = (field: string, input: Record<string, unknown>, result: string) =>
      mutation(testApp, user.token, field, input, result);
    const folderId = (await make('createFolder', { name: 'Streaming', color: '#2255aa' }, 'folder { id }')).folder.id;
    const paymentModeId = (await make('createPaymentMode', { name: 'Visa 1234' }, 'paymentMode { id }')).paymentMode.id;
    await make('createTag', { name: 'Shared' }, 'tag { id }');
    const records = [
      {
        productName: 'Netflix Premium',
        price: '17.99',
        currency: 'USD',
        billingCycle: 'MONTHLY',
        paymentDate: monthsFromToday(-5),
        folderId,
        paymentModeId,
      },
      {
        productName: 'Cloud storage with a rather long product name',
        price: '99',
        currency: 'EUR',
        billingCycle: 'YEARLY',
        paymentDate: daysFromToday(9),
      },
      {
        productName: 'Gym',
        price: '30',
        currency: 'USD',
        billingCycle: 'MONTHLY',
        billingFrequency: 2,
        paymentDate: daysFromToday(-3),
      },
      {
        productName: 'Lifetime licence',
        type: 'LIFETIME',
        recurring: 'ONCE',
        billingCycle: 'YEARLY',
        price: '249',
        currency: 'USD',
        paymentDate: monthsFromToday(-2),
      },
      {
        productName: 'Trial tool',
        type: 'TRIAL',
        price: '0',
        currency: 'USD',
        billingCycle: 'MONTHLY',
        paymentDate: daysFromToday(5),
      },
    ];
    for (const record of records)
      await make('createSubscription', { type: 'SUBSCRIPTION', ...record }, 'subscription { id }');
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await testApp?.close();
  });

  it.each(WALKED)('walks every screen: $name', async (walk) => {
    await mutation(testApp, user.token, 'updateProfile', { language: walk.language, theme: 'SYSTEM' }, 'user { id }');
    const context = await newClockedContext(browser, {
      viewport: { width: walk.width, height: 844 },
      colorScheme: walk.colorScheme,
      locale: 'en-US',
    });
    const page = await context.newPage();
    const outside: string[] = [];
    await page.route('**/*', (route) => {
      if (new URL(route.request().url()).origin === testApp.baseUrl) return route.continue();
      outside.push(route.request().url());
      return route.abort();
    });
    // Requests in flight: a screen is walked once it has asked for all it shows and got the answers.
    let inFlight = 0;
    page.on('request', () => inFlight++);
    page.on('requestfinished', () => inFlight--);
    page.on('requestfailed', () => inFlight--);
    const settled = async () => {
      for (let quiet = 0; quiet < 2;) {
        await until(() => inFlight === 0, 'the screen’s requests');
        await page.evaluate('new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))');
        quiet = inFlight === 0 ? quiet + 1 : 0;
      }
    };
    const folder = path.join(SCREENSHOTS, `walk-${walk.name}`);
    mkdirSync(folder, { recursive: true });
    try {
      await step(page, `walk-${walk.name}-sign-in`, async () => {
        await page.goto(testApp.baseUrl);
        const form = page.getByRole('form', { name: 'Log in' });
        await form.getByLabel('E-mail').fill(user.email);
        await form.getByLabel('Password').fill(user.password);
        await form.getByRole('button', { name: 'Log in' }).click();
        await page.locator(`html[lang="${walk.language.toLowerCase()}"] nav.top`).waitFor();
        // The admin's link joins the others once the profile says who signed in.
        if (admin) await page.locator('nav.top a[href="#/admin"]').waitFor({ state: 'attached' });
      });
      const screens = await page
        .locator('nav.top a[href^="#/"]')
        .evaluateAll((links) => links.map((link) => link.getAttribute('href')!.slice(2)));
      expect(screens.length).toBeGreaterThan(10);
      // On a phone the links fold into a menu, opened by its button and folded again by a choice.
      if (walk.width < 640)
        await step(page, `walk-${walk.name}-menu`, async () => {
          const links = page.locator('#screen-links a');
          expect(await links.first().isVisible()).toBe(false);
          await page.locator('nav.top .menu-toggle').click();
          expect(await links.evaluateAll((all) => all.length)).toBe(screens.length);
          await links.last().waitFor();
          await page.screenshot({ path: path.join(folder, 'menu.png'), fullPage: true });
          expect(await accessibilityProblems(page)).toEqual([]);
          await links.last().click();
          await page.locator('#screen-links:not(.open)').waitFor({ state: 'attached' });
          expect(await links.first().isVisible()).toBe(false);
        });
      const problems: string[] = [];
      for (const screen of screens) {
        await step(page, `walk-${walk.name}-${screen}`, async () => {
          await page.goto(`${testApp.baseUrl}/#/${screen}`);
          await page.locator('main h1').first().waitFor();
          await settled();
          await page.screenshot({ path: path.join(folder, `${screen}.png`), fullPage: true });
          const found = [
            ...(await accessibilityProblems(page)).map((problem) => `axe ${problem}`),
            ...(await page.evaluate<string[]>(OVERFLOWING)).map((element) => `overflows: ${element}`),
            ...(await page.evaluate<string[]>(LONG_BUTTONS)).map(
              (text) => `button text over ${LONGEST_BUTTON_TEXT}: “${text}”`,
            ),
          ];
          problems.push(...found.map((problem) => `${walk.name} #/${screen}: ${problem}`));
        });
      }
      expect(problems).toEqual([]);
      expect(outside).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
