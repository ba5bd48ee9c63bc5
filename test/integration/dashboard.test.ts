import { readFileSync } from 'node:fs';
import path from 'node:path';

import type { Browser, Page, Request, Route } from 'playwright-core';

import { addDays, endOfMonth, todayIn } from '../../src/platform/dates';
import {
  accessibilityProblems,
  describeInBrowser,
  launchBrowser,
  newClockedContext,
  offlinePage,
  step,
} from '../support/browser';
import { Receiver } from '../support/receiver';
import { MINIMAL, postSubscription, recordId } from '../support/subscriptions';
import { graphql, graphqlData, signUp, startTestApp, type TestApp, uniqueEmail } from '../support/test-app';
import { until } from '../support/wait';

/** The build's registered operations: every query and mutation the dashboard's screens send. */
const operations = Object.values(
  JSON.parse(readFileSync(path.join(__dirname, '../../dist/dashboard/persisted-operations.json'), 'utf8')) as Record<
    string,
    string
  >,
);

describe('the dashboard’s operations', () => {
  let testApp: TestApp;
  beforeAll(async () => {
    testApp = await startTestApp();
  });
  afterAll(() => testApp?.close());

  it('each passes the server’s validation: the schema, and its depth and cost limits', async () => {
    expect(operations.length).toBeGreaterThan(40);
    const { token } = await signUp(testApp);
    for (const text of operations) {
      // Without its variables: an operation that passes validation is refused for them (or runs), not before.
      const response = await graphql(testApp, token, text, {});
      const refused = ((response.body.errors ?? []) as Array<{ message: string; extensions?: { code?: string } }>)
        .filter((error) => ['GRAPHQL_VALIDATION_FAILED', 'GRAPHQL_PARSE_FAILED'].includes(error.extensions?.code ?? ''))
        .map((error) => `${/^\s*\w+\s+(\w+)/.exec(text)?.[1]}: ${error.message}`);
      expect(refused).toEqual([]);
    }
  });
});

