import { ownedRowsDigest } from '../support/hardening';
import { createSubscription } from '../support/subscriptions';
import { graphql, graphqlData, type SignedUpUser, signUp, sql, startTestApp, type TestApp } from '../support/test-app';

/**
 * Issue 20's money parts: price history (a price from a date on), the payment ledger (what was paid) and
 * budgets, with spendingSummary's planned, paid and budget figures checked against totals worked out by hand.
 */
let testApp: TestApp;
let now = new Date('2026-03-10T12:00:00Z');

beforeAll(async () => {
  testApp = await startTestApp({}, { clock: () => now });
});
afterAll(() => testApp.close());

const gqlErrors = async (token: string, query: string, variables?: Record<string, unknown>) =>
  (await graphql(testApp, token, query, variables)).body.errors as Array<{
    message: string;
    extensions: { code: string; errors?: Record<string, string[]> };
  }>;

const SUMMARY = `query($from: LocalDate, $to: LocalDate, $groupBy: SpendingGroupBy) {
  spendingSummary(from: $from, to: $to, groupBy: $groupBy) {
    baseCurrency from to monthlyTotal yearlyTotal periodTotal plannedTotal paidTotal monthlyBudget budget
    groups { key label count monthlyTotal periodTotal plannedTotal paidTotal budget }
  }
}`;
const summary = async (user: SignedUpUser, from: string, to: string, groupBy = 'CATEGORY') =>
  (await graphqlData(testApp, user.token, SUMMARY, { from, to, groupBy })).spendingSummary;

const CHANGE = `mutation($id: Int!, $price: String!, $from: LocalDate!) {
  changePrice(id: $id, price: $price, effectiveFrom: $from) { id price currency priceHistory { effectiveFrom price currency } }
}`;
const history = async (user: SignedUpUser, id: number) =>
  (
    await graphqlData(
      testApp,
      user.token,
      'query($id: Int!) { subscription(id: $id) { price priceHistory { effectiveFrom price currency } } }',
      { id },
    )
  ).subscription;

