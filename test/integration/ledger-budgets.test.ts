import { toGlobalId } from '../../src/platform/graphql/global-ids';
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
    baseCurrency from to
    monthlyTotal { amount currency } yearlyTotal { amount currency } periodTotal { amount currency }
    plannedTotal { amount currency } paidTotal { amount currency } monthlyBudget { amount currency } budget { amount currency }
    groups {
      key label count monthlyTotal { amount currency } periodTotal { amount currency } plannedTotal { amount currency }
      paidTotal { amount currency } budget { amount currency }
    }
  }
}`;

type Money = { amount: string; currency: string };
/** Every Money of an object (not its lists) as its amount, each checked to be in `currency`. */
function amountsIn(currency: string, object: Record<string, unknown>): Record<string, any> {
  return Object.fromEntries(
    Object.entries(object).map(([key, value]) => {
      if (value === null || typeof value !== 'object' || Array.isArray(value)) return [key, value];
      expect(value).toEqual({ amount: expect.stringMatching(/^-?\d+\.\d{2}$/), currency });
      return [key, (value as Money).amount];
    }),
  );
}
/** A summary with its Money fields as their amounts (each checked to be in the base currency). */
const summary = async (
  user: SignedUpUser,
  from: string,
  to: string,
  groupBy = 'CATEGORY',
): Promise<Record<string, any>> => {
  const answer = (await graphqlData(testApp, user.token, SUMMARY, { from, to, groupBy })).spendingSummary;
  const base = answer.baseCurrency;
  return {
    ...amountsIn(base, answer),
    groups: answer.groups.map((group: Record<string, unknown>) => amountsIn(base, group)),
  };
};

const usd = (amount: string): Money => ({ amount, currency: 'USD' });
const PRICE_HISTORY = 'priceHistory { totalCount nodes { effectiveFrom price { amount currency } } }';
const CHANGE_MUTATION = `mutation($input: ChangePriceInput!) {
  changePrice(input: $input) {
    subscription { id price { amount currency } ${PRICE_HISTORY} }
    userErrors { field code message }
  }
}`;
/** changePrice of a record by its numeric id: `{ id, price, from }`. */
const change = (token: string, variables: { id: number; price: string; from: string }) =>
  graphql(testApp, token, CHANGE_MUTATION, {
    input: {
      id: toGlobalId('SubscriptionRecord', variables.id),
      price: variables.price,
      effectiveFrom: variables.from,
    },
  });
/** A record's price and its price history's steps (the whole history on one page). */
const stepsOf = (record: { price: Money; priceHistory: { totalCount: number; nodes: unknown[] } }) => {
  expect(record.priceHistory.totalCount).toBe(record.priceHistory.nodes.length);
  return { ...record, priceHistory: record.priceHistory.nodes };
};
const changed = async (user: SignedUpUser, variables: { id: number; price: string; from: string }) => {
  const answer = await change(user.token, variables);
  if (answer.body.errors) throw new Error(JSON.stringify(answer.body.errors));
  expect(answer.body.data.changePrice.userErrors).toEqual([]);
  return stepsOf(answer.body.data.changePrice.subscription);
};
const history = async (user: SignedUpUser, id: number) =>
  stepsOf(
    (
      await graphqlData(
        testApp,
        user.token,
        `query($id: ID!) { subscription(id: $id) { price { amount currency } ${PRICE_HISTORY} } }`,
        { id: toGlobalId('SubscriptionRecord', id) },
      )
    ).subscription,
  );

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
      price: usd('10.00'),
      priceHistory: [{ effectiveFrom: '2026-01-15', price: usd('10.00') }],
    });
  });

  it('keeps a future change for its day: the price stays, the planned year pays each payment at its own price', async () => {
    expect(await changed(ann, { id: monthly, price: '12.50', from: '2026-07-01' })).toEqual({
      id: toGlobalId('SubscriptionRecord', monthly),
      price: usd('10.00'),
      priceHistory: [
        { effectiveFrom: '2026-01-15', price: usd('10.00') },
        { effectiveFrom: '2026-07-01', price: usd('12.50') },
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
    expect((await changed(ann, { id: monthly, price: '11.00', from: '2026-02-01' })).price).toEqual(usd('11.00'));
    // Jan 10.00 + Feb-Jun 5 × 11.00 + Jul-Dec 6 × 12.50 + 120.00
    expect((await summary(ann, '2026-01-01', '2026-12-31')).periodTotal).toBe('260.00');
    const edited = await testApp.http
      .put(`/api/v1/subscriptions/${monthly}`)
      .set('authorization', `Bearer ${ann.token}`)
      .type('form')
      .send({ price: '10.50' });
    expect(edited.status).toBe(200);
    expect((await history(ann, monthly)).priceHistory).toEqual([
      { effectiveFrom: '2026-01-15', price: usd('10.00') },
      { effectiveFrom: '2026-02-01', price: usd('10.50') },
      { effectiveFrom: '2026-07-01', price: usd('12.50') },
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
    /** A refusal: in the payload's userErrors (on its input field) and in the error's extensions. */
    const refused = async (token: string, variables: { id: number; price: string; from: string }) => {
      const { body } = await change(token, variables);
      expect(body.data.changePrice.subscription).toBeNull();
      return { userErrors: body.data.changePrice.userErrors, extensions: body.errors[0].extensions };
    };
    const bad = await refused(ann.token, { id: monthly, price: '-3', from: '2026-08-01' });
    expect(bad.extensions).toMatchObject({ code: 'BAD_USER_INPUT', errors: { price: [expect.any(String)] } });
    expect(bad.userErrors).toEqual([
      { field: ['input', 'price'], code: 'BAD_USER_INPUT', message: bad.extensions.errors.price[0] },
    ]);
    const early = await refused(ann.token, { id: monthly, price: '9.00', from: '2025-12-01' });
    expect(early.extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      errors: { effective_from: [expect.any(String)] },
    });
    expect(early.userErrors).toEqual([
      { field: ['input', 'effectiveFrom'], code: 'BAD_USER_INPUT', message: expect.any(String) },
    ]);
    const oneTime = await refused(ann.token, { id: once, price: '9.00', from: '2026-04-01' });
    expect(oneTime.extensions).toMatchObject({ code: 'BAD_USER_INPUT', errors: { price: [expect.any(String)] } });
    const bob = await signUp(testApp, 'Bob Prices');
    const foreign = await refused(bob.token, { id: monthly, price: '1.00', from: '2026-08-01' });
    expect(foreign.extensions.code).toBe('NOT_FOUND');
    expect(foreign.userErrors).toEqual([{ field: [], code: 'NOT_FOUND', message: expect.any(String) }]);
    expect(await ownedRowsDigest(testApp, ann.id)).toBe(digest);
  });
});

const ENTRY_FIELDS = `id legacyId subscriptionId productName dueDate expectedAmount { amount currency } status
  paidAmount { amount currency } paidAt note`;
const ENTRIES = `query($filter: PaymentEntryFilter, $first: Int, $after: String, $last: Int, $before: String) {
  paymentEntries(filter: $filter, first: $first, after: $after, last: $last, before: $before) {
    totalCount pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
    edges { cursor node { id } }
    nodes { ${ENTRY_FIELDS} }
  }
}`;
const PAID = `mutation($input: MarkPaidInput!) {
  markPaid(input: $input) {
    paymentEntry { id status paidAmount { amount currency } paidAt note expectedAmount { amount currency } }
    userErrors { field code message }
  }
}`;
const SKIPPED = `mutation($input: MarkSkippedInput!) {
  markSkipped(input: $input) { paymentEntry { status paidAmount { amount } paidAt note } userErrors { field code message } }
}`;
const NODE = `query($id: ID!) {
  node(id: $id) { __typename id legacyId ... on PaymentEntry { dueDate status } ... on Budget { amount { amount currency } } }
}`;

interface EntryNode {
  id: string;
  legacyId: number;
  dueDate: string;
  status: string;
}

describe('payment ledger', () => {
  let cleo: SignedUpUser;
  let record: number;
  const page = async (variables: Record<string, unknown> = {}, user = cleo) =>
    (await graphqlData(testApp, user.token, ENTRIES, variables)).paymentEntries;
  const entries = async (filter: Record<string, unknown> = {}): Promise<EntryNode[]> => (await page({ filter })).nodes;

  beforeAll(async () => {
    cleo = await signUp(testApp, 'Cleo Ledger');
    record = Number((await createSubscription(testApp, cleo.token, { price: '15.49', payment_date: '2026-01-31' })).id);
    // Made on the frozen clock's day (the row's creation time is the real clock's).
    await sql(testApp, `update "subscriptions" set "created_at" = '2026-03-10 12:00:00' where "id" = ?`, [record]);
  });

  it('holds each payment from the one of the period the record was made in through the next one due', async () => {
    const answer = await page();
    expect(answer.totalCount).toBe(2);
    expect(answer.pageInfo).toEqual({
      hasNextPage: false,
      hasPreviousPage: false,
      startCursor: answer.edges[0].cursor,
      endCursor: answer.edges[1].cursor,
    });
    expect(answer.edges.map((edge: { node: { id: string } }) => edge.node.id)).toEqual(
      answer.nodes.map((node: EntryNode) => node.id),
    );
    const [{ id: february }] = await sql<{ id: number }>(
      testApp,
      `select "id" from "payment_entries" where "subscription_id" = ? order by "due_date" limit 1`,
      [record],
    );
    expect(answer.nodes).toEqual([
      {
        id: toGlobalId('PaymentEntry', february),
        legacyId: february,
        subscriptionId: toGlobalId('SubscriptionRecord', record),
        productName: expect.any(String),
        dueDate: '2026-02-28',
        expectedAmount: { amount: '15.49', currency: 'USD' },
        status: 'PENDING',
        paidAmount: null,
        paidAt: null,
        note: null,
      },
      expect.objectContaining({
        subscriptionId: toGlobalId('SubscriptionRecord', record),
        dueDate: '2026-03-31',
        expectedAmount: { amount: '15.49', currency: 'USD' },
        status: 'PENDING',
      }),
    ]);
    const byRecord = await entries({ subscriptionId: toGlobalId('SubscriptionRecord', record) });
    expect(byRecord.map((entry) => entry.dueDate)).toEqual(['2026-02-28', '2026-03-31']);
  });

  it('records payments (the expected amount and today unless given) and skips, and spending reports what was paid', async () => {
    const [february, march] = await entries();
    expect((await summary(cleo, '2026-03-01', '2026-03-31')).paidTotal).toBe('0.00');
    expect((await graphqlData(testApp, cleo.token, PAID, { input: { id: february.id } })).markPaid).toEqual({
      paymentEntry: {
        id: february.id,
        status: 'PAID',
        paidAmount: { amount: '15.49', currency: 'USD' },
        paidAt: '2026-03-10',
        note: null,
        expectedAmount: { amount: '15.49', currency: 'USD' },
      },
      userErrors: [],
    });
    const late = (
      await graphqlData(testApp, cleo.token, PAID, {
        input: { id: march.id, amount: '16.5', paidAt: '2026-03-30', note: 'price rose' },
      })
    ).markPaid;
    expect(late.paymentEntry).toMatchObject({
      status: 'PAID',
      paidAmount: { amount: '16.50', currency: 'USD' },
      paidAt: '2026-03-30',
      note: 'price rose',
    });
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
    const skipped = (await graphqlData(testApp, cleo.token, SKIPPED, { input: { id: march.id, note: 'refunded' } }))
      .markSkipped;
    expect(skipped).toEqual({
      paymentEntry: { status: 'SKIPPED', paidAmount: null, paidAt: null, note: 'refunded' },
      userErrors: [],
    });
    expect((await summary(cleo, '2026-03-01', '2026-03-31')).paidTotal).toBe('15.49');
    expect((await entries({ status: 'SKIPPED' })).map((entry) => entry.id)).toEqual([march.id]);
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
      expect((await entries()).map((entry) => [entry.dueDate, entry.status])).toEqual([
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

  it('pages forward with first/after and back with last/before, in due-date order, with totalCount', async () => {
    // On the day the previous test left the ledger (back in March, its pending entries not yet due would go).
    now = new Date('2026-08-05T12:00:00Z');
    try {
      const dates = (answer: { nodes: EntryNode[] }) => answer.nodes.map((entry) => entry.dueDate);
      const first = await page({ first: 2 });
      expect(dates(first)).toEqual(['2026-02-28', '2026-03-31']);
      expect(first.totalCount).toBe(6);
      expect(first.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
      const second = await page({ first: 2, after: first.pageInfo.endCursor });
      expect(dates(second)).toEqual(['2026-04-30', '2026-05-31']);
      expect(second.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: true });

      const last = await page({ last: 2 });
      expect(dates(last)).toEqual(['2026-06-30', '2026-07-31']);
      expect(last.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
      const before = await page({ last: 3, before: last.pageInfo.startCursor });
      expect(dates(before)).toEqual(['2026-03-31', '2026-04-30', '2026-05-31']);
      expect(before.totalCount).toBe(6);

      const pending = await page({ filter: { status: 'PENDING' }, first: 1 });
      expect(pending.totalCount).toBe(4);
      expect(dates(pending)).toEqual(['2026-04-30']);
      // The whole ledger (up to 1000 entries) when no size is given; no page is larger.
      expect(dates(await page())).toHaveLength(6);
      const tooMany = await graphql(testApp, cleo.token, ENTRIES, { first: 1001 });
      expect(tooMany.body.errors[0].extensions).toMatchObject({
        code: 'BAD_USER_INPUT',
        errors: { first: [expect.any(String)] },
      });
    } finally {
      now = new Date('2026-03-10T12:00:00Z');
    }
  });

  it('finds an entry by node(id:) for its owner only', async () => {
    const [entry] = await entries();
    const found = (await graphqlData(testApp, cleo.token, NODE, { id: entry.id })).node;
    expect(found).toEqual({
      __typename: 'PaymentEntry',
      id: entry.id,
      legacyId: entry.legacyId,
      dueDate: '2026-02-28',
      status: 'PAID',
    });
    const stranger = await signUp(testApp, 'Stranger Ledger');
    expect((await graphqlData(testApp, stranger.token, NODE, { id: entry.id })).node).toBeNull();
  });

  it("refuses a bad amount and another user's entry in userErrors and errors, changing nothing", async () => {
    const [first] = await entries();
    const digest = await ownedRowsDigest(testApp, cleo.id);
    const bad = await graphql(testApp, cleo.token, PAID, { input: { id: first.id, amount: '12.345' } });
    expect(bad.body.data.markPaid).toEqual({
      paymentEntry: null,
      userErrors: [{ field: ['input', 'amount'], code: 'BAD_USER_INPUT', message: expect.any(String) }],
    });
    expect(bad.body.errors[0].extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      errors: { amount: [expect.any(String)] },
    });
    const dan = await signUp(testApp, 'Dan Ledger');
    const foreign = await graphql(testApp, dan.token, PAID, { input: { id: first.id } });
    expect(foreign.body.data.markPaid).toEqual({
      paymentEntry: null,
      userErrors: [{ field: [], code: 'NOT_FOUND', message: expect.any(String) }],
    });
    expect(foreign.body.errors[0].extensions.code).toBe('NOT_FOUND');
    const skipped = await graphql(testApp, dan.token, SKIPPED, { input: { id: first.id } });
    expect(skipped.body.data.markSkipped.userErrors).toEqual([
      { field: [], code: 'NOT_FOUND', message: expect.any(String) },
    ]);
    // An id of another type is no entry.
    const wrongType = await graphql(testApp, cleo.token, SKIPPED, {
      input: { id: toGlobalId('Budget', first.legacyId) },
    });
    expect(wrongType.body.data.markSkipped.userErrors).toEqual([
      { field: ['input', 'id'], code: 'NOT_FOUND', message: expect.any(String) },
    ]);
    expect(await page({}, dan)).toMatchObject({
      totalCount: 0,
      nodes: [],
      pageInfo: { hasNextPage: false, hasPreviousPage: false, startCursor: null, endCursor: null },
    });
    expect(await ownedRowsDigest(testApp, cleo.id)).toBe(digest);
  });
});

const BUDGET_FIELDS = 'id legacyId categoryId categoryName amount { amount currency } alertId warnedMonth';
const SET_BUDGET = `mutation($input: SetBudgetInput!) {
  setBudget(input: $input) { budget { ${BUDGET_FIELDS} } userErrors { field code message } }
}`;
const REMOVE_BUDGET = `mutation($input: RemoveBudgetInput!) {
  removeBudget(input: $input) { deletedBudgetId userErrors { field code message } }
}`;

describe('budgets', () => {
  let eve: SignedUpUser;
  let categoryId: number;
  let category: string;
  const setBudget = async (input: Record<string, unknown>) =>
    (await graphqlData(testApp, eve.token, SET_BUDGET, { input })).setBudget;

  beforeAll(async () => {
    eve = await signUp(testApp, 'Eve Budgets');
    [{ id: categoryId }] = await sql<{ id: number }>(
      testApp,
      `select "id" from "product_categories" where "user_id" is null and "id" <> 1 order by "id" limit 1`,
    );
    category = toGlobalId('ProductCategory', categoryId);
    await createSubscription(testApp, eve.token, {
      price: '40.00',
      payment_date: '2026-01-05',
      category_id: String(categoryId),
    });
  });

  it('sets an overall and a category budget, and spending reports them over the range, a partial month by its days', async () => {
    const overall = await setBudget({ amount: '100' });
    expect(overall).toEqual({
      budget: {
        id: expect.any(String),
        legacyId: expect.any(Number),
        categoryId: null,
        categoryName: null,
        amount: { amount: '100.00', currency: 'USD' },
        alertId: null,
        warnedMonth: null,
      },
      userErrors: [],
    });
    expect(overall.budget.id).toBe(toGlobalId('Budget', overall.budget.legacyId));
    const replaced = await setBudget({ amount: '90.5' });
    expect(replaced.budget).toEqual({ ...overall.budget, amount: { amount: '90.50', currency: 'USD' } });
    const forCategory = (await setBudget({ amount: '30', categoryId: category })).budget;
    expect(forCategory).toMatchObject({
      categoryId: category,
      categoryName: expect.any(String),
      amount: { amount: '30.00', currency: 'USD' },
    });
    expect(
      (await graphqlData(testApp, eve.token, '{ budgets { categoryId amount { amount currency } } }')).budgets,
    ).toEqual([
      { categoryId: null, amount: { amount: '90.50', currency: 'USD' } },
      { categoryId: category, amount: { amount: '30.00', currency: 'USD' } },
    ]);
    const march = await summary(eve, '2026-03-01', '2026-03-31');
    expect(march).toMatchObject({ monthlyBudget: '90.50', budget: '90.50', plannedTotal: '40.00' });
    expect(march.groups).toEqual([expect.objectContaining({ key: category, budget: '30.00', periodTotal: '40.00' })]);
    // March whole (90.50) + 15 of April's 30 days (45.25); the category: 30.00 + 15.00.
    const spring = await summary(eve, '2026-03-01', '2026-04-15');
    expect(spring).toMatchObject({ budget: '135.75' });
    expect(spring.groups[0].budget).toBe('45.00');
    const folders = await summary(eve, '2026-03-01', '2026-03-31', 'FOLDER');
    expect(folders.groups.every((group: { budget: null }) => group.budget === null)).toBe(true);
    expect(folders.groups.map((group: { key: string }) => group.key)).toEqual(['NONE']);
  });

  it('finds a budget by node(id:) for its owner only', async () => {
    const [overall] = (await graphqlData(testApp, eve.token, '{ budgets { id legacyId } }')).budgets;
    expect((await graphqlData(testApp, eve.token, NODE, { id: overall.id })).node).toEqual({
      __typename: 'Budget',
      id: overall.id,
      legacyId: overall.legacyId,
      amount: { amount: '90.50', currency: 'USD' },
    });
    const stranger = await signUp(testApp, 'Stranger Budgets');
    expect((await graphqlData(testApp, stranger.token, NODE, { id: overall.id })).node).toBeNull();
  });

  it('removes a budget, and refuses a bad amount, an unknown category and a missing budget, changing nothing', async () => {
    const [overall] = (await graphqlData(testApp, eve.token, '{ budgets { id } }')).budgets;
    expect((await graphqlData(testApp, eve.token, REMOVE_BUDGET, { input: {} })).removeBudget).toEqual({
      deletedBudgetId: overall.id,
      userErrors: [],
    });
    expect((await summary(eve, '2026-03-01', '2026-03-31')).budget).toBeNull();
    const digest = await ownedRowsDigest(testApp, eve.id);
    const missing = await graphql(testApp, eve.token, REMOVE_BUDGET, { input: {} });
    expect(missing.body.data.removeBudget).toEqual({
      deletedBudgetId: null,
      userErrors: [{ field: [], code: 'NOT_FOUND', message: expect.any(String) }],
    });
    expect(missing.body.errors[0].extensions.code).toBe('NOT_FOUND');
    // Not a decimal at all: refused before the mutation runs.
    expect((await gqlErrors(eve.token, SET_BUDGET, { input: { amount: 'lots' } }))[0].extensions.code).toBe(
      'BAD_USER_INPUT',
    );
    const tooPrecise = await graphql(testApp, eve.token, SET_BUDGET, { input: { amount: '1.234' } });
    expect(tooPrecise.body.data.setBudget).toEqual({
      budget: null,
      userErrors: [{ field: ['input', 'amount'], code: 'BAD_USER_INPUT', message: expect.any(String) }],
    });
    expect(tooPrecise.body.errors[0].extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      errors: { amount: [expect.any(String)] },
    });
    const frank = await signUp(testApp, 'Frank Budgets');
    const [{ id: franksCategory }] = await sql<{ id: number }>(
      testApp,
      `insert into "product_categories" ("name", "user_id") values ('Frank only', ?) returning "id"`,
      [frank.id],
    );
    const foreign = await graphql(testApp, eve.token, SET_BUDGET, {
      input: { amount: '5', categoryId: toGlobalId('ProductCategory', franksCategory) },
    });
    expect(foreign.body.data.setBudget.userErrors).toEqual([
      { field: ['input', 'categoryId'], code: 'BAD_USER_INPUT', message: expect.any(String) },
    ]);
    expect(foreign.body.errors[0].extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      errors: { category_id: [expect.any(String)] },
    });
    const wrongType = await graphql(testApp, eve.token, REMOVE_BUDGET, {
      input: { categoryId: toGlobalId('Folder', categoryId) },
    });
    expect(wrongType.body.data.removeBudget.userErrors).toEqual([
      { field: ['input', 'categoryId'], code: 'NOT_FOUND', message: expect.any(String) },
    ]);
    expect(await ownedRowsDigest(testApp, eve.id)).toBe(digest);
  });
});
