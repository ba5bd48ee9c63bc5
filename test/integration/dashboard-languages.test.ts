import type { Browser, Page } from 'playwright-core';

import { accessibilityProblems, describeInBrowser, launchBrowser, offlinePage, step } from '../support/browser';
import { mutation, type SignedUpUser, signUp, startTestApp, type TestApp } from '../support/test-app';
import { today } from '../support/test-clock';

/**
 * Issue 43's languages in Chromium (an English browser): the profile's language, not the browser's, is the one
 * the records, calendar and payments screens speak once signed in — German, then French after a change —
 * with their billing wording by the language's plural rules, and money and dates written the language's way.
 */
describeInBrowser('the dashboard in the profile’s language', () => {
  let testApp: TestApp;
  let browser: Browser;
  let page: Page;
  let outside: string[];
  let refusedByPolicy: string[];
  let user: SignedUpUser;
  // A payment today, every 2 months: due in the month shown, and billing with a plural.
  const due = today();
  const [year, month, day] = due.split('-').map(Number);
  const dueDate = new Date(Date.UTC(year, month - 1, day));
  /** A date and an amount as `language` writes them (the browser is English: the language's own locale). */
  const written = (language: string, options: Intl.DateTimeFormatOptions = { dateStyle: 'medium' }) =>
    new Intl.DateTimeFormat(language, { ...options, timeZone: 'UTC' }).format(dueDate);
  const dollars = (language: string, amount: number) =>
    new Intl.NumberFormat(language, { style: 'currency', currency: 'USD' }).format(amount);

  const speak = async (language: 'DE' | 'FR') =>
    expect(
      (await mutation(testApp, user.token, 'updateProfile', { language }, 'user { language }')).userErrors,
    ).toEqual([]);
  /** Opens a screen from the navigation, by its name in the language spoken, and checks it with axe-core. */
  const screen = async (navigation: string, name: string) => {
    await page.getByRole('navigation', { name: navigation }).getByRole('link', { name, exact: true }).click();
    await page.getByRole('heading', { level: 1, name }).waitFor();
    await page.waitForLoadState('networkidle');
    expect(await accessibilityProblems(page)).toEqual([]);
  };
  const row = (name: string) => page.getByRole('row').filter({ has: page.getByRole('rowheader', { name }) });

  beforeAll(async () => {
    testApp = await startTestApp();
    user = await signUp(testApp);
    const created = await mutation(
      testApp,
      user.token,
      'createSubscription',
      {
        productName: 'Gym',
        price: '30.00',
        currency: 'USD',
        billingCycle: 'MONTHLY',
        billingFrequency: 2,
        paymentDate: due,
        type: 'SUBSCRIPTION',
      },
      'subscription { id }',
    );
    expect(created.userErrors).toEqual([]);
    await speak('DE');
    browser = await launchBrowser();
    ({ page, outside, refusedByPolicy } = await offlinePage(browser, testApp.baseUrl));
    await page.goto(`${testApp.baseUrl}/#/subscriptions`);
    // Before signing in, the page speaks the browser's language: the profile's is not known yet.
    const form = page.getByRole('form', { name: 'Log in' });
    await form.getByLabel('E-mail').fill(user.email);
    await form.getByLabel('Password').fill(user.password);
    await form.getByRole('button', { name: 'Log in' }).click();
  });
  afterAll(async () => {
    await browser?.close();
    await testApp?.close();
  });
  afterEach(() => {
    expect(outside).toEqual([]);
    expect(refusedByPolicy).toEqual([]);
  });

  it('speaks German on the records screen: headings, buttons, billing, status and dates', () =>
    step(page, 'languages-de-records', async () => {
      await page.getByRole('heading', { level: 1, name: 'Abos' }).waitFor();
      expect(await page.evaluate('document.documentElement.lang')).toBe('de');
      await page.getByRole('button', { name: 'Abo hinzufügen' }).waitFor();
      await row('Gym').waitFor();
      expect(await page.getByRole('columnheader').allTextContents()).toEqual([
        'Produkt',
        'Details',
        'Preis',
        'Abrechnung',
        'Nächste Zahlung ▲',
        'Status',
        'Aktionen',
      ]);
      const cells = await row('Gym').getByRole('cell').allTextContents();
      expect(cells.slice(1, 5)).toEqual([dollars('de', 30), 'Alle 2 Monate', written('de'), 'Aktiv']);
      expect(written('de')).toMatch(/^\d{2}\.\d{2}\.\d{4}$/);
      expect(await page.locator('.totals').textContent()).toMatch(/^1 Abo · .+ im Monat · .+ im Jahr$/);
      expect(await page.getByLabel('Abrechnung').locator('option').allTextContents()).toEqual([
        'Jede Abrechnung',
        'Täglich',
        'Wöchentlich',
        'Monatlich',
        'Jährlich',
      ]);
      await page.getByRole('button', { name: 'Aktionen für Gym' }).click();
      await page.getByRole('button', { name: 'Gym kündigen' }).waitFor();
      expect(await accessibilityProblems(page)).toEqual([]);
      await page.getByRole('button', { name: 'Aktionen für Gym' }).click();
    }));

  it('speaks German in the calendar: the month, the weekdays, the totals and a payment’s details', () =>
    step(page, 'languages-de-calendar', async () => {
      await screen('Ansichten', 'Kalender');
      await page.getByRole('heading', { level: 2, name: written('de', { month: 'long', year: 'numeric' }) }).waitFor();
      expect(await page.locator('.weekdays span').first().textContent()).toBe(
        new Intl.DateTimeFormat('de', { weekday: 'short', timeZone: 'UTC' }).format(new Date(Date.UTC(2024, 0, 1))),
      );
      await page.getByRole('button', { name: 'Vorheriger Monat' }).waitFor();
      await page
        .locator('.totals')
        .filter({ hasText: `1 Zahlung, insgesamt ${dollars('de', 30)}` })
        .waitFor();
      await page
        .getByRole('button', { name: `Gym, ${dollars('de', 30)}, ${written('de', { dateStyle: 'full' })}` })
        .click();
      const details = page.getByRole('region', { name: `Gym am ${written('de')}` });
      await details.getByText(/· Noch nicht bezahlt$/).waitFor();
      await details.getByRole('button', { name: 'Zahlung erfassen' }).waitFor();
      await details.getByRole('link', { name: 'Alle Zahlungen' }).waitFor();
    }));

  it('speaks German on the payments screen', () =>
    step(page, 'languages-de-payments', async () => {
      await screen('Ansichten', 'Zahlungen');
      expect(await page.getByRole('table', { name: 'Zahlungen' }).getByRole('columnheader').allTextContents()).toEqual([
        'Abo',
        'Fällig',
        'Erwartet',
        'Status',
        'Bezahlt',
        '',
      ]);
      const cells = await row('Gym').getByRole('cell').allTextContents();
      expect(cells.slice(0, 3)).toEqual([written('de'), dollars('de', 30), 'Offen']);
      await row('Gym')
        .getByRole('button', { name: `Zahlung erfassen: Gym, fällig am ${written('de')}` })
        .waitFor();
      await page.getByRole('heading', { level: 2, name: 'Preisänderungen' }).waitFor();
      await page.getByRole('button', { name: 'Preisänderung speichern' }).waitFor();
    }));

  it('speaks French once the profile says so, with French plurals', () =>
    step(page, 'languages-fr', async () => {
      await speak('FR');
      // The tab keeps its sign-in; the profile is read again, and its language spoken.
      await page.reload();
      await page.getByRole('navigation', { name: 'Écrans' }).waitFor();
      await screen('Écrans', 'Abonnements');
      expect(await page.evaluate('document.documentElement.lang')).toBe('fr');
      await row('Gym').waitFor();
      const cells = await row('Gym').getByRole('cell').allTextContents();
      expect(cells.slice(1, 5)).toEqual([dollars('fr', 30), 'Tous les 2 mois', written('fr'), 'Actif']);
      expect(await page.locator('.totals').textContent()).toMatch(/^1 abonnement · .+ par mois · .+ par an$/);
      await page.getByRole('button', { name: 'Ajouter un abonnement' }).waitFor();

      await screen('Écrans', 'Calendrier');
      await page
        .locator('.totals')
        .filter({ hasText: `1 paiement, ${dollars('fr', 30)} au total` })
        .waitFor();
      await screen('Écrans', 'Paiements');
      await page.getByRole('heading', { level: 2, name: 'Changements de prix' }).waitFor();
      await row('Gym')
        .getByRole('button', { name: `Sauter Gym dû le ${written('fr')}` })
        .waitFor();
    }));
});
