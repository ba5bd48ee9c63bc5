import { expectErrorBody } from '../support/shapes';
import { createSubscription } from '../support/subscriptions';
import { graphql, graphqlData, type SignedUpUser, signUp, startTestApp, type TestApp } from '../support/test-app';

let testApp: TestApp;
let ann: SignedUpUser;

beforeAll(async () => {
  testApp = await startTestApp();
  ann = await signUp(testApp, 'Ann');
});
afterAll(() => testApp.close());

const gql = <T = Record<string, any>>(token: string, query: string, variables?: Record<string, unknown>) =>
  graphqlData<T>(testApp, token, query, variables);
async function gqlError(token: string, query: string, variables?: Record<string, unknown>) {
  const response = await graphql(testApp, token, query, variables);
  expect(response.body.errors).toBeDefined();
  return response.body.errors[0] as {
    message: string;
    extensions: { code: string; errors?: Record<string, string[]> };
  };
}

describe('REST and GraphQL run the same service', () => {
  it('reads through REST what GraphQL created, and the other way round', async () => {
    const { createSubscription: created } = await gql(
      ann.token,
      `mutation {
      createSubscription(input: {productId: 3, type: 1, price: "7.25", currency: "EUR", billingCycle: 4, paymentDate: "2025-02-28", refundDays: 10, note: "via graphql"}) {
        id productName price currency baseValue nextPaymentDate refundDate } }`,
    );
    const [viaRest] = (
      await testApp.http.get(`/api/v1/subscriptions/${created.id}`).set('authorization', `Bearer ${ann.token}`)
    ).body;
    expect(viaRest).toMatchObject({
      id: created.id,
      product_name: created.productName,
      price: Number(created.price),
      price_type: created.currency,
      base_value: created.baseValue,
      next_payment_date: created.nextPaymentDate,
      refund_date: created.refundDate,
      note: 'via graphql',
    });

    const restMade = await createSubscription(testApp, ann.token, {
      brand_id: '7',
      price: '3.10',
      payment_date: '2026-05-31',
    });
    const { subscription } = await gql(
      ann.token,
      `{ subscription(id: ${restMade.id}) { productName price currency baseValue paymentDate nextPaymentDate lastPaymentDate status type isAddon } }`,
    );
    expect(subscription).toEqual({
      productName: restMade.product_name,
      price: '3.10',
      currency: 'USD',
      baseValue: restMade.base_value,
      paymentDate: '2026-05-31',
      nextPaymentDate: restMade.next_payment_date,
      lastPaymentDate: restMade.payment_date_upd,
      status: 1,
      type: 1,
      isAddon: false,
    });
  });

  it('answers validation errors as BAD_USER_INPUT naming the fields, storing nothing', async () => {
    const error = await gqlError(
      ann.token,
      'mutation { createSubscription(input: {productId: 1, type: 9, price: "1", currency: "USD", billingCycle: 7, paymentDate: "2026-01-01"}) { id } }',
    );
    expect(error.extensions.code).toBe('BAD_USER_INPUT');
    expect(Object.keys(error.extensions.errors!).sort()).toEqual(['billing_cycle', 'type']);
    const both = await gqlError(
      ann.token,
      'mutation { createSubscription(input: {productId: 1, productName: "x", type: 1, price: "1", currency: "USD", billingCycle: 3, paymentDate: "2026-01-01"}) { id } }',
    );
    expect(both.extensions.code).toBe('BAD_USER_INPUT');
  });
});