describe('price history', () => {
  let ann: SignedUpUser;
  let monthly: number;

  beforeAll(async () => {
    ann = await signUp(testApp, 'Ann Prices');
    monthly = Number((await createSubscription(testApp, ann.token, { price: '10.00', payment_date: '2026-01-15' })).id);
    await createSubscription(testApp, ann.token, { price: '120.00', payment_date: '2026-02-01', billing_cycle: '4' });
  });

  it('shows one step for a record whose price never changed', async () => {
    expect(await history(ann, monthly)).toEqual({
      price: '10.00',
      priceHistory: [{ effectiveFrom: '2026-01-15', price: '10.00', currency: 'USD' }],
    });
  });

  it('keeps a future change for its day: the price stays, the planned year pays each payment at its own price', async () => {
    const changed = (await graphqlData(testApp, ann.token, CHANGE, { id: monthly, price: '12.50', from: '2026-07-01' }))
      .changePrice;
    expect(changed).toEqual({
      id: monthly,
      price: '10.00',
      currency: 'USD',
      priceHistory: [
        { effectiveFrom: '2026-01-15', price: '10.00', currency: 'USD' },
        { effectiveFrom: '2026-07-01', price: '12.50', currency: 'USD' },
      ],
    });
    // By hand: Jan-Jun 6 × 10.00 + Jul-Dec 6 × 12.50 = 135.00; the yearly record pays 120.00 once (Feb 1).
    const year = await summary(ann, '2026-01-01', '2026-12-31');
    expect(year).toMatchObject({
      periodTotal: '255.00',
      plannedTotal: '255.00',
      paidTotal: '0.00',
      monthlyTotal: '20.00',
      monthlyBudget: null,
      budget: null,
    });
    const months = await summary(ann, '2026-06-01', '2026-07-31', 'MONTH');
    expect(months.groups.map((group: { key: string; periodTotal: string }) => [group.key, group.periodTotal])).toEqual([
      ['2026-06', '10.00'],
      ['2026-07', '12.50'],
    ]);
  });

  it('applies a change from a past date at once, and an edit of the price corrects the step in effect today', async () => {
    expect(
      (await graphqlData(testApp, ann.token, CHANGE, { id: monthly, price: '11.00', from: '2026-02-01' })).changePrice
        .price,
    ).toBe('11.00');
    // Jan 10.00 + Feb-Jun 5 × 11.00 + Jul-Dec 6 × 12.50 + 120.00
    expect((await summary(ann, '2026-01-01', '2026-12-31')).periodTotal).toBe('260.00');
    const edited = await testApp.http
      .put(`/api/v1/subscriptions/${monthly}`)
      .set('authorization', `Bearer ${ann.token}`)
      .type('form')
      .send({ price: '10.50' });
    expect(edited.status).toBe(200);
    expect((await history(ann, monthly)).priceHistory).toEqual([
      { effectiveFrom: '2026-01-15', price: '10.00', currency: 'USD' },
      { effectiveFrom: '2026-02-01', price: '10.50', currency: 'USD' },
      { effectiveFrom: '2026-07-01', price: '12.50', currency: 'USD' },
    ]);
    // Jan 10.00 + Feb-Jun 5 × 10.50 + Jul-Dec 6 × 12.50 + 120.00
    expect((await summary(ann, '2026-01-01', '2026-12-31')).periodTotal).toBe('257.50');
  });

  it("lets the sweep apply a step when its day comes, with the record's subscription.updated event", async () => {
    const events = async () =>
      Number(
        (
          await sql<{ n: string }>(
            testApp,
            `select count(*) as "n" from "webhook_events" where "subscription_id" = ? and "topic" = 'subscription.updated'`,
            [monthly],
          )
        )[0].n,
      );
    const before = await events();
    now = new Date('2026-07-01T12:00:00Z');
    try {
      expect(await testApp.app.services.subscriptions.applyDuePrices()).toBe(1);
      expect(await testApp.app.services.subscriptions.applyDuePrices()).toBe(0);
      const record = await testApp.http
        .get(`/api/v1/subscriptions/${monthly}`)
        .set('authorization', `Bearer ${ann.token}`);
      // The original's record shape: one record in an array, its price a number.
      expect(record.body).toEqual([expect.objectContaining({ id: monthly, price: 12.5, base_value: '12.50' })]);
      expect(await events()).toBe(before + 1);
    } finally {
      now = new Date('2026-03-10T12:00:00Z');
    }
  });

  it("refuses a bad price, a date before the first payment, a one-time purchase and another user's record, changing nothing", async () => {
    const once = Number(
      (await createSubscription(testApp, ann.token, { recurring: '0', payment_date: '2026-03-01' })).id,
    );
    const digest = await ownedRowsDigest(testApp, ann.id);
    const bad = await gqlErrors(ann.token, CHANGE, { id: monthly, price: '-3', from: '2026-08-01' });
    expect(bad[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', errors: { price: [expect.any(String)] } });
    const early = await gqlErrors(ann.token, CHANGE, { id: monthly, price: '9.00', from: '2025-12-01' });
    expect(early[0].extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      errors: { effective_from: [expect.any(String)] },
    });
    const oneTime = await gqlErrors(ann.token, CHANGE, { id: once, price: '9.00', from: '2026-04-01' });
    expect(oneTime[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', errors: { price: [expect.any(String)] } });
    const bob = await signUp(testApp, 'Bob Prices');
    expect(
      (await gqlErrors(bob.token, CHANGE, { id: monthly, price: '1.00', from: '2026-08-01' }))[0].extensions.code,
    ).toBe('NOT_FOUND');
    expect(await ownedRowsDigest(testApp, ann.id)).toBe(digest);
  });
});

const ENTRIES = `query($filter: PaymentEntryFilter) {
  paymentEntries(filter: $filter) { id subscriptionId productName dueDate expectedAmount currency status paidAmount paidAt note }
}`;
const PAID = `mutation($id: Int!, $amount: String, $paidAt: LocalDate, $note: String) {
  markPaid(entryId: $id, amount: $amount, paidAt: $paidAt, note: $note) { id status paidAmount paidAt note expectedAmount }
}`;

describe('payment ledger', () => {
  let cleo: SignedUpUser;
  let record: number;
  const entries = async (filter: Record<string, unknown> = {}) =>
    (await graphqlData(testApp, cleo.token, ENTRIES, { filter })).paymentEntries;

  beforeAll(async () => {
    cleo = await signUp(testApp, 'Cleo Ledger');
    record = Number((await createSubscription(testApp, cleo.token, { price: '15.49', payment_date: '2026-01-31' })).id);
    // Made on the frozen clock's day (the row's creation time is the real clock's).
    await sql(testApp, `update "subscriptions" set "created_at" = '2026-03-10 12:00:00' where "id" = ?`, [record]);
  });

  it('holds each payment from the one of the period the record was made in through the next one due', async () => {
    expect(await entries()).toEqual([
      {
        id: expect.any(Number),
        subscriptionId: record,
        productName: expect.any(String),
        dueDate: '2026-02-28',
        expectedAmount: '15.49',
        currency: 'USD',
        status: 'PENDING',
        paidAmount: null,
        paidAt: null,
        note: null,
      },
      expect.objectContaining({
        subscriptionId: record,
        dueDate: '2026-03-31',
        expectedAmount: '15.49',
        status: 'PENDING',
      }),
    ]);
  });

  it('records payments (the expected amount and today unless given) and skips, and spending reports what was paid', async () => {
    const [february, march] = await entries();
    expect((await summary(cleo, '2026-03-01', '2026-03-31')).paidTotal).toBe('0.00');
    expect((await graphqlData(testApp, cleo.token, PAID, { id: february.id })).markPaid).toEqual({
      id: february.id,
      status: 'PAID',
      paidAmount: '15.49',
      paidAt: '2026-03-10',
      note: null,
      expectedAmount: '15.49',
    });
    const late = (
      await graphqlData(testApp, cleo.token, PAID, {
        id: march.id,
        amount: '16.5',
        paidAt: '2026-03-30',
        note: 'price rose',
      })
    ).markPaid;
    expect(late).toMatchObject({ status: 'PAID', paidAmount: '16.50', paidAt: '2026-03-30', note: 'price rose' });
    // 15.49 + 16.50, both paid in March; the planned figure stays what the record plans (one payment on Mar 31).
    const march2026 = await summary(cleo, '2026-03-01', '2026-03-31');
    expect(march2026).toMatchObject({ paidTotal: '31.99', periodTotal: '15.49' });
    expect(march2026.groups).toEqual([
      expect.objectContaining({ paidTotal: '31.99', periodTotal: '15.49', plannedTotal: '15.49', budget: null }),
    ]);
    expect((await summary(cleo, '2026-02-01', '2026-02-28')).paidTotal).toBe('0.00');
    expect((await summary(cleo, '2026-03-01', '2026-03-31', 'MONTH')).groups).toEqual([
      expect.objectContaining({ key: '2026-03', paidTotal: '31.99' }),
    ]);
    const skipped = (
      await graphqlData(
        testApp,
        cleo.token,
        'mutation($id: Int!) { markSkipped(entryId: $id, note: "refunded") { status paidAmount paidAt note } }',
        {
          id: march.id,
        },
      )
    ).markSkipped;
    expect(skipped).toEqual({ status: 'SKIPPED', paidAmount: null, paidAt: null, note: 'refunded' });
    expect((await summary(cleo, '2026-03-01', '2026-03-31')).paidTotal).toBe('15.49');
    expect((await entries({ status: 'SKIPPED' })).map((entry: { id: number }) => entry.id)).toEqual([march.id]);
  });

  it('is extended by the sweep as dates roll, once, and loses the pending entries not yet due when the record ends', async () => {
    now = new Date('2026-08-05T12:00:00Z');
    try {
      await testApp.app.services.subscriptions.rollNextPaymentDates();
      expect(await testApp.app.services.ledger.sweep()).toBeGreaterThanOrEqual(1);
      expect(await testApp.app.services.ledger.sweep()).toBe(0);
      const stored = async () =>
        (
          await sql<{ due_date: string }>(
            testApp,
            `select to_char("due_date", 'YYYY-MM-DD') as "due_date" from "payment_entries" where "subscription_id" = ? order by 1`,
            [record],
          )
        ).map((row) => row.due_date);
      expect(await stored()).toEqual([
        '2026-02-28',
        '2026-03-31',
        '2026-04-30',
        '2026-05-31',
        '2026-06-30',
        '2026-07-31',
        '2026-08-31',
      ]);
      const cancelled = await testApp.http
        .post(`/api/v1/subscriptions/${record}/cancel`)
        .set('authorization', `Bearer ${cleo.token}`);
      expect(cancelled.status).toBe(200);
      // Aug 31 was not due yet: it goes; the payments already due stay, to be marked.
      expect(
        (await entries()).map((entry: { dueDate: string; status: string }) => [entry.dueDate, entry.status]),
      ).toEqual([
        ['2026-02-28', 'PAID'],
        ['2026-03-31', 'SKIPPED'],
        ['2026-04-30', 'PENDING'],
        ['2026-05-31', 'PENDING'],
        ['2026-06-30', 'PENDING'],
        ['2026-07-31', 'PENDING'],
      ]);
    } finally {
      now = new Date('2026-03-10T12:00:00Z');
    }
  });

  it("refuses a bad amount and another user's entry, changing nothing", async () => {
    const [first] = await entries();
    const digest = await ownedRowsDigest(testApp, cleo.id);
    const bad = await gqlErrors(cleo.token, PAID, { id: first.id, amount: '12.345' });
    expect(bad[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', errors: { amount: [expect.any(String)] } });
    const dan = await signUp(testApp, 'Dan Ledger');
    expect((await gqlErrors(dan.token, PAID, { id: first.id }))[0].extensions.code).toBe('NOT_FOUND');
    expect(
      (await gqlErrors(dan.token, 'mutation($id: Int!) { markSkipped(entryId: $id) { id } }', { id: first.id }))[0]
        .extensions.code,
    ).toBe('NOT_FOUND');
    expect((await graphqlData(testApp, dan.token, ENTRIES, {})).paymentEntries).toEqual([]);
    expect(await ownedRowsDigest(testApp, cleo.id)).toBe(digest);
  });
});

const SET_BUDGET = `mutation($amount: String!, $categoryId: Int) { setBudget(input: {amount: $amount, categoryId: $categoryId}) { id categoryId categoryName amount } }`;

describe('budgets', () => {
  let eve: SignedUpUser;
  let categoryId: number;

  beforeAll(async () => {
    eve = await signUp(testApp, 'Eve Budgets');
    [{ id: categoryId }] = await sql<{ id: number }>(
      testApp,
      `select "id" from "product_categories" where "user_id" is null and "id" <> 1 order by "id" limit 1`,
    );
    await createSubscription(testApp, eve.token, {
      price: '40.00',
      payment_date: '2026-01-05',
      category_id: String(categoryId),
    });
  });

  it('sets an overall and a category budget, and spending reports them over the range, a partial month by its days', async () => {
    const overall = (await graphqlData(testApp, eve.token, SET_BUDGET, { amount: '100' })).setBudget;
    expect(overall).toEqual({ id: expect.any(Number), categoryId: null, categoryName: null, amount: '100.00' });
    const replaced = (await graphqlData(testApp, eve.token, SET_BUDGET, { amount: '90.5' })).setBudget;
    expect(replaced).toEqual({ ...overall, amount: '90.50' });
    const category = (await graphqlData(testApp, eve.token, SET_BUDGET, { amount: '30', categoryId })).setBudget;
    expect(category).toEqual({ id: expect.any(Number), categoryId, categoryName: expect.any(String), amount: '30.00' });
    expect((await graphqlData(testApp, eve.token, '{ budgets { categoryId amount } }')).budgets).toEqual([
      { categoryId: null, amount: '90.50' },
      { categoryId, amount: '30.00' },
    ]);
    const march = await summary(eve, '2026-03-01', '2026-03-31');
    expect(march).toMatchObject({ monthlyBudget: '90.50', budget: '90.50', plannedTotal: '40.00' });
    expect(march.groups).toEqual([
      expect.objectContaining({ key: String(categoryId), budget: '30.00', periodTotal: '40.00' }),
    ]);
    // March whole (90.50) + 15 of April's 30 days (45.25); the category: 30.00 + 15.00.
    const spring = await summary(eve, '2026-03-01', '2026-04-15');
    expect(spring).toMatchObject({ budget: '135.75' });
    expect(spring.groups[0].budget).toBe('45.00');
    expect(
      (await summary(eve, '2026-03-01', '2026-03-31', 'FOLDER')).groups.every(
        (group: { budget: null }) => group.budget === null,
      ),
    ).toBe(true);
  });

  it('removes a budget, and refuses a bad amount, an unknown category and a missing budget, changing nothing', async () => {
    expect((await graphqlData(testApp, eve.token, 'mutation { removeBudget }')).removeBudget).toBe(true);
    expect((await summary(eve, '2026-03-01', '2026-03-31')).budget).toBeNull();
    const digest = await ownedRowsDigest(testApp, eve.id);
    expect((await gqlErrors(eve.token, 'mutation { removeBudget }'))[0].extensions.code).toBe('NOT_FOUND');
    expect((await gqlErrors(eve.token, SET_BUDGET, { amount: 'lots' }))[0].extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      errors: { amount: [expect.any(String)] },
    });
    const frank = await signUp(testApp, 'Frank Budgets');
    const [{ id: franksCategory }] = await sql<{ id: number }>(
      testApp,
      `insert into "product_categories" ("name", "user_id") values ('Frank only', ?) returning "id"`,
      [frank.id],
    );
    expect(
      (await gqlErrors(eve.token, SET_BUDGET, { amount: '5', categoryId: franksCategory }))[0].extensions,
    ).toMatchObject({
      code: 'BAD_USER_INPUT',
      errors: { category_id: [expect.any(String)] },
    });
    expect(await ownedRowsDigest(testApp, eve.id)).toBe(digest);
  });
});
