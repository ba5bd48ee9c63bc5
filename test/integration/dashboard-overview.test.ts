import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';

import { accessibilityProblems, describeInBrowser, launchBrowser, offlinePage, step } from '../support/browser';
import { graphqlData, mutation, type SignedUpUser, signUp, startTestApp, type TestApp } from '../support/test-app';
import { daysFromToday, today } from '../support/test-clock';
import { until } from '../support/wait';

/**
 * Issue 43's Overview (the first screen after login) and Statistics in Chromium: the call to add a first
 * record; the month's planned, paid and still due; the next payments with their logos; an overdue payment
 * marked paid and the figures following; budget bars; the statistics' charts and the tables of their numbers.
 * Every screen passes axe in light and dark, sends nothing off the origin, and fits 390 px.
 */
describeInBrowser('the overview and statistics in Chromium', () => {
  let testApp: TestApp;
  let browser: Browser;
  let page: Page;
  let outside: string[];
  let refusedByPolicy: string[];
  let empty: SignedUpUser;
  let user: SignedUpUser;
  let category: string;
  /** Gym's uploaded logo (a path on the origin); the other records show monograms. */
  let gymLogo: string;

  // Monthly Gym (30.00, overdue three days), monthly Streamio (10.00, due today), yearly Cloud Drive (5.50,
  // in ten days): the month plans Gym and Streamio, and Cloud Drive when ten days from now is still this month.
  const cloudThisMonth = daysFromToday(10).slice(0, 7) === today().slice(0, 7);
  const plannedCents = 3000 + 1000 + (cloudThisMonth ? 550 : 0);
  const dollars = (cents: number) =>
    new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(cents / 100);
  const monthName = (offset: number) => {
    const [year, month] = today().split('-').map(Number);
    return new Intl.DateTimeFormat('en-US', { month: 'short', year: 'numeric', timeZone: 'UTC' }).format(
      new Date(Date.UTC(year, month - 1 + offset, 1)),
    );
  };

  /** Uploads a small PNG as a record's logo; answers the path it is served at. */
  async function uploadLogo(who: SignedUpUser, id: string): Promise<string> {
    const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#0a7' } })
      .png()
      .toBuffer();
    const uploaded = await testApp.http
      .post('/graphql')
      .set('authorization', `Bearer ${who.token}`)
      .field(
        'operations',
        JSON.stringify({
          query: 'mutation($input: UploadLogoInput!) { uploadLogo(input: $input) { logo userErrors { message } } }',
          variables: { input: { id, file: null } },
        }),
      )
      .field('map', JSON.stringify({ 0: ['variables.input.file'] }))
      .attach('0', png, 'logo.png');
    expect(uploaded.body.data.uploadLogo.userErrors).toEqual([]);
    return uploaded.body.data.uploadLogo.logo as string;
  }

  beforeAll(async () => {
    testApp = await startTestApp();
    [empty, user] = [await signUp(testApp), await signUp(testApp)];
    const { me, productCategories } = await graphqlData(
      testApp,
      user.token,
      '{ me { baseCurrency } productCategories { id name } }',
    );
    expect(me.baseCurrency).toBe('USD');
    category = productCategories[0].name;
    const visa = await mutation(testApp, user.token, 'createPaymentMode', { name: 'Visa' }, 'paymentMode { id }');
    const record = (productName: string, price: string, billingCycle: string, paymentDate: string, more = {}) =>
      mutation(
        testApp,
        user.token,
        'createSubscription',
        { productName, price, currency: 'USD', type: 'SUBSCRIPTION', billingCycle, paymentDate, ...more },
        'subscription { id }',
      );
    const paid = { paymentModeId: visa.paymentMode.id };
    const made = [
      await record('Gym', '30.00', 'MONTHLY', daysFromToday(-3), { ...paid, categoryId: productCategories[0].id }),
      await record('Streamio', '10.00', 'MONTHLY', today(), paid),
      await record('Cloud Drive', '5.50', 'YEARLY', daysFromToday(10)),
    ];
    expect(made.map((answer) => answer.userErrors)).toEqual([[], [], []]);
    gymLogo = await uploadLogo(user, made[0].subscription.id);
    // Gym shared half and half with Sam in a household.
    const home = await mutation(
      testApp,
      user.token,
      'createHousehold',
      { name: 'Home' },
      'household { members { id } }',
    );
    const sam = await mutation(testApp, user.token, 'addHouseholdMember', { name: 'Sam' }, 'householdMember { id }');
    const [owner] = home.household.members;
    const shared = await mutation(
      testApp,
      user.token,
      'shareSubscription',
      {
        id: made[0].subscription.id,
        payerMemberId: owner.id,
        shares: [{ memberId: owner.id }, { memberId: sam.householdMember.id }],
      },
      'subscription { id }',
    );
    expect(shared.userErrors).toEqual([]);
    expect((await mutation(testApp, user.token, 'setBudget', { amount: '50.00' }, 'budget { id }')).userErrors).toEqual(
      [],
    );
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

  /** Logs out through the page, and waits for the sign-in form (the token is gone once it shows). */
  async function logOut() {
    await page.getByRole('button', { name: 'Log out' }).click();
    await page.getByRole('form', { name: 'Log in' }).waitFor();
  }
  async function logIn(who: SignedUpUser) {
    await page.goto(`${testApp.baseUrl}/`);
    const form = page.getByRole('form', { name: 'Log in' });
    await form.getByLabel('E-mail').fill(who.email);
    await form.getByLabel('Password').fill(who.password);
    await form.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
  }
  /** axe in the light and the dark theme, and nothing wider than a 390 px phone, then back to 1280 px. */
  async function checkEverywhere() {
    for (const theme of ['light', 'dark']) {
      await page.evaluate(`document.documentElement.dataset.theme = ${JSON.stringify(theme)}`);
      expect([theme, ...(await accessibilityProblems(page))]).toEqual([theme]);
    }
    await page.setViewportSize({ width: 390, height: 844 });
    const overflowing = () =>
      page.evaluate<string[]>(
        `[...document.querySelectorAll('body *')]
          .filter((element) => element.getBoundingClientRect().right > document.documentElement.clientWidth + 1)
          .map((element) => element.outerHTML.slice(0, 80))`,
      );
    // The charts follow their box's new width a frame after it changed.
    await until(async () => (await overflowing()).length === 0, 'nothing wider than the phone').catch(() => undefined);
    expect(await overflowing()).toEqual([]);
    expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.evaluate('delete document.documentElement.dataset.theme');
  }
  const figures = async () =>
    (await page.getByTestId('month-figures').locator('div').allInnerTexts()).map((text) => text.replace(/\s+/g, ' '));

  it('asks a user without records to add the first, and takes them to the form', () =>
    step(page, 'overview-empty', async () => {
      await logIn(empty);
      const navigation = page.getByRole('navigation', { name: 'Screens' });
      expect((await navigation.getByRole('link').allInnerTexts()).slice(0, 2)).toEqual(['Overview', 'Subscriptions']);
      await page.getByRole('heading', { level: 2, name: 'No subscriptions yet' }).waitFor();
      await checkEverywhere();
      await page.getByRole('link', { name: 'Add your first subscription' }).click();
      await page.getByRole('heading', { level: 1, name: 'Subscriptions' }).waitFor();
      expect(new URL(page.url()).hash).toBe('#/subscriptions/new');
      // The add form is open; closing it leaves the list's address, so a reload does not open it again.
      const form = page.getByRole('form', { name: 'Add a subscription' });
      await form.waitFor();
      await form.getByRole('button', { name: 'Close' }).click();
      await form.waitFor({ state: 'detached' });
      expect(new URL(page.url()).hash).toBe('#/subscriptions');
      await logOut();
    }));

  it('shows the month’s figures, what is overdue and next, the budget, and the totals', () =>
    step(page, 'overview-figures', async () => {
      await logIn(user);
      await page.getByTestId('month-figures').waitFor();
      expect(await figures()).toEqual([
        `Planned ${dollars(plannedCents)}`,
        `Paid ${dollars(0)}`,
        `Still due ${dollars(plannedCents)}`,
      ]);
      // 30 + 10 a month, 5.50 a year: 40.46 a month (5.50 / 12 rounded), 485.50 a year.
      expect(await page.getByTestId('overview-totals').innerText()).toBe('$40.46 a month · $485.50 a year');
      const next = page.getByRole('list', { name: 'Next payments' }).getByRole('listitem');
      expect(await next.locator('strong').allInnerTexts()).toEqual(['Streamio', 'Cloud Drive', 'Gym']);
      expect(await next.locator('.logo').count()).toBe(3);
      // The uploaded logo, from the origin, wherever Gym is shown; monograms for the others.
      expect(
        await next.locator('img.logo').evaluateAll((images) => images.map((image) => image.getAttribute('src'))),
      ).toEqual([gymLogo]);
      const overdue = page.getByRole('list', { name: 'Overdue' }).getByRole('listitem');
      expect(await overdue.locator('strong').allInnerTexts()).toEqual(['Gym']);
      expect(await overdue.locator('.payment-amount').innerText()).toBe('$30.00');
      expect(await overdue.locator('img.logo').getAttribute('src')).toBe(gymLogo);
      const budget = page.getByRole('list', { name: 'Budgets this month' }).getByRole('listitem');
      expect(await budget.innerText()).toMatch(/^All records\s+\$0\.00 of \$50\.00$/);
      await checkEverywhere();
    }));

  it('marks an overdue payment paid, and the figures and the budget follow', () =>
    step(page, 'overview-mark-paid', async () => {
      await page.getByRole('button', { name: /^Mark paid: Gym due .+$/ }).click();
      await page.getByRole('status').filter({ hasText: 'Gym: paid' }).waitFor();
      await page.getByText('Nothing overdue: every past payment is marked paid or skipped.').waitFor();
      expect(await figures()).toEqual([
        `Planned ${dollars(plannedCents)}`,
        `Paid ${dollars(3000)}`,
        `Still due ${dollars(plannedCents - 3000)}`,
      ]);
      const budget = page.getByRole('list', { name: 'Budgets this month' }).getByRole('listitem');
      expect(await budget.innerText()).toMatch(/^All records\s+\$30\.00 of \$50\.00$/);
      const { paymentEntries } = await graphqlData(
        testApp,
        user.token,
        `{ paymentEntries(filter: { status: PAID }) { nodes { productName paidAmount { amount } paidAt } } }`,
      );
      expect(paymentEntries.nodes).toEqual([{ productName: 'Gym', paidAmount: { amount: '30.00' }, paidAt: today() }]);
    }));

  /** The table's rows as their cells' texts. */
  const rows = (testId: string) =>
    page
      .getByTestId(testId)
      .locator('tbody tr')
      // A logo's monogram is decoration (aria-hidden): the name beside it is the cell's text.
      .evaluateAll((trs) =>
        trs.map((tr) =>
          [...tr.children].map((cell) => {
            const text = cell.cloneNode(true) as typeof cell;
            for (const logo of text.querySelectorAll('.logo')) logo.remove();
            return (text.textContent ?? '').trim();
          }),
        ),
      );

  it('charts the months, the year ahead in parts, the most expensive records and the budget, each with its numbers', () =>
    step(page, 'statistics', async () => {
      await page.getByRole('navigation', { name: 'Screens' }).getByRole('link', { name: 'Statistics' }).click();
      await page.getByTestId('months-table').waitFor();
      const months = await rows('months-table');
      expect(months).toHaveLength(23);
      expect(months[0]).toEqual([monthName(-11), dollars(0), dollars(0)]);
      expect(months[11]).toEqual([monthName(0), dollars(3000), dollars(plannedCents)]);
      // Next month: Gym and Streamio, and Cloud Drive when its day falls in it.
      expect(months[12]).toEqual([monthName(1), '—', dollars(4000 + (cloudThisMonth ? 0 : 550))]);
      // The year ahead: Gym 12 × 30, Streamio 12 × 10, Cloud Drive once.
      expect(await rows('category-table')).toEqual([
        [category, dollars(36000), '74 %'],
        [expect.any(String), dollars(12550), '26 %'],
      ]);
      expect(await rows('payment-method-table')).toEqual([
        ['Visa', dollars(48000), '99 %'],
        ['No payment method', dollars(550), '1 %'],
      ]);
      expect(await rows('expensive-table')).toEqual([
        ['Gym', dollars(36000), dollars(3000)],
        ['Streamio', dollars(12000), dollars(1000)],
        ['Cloud Drive', dollars(550), dollars(46)],
      ]);
      expect(await page.getByTestId('expensive-table').locator('.logo').count()).toBe(3);
      expect(await page.getByTestId('expensive-table').locator('img.logo').getAttribute('src')).toBe(gymLogo);
      // The last 12 months: 12 × the 50.00 budget against the 30.00 paid.
      expect(await rows('budgets-table')).toEqual([['All records', dollars(60000), dollars(3000), dollars(57000)]]);
      expect(await rows('member-table')).toEqual([
        ['Test User', dollars(18000), '50 %'],
        ['Sam', dollars(18000), '50 %'],
      ]);
      const charts = page.locator('canvas[role="img"]');
      expect(
        await charts.evaluateAll((canvases) => canvases.map((canvas) => canvas.getAttribute('aria-label'))),
      ).toEqual([
        expect.stringContaining('Bar chart: what was paid in each of the last 12 months'),
        'Donut chart: Next 12 months by category; the numbers are in the table below.',
        'Donut chart: Next 12 months by payment method; the numbers are in the table below.',
        'Donut chart: Next 12 months by household member; the numbers are in the table below.',
        expect.stringContaining('Bar chart: each budget over the last 12 months'),
      ]);
      // Drawn: chart.js sized each canvas to its box.
      await until(
        async () => (await charts.evaluateAll((canvases) => canvases.every((canvas) => canvas.width > 0))) === true,
        'the charts drawn',
      );
      await checkEverywhere();
    }));

  it('shows the logo of an overdue record that is not due next, and speaks German', () =>
    step(page, 'overview-overdue-logo', async () => {
      // A yearly record three days overdue: its next payment is a year off, out of the next payments.
      const yearly = await signUp(testApp);
      const domain = await mutation(
        testApp,
        yearly.token,
        'createSubscription',
        {
          productName: 'Domain',
          price: '12.00',
          currency: 'USD',
          type: 'SUBSCRIPTION',
          billingCycle: 'YEARLY',
          paymentDate: daysFromToday(-3),
        },
        'subscription { id }',
      );
      const logo = await uploadLogo(yearly, domain.subscription.id);
      await logOut();
      await logIn(yearly);
      await page.getByText('Nothing due in the next 30 days.').waitFor();
      const overdue = page.getByRole('list', { name: 'Overdue' }).getByRole('listitem');
      expect(await overdue.locator('strong').allInnerTexts()).toEqual(['Domain']);
      await overdue.locator('img.logo').waitFor();
      expect(await overdue.locator('img.logo').getAttribute('src')).toBe(logo);

      // In German once the profile says so: the overview and the statistics.
      const german = await mutation(testApp, yearly.token, 'updateProfile', { language: 'DE' }, 'user { language }');
      expect(german.userErrors).toEqual([]);
      await page.reload();
      await page.getByRole('heading', { level: 1, name: 'Übersicht' }).waitFor();
      await page.getByTestId('month-figures').waitFor();
      expect((await figures()).map((figure) => figure.split(' ')[0])).toEqual(['Geplant', 'Bezahlt', 'Noch']);
      await page.getByRole('button', { name: /^Als bezahlt markieren: Domain, fällig am / }).waitFor();
      await page.getByText('In den nächsten 30 Tagen ist nichts fällig.').waitFor();
      expect(await accessibilityProblems(page)).toEqual([]);
      await page.getByRole('navigation', { name: 'Ansichten' }).getByRole('link', { name: 'Statistik' }).click();
      await page.getByRole('heading', { level: 2, name: 'Bezahlt und geplant nach Monat' }).waitFor();
      await page.getByText('Sie gehören noch keinem Haushalt an.').waitFor();
      expect(await accessibilityProblems(page)).toEqual([]);
    }));
});
