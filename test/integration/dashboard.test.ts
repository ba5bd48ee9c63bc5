import type { Browser, Page } from 'playwright-core';
import { describeInBrowser, launchBrowser, offlinePage, step } from '../support/browser';
import { Receiver } from '../support/receiver';
import { startTestApp, uniqueEmail, type TestApp } from '../support/test-app';
import { until } from '../support/wait';

/** The dashboard driven as its user drives it: every step through the page, every answer from GraphQL. */
describeInBrowser('the dashboard in Chromium', () => {
  let testApp: TestApp;
  let browser: Browser;
  let page: Page;
  let outside: string[];
  const receiver = new Receiver();

  beforeAll(async () => {
    // The receiver is on loopback, which the delivery guard refuses unless told.
    testApp = await startTestApp({ WEBHOOK_ALLOW_PRIVATE: 'true' });
    await receiver.start();
    browser = await launchBrowser();
    ({ page, outside } = await offlinePage(browser, testApp.baseUrl));
  });
  afterAll(async () => {
    await browser?.close();
    await receiver.stop();
    await testApp?.close();
  });
  afterEach(() => expect(outside).toEqual([]));

  const screen = async (name: string) => {
    await page.getByRole('navigation', { name: 'Screens' }).getByRole('link', { name }).click();
    await page.getByRole('heading', { level: 1, name }).waitFor();
  };
  const notice = (text: string) => page.getByRole('status').filter({ hasText: text }).waitFor();
  const row = (name: string) => page.getByRole('row').filter({ has: page.getByRole('rowheader', { name, exact: true }) });

  it('signs up, and the list answers with its totals', () =>
    step(page, 'sign-up', async () => {
      await page.goto(`${testApp.baseUrl}/`);
      await page.getByRole('button', { name: 'Create an account' }).click();
      await page.getByLabel('Name').fill('Dana');
      await page.getByLabel('E-mail').fill(uniqueEmail('dashboard'));
      await page.getByLabel('Password').fill('correct horse battery');
      await page.getByRole('button', { name: 'Create account' }).click();
      await page.getByRole('heading', { level: 1, name: 'Subscriptions' }).waitFor();
      await page.getByText('0 records').waitFor();
      expect(await page.evaluate('document.cookie')).toBe('');
    }));

  it('shows the API’s field errors next to the fields', () =>
    step(page, 'field-errors', async () => {
      await page.getByRole('button', { name: 'Add a subscription' }).click();
      const form = page.getByRole('form', { name: 'Add a subscription' });
      await form.getByLabel('Product').fill('Gym');
      await form.getByLabel('Price').fill('-5');
      await form.getByLabel('First payment').fill('2027-01-31');
      await form.getByRole('button', { name: 'Add' }).click();
      await page.locator('#field-price-errors').waitFor();
      expect(await page.getByLabel('Price').getAttribute('aria-invalid')).toBe('true');
    }));

  it('creates a monthly record on January 31 and the calendar shows February 28', () =>
    step(page, 'create-and-calendar', async () => {
      const form = page.getByRole('form', { name: 'Add a subscription' });
      await form.getByLabel('Price').fill('30.00');
      await form.getByRole('button', { name: 'Add' }).click();
      await notice('Gym: added');
      await row('Gym').waitFor();
      expect(await row('Gym').textContent()).toContain('$30.00');

      await screen('Calendar');
      await page.getByLabel('Month', { exact: true }).fill('2027-02');
      await page.locator('li[data-date="2027-02-28"]').filter({ hasText: 'Gym' }).waitFor();
      expect(await page.locator('li.due').count()).toBe(1);
      await page.getByLabel('Month', { exact: true }).fill('2027-01');
      await page.locator('li[data-date="2027-01-31"]').filter({ hasText: 'Gym' }).waitFor();
    }));

  it('edits the record, and cancelling it changes the spending chart', () =>
    step(page, 'edit-cancel-spending', async () => {
      await screen('Subscriptions');
      await page.getByRole('button', { name: 'Edit Gym' }).click();
      await page.getByRole('form', { name: 'Edit Gym' }).getByLabel('Price').fill('35.00');
      await page.getByRole('button', { name: 'Save' }).click();
      await notice('Gym: saved');
      expect(await row('Gym').textContent()).toContain('$35.00');

      await screen('Spending');
      await page.getByText('$35.00 a month').waitFor();
      const chart = page.getByRole('img', { name: /^Cost by category/ });
      const before = await chart.getAttribute('aria-label');
      expect(before).toContain('$35.00');

      await screen('Subscriptions');
      await page.getByRole('button', { name: 'Cancel Gym' }).click();
      await notice('Gym: cancelled');
      expect(await row('Gym').textContent()).toContain('Cancelled');

      await screen('Spending');
      await page.getByText('$0.00 a month').waitFor();
      expect(await chart.getAttribute('aria-label')).not.toBe(before);
    }));

  it('adds a webhook endpoint, and the next change shows as a delivery in the log', () =>
    step(page, 'webhooks', async () => {
      await screen('Webhooks');
      await page.getByLabel('Endpoint URL').fill(receiver.url);
      await page.getByRole('button', { name: 'Add endpoint' }).click();
      await notice(`Endpoint added: ${receiver.url}`);
      expect(await page.locator('.secret code').textContent()).toMatch(/^whsec_/);

      await screen('Subscriptions');
      await page.getByRole('button', { name: 'Add a subscription' }).click();
      const form = page.getByRole('form', { name: 'Add a subscription' });
      await form.getByLabel('Product').fill('Cloud backup');
      await form.getByLabel('Price').fill('7');
      await form.getByLabel('First payment').fill('2027-03-01');
      await form.getByRole('button', { name: 'Add' }).click();
      await notice('Cloud backup: added');
      await receiver.waitFor(1);

      await screen('Webhooks');
      const log = page.getByRole('table', { name: 'Delivery log' });
      await until(async () => {
        await page.getByRole('button', { name: 'Refresh' }).click();
        await notice('Refreshed');
        return (await log.getByRole('row').filter({ hasText: 'subscription.created' }).filter({ hasText: 'SUCCEEDED' }).count()) === 1;
      }, 'the delivery to show as SUCCEEDED');
      await log.getByRole('button', { name: 'Redeliver' }).click();
      await notice('Sent again');
      await receiver.waitFor(2);
    }));
});