describe('subscriptions connection', () => {
  let owner: SignedUpUser;
  beforeAll(async () => {
    owner = await signUp(testApp, 'Owner');
    const { createFolder } = await gql(owner.token, 'mutation { createFolder(input: {name: "Home"}) { id } }');
    const { createPaymentMode } = await gql(
      owner.token,
      'mutation { createPaymentMode(input: {name: "Amex"}) { id } }',
    );
    const fields = (
      i: number,
    ) => `productId: ${(i % 40) + 1}, type: 1, price: "${i}.00", currency: "${i % 2 ? 'EUR' : 'USD'}", billingCycle: ${(i % 4) + 1},
      paymentDate: "2026-01-${String((i % 28) + 1).padStart(2, '0')}", folderId: ${i % 3 ? createFolder.id : 0}, paymentModeId: ${createPaymentMode.id}, tags: ["t${i % 5}"]`;
    for (let batch = 0; batch < 10; batch++) {
      const mutations = Array.from(
        { length: 10 },
        (_, j) => `m${j}: createSubscription(input: {${fields(batch * 10 + j)}}) { id }`,
      ).join('\n');
      await gql(owner.token, `mutation { ${mutations} }`);
    }
  });

  const PAGE = `query($first: Int!, $after: String) { subscriptions(first: $first, after: $after, orderBy: {field: PRICE, direction: ASC}) {
    totalCount pageInfo { hasNextPage endCursor }
    edges { cursor node { id productName brandName price currency baseValue paymentDate nextPaymentDate status billingCycle
      product { productName brandName } folder { name } category { name } paymentMode { name } tags { name } } } } }`;

  it('pages with first and after, and counts everything', async () => {
    const first = await gql(owner.token, PAGE, { first: 30 });
    expect(first.subscriptions.totalCount).toBe(100);
    expect(first.subscriptions.edges).toHaveLength(30);
    expect(first.subscriptions.pageInfo.hasNextPage).toBe(true);
    const next = await gql(owner.token, PAGE, { first: 80, after: first.subscriptions.pageInfo.endCursor });
    expect(next.subscriptions.edges).toHaveLength(70);
    expect(next.subscriptions.pageInfo.hasNextPage).toBe(false);
    expect(next.subscriptions.totalCount).toBe(100);
    // Past the last record the page has no row to carry the count: it is still the whole count.
    const beyond = await gql(owner.token, PAGE, { first: 10, after: next.subscriptions.pageInfo.endCursor });
    expect(beyond.subscriptions).toMatchObject({ totalCount: 100, edges: [], pageInfo: { hasNextPage: false } });
    const prices = [...first.subscriptions.edges, ...next.subscriptions.edges].map(
      (edge: { node: { price: string } }) => Number(edge.node.price),
    );
    expect(prices).toEqual(Array.from({ length: 100 }, (_, i) => i));
    const bad = await gqlError(owner.token, '{ subscriptions(first: 5, after: "bm9wZQ") { totalCount } }');
    expect(bad.extensions.code).toBe('BAD_USER_INPUT');
  });

  it('resolves nested product, folder, category, payment mode and tags in a constant number of statements', async () => {
    // An app of its own on the same data, executing once per request (the tests' default runs queries twice
    // to compare the executors), its relays stopped: their statements are not the request's.
    const statements: string[] = [];
    const counted = await startTestApp(
      {},
      { onQuery: (sql) => statements.push(sql), graphqlExecution: 'jit' },
      testApp.database,
    );
    await Promise.all([counted.app.relay.stop(), counted.app.reminderRelay.stop()]);
    const count = async (first: number) => {
      statements.length = 0;
      const data = await graphqlData(counted, owner.token, PAGE, { first });
      expect(data.subscriptions.edges).toHaveLength(first);
      return statements.length;
    };
    const forHundred = await count(100);
    const forTen = await count(10);
    await counted.close();
    expect(forHundred).toBe(forTen);
    // token check + request-limit count (in the database: two API processes by default share it) + the page
    // with its count and its products + one batch for tags (folders, categories and payment modes come joined)
    expect(forHundred).toBeLessThanOrEqual(4);
    const { subscriptions } = await gql(owner.token, PAGE, { first: 3 });
    expect(subscriptions.edges[0].node).toMatchObject({
      paymentMode: { name: 'Amex' },
      tags: [{ name: 't0' }],
      folder: null,
      category: { name: expect.any(String) },
    });
    expect(subscriptions.edges[1].node.folder).toEqual({ name: 'Home' });
  });

  it("answers a page's nested product, carried by the page's read, as a single record's read answers it", async () => {
    const PRODUCT =
      'product { id productName brandName categoryId description url image currency price billingCycle billingFrequency refundDays isPrivate }';
    const { subscriptions } = await gql(
      owner.token,
      `{ subscriptions(first: 20) { edges { node { id ${PRODUCT} } } } }`,
    );
    expect(subscriptions.edges).toHaveLength(20);
    for (const { node } of subscriptions.edges as Array<{ node: { id: number; product: unknown } }>) {
      const { subscription } = await gql(owner.token, `{ subscription(id: ${node.id}) { ${PRODUCT} } }`);
      expect(node.product).toEqual(subscription.product);
      expect(node.product).toMatchObject({
        id: expect.any(Number),
        productName: expect.any(String),
        isPrivate: expect.any(Boolean),
      });
    }
  });

  it('answers the dashboard page the benchmark asks for: 100 records, 15 fields, nested product and folder', async () => {
    const page = await gql(
      owner.token,
      `{ subscriptions(first: 100) { totalCount edges { node { id productName brandName price currency baseValue
      paymentDate nextPaymentDate status billingCycle type timezone product { productName } folder { name } } } } }`,
    );
    expect(page.subscriptions.edges).toHaveLength(100);
  });

  it('filters and searches', async () => {
    const { subscriptions } = await gql(
      owner.token,
      '{ subscriptions(filter: {billingCycles: [4], folderIds: [0]}, search: "") { totalCount edges { node { billingCycle folder { id } } } } }',
    );
    expect(subscriptions.totalCount).toBeGreaterThan(0);
    for (const edge of subscriptions.edges) expect(edge.node).toEqual({ billingCycle: 4, folder: null });
  });
});

