import type { Browser, Locator, Page } from 'playwright-core';

import { normalisePayee } from '../../src/detection/payee-names';
import { accessibilityProblems, describeInBrowser, launchBrowser, offlinePage, step } from '../support/browser';
import { generateStatement } from '../support/statement-generator';
import { writeStatement } from '../support/statement-writers';
import { startTestApp, type TestApp, uniqueEmail } from '../support/test-app';
import { monthsFromToday } from '../support/test-clock';

/** The "Find subscriptions" screen driven as its user drives it: a statement uploaded, its proposals decided. */
describeInBrowser('finding subscriptions in a statement, in Chromium', () => {
  let testApp: TestApp;
  let browser: Browser;
  let page: Page;
  let outside: string[];
  let refusedByPolicy: string[];

  /**
   * Two years of a statement ending today, in the new account's base currency; each true series under the
   * name the screen shows for it (the detector's: "HUK-Coburg" is "Huk Coburg").
   */
  const statement = (seed: number) => {
    const generated = generateStatement(seed, { from: monthsFromToday(-24), months: 24, currency: 'USD' });
    const truth = generated.truth.map((series) => ({ ...series, payee: normalisePayee(series.payee).display }));
    return { ...generated, truth };
  };
  const first = statement(7);
  const ongoing = first.truth.filter((series) => series.ongoing);
  const [accepted, dismissed, together1, together2] = ongoing;
  const decided = new Set([accepted, dismissed, together1, together2].map((series) => series?.payee.toLowerCase()));

  const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  /** A proposal's card, named by its heading: the payee, then its badges. */
  const card = (payee: string): Locator =>
    page.getByRole('article', { name: new RegExp(`^${escape(payee)}( stopped)?( already tracked)?$`, 'i') });
  const button = (action: string, payee: string) =>
    page.getByRole('button', { name: new RegExp(`^${action} ${escape(payee)}$`, 'i') });
  const status = (text: string | RegExp) => page.getByRole('status').filter({ hasText: text }).waitFor();
  const file = (name: string, buffer: Buffer) =>
    page.getByLabel(/^Statement file/).setInputFiles({ name, mimeType: 'application/octet-stream', buffer });
  const inWords = ({ cycle, frequency }: { cycle: number; frequency: number }) =>
    frequency === 1
      ? { 2: 'weekly', 3: 'monthly', 4: 'yearly' }[cycle]!
      : `every ${frequency} ${{ 2: 'weeks', 3: 'months', 4: 'years' }[cycle]}`;

  /** Opens the screen from the navigation and checks it with axe-core once it has loaded. */
  const open = async (name: string) => {
    await page.getByRole('navigation', { name: 'Screens' }).getByRole('link', { name, exact: true }).click();
    await page.getByRole('heading', { level: 1, name }).waitFor();
    await page.waitForLoadState('networkidle');
    expect(await accessibilityProblems(page)).toEqual([]);
  };

  beforeAll(async () => {
    testApp = await startTestApp();
    browser = await launchBrowser();
    ({ page, outside, refusedByPolicy } = await offlinePage(browser, testApp.baseUrl));
  });
  afterAll(async () => {
    await browser?.close();
    await testApp?.close();
  });
  afterEach(() => {
    expect(outside).toEqual([]);
    expect(refusedByPolicy).toEqual([]);
  });

  it('signs up and opens an empty screen', () =>
    step(page, 'detect-sign-up', async () => {
      // Enough series to accept one, dismiss one and accept two together.
      expect(ongoing.length).toBeGreaterThanOrEqual(4);
      await page.goto(`${testApp.baseUrl}/#/subscriptions`);
      await page.getByRole('button', { name: 'Create an account' }).click();
      await page.getByLabel('Name').fill('Noor');
      await page.getByLabel('E-mail').fill(uniqueEmail('detection'));
      await page.getByLabel('Password').fill('correct horse battery');
      await page.getByRole('button', { name: 'Create account' }).click();
      await page.getByRole('heading', { level: 1, name: 'Subscriptions' }).waitFor();
      await open('Find subscriptions');
      await page.getByText('No open proposals').waitFor();
    }));

  it('names the line of a file it cannot read, in an alert', () =>
    step(page, 'detect-unreadable', async () => {
      const lines = writeStatement(first.transactions, 'csv', 'english').toString('utf8').split('\n');
      lines[4] = lines[4].replace(/-?\d+\.\d{2}/, '12,3,4.5');
      await file('broken.csv', Buffer.from(lines.join('\n')));
      await page.getByRole('button', { name: 'Analyse', exact: true }).click();
      await page
        .getByRole('alert')
        .filter({ hasText: /line 5/ })
        .waitFor();
    }));

  it('uploads a statement and proposes its series, most confident first, in words and local dates', () =>
    step(page, 'detect-proposals', async () => {
      await file('statement.ofx', writeStatement(first.transactions, 'ofx'));
      await page.getByLabel('Format').selectOption({ label: 'Recognise automatically' });
      await page.getByRole('button', { name: 'Analyse', exact: true }).click();
      await status(`${first.transactions.length} transactions read`);
      for (const series of first.truth) {
        const shown = card(series.payee);
        await shown.waitFor();
        const summary = (await shown.getByText(/next payment/).textContent())!;
        expect(summary).toContain(inWords(series.period));
        // Dates as the browser's locale writes them, not as the API sends them.
        expect(summary).not.toMatch(/\d{4}-\d{2}-\d{2}/);
        expect((await shown.getByRole('heading').textContent())!.includes('stopped')).toBe(!series.ongoing);
      }
      expect(await page.getByRole('main').textContent()).not.toMatch(/every 1 /i);
      const confidences = (await page.getByRole('article').allTextContents()).map((text) =>
        Number(/(\d+)% confidence/.exec(text)![1]),
      );
      expect(confidences).toEqual([...confidences].sort((a, b) => b - a));

      // The past payments, behind a disclosure.
      const payments = card(accepted.payee).getByRole('table', { name: new RegExp(`^Payments to`, 'i') });
      expect(await payments.isVisible()).toBe(false);
      await card(accepted.payee)
        .getByText(/^Payment history: \d+ payments?/)
        .click();
      await payments.waitFor();
      expect(await payments.getByRole('row').count()).toBeGreaterThan(2);
      expect(await accessibilityProblems(page)).toEqual([]);
    }));

  it('accepts a proposal, which becomes a record in the subscriptions list', () =>
    step(page, 'detect-accept', async () => {
      const shown = card(accepted.payee);
      const product = await shown
        .getByText(/^Catalogue product: /)
        .textContent({ timeout: 1000 })
        .catch(() => null);
      const payee = (await shown.getByRole('heading').textContent())!.replace(/ (stopped|already tracked).*$/, '');
      const recordName = product?.replace('Catalogue product: ', '') ?? payee.trim();
      await button('Accept', accepted.payee).click();
      await status('1 record added');
      expect(await shown.count()).toBe(0);
      await page.getByRole('link', { name: 'See your subscriptions' }).click();
      await page.getByRole('heading', { level: 1, name: 'Subscriptions' }).waitFor();
      await page.getByRole('rowheader', { name: recordName, exact: true }).waitFor();
    }));

  it('shows the open proposals again, and dismisses one after asking', () =>
    step(page, 'detect-dismiss', async () => {
      await open('Find subscriptions');
      await card(dismissed.payee).waitFor();
      expect(await card(accepted.payee).count()).toBe(0);

      page.once('dialog', (dialog) => void dialog.dismiss());
      await button('Dismiss', dismissed.payee).click();
      expect(await card(dismissed.payee).count()).toBe(1);

      page.once('dialog', (dialog) => void dialog.accept());
      await button('Dismiss', dismissed.payee).click();
      await status(/: dismissed$/);
      expect(await card(dismissed.payee).count()).toBe(0);

      await page.reload();
      await page.getByRole('heading', { level: 1, name: 'Find subscriptions' }).waitFor();
      await card(together1.payee).waitFor();
      expect(await card(dismissed.payee).count()).toBe(0);
      expect(await card(accepted.payee).count()).toBe(0);
    }));

  it('accepts the selected proposals together', () =>
    step(page, 'detect-accept-selected', async () => {
      for (const series of [together1, together2])
        await page.getByRole('checkbox', { name: new RegExp(`^Select ${escape(series.payee)}$`, 'i') }).check();
      await page.getByRole('button', { name: 'Accept selected (2)' }).click();
      await status('2 records added');
      expect(await card(together1.payee).count()).toBe(0);
      expect(await card(together2.payee).count()).toBe(0);
    }));

  it('asks for the columns of an unknown CSV layout, then proposes its series', () =>
    step(page, 'detect-mapping', async () => {
      const other = statement(11);
      await file('export.csv', writeStatement(other.transactions, 'csv', 'unknown'));
      await page.getByRole('button', { name: 'Analyse', exact: true }).click();
      const form = page.getByRole('form', { name: 'Choose the columns' });
      await form.getByRole('heading', { name: 'Choose the columns' }).waitFor();
      const sample = form.getByRole('table', { name: "The statement's first rows" });
      expect(await sample.getByRole('row').count()).toBeGreaterThan(1);
      const header = await sample.getByRole('columnheader').allTextContents();
      const [date, payee, amount] = header.length > 0 ? header : ['Column 1', 'Column 2', 'Column 3'];
      expect(await form.getByLabel('Default currency').inputValue()).toBe('USD');
      expect(await accessibilityProblems(page)).toEqual([]);

      await form.getByLabel('Date', { exact: true }).selectOption({ label: date });
      await form.getByLabel('Payee', { exact: true }).selectOption({ label: payee });
      await form.getByLabel('Amount (signed)').selectOption({ label: amount });
      await form.getByRole('button', { name: 'Analyse with these columns' }).click();
      await status(/\d+ transactions? read/);
      expect(await form.count()).toBe(0);
      const fresh = other.truth.filter((series) => !decided.has(series.payee.toLowerCase()));
      expect(fresh.length).toBeGreaterThan(0);
      for (const series of fresh) await card(series.payee).waitFor();
      expect(await accessibilityProblems(page)).toEqual([]);
    }));
});