/** The dashboard driven as its user drives it: every step through the page, every answer from GraphQL. */
describeInBrowser('the dashboard in Chromium', () => {
  let testApp: TestApp;
  let browser: Browser;
  let page: Page;
  let outside: string[];
  let refusedByPolicy: string[];
  const receiver = new Receiver();
  // From the test clock: January 31 of last year (a monthly record from it is next due within a month, on
  // any day) and the February after it; March 1 of next year.
  const thisYear = Number(todayIn('UTC').slice(0, 4));
  const [january31, february, march1] = [`${thisYear - 1}-01-31`, `${thisYear - 1}-02`, `${thisYear + 1}-03-01`];
  const email = uniqueEmail('dashboard');
  const password = 'correct horse battery';
  /** What each confirmation asked; each is accepted unless a step says otherwise. */
  const confirmations: string[] = [];
  let acceptConfirmations = true;

  beforeAll(async () => {
    // The receivers (webhooks, a fake ntfy) are on loopback, which the delivery guard refuses unless told;
    // notification targets are kept sealed with NOTIFY_SECRET_KEY.
    testApp = await startTestApp({
      WEBHOOK_ALLOW_PRIVATE: 'true',
      NOTIFY_SECRET_KEY: 'dashboard-test-notify-key-0123456789abcdef',
    });
    await receiver.start();
    browser = await launchBrowser();
    ({ page, outside, refusedByPolicy } = await offlinePage(browser, testApp.baseUrl));
    page.on('dialog', (dialog) => {
      confirmations.push(dialog.message());
      void (acceptConfirmations ? dialog.accept() : dialog.dismiss());
    });
  });
  afterAll(async () => {
    await browser?.close();
    await receiver.stop();
    await testApp?.close();
  });
  afterEach(() => {
    expect(outside).toEqual([]);
    expect(refusedByPolicy).toEqual([]);
  });

  /** Opens a screen from the navigation; each screen is checked with axe-core once it has loaded. */
  const screen = async (name: string) => {
    // On a phone the links are folded into the navigation's menu.
    const menu = page.getByRole('button', { name: 'Menu' });
    if ((await menu.isVisible()) && (await menu.getAttribute('aria-expanded')) === 'false') await menu.click();
    await page.getByRole('navigation', { name: 'Screens' }).getByRole('link', { name, exact: true }).click();
    await page.getByRole('heading', { level: 1, name }).waitFor();
    await page.waitForLoadState('networkidle');
    expect(await accessibilityProblems(page)).toEqual([]);
  };
  const notice = (text: string) => page.getByRole('status').filter({ hasText: text }).waitFor();
  /** Opens a record's menu of actions and picks one, by its accessible name. */
  const rowAction = async (record: string, action: string) => {
    await page.getByRole('button', { name: `Actions for ${record}`, exact: true }).click();
    await page.getByRole('button', { name: action, exact: true }).click();
  };
  const row = (name: string) =>
    page.getByRole('row').filter({ has: page.getByRole('rowheader', { name, exact: true }) });
  /** The signed-in user's token, as the dashboard keeps it. */
  const token = async () =>
    (await page.evaluate(
      'sessionStorage.getItem("subledger.token") ?? localStorage.getItem("subledger.token")',
    )) as string;
  /** A page of its own signed in with `token`, at a screen; `prepare` runs before it opens the screen. */
  const pageOf = async (signedIn: string, hash = '', prepare?: (other: Page) => Promise<unknown>) => {
    const context = await newClockedContext(browser);
    const other = await context.newPage();
    // Its confirmations are accepted and kept with the main page's.
    other.on('dialog', (dialog) => {
      confirmations.push(dialog.message());
      void dialog.accept();
    });
    await other.goto(`${testApp.baseUrl}/static/avatar.svg`);
    await other.evaluate(`sessionStorage.setItem("subledger.token", ${JSON.stringify(signedIn)})`);
    await prepare?.(other);
    await other.goto(`${testApp.baseUrl}/${hash}`);
    return { other, context };
  };

  it('signs up, and the list answers with its totals', () =>
    step(page, 'sign-up', async () => {
      await page.goto(`${testApp.baseUrl}/#/subscriptions`);
      await page.getByRole('button', { name: 'Create an account' }).click();
      await page.getByLabel('Name').fill('Dana');
      await page.getByLabel('E-mail').fill(email);
      await page.getByLabel('Password').fill(password);
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
      await form.getByLabel('First payment').fill(january31);
      await form.getByRole('button', { name: 'Add' }).click();
      await page.locator('#field-price-errors').waitFor();
      expect(await page.getByLabel('Price').getAttribute('aria-invalid')).toBe('true');
    }));

  it('creates a monthly record on January 31 and the calendar shows the last day of February', () =>
    step(page, 'create-and-calendar', async () => {
      const form = page.getByRole('form', { name: 'Add a subscription' });
      await form.getByLabel('Price').fill('30.00');
      await form.getByLabel('Tags').fill('fitness');
      await form.getByRole('button', { name: 'Add' }).click();
      await notice('Gym: added');
      await row('Gym').waitFor();
      expect(await row('Gym').textContent()).toContain('$30.00');

      await screen('Calendar');
      await page.getByLabel('Month', { exact: true }).fill(february);
      await page
        .locator(`li[data-date="${endOfMonth(`${february}-01`)}"]`)
        .filter({ hasText: 'Gym' })
        .waitFor();
      expect(await page.locator('li.due').count()).toBe(1);
      await page.getByLabel('Month', { exact: true }).fill(january31.slice(0, 7));
      await page.locator(`li[data-date="${january31}"]`).filter({ hasText: 'Gym' }).waitFor();
    }));

  it('starts the calendar’s weeks on the profile’s day, marks today, totals the month, and records a payment', () =>
    step(page, 'calendar-weeks-and-details', async () => {
      /** The short name of the day `offset` days after a Monday, as the page's locale writes it. */
      const dayName = async (offset: number) =>
        (await page.evaluate(
          `new Intl.DateTimeFormat(navigator.language, { weekday: 'short', timeZone: 'UTC' }).format(new Date(Date.UTC(2024, 0, ${1 + offset})))`,
        )) as string;
      const firstWeekday = async () => (await page.locator('.weekdays span').allTextContents())[0];
      const todayOfPage = await page.evaluate(() => {
        const now = new Date();
        return `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`;
      });
      await page.getByLabel('Month', { exact: true }).fill(todayOfPage.slice(0, 7));
      expect(await firstWeekday()).toBe(await dayName(0));
      await page.locator(`li[data-date="${todayOfPage}"][aria-current="date"]`).waitFor();
      expect(await page.locator('li[aria-current="date"]').count()).toBe(1);
      // Gym is monthly: one payment in any month.
      expect(await page.locator('.totals').textContent()).toBe('1 payment, $30.00 in all');

      await page.getByRole('button', { name: /^Gym, \$30\.00, / }).click();
      const details = page.getByRole('region', { name: /^Gym on / });
      await details.getByText(/· Not paid yet$/).waitFor();
      expect(await accessibilityProblems(page)).toEqual([]);
      await details.getByRole('button', { name: 'Record payment' }).click();
      await notice('Gym: paid');
      await details.getByText(/· Paid$/).waitFor();
      expect(await details.getByRole('button', { name: 'Record payment' }).count()).toBe(0);

      await screen('Profile');
      await page.getByLabel('Weeks start on').selectOption('SUNDAY');
      await page.getByRole('button', { name: 'Save' }).click();
      await notice('Profile saved');
      await screen('Calendar');
      expect(await firstWeekday()).toBe(await dayName(6));
      // The 1st sits under its own weekday: the blanks before it follow the week's first day.
      const blanks = await page.locator('ol.month li.blank').count();
      const header = await page.locator('.weekdays span').allTextContents();
      const firstOfMonth = (await page.evaluate(
        `new Intl.DateTimeFormat(navigator.language, { weekday: 'short', timeZone: 'UTC' }).format(new Date('${todayOfPage.slice(0, 7)}-01T00:00:00Z'))`,
      )) as string;
      expect(header[blanks]).toBe(firstOfMonth);
    }));

  it('lists what is due in the chosen window', () =>
    step(page, 'upcoming', async () => {
      await screen('Upcoming');
      await page.getByLabel('Window').selectOption('90');
      await page.getByRole('listitem').filter({ hasText: 'Gym' }).waitFor();
      expect(await page.locator('.totals').textContent()).toBe('$30.00 due');
    }));

  it('edits the record, and cancelling it changes the spending chart', () =>
    step(page, 'edit-cancel-spending', async () => {
      await screen('Subscriptions');
      await rowAction('Gym', 'Edit Gym');
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
      // Asked first, naming the record: declined, nothing changes; accepted, it is cancelled.
      acceptConfirmations = false;
      await rowAction('Gym', 'Cancel Gym');
      expect(confirmations.at(-1)).toBe('Cancel Gym? It stops renewing, and no more payments are planned.');
      expect(await row('Gym').textContent()).toContain('Active');
      acceptConfirmations = true;
      await rowAction('Gym', 'Cancel Gym');
      await notice('Gym: cancelled');
      expect(await row('Gym').textContent()).toContain('Cancelled');

      await screen('Spending');
      await page.getByText('$0.00 a month').waitFor();
      expect(await chart.getAttribute('aria-label')).not.toBe(before);
    }));

  it('adds an alert, lists the reminders records hold, and deletes the alert', () =>
    step(page, 'alerts', async () => {
      await screen('Subscriptions');
      await page.getByRole('button', { name: 'Add a subscription' }).click();
      const form = page.getByRole('form', { name: 'Add a subscription' });
      await form.getByLabel('Product').fill('Newspaper');
      await form.getByLabel('Price').fill('9');
      await form.getByLabel('First payment').fill(addDays(todayIn('UTC'), 20));
      await form.getByRole('button', { name: 'Add' }).click();
      await notice('Newspaper: added');

      await screen('Alerts');
      const reminder = page
        .getByRole('table', { name: 'Reminders' })
        .getByRole('row')
        .filter({ has: page.getByRole('rowheader', { name: 'Newspaper' }) })
        .first();
      await reminder.waitFor();
      // The ReminderKind and ReminderStatus enums, as words.
      expect(await reminder.textContent()).toMatch(/Payment.*Scheduled$/);
      await page.getByLabel('Alert name').fill('Two weeks ahead');
      await page.getByLabel('Remind this long before').fill('2');
      await page.getByLabel('Unit').selectOption({ label: 'weeks' });
      await page.getByRole('button', { name: 'Add alert' }).click();
      await notice('Alert added: Two weeks ahead');
      await page.getByText('2 weeks before').waitFor();
      await page.getByRole('button', { name: 'Delete Two weeks ahead' }).click();
      await notice('Alert deleted: Two weeks ahead');
      expect(await page.getByText('2 weeks before').count()).toBe(0);
    }));

  it('makes a calendar feed and an inbound token (each shown once), exports, and dry-runs an import', () =>
    step(page, 'integrations', async () => {
      await screen('Integrations');
      await page.getByLabel('Feed name').fill('Phone');
      await page.getByRole('button', { name: 'Add feed' }).click();
      await notice('Calendar feed added');
      const feedUrl = (await page.locator('.secret code').textContent())!.replace('Feed URL (shown once): ', '');
      const feed = await testApp.http.get(new URL(feedUrl).pathname).expect(200);
      expect(feed.text).toContain('SUMMARY:Newspaper');
      await page.getByRole('button', { name: 'Revoke Phone' }).click();
      await notice('Feed revoked');
      expect(confirmations.at(-1)).toBe('Revoke the feed “Phone”? Calendars subscribed to it stop updating.');
      await testApp.http.get(new URL(feedUrl).pathname).expect(404);

      await page.getByRole('button', { name: 'New create token' }).click();
      await notice('create token made');
      expect(await page.locator('.secret code').textContent()).toMatch(
        /^Webhook URL \(shown once\): http:\/\/127\.0\.0\.1:\d+\/webhook\/user\/data\/\S+$/,
      );
      const tokens = page.getByRole('listitem').filter({ hasText: /^create token #\d+/ });
      expect(await tokens.count()).toBe(1);
      await tokens.getByRole('button', { name: /^Revoke token #\d+$/ }).click();
      await notice('Token revoked');
      await tokens.filter({ hasText: '(revoked)' }).waitFor();

      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: 'Download CSV' }).click(),
      ]);
      expect(download.suggestedFilename()).toBe('subscriptions.csv');
      await notice('subscriptions.csv downloaded');

      const csv = `Name,Price,Currency,Billing cycle,Next payment\nMagazine,4.50,USD,Monthly,${february}-01\nBroken,abc,USD,Monthly,${february}-01\n`;
      await page
        .getByLabel('File (at most 10 MB)')
        .setInputFiles({ name: 'records.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
      await page.getByRole('button', { name: 'Import' }).click();
      await notice('Dry run: 1 of 2 rows would be imported');
      const report = page.getByRole('table', { name: 'Import report' });
      expect(await report.getByRole('row').filter({ hasText: 'Magazine' }).textContent()).toContain('Would be created');
      expect(await report.getByRole('row').filter({ hasText: 'Broken' }).textContent()).toContain('Refused');
    }));

  it('changes the base currency in the profile, and totals follow it', () =>
    step(page, 'profile', async () => {
      await screen('Profile');
      await page.getByLabel('Base currency').fill('EUR');
      await page.getByRole('button', { name: 'Save' }).click();
      await notice('Profile saved');
      await screen('Spending');
      await page.getByText(/€[\d.,]+ a month/).waitFor();
    }));

  it('adds a webhook endpoint, and the next change shows as a delivery in the log', () =>
    step(page, 'webhooks', async () => {
      await screen('Webhooks');
      await page.getByLabel('Endpoint URL').fill(receiver.url);
      await page.getByRole('button', { name: 'Add endpoint' }).click();
      await notice(`Endpoint added: ${receiver.url}`);
      const created = await page.locator('.secret code').textContent();
      expect(created).toMatch(/^whsec_/);

      await screen('Subscriptions');
      await page.getByRole('button', { name: 'Add a subscription' }).click();
      const form = page.getByRole('form', { name: 'Add a subscription' });
      await form.getByLabel('Product').fill('Cloud backup');
      await form.getByLabel('Price').fill('7');
      await form.getByLabel('First payment').fill(march1);
      await form.getByRole('button', { name: 'Add' }).click();
      await notice('Cloud backup: added');
      await receiver.waitFor(1);

      await screen('Webhooks');
      const log = page.getByRole('table', { name: 'Delivery log' });
      await until(async () => {
        await page.getByRole('button', { name: 'Refresh' }).click();
        await notice('Refreshed');
        return (
          (await log
            .getByRole('row')
            .filter({ hasText: 'subscription.created' })
            .filter({ hasText: 'Succeeded' })
            .count()) === 1
        );
      }, 'the delivery to show as Succeeded');
      await log.getByRole('button', { name: 'Redeliver' }).click();
      await notice('Sent again');
      await receiver.waitFor(2);

      await page.getByRole('button', { name: 'Rotate secret' }).click();
      await notice('Secret rotated');
      const rotated = await page.locator('.secret code').textContent();
      expect(rotated).toMatch(/^whsec_/);
      expect(rotated).not.toBe(created);
      await page.getByRole('list').filter({ hasText: receiver.url }).getByRole('button', { name: 'Delete' }).click();
      await notice('Endpoint deleted');
      expect(await page.locator('.endpoints').getByText(receiver.url).count()).toBe(0);
    }));

  it('adds an ntfy target, tests it (then a failing test), renames it, sets it on an alert, and deletes it', () =>
    step(page, 'notification-targets', async () => {
      // A fake ntfy server on loopback: records each request, answers its `status`.
      const ntfy = new Receiver();
      await ntfy.start();
      const host = new URL(ntfy.url).host;
      try {
        await screen('Alerts');
        await page.getByLabel('Alert name').fill('Week ahead');
        await page.getByRole('button', { name: 'Add alert' }).click();
        await notice('Alert added: Week ahead');
        await page.getByText('No targets yet.').waitFor();

        // ntfy's own fields; the screen writes ntfy://<host>/<topic> from them.
        const add = page.getByRole('form', { name: 'Add a target' });
        await add.getByLabel('Service').selectOption({ label: 'ntfy' });
        await add.getByLabel('Target name').fill('Phone');
        await add.getByLabel('Server').fill(host);
        await add.getByLabel('Topic').fill('bills-Dana7');
        await add.getByLabel('Use HTTPS').uncheck();
        await add.getByRole('button', { name: 'Add target' }).click();
        await notice('Target added: Phone');
        const targets = page.getByRole('list', { name: 'Notification targets' });
        const target = (name: string) => targets.getByRole('listitem').filter({ hasText: name });
        // Masked: the topic is the secret on a public server.
        expect(await target('Phone').textContent()).toBe(
          `Phone ntfy ntfy://${host}/****Used by no alertSend testEditDelete`,
        );
        expect(await accessibilityProblems(page)).toEqual([]);

        const sendTest = page.getByRole('button', { name: 'Send test to Phone', exact: true });
        expect(await sendTest.textContent()).toBe('Send test');
        await sendTest.click();
        await notice('Test to Phone succeeded (status 200)');
        expect(ntfy.received).toHaveLength(1);
        const [request] = ntfy.received;
        expect([request.method, request.url]).toEqual(['POST', '/']);
        expect(JSON.parse(request.body)).toMatchObject({
          topic: 'bills-Dana7',
          title: 'Subledger: test notification',
          message: expect.stringMatching(/^This is how reminders will read\. .+ is due on /),
        });

        await page.getByRole('button', { name: 'Edit target Phone', exact: true }).click();
        const rename = page.getByRole('form', { name: 'Edit target Phone' });
        await rename.getByLabel('Name', { exact: true }).fill('Pixel');
        await rename.getByRole('button', { name: 'Save', exact: true }).click();
        await rename.waitFor({ state: 'detached' });
        await notice('Target saved: Pixel');
        expect(await target('Phone').count()).toBe(0);
        expect(await target('Pixel').textContent()).toContain(`ntfy://${host}/****`);

        // The alert's own fields, and its targets.
        const alerts = page.getByRole('list', { name: 'Alerts' });
        const alert = alerts.getByRole('listitem').filter({ hasText: 'Week ahead' });
        expect(await alert.textContent()).toContain('3 days before');
        await page.getByRole('button', { name: 'Edit Week ahead', exact: true }).click();
        const edit = page.getByRole('form', { name: 'Edit Week ahead' });
        expect(await edit.getByLabel('Remind this long before').inputValue()).toBe('3');
        expect(await edit.getByLabel('Pixel').isChecked()).toBe(false);
        expect(await accessibilityProblems(page)).toEqual([]);
        await edit.getByLabel('Remind this long before').fill('5');
        await edit.getByLabel('Unit').selectOption({ label: 'weeks' });
        await edit.getByLabel('Pixel').check();
        await edit.getByRole('button', { name: 'Save Week ahead' }).click();
        await edit.waitFor({ state: 'detached' });
        await notice('Alert saved: Week ahead');
        expect(await alert.textContent()).toContain('5 weeks before');
        expect(await alert.textContent()).toContain('Targets: Pixel');
        expect(await target('Pixel').textContent()).toContain('Used by Week ahead');
        // Read back as the server keeps them: the screen opened again, and the alert's form.
        await screen('Subscriptions');
        await screen('Alerts');
        await alert.getByText('Targets: Pixel').waitFor();
        expect(await alert.textContent()).toContain('5 weeks before');
        expect(await target('Pixel').textContent()).toContain('Used by Week ahead');
        await page.getByRole('button', { name: 'Edit Week ahead', exact: true }).click();
        expect(await edit.getByLabel('Pixel').isChecked()).toBe(true);
        expect(await edit.getByLabel('Unit').inputValue()).toBe('WEEKS');
        await edit.getByRole('button', { name: 'Close' }).click();
        await edit.waitFor({ state: 'detached' });

        // The service failing: the outcome says so, with its status.
        ntfy.status = 500;
        await page.getByRole('button', { name: 'Send test to Pixel', exact: true }).click();
        await page.getByRole('alert').filter({ hasText: 'Test to Pixel failed (status 500)' }).waitFor();
        expect(ntfy.received.length).toBeGreaterThanOrEqual(2);
        expect(JSON.parse(ntfy.received[1].body)).toMatchObject({ topic: 'bills-Dana7' });

        // Asked first, by name: dismissed, the target stays; accepted, it goes, and the alert sends to none.
        const asked = confirmations.length;
        acceptConfirmations = false;
        await page.getByRole('button', { name: 'Delete target Pixel', exact: true }).click();
        await until(async () => confirmations.length === asked + 1, 'the delete to be asked');
        expect(confirmations.at(-1)).toBe('Delete the notification target “Pixel”? Alerts no longer send to it.');
        acceptConfirmations = true;
        // Still there once the screen is read again from the server, and in the API.
        await screen('Subscriptions');
        await screen('Alerts');
        await alert.getByText('Targets: Pixel').waitFor();
        expect(await target('Pixel').count()).toBe(1);
        const kept = await graphqlData(testApp, await token(), '{ notificationTargets { name } }');
        expect(kept.notificationTargets).toEqual([{ name: 'Pixel' }]);
        await page.getByRole('button', { name: 'Delete target Pixel', exact: true }).click();
        await notice('Target deleted: Pixel');
        expect(confirmations.length).toBe(asked + 2);
        await page.getByText('No targets yet.').waitFor();
        expect(await alert.textContent()).toContain('No targets chosen');
      } finally {
        acceptConfirmations = true;
        await ntfy.stop();
      }
    }));

  it('adds an add-on, shows tags, and filters and sorts the list', () =>
    step(page, 'addon-filter-sort', async () => {
      await screen('Subscriptions');
      await rowAction('Cloud backup', 'Add an add-on to Cloud backup');
      const form = page.getByRole('form', { name: 'Add an add-on to Cloud backup' });
      await form.getByLabel('Price').fill('2.50');
      await form.getByLabel('First payment').fill(march1);
      await form.getByRole('button', { name: 'Add add-on' }).click();
      await notice('Cloud backup: add-on added');
      await page
        .getByRole('row')
        .filter({ has: page.getByRole('cell', { name: 'Add-on', exact: true }) })
        .filter({ hasText: 'Cloud backup' })
        .waitFor();
      expect(await row('Gym').textContent()).toContain('#fitness');

      await page.getByLabel('Status', { exact: true }).selectOption({ label: 'Cancelled' });
      await page.getByText('1 record ·').waitFor();
      expect(await page.getByRole('rowheader').allTextContents()).toEqual(['Gym']);
      await page.getByLabel('Status', { exact: true }).selectOption('');
      // Add-ons are lifetime purchases unless told.
      await page.getByText('4 records ·').waitFor();
      await page.getByLabel('Type', { exact: true }).selectOption({ label: 'Lifetime' });
      await until(
        async () => (await page.getByRole('rowheader').allTextContents()).join() === 'Cloud backup',
        'the list filtered by type',
      );
      await page.getByText('1 record ·').waitFor();
      await page.getByLabel('Type', { exact: true }).selectOption('');
      await page.getByLabel('Sort by').selectOption('PRICE DESC');
      await page.getByText('4 records ·').waitFor();
      await until(
        async () =>
          (await page.getByRole('rowheader').allTextContents()).join() === 'Gym,Newspaper,Cloud backup,Cloud backup',
        'the list sorted by price',
      );
      await page.getByLabel('Sort by').selectOption('PRODUCT_NAME ASC');
      await until(
        async () => (await page.getByRole('rowheader').first().textContent()) === 'Cloud backup',
        'the list sorted by name',
      );
      // A sortable column's header sorts by it, lowest first, and the other way when clicked again.
      const price = page.getByRole('columnheader', { name: 'Price' });
      const namesInOrder = async () => (await page.getByRole('rowheader').allTextContents()).join();
      await price.getByRole('button').click();
      await until(
        async () =>
          (await price.getAttribute('aria-sort')) === 'ascending' &&
          (await namesInOrder()) === 'Cloud backup,Cloud backup,Newspaper,Gym',
        'the list sorted by price, lowest first',
      );
      await price.getByRole('button').click();
      await until(
        async () =>
          (await price.getAttribute('aria-sort')) === 'descending' &&
          (await namesInOrder()) === 'Gym,Newspaper,Cloud backup,Cloud backup',
        'the list sorted by price, highest first',
      );
      expect(await page.getByLabel('Sort by').inputValue()).toBe('PRICE DESC');
      // Billing as people say it: the add-on is a lifetime purchase, not "Lifetime, Monthly".
      const addon = page.getByRole('row').filter({ has: page.getByRole('cell', { name: 'Add-on', exact: true }) });
      expect(await addon.getByRole('cell').nth(2).textContent()).toBe('Lifetime');
      // Every filter the API has: by tag here.
      await page.getByLabel('Tag', { exact: true }).selectOption({ label: 'fitness' });
      await until(async () => (await namesInOrder()) === 'Gym', 'the list filtered by tag');
      await page.getByLabel('Tag', { exact: true }).selectOption('');
      await page.getByText('4 records ·').waitFor();

      await rowAction('Newspaper', 'Delete Newspaper');
      await notice('Newspaper: deleted');
      expect(confirmations.at(-1)).toBe('Delete Newspaper? You can undo it right after.');
      await page.getByText('3 records ·').waitFor();
      await page.getByRole('status').getByRole('button', { name: 'Undo' }).click();
      await notice('Newspaper: restored');
      await row('Newspaper').waitFor();
    }));

  it('sets a budget, shares a record in a household, and reads the household’s spending', () =>
    step(page, 'budget-household', async () => {
      await screen('Spending');
      const budgetForm = page.getByRole('form', { name: 'Set a budget' });
      await budgetForm.getByLabel('Monthly budget').fill('10.00');
      await budgetForm.getByRole('button', { name: 'Save budget' }).click();
      await notice('Budget saved');
      expect(await row('Everything').textContent()).toContain('€10.00');
      await until(
        async () => ((await page.getByTestId('month-figures').textContent()) ?? '').includes('budget €10.00'),
        'the budget in the month figures',
      );

      await screen('Household');
      await page.getByLabel('Household name').fill('Home');
      await page.getByRole('button', { name: 'Make household' }).click();
      await notice('Household made');
      const memberForm = page.getByRole('form', { name: 'Add a member' });
      await memberForm.getByLabel('Member name').fill('Robin');
      await memberForm.getByRole('button', { name: 'Add member' }).click();
      await notice('Robin added');
      expect(await row('Robin').textContent()).toContain('Name only');
      await page.getByRole('button', { name: 'Share Newspaper' }).click();
      await page.getByRole('form', { name: 'Share Newspaper' }).getByRole('button', { name: 'Save split' }).click();
      await notice('Newspaper: shared');
      expect(await row('Newspaper').textContent()).toContain('Dana pays; Dana $4.50, Robin $4.50');

      await screen('Spending');
      // Each view's total differs from the one before it (my records, the household's, Robin's part of it).
      const total = async (view: string) => {
        const shown = page.getByTestId('spending-total');
        const before = await shown.textContent();
        await page.getByLabel('Whose').selectOption({ label: view });
        await until(async () => (await shown.textContent()) !== before, `the total of ${view}`);
        return Number((await shown.textContent())!.replace(/^€([\d.,]+) a month.*$/, '$1').replace(/,/g, ''));
      };
      const everyone = await total('Home: everyone');
      const robin = await total('Home: Robin');
      expect(robin).toBeGreaterThan(0);
      expect(robin).toBeLessThan(everyone);

      await page.getByRole('button', { name: 'Remove the overall budget' }).click();
      await notice('Budget removed');
      expect(await page.getByRole('table', { name: 'Budgets' }).getByRole('row').count()).toBe(1);
    }));

  it('invites a member by e-mail, who joins with the code, may edit, and leaves; stops sharing', () =>
    step(page, 'household-invitation', async () => {
      const sam = await signUp(testApp, 'Sam');
      await screen('Household');
      const memberForm = page.getByRole('form', { name: 'Add a member' });
      await memberForm.getByLabel('Member name').fill('Sam');
      await memberForm.getByLabel('E-mail (to invite)').fill(sam.email);
      await memberForm.getByRole('button', { name: 'Add member' }).click();
      await notice('Sam added');
      const shown = (await page.locator('.secret code').textContent())!;
      expect(shown).toMatch(/^Invitation code for Sam \(shown once\): \S+$/);
      expect(await row('Sam').textContent()).toContain('Invited');

      // Sam's own dashboard, in another context: the code joins the household, which shows read-only. The
      // screen's first read, answered before the join, reaches the page only after the join has shown: it
      // changes neither the notice nor what the screen shows.
      let release: () => void = () => undefined;
      const released = new Promise<void>((resolve) => (release = resolve));
      let answered: () => void = () => undefined;
      const firstReadAnswered = new Promise<void>((resolve) => (answered = resolve));
      let firstRead: Request | undefined;
      const holdFirstRead = async (route: Route) => {
        if (firstRead || !route.request().postData()?.includes('query Households')) return route.fallback();
        firstRead = route.request();
        const response = await route.fetch();
        answered();
        await released;
        await route.fulfill({ response });
      };
      const { other, context } = await pageOf(sam.token, '#/household', (opening) =>
        opening.route('**/graphql', holdFirstRead),
      );
      try {
        await firstReadAnswered;
        await other.getByLabel('Invitation code').fill(shown.replace(/^.*: /, ''));
        await other.getByRole('button', { name: 'Join', exact: true }).click();
        const joined = other.getByRole('status').filter({ hasText: 'Joined the household' });
        await joined.waitFor();
        const home = other.locator('.card').filter({ hasText: "Home (Dana's, read-only)" });
        await home.getByText(/^Newspaper .*: Dana pays/).waitFor();
        const firstReadDone = other.waitForEvent('requestfinished', (request) => request === firstRead);
        release();
        await firstReadDone;
        // Two frames: the page has read the answer and drawn what it does with it.
        await other.evaluate('new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))');
        expect(await joined.count()).toBe(1);
        expect(await home.getByText(/^Newspaper .*: Dana pays/).count()).toBe(1);

        // The household screen shows what it read when it opened: opened again, Sam has joined.
        await screen('Subscriptions');
        await screen('Household');
        expect(await row('Sam').textContent()).toContain('Joined');
        await page.getByRole('button', { name: 'Let Sam edit' }).click();
        await notice('Sam: may edit');
        expect(await row('Sam').textContent()).toContain('JoinedYes');

        await other.reload();
        await other.locator('.card').filter({ hasText: "Home (Dana's, you may edit)" }).waitFor();
        await other.getByRole('button', { name: 'Leave Home' }).click();
        await other.getByRole('status').filter({ hasText: 'You left Home' }).waitFor();
        expect(confirmations.at(-1)).toBe('Leave Home? Its shared records are no longer yours to see.');
        await other.getByText('None yet.').waitFor();
      } finally {
        release();
        await context.close();
      }

      await page.getByRole('button', { name: 'Stop sharing Newspaper' }).click();
      await notice('Newspaper: not shared');
      expect(await row('Newspaper').textContent()).toContain('Not shared');
      await page.getByRole('button', { name: 'Remove Robin' }).click();
      await notice('Robin removed');
      expect(confirmations.at(-1)).toMatch(/^Remove Robin from the household\?/);
      expect(await row('Robin').count()).toBe(0);
    }));

  it('records a payment of another amount and a price change', () =>
    step(page, 'payments', async () => {
      await screen('Payments');
      const due = addDays(todayIn('UTC'), 20);
      // Short visible labels; the accessible name is whole, its date as the browser's locale (en-US) writes it.
      const dueAsWritten = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: 'UTC' }).format(
        new Date(`${due}T00:00:00Z`),
      );
      await page.getByLabel('Month', { exact: true }).fill(due.slice(0, 7));
      const recordButton = page.getByRole('button', { name: `Record payment of Newspaper due ${dueAsWritten}` });
      expect(await recordButton.textContent()).toBe('Record payment');
      await recordButton.click();
      const form = page.getByRole('form', { name: 'Record a payment' });
      await form.getByLabel('Amount paid').fill('8.50');
      await form.getByRole('button', { name: 'Record payment' }).click();
      await notice('Newspaper: paid');
      expect(await row('Newspaper').textContent()).toContain('Paid$8.50 on');
      await page.getByRole('button', { name: `Skip Newspaper due ${dueAsWritten}` }).click();
      await notice('Newspaper: skipped');
      expect(await row('Newspaper').textContent()).toContain('Skipped—');

      const change = page.getByRole('form', { name: 'Change a price' });
      await change.getByLabel('Record').selectOption({ label: 'Newspaper' });
      await change.getByLabel('New price').fill('11.00');
      await change.getByLabel('From').fill(addDays(todayIn('UTC'), 50));
      await change.getByRole('button', { name: 'Save price change' }).click();
      await notice('Price change saved');
      const history = page.getByRole('table', { name: 'Price history of Newspaper' });
      await until(async () => (await history.getByRole('row').count()) === 3, 'two steps in the price history');
      expect(await history.getByRole('row').last().textContent()).toContain('$11.00');

      // Past a hundred steps, the history is read a page after another.
      const signedIn = await token();
      const { subscriptions } = await graphqlData(
        testApp,
        signedIn,
        '{ subscriptions(first: 1, search: "Newspaper") { nodes { id } } }',
      );
      for (let step = 0; step < 100; step++) {
        const { changePrice } = await graphqlData(
          testApp,
          signedIn,
          'mutation($input: ChangePriceInput!) { changePrice(input: $input) { userErrors { message } } }',
          {
            input: {
              id: subscriptions.nodes[0].id,
              price: `${12 + step}.00`,
              effectiveFrom: addDays(todayIn('UTC'), 60 + step),
            },
          },
        );
        expect(changePrice.userErrors).toEqual([]);
      }
      const labels = await change.getByLabel('Record').locator('option').allTextContents();
      await change.getByLabel('Record').selectOption({ label: labels.find((label) => label !== 'Newspaper')! });
      await change.getByLabel('Record').selectOption({ label: 'Newspaper' });
      await until(async () => (await history.getByRole('row').count()) === 103, 'a hundred and two steps');
      expect(await history.getByRole('row').last().textContent()).toContain('$111.00');
    }));

  it('opens the add form once its choices are read, so a choice made at once stays', () =>
    step(page, 'add-form-waits', async () => {
      let release: () => void = () => undefined;
      const released = new Promise<void>((resolve) => (release = resolve));
      const holdChoices = async (route: Route) => {
        if (route.request().postData()?.includes('query RecordChoices')) await released;
        await route.fallback();
      };
      await page.route('**/graphql', holdChoices);
      try {
        // The screen reads its choices as it opens; the form, opened before they come, waits for them.
        const open = async (name: string) => {
          await page.getByRole('navigation', { name: 'Screens' }).getByRole('link', { name, exact: true }).click();
          await page.getByRole('heading', { level: 1, name }).waitFor();
        };
        await open('Upcoming');
        await open('Subscriptions');
        await page.getByRole('button', { name: 'Add a subscription' }).click();
        await page.locator('[aria-busy="true"]').filter({ hasText: 'Loading…' }).waitFor();
        expect(await page.getByRole('form', { name: 'Add a subscription' }).count()).toBe(0);
        release();
        const form = page.getByRole('form', { name: 'Add a subscription' });
        // The base currency (EUR by now) is the new record's, first among the choices.
        expect(await form.getByLabel('Currency').inputValue()).toBe('EUR');
        expect((await form.getByLabel('Currency').locator('option').allTextContents())[0]).toBe('EUR');
        await form.getByRole('button', { name: 'Close' }).click();
      } finally {
        release();
        await page.unroute('**/graphql', holdChoices);
      }
    }));

  it('refunds a record', () =>
    step(page, 'refund', async () => {
      await screen('Subscriptions');
      await page.getByRole('button', { name: 'Add a subscription' }).click();
      const form = page.getByRole('form', { name: 'Add a subscription' });
      await form.getByLabel('Product').fill('Music');
      await form.getByLabel('Price').fill('11.99');
      // New records are in the base currency (EUR by now) unless another is picked.
      await form.getByLabel('Currency').selectOption('USD');
      await form.getByLabel('Type').selectOption({ label: 'Trial' });
      await form.getByLabel('Billing cycle').selectOption({ label: 'Yearly' });
      await form.getByLabel('First payment').fill(addDays(todayIn('UTC'), -3));
      await form.getByRole('button', { name: 'Add' }).click();
      await notice('Music: added');
      // The enums as words: RecordType TRIAL, BillingCycle YEARLY, RecordStatus ACTIVE.
      expect(await row('Music').textContent()).toMatch(/\$11\.99.*Yearly, trial.*Active/);
      await rowAction('Music', 'Refund Music');
      await notice('Music: refunded');
      expect(confirmations.at(-1)).toMatch(/^Mark Music refunded\?/);
      expect(await row('Music').textContent()).toContain('Refunded');
      // A refunded record's menu offers no refund (nor cancel) any more.
      await page.getByRole('button', { name: 'Actions for Music', exact: true }).click();
      await page.getByRole('button', { name: 'Delete Music', exact: true }).waitFor();
      expect(await page.getByRole('button', { name: 'Refund Music' }).count()).toBe(0);
      expect(await page.getByRole('button', { name: 'Cancel Music' }).count()).toBe(0);
      await page.keyboard.press('Escape');
      expect(await page.getByRole('button', { name: 'Delete Music' }).count()).toBe(0);
    }));

  it('keeps a price and currency set while the catalogue was still being asked', () =>
    step(page, 'record-form-own-values', async () => {
      let release: () => void = () => undefined;
      const released = new Promise<void>((resolve) => (release = resolve));
      let held = false;
      const holdSuggestions = async (route: Route) => {
        if (route.request().postData()?.includes('query ProductSuggestions')) {
          held = true;
          await released;
        }
        await route.fallback();
      };
      await screen('Subscriptions');
      await page.route('**/graphql', holdSuggestions);
      try {
        await page.getByRole('button', { name: 'Add a subscription' }).click();
        const form = page.getByRole('form', { name: 'Add a subscription' });
        await form.getByLabel('Product').fill('Netflix Standard');
        await until(async () => held, 'the catalogue asked');
        await form.getByLabel('Price').fill('12.99');
        await form.getByLabel('Currency').selectOption('GBP');
        release();
        // The catalogue's answer has come once its products are offered; the billing it knows is filled in.
        await form.locator('#catalogue option[value="Netflix Standard"]').waitFor({ state: 'attached' });
        expect(await form.getByLabel('Price').inputValue()).toBe('12.99');
        expect(await form.getByLabel('Currency').inputValue()).toBe('GBP');
        await form.getByRole('button', { name: 'Close' }).click();
      } finally {
        release();
        await page.unroute('**/graphql', holdSuggestions);
      }
    }));

  it('fills a catalogue pick in, keeps every field the form sets, and clones a record', () =>
    step(page, 'record-form-fields', async () => {
      const signedIn = await token();
      const { products } = await graphqlData(
        testApp,
        signedIn,
        '{ products(first: 50) { nodes { name price { amount currency } billingCycle billingFrequency categoryId } } }',
      );
      const known = new Set<string>((await graphqlData(testApp, signedIn, '{ currencies }')).currencies);
      // A product the catalogue prices in another currency than the base one (EUR by now).
      const product = (
        products.nodes as Array<{ name: string; price: { amount: string; currency: string } | null }>
      ).find((node) => node.price && node.price.currency !== 'EUR' && known.has(node.price.currency)) as Record<
        string,
        any
      >;
      await screen('Subscriptions');
      await page.getByRole('button', { name: 'Add a subscription' }).click();
      const form = page.getByRole('form', { name: 'Add a subscription' });
      // The base currency (the profile's, EUR by now) comes first, and is the one chosen.
      await until(
        async () => (await form.getByLabel('Currency').locator('option').first().textContent()) === 'EUR',
        'the base currency first',
      );
      expect(await form.getByLabel('Currency').inputValue()).toBe('EUR');
      await form.getByLabel('Product').fill(product.name);
      await until(
        async () => (await form.getByLabel('Price').inputValue()) === product.price.amount,
        'the catalogue price filled in',
      );
      expect(await form.getByLabel('Currency').inputValue()).toBe(product.price.currency);
      expect(await form.getByLabel('Billing cycle').inputValue()).toBe(product.billingCycle);
      expect(await form.getByLabel('Category').inputValue()).toBe(product.categoryId);
      await form.getByLabel('First payment').fill(addDays(todayIn('UTC'), -3));
      await form.getByLabel('Alert').selectOption({ label: 'No alert' });
      await form.getByLabel('Rating').selectOption('8');
      await form.getByLabel('Contract ends').fill(addDays(todayIn('UTC'), 200));
      await form.getByLabel('Notice (days)').fill('30');
      await form.getByLabel('Discount voucher').fill('WELCOME');
      await form.getByLabel('Notes').fill('Family plan');
      await form.getByRole('button', { name: 'Add' }).click();
      await notice(`${product.name}: added`);

      const { subscriptions } = await graphqlData(
        testApp,
        signedIn,
        `query($search: String) { subscriptions(first: 5, search: $search) { nodes { id price { amount currency } billingCycle
          note rating contractExpiry contractNoticeDays discountVoucher category { id } alerts { id } } } }`,
        { search: product.name },
      );
      expect(subscriptions.nodes).toEqual([
        {
          id: expect.any(String),
          price: product.price,
          billingCycle: product.billingCycle,
          note: 'Family plan',
          rating: 8,
          contractExpiry: addDays(todayIn('UTC'), 200),
          contractNoticeDays: 30,
          discountVoucher: 'WELCOME',
          category: { id: product.categoryId },
          alerts: [],
        },
      ]);
      // Editing shows what was set.
      await rowAction(product.name, `Edit ${product.name}`);
      const edit = page.getByRole('form', { name: `Edit ${product.name}` });
      await edit.getByLabel('Notes').waitFor();
      expect(await edit.getByLabel('Notes').inputValue()).toBe('Family plan');
      expect(await edit.getByLabel('Rating').inputValue()).toBe('8');
      expect(await edit.getByLabel('Notice (days)').inputValue()).toBe('30');
      expect(await accessibilityProblems(page)).toEqual([]);
      await edit.getByRole('button', { name: 'Close' }).click();

      // A clone starts from every field of the record, its product too, and is a record of its own.
      await rowAction(product.name, `Clone ${product.name}`);
      const clone = page.getByRole('form', { name: `Clone ${product.name}` });
      await clone.getByLabel('Notes').waitFor();
      expect(await clone.getByLabel('Notes').inputValue()).toBe('Family plan');
      expect(await clone.getByLabel('Currency').inputValue()).toBe(product.price.currency);
      await clone.getByLabel('Price').fill('1.00');
      await clone.getByRole('button', { name: 'Add' }).click();
      // The notice reads as the first add's did: the form closing is what says the clone is made.
      await clone.waitFor({ state: 'detached' });
      await notice(`${product.name}: added`);
      const both = await graphqlData(
        testApp,
        signedIn,
        'query($search: String) { subscriptions(first: 5, search: $search) { nodes { id price { amount } note product { id } } } }',
        { search: product.name },
      );
      expect(both.subscriptions.nodes).toHaveLength(2);
      const [first, second] = both.subscriptions.nodes as Array<Record<string, any>>;
      expect(first.id).not.toBe(second.id);
      expect(first.product.id).toBe(second.product.id);
      expect([first.price.amount, second.price.amount].sort()).toEqual(['1.00', product.price.amount].sort());
      expect([first.note, second.note]).toEqual(['Family plan', 'Family plan']);
    }));

  it('shows a record another client makes through REST on the open list, without a reload', () =>
    step(page, 'live-records', async () => {
      await screen('Subscriptions');
      const totals = page.locator('.totals');
      const count = Number((await totals.textContent())!.split(' ')[0]);
      // A mark the page holds until it is loaded again.
      await page.evaluate('window.subledgerNotReloaded = true');

      const response = await postSubscription(testApp, await token(), {
        ...MINIMAL,
        price: '3.33',
        payment_date: addDays(todayIn('UTC'), 5),
      });
      expect([response.status, response.body]).toEqual([200, expect.anything()]);
      const { node } = await graphqlData<{ node: { productName: string } }>(
        testApp,
        await token(),
        'query($id: ID!) { node(id: $id) { ... on SubscriptionRecord { productName } } }',
        { id: recordId(response.body.subscription.id) },
      );
      await page.getByText(`${count + 1} records ·`).waitFor();
      expect(await row(node.productName).textContent()).toContain('$3.33');
      expect(await page.evaluate('window.subledgerNotReloaded')).toBe(true);
    }));

  it('reads well in dark mode and on a phone, and formats money in the browser’s locale', () =>
    step(page, 'dark-phone-locale', async () => {
      await page.emulateMedia({ colorScheme: 'dark' });
      await page.setViewportSize({ width: 390, height: 844 });
      await screen('Subscriptions');
      await screen('Spending');
      const token = await page.evaluate('sessionStorage.getItem("subledger.token")');
      const german = await newClockedContext(browser, { locale: 'de-DE' });
      const other = await german.newPage();
      await other.goto(`${testApp.baseUrl}/static/avatar.svg`);
      await other.evaluate(`sessionStorage.setItem("subledger.token", ${JSON.stringify(token)})`);
      await other.goto(`${testApp.baseUrl}/#/subscriptions`);
      await other.getByRole('rowheader', { name: 'Gym', exact: true }).waitFor();
      expect(await other.getByRole('row').filter({ hasText: 'Gym' }).textContent()).toContain('35,00\u00a0$');
      await german.close();

      // The profile's theme wins over the device's (dark here), kept across a reload; SYSTEM follows the device.
      const background = () => page.evaluate('getComputedStyle(document.body).backgroundColor');
      expect(await background()).toBe('rgb(18, 18, 28)');
      const chooseTheme = async (theme: string) => {
        await screen('Profile');
        await page.getByLabel('Theme').selectOption(theme);
        await page.getByRole('button', { name: 'Save' }).click();
        await notice('Profile saved');
      };
      await chooseTheme('LIGHT');
      expect(await background()).toBe('rgb(255, 255, 255)');
      expect(await accessibilityProblems(page)).toEqual([]);
      await page.reload();
      await page.getByRole('heading', { level: 1, name: 'Profile' }).waitFor();
      expect(await background()).toBe('rgb(255, 255, 255)');
      await chooseTheme('SYSTEM');
      expect(await background()).toBe('rgb(18, 18, 28)');
      await screen('Spending');
      // Back to a desktop's width, where the navigation shows every link.
      await page.setViewportSize({ width: 1280, height: 720 });
    }));

  it('logs out (revoking the token), refuses a wrong password, and logs in again to the same records', () =>
    step(page, 'logout-login', async () => {
      const before = await token();
      await page.getByRole('button', { name: 'Log out' }).click();
      await page.getByRole('heading', { level: 2, name: 'Log in' }).waitFor();
      expect(await token()).toBeNull();
      const revoked = await fetch(`${testApp.baseUrl}/api/v1/subscriptions`, {
        headers: { authorization: `Bearer ${before}` },
      });
      expect(revoked.status).toBe(401);
      await page.getByLabel('E-mail').fill(email);
      await page.getByLabel('Password').fill('not the password');
      await page.getByRole('button', { name: 'Log in' }).click();
      await page.getByRole('alert').waitFor();
      await page.getByLabel('Password').fill(password);
      await page.getByRole('button', { name: 'Log in' }).click();
      // Back on the screen the address names (the last one open).
      await page.getByRole('heading', { level: 1, name: 'Spending' }).waitFor();
      await screen('Subscriptions');
      await row('Gym').waitFor();
      expect(await token()).not.toBeNull();
      // Not asked to stay signed in: a new tab asks to log in.
      const tab = await page.context().newPage();
      await tab.goto(`${testApp.baseUrl}/`);
      await tab.getByRole('heading', { level: 2, name: 'Log in' }).waitFor();
      await tab.close();
    }));

  it('keeps a sign-in on this device when asked, for every new tab, until it logs out', () =>
    step(page, 'keep-signed-in', async () => {
      await page.getByRole('button', { name: 'Log out' }).click();
      await page.getByLabel('E-mail').fill(email);
      await page.getByLabel('Password').fill(password);
      await page.getByLabel('Keep me signed in on this device').check();
      await page.getByRole('button', { name: 'Log in' }).click();
      await screen('Subscriptions');
      const tab = await page.context().newPage();
      await tab.goto(`${testApp.baseUrl}/#/subscriptions`);
      await tab.getByRole('rowheader', { name: 'Gym', exact: true }).waitFor();
      const kept = (await tab.evaluate('localStorage.getItem("subledger.token")')) as string | null;
      expect(kept).not.toBeNull();
      await tab.getByRole('button', { name: 'Log out' }).click();
      await tab.getByRole('heading', { level: 2, name: 'Log in' }).waitFor();
      expect(await tab.evaluate('localStorage.getItem("subledger.token")')).toBeNull();
      const revoked = await fetch(`${testApp.baseUrl}/api/v1/subscriptions`, {
        headers: { authorization: `Bearer ${kept}` },
      });
      expect(revoked.status).toBe(401);
      await tab.close();
    }));
});