describe('dashboard queries', () => {
  it('summarises spending by currency and month in the base currency, following updateProfile', async () => {
    const user = await signUp(testApp, 'Spender');
    await createSubscription(testApp, user.token, {
      brand_id: 'Yearly thing',
      price: '120',
      billing_cycle: '4',
      payment_date: '2026-03-15',
    });
    await createSubscription(testApp, user.token, {
      brand_id: 'Monthly thing',
      price: '8.52',
      price_type: 'EUR',
      payment_date: '2026-01-10',
    });
    await createSubscription(testApp, user.token, { brand_id: 'Stopped thing', price: '99', status: '2' });
    const query =
      '{ spendingSummary(groupBy: CURRENCY, from: "2026-01-01", to: "2026-12-31") { baseCurrency monthlyTotal yearlyTotal periodTotal groups { key count monthlyTotal periodTotal } } }';
    const { spendingSummary } = await gql(user.token, query);
    expect(spendingSummary).toEqual({
      baseCurrency: 'USD',
      monthlyTotal: '20.00',
      yearlyTotal: '240.00',
      periodTotal: '240.00',
      groups: [
        { key: 'EUR', count: 1, monthlyTotal: '10.00', periodTotal: '120.00' },
        { key: 'USD', count: 1, monthlyTotal: '10.00', periodTotal: '120.00' },
      ],
    });
    const months = await gql(
      user.token,
      '{ spendingSummary(groupBy: MONTH, from: "2026-03-01", to: "2026-04-30") { periodTotal groups { key periodTotal count } } }',
    );
    expect(months.spendingSummary).toEqual({
      periodTotal: '140.00',
      groups: [
        { key: '2026-03', periodTotal: '130.00', count: 2 },
        { key: '2026-04', periodTotal: '10.00', count: 1 },
      ],
    });

    const profile = await gql(
      user.token,
      'mutation { updateProfile(input: {baseCurrency: "EUR", timezone: "Europe/Berlin"}) { baseCurrency timezone } }',
    );
    expect(profile.updateProfile).toEqual({ baseCurrency: 'EUR', timezone: 'Europe/Berlin' });
    const inEuro = await gql(user.token, query);
    expect(inEuro.spendingSummary.baseCurrency).toBe('EUR');
    expect(inEuro.spendingSummary.monthlyTotal).toBe('17.04');
    const bad = await gqlError(user.token, 'mutation { updateProfile(input: {baseCurrency: "XTS"}) { baseCurrency } }');
    expect(bad.extensions.code).toBe('BAD_USER_INPUT');
  });

  it('lists upcoming payments and calendar entries', async () => {
    const user = await signUp(testApp, 'Planner');
    const record = await createSubscription(testApp, user.token, { payment_date: '2024-01-31' });
    const { calendar } = await gql(
      user.token,
      '{ calendar(from: "2024-02-01", to: "2024-03-31") { id date subscription { id } } }',
    );
    expect(calendar.map((entry: { date: string }) => entry.date)).toEqual(['2024-02-29', '2024-03-31']);
    expect(calendar[0].subscription.id).toBe(record.id);
    const { upcomingPayments } = await gql(user.token, '{ upcomingPayments(days: 31) { id nextPaymentDate } }');
    expect(upcomingPayments.map((r: { id: number }) => r.id)).toEqual([record.id]);
  });
});

describe('folders, tags, payment modes and categories', () => {
  it("are the caller's own: listed, changed and deleted by their owner only", async () => {
    const a = await signUp(testApp, 'A');
    const b = await signUp(testApp, 'B');
    const made = await gql(
      a.token,
      `mutation {
      createFolder(input: {name: "Bills", color: "#abc"}) { id name color isDefault }
      createTag(input: {name: "shared"}) { id name }
      createPaymentMode(input: {name: "Debit"}) { id name }
      createProductCategory(input: {name: "Hobbies"}) { id name userId }
    }`,
    );
    expect(made.createFolder).toMatchObject({ name: 'Bills', color: '#abc', isDefault: false });
    expect(made.createProductCategory.userId).toBe(a.id);

    const listed = await gql(
      b.token,
      '{ folders { id } tags { id } paymentModes { id } productCategories { id userId } }',
    );
    expect(listed.folders).toEqual([]);
    expect(listed.tags).toEqual([]);
    expect(listed.paymentModes).toEqual([]);
    expect(listed.productCategories.length).toBeGreaterThanOrEqual(15);
    expect(listed.productCategories.every((category: { userId: number | null }) => category.userId === null)).toBe(
      true,
    );

    for (const [kind, id] of [
      ['Folder', made.createFolder.id],
      ['Tag', made.createTag.id],
      ['PaymentMode', made.createPaymentMode.id],
      ['ProductCategory', made.createProductCategory.id],
      ['ProductCategory', 1],
    ] as const) {
      expect(
        (await gqlError(b.token, `mutation { update${kind}(id: ${id}, input: {name: "taken over"}) { id } }`))
          .extensions.code,
      ).toBe('NOT_FOUND');
      expect((await gqlError(b.token, `mutation { delete${kind}(id: ${id}) }`)).extensions.code).toBe('NOT_FOUND');
    }
    const renamed = await gql(
      a.token,
      `mutation { updateFolder(id: ${made.createFolder.id}, input: {name: "Utilities"}) { name color } }`,
    );
    expect(renamed.updateFolder).toEqual({ name: 'Utilities', color: '#abc' });
    const duplicate = await gqlError(a.token, 'mutation { createTag(input: {name: "shared"}) { id } }');
    expect(duplicate.extensions.code).toBe('CONFLICT');
    const badColor = await gqlError(
      a.token,
      'mutation { createFolder(input: {name: "X", color: "red; drop"}) { id } }',
    );
    expect(badColor.extensions.code).toBe('BAD_USER_INPUT');

    const record = await createSubscription(testApp, a.token, {
      folder_id: String(made.createFolder.id),
      category_id: String(made.createProductCategory.id),
    });
    expect(record.category_id).toBe(made.createProductCategory.id);
    const refused = await testApp.http
      .post('/api/v1/subscriptions')
      .set('authorization', `Bearer ${b.token}`)
      .field('brand_id', '1')
      .field('type', '1')
      .field('price', '1')
      .field('price_type', 'USD')
      .field('billing_type', '2')
      .field('billing_frequency', '1')
      .field('billing_cycle', '3')
      .field('payment_date', '2026-01-01')
      .field('status', '1')
      .field('recurring', '1')
      .field('category_id', String(made.createProductCategory.id))
      .field('tags[]', String(made.createTag.id));
    expect(refused.status).toBe(400);
    expectErrorBody(refused.body, ['category_id', 'tags']);

    expect((await gql(a.token, `mutation { deleteFolder(id: ${made.createFolder.id}) }`)).deleteFolder).toBe(true);
    const [after] = (
      await testApp.http.get(`/api/v1/subscriptions/${record.id}`).set('authorization', `Bearer ${a.token}`)
    ).body;
    expect(after.folder_id).toBe(0);
  });
});
