import { addDays, addMonths } from '../../src/platform/dates';
import { expectErrorBody } from '../support/shapes';
import { createSubscription, globalId, recordId, updateProfile } from '../support/subscriptions';
import { graphql, graphqlData, type SignedUpUser, signUp, startTestApp, type TestApp } from '../support/test-app';
import { dayOfMonthFromToday, daysFromToday, monthsFromToday, today } from '../support/test-clock';

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
/** A mutation's payload (the errors it also carries for existing clients are not checked here). */
async function payloadOf(token: string, query: string, variables?: Record<string, unknown>) {
  const response = await graphql(testApp, token, query, variables);
  expect(response.body.data).toBeTruthy();
  return Object.values(response.body.data as Record<string, any>)[0];
}

const CREATE = `mutation($input: CreateSubscriptionInput!) {
  createSubscription(input: $input) {
    subscription { id legacyId productName price { amount currency } basePrice { amount currency } type status recurring
      billingType billingCycle billingFrequency paymentDate nextPaymentDate refundDate note }
    userErrors { field code message } } }`;

const PRODUCT_FIELDS =
  'product { id legacyId productName: name brandName productType: type categoryId description url image price { amount currency } billingCycle billingFrequency refundDays isPrivate }';

describe('REST and GraphQL run the same service', () => {
  it('reads through REST what GraphQL created, and the other way round', async () => {
    const paymentDate = addMonths(daysFromToday(10), -1);
    const { subscription: created, userErrors } = await payloadOf(ann.token, CREATE, {
      input: {
        productId: globalId('Product', 3),
        type: 'SUBSCRIPTION',
        price: '7.25',
        currency: 'EUR',
        billingCycle: 'YEARLY',
        paymentDate,
        refundDays: 10,
        note: 'via graphql',
      },
    });
    expect(userErrors).toEqual([]);
    expect(created).toMatchObject({
      price: { amount: '7.25', currency: 'EUR' },
      basePrice: { amount: expect.stringMatching(/^\d+\.\d{2}$/), currency: 'USD' },
      type: 'SUBSCRIPTION',
      status: 'ACTIVE',
      recurring: 'RECURRING',
      billingType: 'CALENDAR_DATE',
      billingCycle: 'YEARLY',
      billingFrequency: 1,
      paymentDate,
      refundDate: addDays(paymentDate, 10),
    });
    expect(created.id).toBe(recordId(created.legacyId));
    const [viaRest] = (
      await testApp.http.get(`/api/v1/subscriptions/${created.legacyId}`).set('authorization', `Bearer ${ann.token}`)
    ).body;
    expect(viaRest).toMatchObject({
      id: created.legacyId,
      brand_id: 3,
      product_name: created.productName,
      type: 1,
      status: 1,
      recurring: 1,
      billing_type: 2,
      billing_cycle: 4,
      price: 7.25,
      price_type: 'EUR',
      base_value: created.basePrice.amount,
      base_currency: 'USD',
      next_payment_date: created.nextPaymentDate,
      refund_date: created.refundDate,
      note: 'via graphql',
    });

    const restPaymentDate = addMonths(daysFromToday(20), -2);
    const restMade = await createSubscription(testApp, ann.token, {
      brand_id: '7',
      price: '3.10',
      payment_date: restPaymentDate,
      billing_cycle: '2',
      billing_type: '1',
      status: '0',
      recurring: '0',
      type: '2',
    });
    const { subscription } = await gql(
      ann.token,
      `query($id: ID!) { subscription(id: $id) { id legacyId productName price { amount currency } basePrice { amount currency }
        paymentDate nextPaymentDate lastPaymentDate status type recurring billingType billingCycle isAddon mainRecordId ltdvalPrice { amount } ltdvalCycle } }`,
      { id: recordId(restMade.id) },
    );
    expect(subscription).toEqual({
      id: recordId(restMade.id),
      legacyId: restMade.id,
      productName: restMade.product_name,
      price: { amount: '3.10', currency: 'USD' },
      basePrice: { amount: restMade.base_value, currency: 'USD' },
      paymentDate: restPaymentDate,
      nextPaymentDate: null,
      lastPaymentDate: restMade.payment_date_upd,
      status: 'DRAFT',
      type: 'TRIAL',
      recurring: 'ONCE',
      billingType: 'FIXED_DAYS',
      billingCycle: 'WEEKLY',
      isAddon: false,
      mainRecordId: null,
      ltdvalPrice: null,
      ltdvalCycle: null,
    });
  });

  it('answers a refused input in userErrors naming the input fields, storing nothing', async () => {
    const before = (await gql(ann.token, '{ subscriptions { totalCount } }')).subscriptions.totalCount;
    const base = {
      productId: globalId('Product', 1),
      type: 'SUBSCRIPTION',
      price: '1',
      currency: 'USD',
      billingCycle: 'MONTHLY',
      paymentDate: daysFromToday(-3),
    };
    const response = await graphql(testApp, ann.token, CREATE, {
      input: { ...base, price: '1.234', currency: 'XTS', billingFrequency: 0 },
    });
    const { subscription, userErrors } = response.body.data.createSubscription;
    expect(subscription).toBeNull();
    expect(
      userErrors.map((error: { field: string[]; code: string }) => [error.field.join('.'), error.code]).sort(),
    ).toEqual([
      ['input.billingFrequency', 'BAD_USER_INPUT'],
      ['input.price', 'BAD_USER_INPUT'],
    ]);
    // Existing clients keep the error contract: the REST names in extensions.
    expect(Object.keys(response.body.errors[0].extensions.errors).sort()).toEqual(['billing_frequency', 'price']);

    const unknownCurrency = await payloadOf(ann.token, CREATE, { input: { ...base, currency: 'XTS' } });
    expect(unknownCurrency.userErrors).toEqual([
      { field: ['input', 'currency'], code: 'BAD_USER_INPUT', message: expect.any(String) },
    ]);
    const both = await payloadOf(ann.token, CREATE, { input: { ...base, productName: 'x' } });
    expect(both.userErrors).toEqual([
      { field: ['input', 'productId'], code: 'BAD_USER_INPUT', message: expect.any(String) },
    ]);
    const folderAsProduct = await payloadOf(ann.token, CREATE, {
      input: { ...base, productId: globalId('Folder', 1) },
    });
    expect(folderAsProduct.userErrors).toEqual([
      { field: ['input', 'productId'], code: 'NOT_FOUND', message: expect.any(String) },
    ]);
    const digitsAsName = await payloadOf(ann.token, CREATE, { input: { ...base, tagNames: ['ok', '42'] } });
    expect(digitsAsName.userErrors).toEqual([
      { field: ['input', 'tagNames', '1'], code: 'BAD_USER_INPUT', message: expect.any(String) },
    ]);
    // An enum value that is not one is refused by GraphQL itself.
    const badEnum = await gqlError(ann.token, CREATE, { input: { ...base, type: 'RENTAL' } });
    expect(badEnum.extensions.code).toBe('BAD_USER_INPUT');
    expect((await gql(ann.token, '{ subscriptions { totalCount } }')).subscriptions.totalCount).toBe(before);
  });
});

describe('node(id:)', () => {
  it('finds a record and a product as the caller sees them; another user gets null', async () => {
    const owner = await signUp(testApp, 'Node owner');
    const stranger = await signUp(testApp, 'Node stranger');
    const record = await createSubscription(testApp, owner.token, { brand_id: 'My own tool' });
    const query = `query($ids: [ID!]!) { nodes(ids: $ids) { __typename id legacyId
      ... on SubscriptionRecord { productName price { amount } } ... on Product { productName: name isPrivate productType: type } } }`;
    const ids = [recordId(record.id), globalId('Product', record.brand_id), globalId('Product', 1)];
    const { nodes } = await gql(owner.token, query, { ids });
    expect(nodes).toEqual([
      {
        __typename: 'SubscriptionRecord',
        id: ids[0],
        legacyId: record.id,
        productName: 'My own tool',
        price: { amount: '15.49' },
      },
      {
        __typename: 'Product',
        id: ids[1],
        legacyId: record.brand_id,
        productName: 'My own tool',
        isPrivate: true,
        productType: 'SAAS',
      },
      {
        __typename: 'Product',
        id: ids[2],
        legacyId: 1,
        productName: expect.any(String),
        isPrivate: false,
        productType: expect.stringMatching(/^(SAAS|WORDPRESS|DESKTOP_APP)$/),
      },
    ]);
    // The private product and the record are the owner's; the catalogue is everyone's.
    expect((await gql(stranger.token, query, { ids })).nodes).toEqual([
      null,
      null,
      expect.objectContaining({ legacyId: 1 }),
    ]);
    const notFound = await gqlError(stranger.token, 'query($id: ID!) { subscription(id: $id) { id } }', {
      id: ids[0],
    });
    expect(notFound.extensions.code).toBe('NOT_FOUND');
  });
});

describe('subscriptions connection', () => {
  let owner: SignedUpUser;
  let folderId: string;
  let paymentModeId: string;
  beforeAll(async () => {
    owner = await signUp(testApp, 'Owner');
    const { createFolder } = await gql(
      owner.token,
      'mutation { createFolder(input: {name: "Home"}) { folder { id } } }',
    );
    const { createPaymentMode } = await gql(
      owner.token,
      'mutation { createPaymentMode(input: {name: "Amex"}) { paymentMode { id } } }',
    );
    folderId = createFolder.folder.id;
    paymentModeId = createPaymentMode.paymentMode.id;
    const cycles = ['DAILY', 'WEEKLY', 'MONTHLY', 'YEARLY'];
    const input = (i: number) => ({
      productId: globalId('Product', (i % 40) + 1),
      type: 'SUBSCRIPTION',
      price: `${i}.00`,
      currency: i % 2 ? 'EUR' : 'USD',
      billingCycle: cycles[i % 4],
      paymentDate: dayOfMonthFromToday(-2, (i % 28) + 1),
      ...(i % 3 ? { folderId } : {}),
      paymentModeId,
      tagNames: [`t${i % 5}`],
    });
    for (let batch = 0; batch < 10; batch++) {
      const variables = Object.fromEntries(Array.from({ length: 10 }, (_, j) => [`i${j}`, input(batch * 10 + j)]));
      const mutations = Array.from(
        { length: 10 },
        (_, j) => `m${j}: createSubscription(input: $i${j}) { subscription { id } userErrors { code } }`,
      ).join('\n');
      const declared = Array.from({ length: 10 }, (_, j) => `$i${j}: CreateSubscriptionInput!`).join(', ');
      await gql(owner.token, `mutation(${declared}) { ${mutations} }`, variables);
    }
  });

  const PAGE = `query($first: Int, $after: String, $last: Int, $before: String) {
    subscriptions(first: $first, after: $after, last: $last, before: $before, orderBy: {field: PRICE, direction: ASC}) {
    totalCount pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
    edges { cursor node { id productName brandName price { amount currency } basePrice { amount currency } paymentDate nextPaymentDate status billingCycle
      product { name brandName } folder { name } category { name } paymentMode { name } tags { name } } } } }`;
  const amounts = (page: { edges: Array<{ node: { price: { amount: string } } }> }) =>
    page.edges.map((edge) => Number(edge.node.price.amount));

  it('pages forward with first and after, and counts everything', async () => {
    const first = (await gql(owner.token, PAGE, { first: 30 })).subscriptions;
    expect(first.totalCount).toBe(100);
    expect(first.edges).toHaveLength(30);
    expect(first.pageInfo).toEqual({
      hasNextPage: true,
      hasPreviousPage: false,
      startCursor: first.edges[0].cursor,
      endCursor: first.edges[29].cursor,
    });
    const next = (await gql(owner.token, PAGE, { first: 80, after: first.pageInfo.endCursor })).subscriptions;
    expect(next.edges).toHaveLength(70);
    expect(next.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
    expect(next.totalCount).toBe(100);
    // Past the last record the page has no row to carry the count: it is still the whole count.
    const beyond = (await gql(owner.token, PAGE, { first: 10, after: next.pageInfo.endCursor })).subscriptions;
    expect(beyond).toMatchObject({ totalCount: 100, edges: [], pageInfo: { hasNextPage: false, endCursor: null } });
    expect([...amounts(first), ...amounts(next)]).toEqual(Array.from({ length: 100 }, (_, i) => i));
    // The default page is the REST list's: 10.
    expect((await gql(owner.token, PAGE)).subscriptions.edges).toHaveLength(10);
    const bad = await gqlError(owner.token, '{ subscriptions(first: 5, after: "bm9wZQ") { totalCount } }');
    expect(bad.extensions.code).toBe('BAD_USER_INPUT');
    const tooMany = await gqlError(owner.token, '{ subscriptions(first: 1001) { totalCount } }');
    expect(tooMany.extensions.errors).toEqual({ first: [expect.any(String)] });
  });

  it('pages backward with last and before', async () => {
    const last = (await gql(owner.token, PAGE, { last: 15 })).subscriptions;
    expect(amounts(last)).toEqual(Array.from({ length: 15 }, (_, i) => 85 + i));
    expect(last.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
    expect(last.totalCount).toBe(100);
    const before = (await gql(owner.token, PAGE, { last: 10, before: last.pageInfo.startCursor })).subscriptions;
    expect(amounts(before)).toEqual(Array.from({ length: 10 }, (_, i) => 75 + i));
    const start = (await gql(owner.token, PAGE, { last: 50, before: before.edges[3].cursor })).subscriptions;
    expect(amounts(start)).toEqual(Array.from({ length: 50 }, (_, i) => 28 + i));
    const head = (await gql(owner.token, PAGE, { last: 50, before: start.edges[2].cursor })).subscriptions;
    expect(amounts(head)).toEqual(Array.from({ length: 30 }, (_, i) => i));
    expect(head.pageInfo).toMatchObject({ hasPreviousPage: false, hasNextPage: true });
    // Forward again from a page read backward: the cursors are the same.
    const forward = (await gql(owner.token, PAGE, { first: 2, after: head.pageInfo.endCursor })).subscriptions;
    expect(amounts(forward)).toEqual([30, 31]);
  });

  it('resolves nested product, folder, category, payment mode and tags in a constant number of statements', async () => {
    // An app of its own on the same data, executing once per request (the tests' default runs queries twice
    // to compare the executors), with no background work (relays, the reminder sweep): its statements are not
    // the request's.
    const statements: string[] = [];
    const counted = await startTestApp(
      {},
      { onQuery: (sql) => statements.push(sql), graphqlExecution: 'jit', background: false },
      testApp.database,
    );
    const count = async (first: number) => {
      statements.length = 0;
      const data = await graphqlData(counted, owner.token, PAGE, { first });
      expect(data.subscriptions.edges).toHaveLength(first);
      return statements.length;
    };
    const forHundred = await count(100);
    const forTen = await count(10);
    await counted.close();
    // The listener hears this app's statements (it once heard none, and 0 = 0 passed).
    expect(forTen).toBeGreaterThan(0);
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
    const { subscriptions } = await gql(
      owner.token,
      `{ subscriptions(first: 20) { edges { node { id ${PRODUCT_FIELDS} } } } }`,
    );
    expect(subscriptions.edges).toHaveLength(20);
    for (const { node } of subscriptions.edges as Array<{ node: { id: string; product: any } }>) {
      const { subscription } = await gql(
        owner.token,
        `query($id: ID!) { subscription(id: $id) { ${PRODUCT_FIELDS} } }`,
        {
          id: node.id,
        },
      );
      expect(node.product).toEqual(subscription.product);
      expect(node.product).toMatchObject({
        id: globalId('Product', node.product.legacyId),
        productName: expect.any(String),
        productType: expect.stringMatching(/^(SAAS|WORDPRESS|DESKTOP_APP)$/),
        categoryId: expect.any(String),
        billingCycle: expect.stringMatching(/^(DAILY|WEEKLY|MONTHLY|YEARLY)$/),
        isPrivate: false,
      });
      expect(node.product.price === null || /^\d+\.\d{2}$/.test(node.product.price.amount)).toBe(true);
    }
  });

  it('answers the dashboard page the benchmark asks for: 100 records, 15 fields, nested product and folder', async () => {
    const page = await gql(
      owner.token,
      `{ subscriptions(first: 100) { totalCount edges { node { id productName brandName price { amount currency } basePrice { amount currency }
      paymentDate nextPaymentDate status billingCycle type timezone product { name } folder { name } } } } }`,
    );
    expect(page.subscriptions.edges).toHaveLength(100);
  });

  it('filters by enums and global ids, and searches', async () => {
    const FILTERED = `query($filter: SubscriptionFilter) { subscriptions(filter: $filter, first: 100, search: "") {
      totalCount edges { node { billingCycle status type folder { id } paymentMode { id } } } } }`;
    const inNoFolder = (
      await gql(owner.token, FILTERED, { filter: { billingCycles: ['YEARLY'], withoutFolder: true } })
    ).subscriptions;
    expect(inNoFolder.totalCount).toBeGreaterThan(0);
    for (const edge of inNoFolder.edges) expect(edge.node).toMatchObject({ billingCycle: 'YEARLY', folder: null });
    const both = (await gql(owner.token, FILTERED, { filter: { folderIds: [folderId], withoutFolder: true } }))
      .subscriptions;
    expect(both.totalCount).toBe(100);
    const inFolder = (await gql(owner.token, FILTERED, { filter: { folderIds: [folderId], statuses: ['ACTIVE'] } }))
      .subscriptions;
    expect(inFolder.totalCount).toBe(66);
    for (const edge of inFolder.edges) expect(edge.node.folder).toEqual({ id: folderId });
    const none = (await gql(owner.token, FILTERED, { filter: { statuses: ['CANCELLED'], types: ['TRIAL'] } }))
      .subscriptions;
    expect(none.totalCount).toBe(0);
    const byMode = (await gql(owner.token, FILTERED, { filter: { paymentModeIds: [paymentModeId] } })).subscriptions;
    expect(byMode.totalCount).toBe(100);
    const wrongType = await gqlError(owner.token, FILTERED, { filter: { folderIds: [paymentModeId] } });
    expect(wrongType.extensions.code).toBe('NOT_FOUND');
  });
});

describe('record mutations', () => {
  let user: SignedUpUser;
  let stranger: SignedUpUser;
  beforeAll(async () => {
    user = await signUp(testApp, 'Mutator');
    stranger = await signUp(testApp, 'Outsider');
  });

  it('updates with ids, enums and amounts, and refuses another user as a NOT_FOUND user error', async () => {
    const record = await createSubscription(testApp, user.token);
    const { createTag } = await gql(user.token, 'mutation { createTag(input: {name: "kept"}) { tag { id } } }');
    const UPDATE = `mutation($input: UpdateSubscriptionInput!) { updateSubscription(input: $input) {
      subscription { id price { amount currency } billingCycle status ltdvalPrice { amount currency } ltdvalCycle folder { id } alerts { name }
        tags { name } category { id } } userErrors { field code } } }`;
    const updated = await payloadOf(user.token, UPDATE, {
      input: {
        id: recordId(record.id),
        price: '13.49',
        currency: 'GBP',
        billingCycle: 'WEEKLY',
        ltdvalPrice: '99.5',
        ltdvalCycle: 'YEARLY',
        alertId: null,
        categoryId: globalId('ProductCategory', 2),
        tagIds: [createTag.tag.id],
        tagNames: ['new one'],
      },
    });
    expect(updated).toEqual({
      subscription: {
        id: recordId(record.id),
        price: { amount: '13.49', currency: 'GBP' },
        billingCycle: 'WEEKLY',
        status: 'ACTIVE',
        ltdvalPrice: { amount: '99.50', currency: 'GBP' },
        ltdvalCycle: 'YEARLY',
        folder: null,
        alerts: [],
        tags: expect.arrayContaining([{ name: 'kept' }, { name: 'new one' }]),
        category: { id: globalId('ProductCategory', 2) },
      },
      userErrors: [],
    });
    const [viaRest] = (
      await testApp.http.get(`/api/v1/subscriptions/${record.id}`).set('authorization', `Bearer ${user.token}`)
    ).body;
    expect(viaRest).toMatchObject({ alert_id: 0, category_id: 2, billing_cycle: 2, ltdval_cycle: 4 });

    const theirs = await payloadOf(stranger.token, UPDATE, { input: { id: recordId(record.id), note: 'mine now' } });
    expect(theirs).toEqual({ subscription: null, userErrors: [{ field: [], code: 'NOT_FOUND' }] });
    const badFolder = await payloadOf(user.token, UPDATE, {
      input: { id: recordId(record.id), folderId: globalId('Folder', 2_000_000_000) },
    });
    expect(badFolder.userErrors).toEqual([{ field: ['input', 'folderId'], code: 'BAD_USER_INPUT' }]);
  });

  it('cancels, refunds, deletes and restores by global id, with payloads', async () => {
    const record = await createSubscription(testApp, user.token);
    const other = await createSubscription(testApp, user.token);
    const id = recordId(record.id);
    const run = (
      name: string,
      input: Record<string, unknown>,
      selection = 'subscription { id status nextPaymentDate }',
    ) =>
      payloadOf(
        user.token,
        `mutation($input: ${name[0].toUpperCase()}${name.slice(1)}Input!) { ${name}(input: $input) { ${selection} userErrors { field code } } }`,
        { input },
      );
    expect(await run('cancelSubscription', { id })).toEqual({
      subscription: { id, status: 'CANCELLED', nextPaymentDate: null },
      userErrors: [],
    });
    expect(await run('refundSubscription', { id: recordId(other.id) })).toMatchObject({
      subscription: { status: 'REFUNDED' },
      userErrors: [],
    });
    expect(await run('deleteSubscription', { id }, 'deletedSubscriptionId')).toEqual({
      deletedSubscriptionId: id,
      userErrors: [],
    });
    expect((await gql(user.token, 'query($id: ID!) { node(id: $id) { id } }', { id })).node).toBeNull();
    expect(await run('deleteSubscription', { id: recordId(other.id) }, 'deletedSubscriptionId')).toMatchObject({
      userErrors: [],
    });
    expect(await run('restoreSubscription', { id })).toMatchObject({ subscription: { id }, userErrors: [] });
    expect(await run('deleteSubscription', { id: globalId('Tag', record.id) }, 'deletedSubscriptionId')).toEqual({
      deletedSubscriptionId: null,
      userErrors: [{ field: ['input', 'id'], code: 'NOT_FOUND' }],
    });
    expect(
      await payloadOf(
        stranger.token,
        'mutation($input: CancelSubscriptionInput!) { cancelSubscription(input: $input) { subscription { id } userErrors { code } } }',
        { input: { id } },
      ),
    ).toEqual({ subscription: null, userErrors: [{ code: 'NOT_FOUND' }] });
  });

  it('adds an add-on under its main record, which an add-on cannot be', async () => {
    const main = await createSubscription(testApp, user.token);
    const ADD = `mutation($input: AddAddonInput!) { addAddon(input: $input) {
      subscription { id type status recurring isAddon mainRecordId price { amount currency } paymentDate refundDate }
      userErrors { field code } } }`;
    const paymentDate = daysFromToday(-5);
    const added = await payloadOf(user.token, ADD, {
      input: {
        mainRecordId: recordId(main.id),
        price: '2.00',
        currency: 'USD',
        paymentDate,
        refundDate: daysFromToday(2),
      },
    });
    expect(added).toEqual({
      subscription: {
        id: expect.any(String),
        type: 'LIFETIME',
        status: 'ACTIVE',
        recurring: 'RECURRING',
        isAddon: true,
        mainRecordId: recordId(main.id),
        price: { amount: '2.00', currency: 'USD' },
        paymentDate,
        refundDate: daysFromToday(2),
      },
      userErrors: [],
    });
    const ofAddon = await payloadOf(user.token, ADD, {
      input: {
        mainRecordId: added.subscription.id,
        price: '1',
        currency: 'USD',
        paymentDate,
        type: 'TRIAL',
        status: 'DRAFT',
      },
    });
    expect(ofAddon).toEqual({ subscription: null, userErrors: [{ field: [], code: 'CONFLICT' }] });
    const badPrice = await payloadOf(user.token, ADD, {
      input: { mainRecordId: recordId(main.id), price: '-1', currency: 'USD', paymentDate },
    });
    expect(badPrice.userErrors).toEqual([{ field: ['input', 'price'], code: 'BAD_USER_INPUT' }]);
  });

  it('sets alerts by global id and changes the price from a date, kept in a price history connection', async () => {
    const record = await createSubscription(testApp, user.token, { payment_date: monthsFromToday(-3) });
    const id = recordId(record.id);
    const alerts = await payloadOf(
      user.token,
      'mutation($input: SetSubscriptionAlertsInput!) { setSubscriptionAlerts(input: $input) { subscription { id alerts { name isSystem } } userErrors { field code } } }',
      { input: { id, alertIds: [globalId('Alert', 1)] } },
    );
    expect(alerts).toEqual({
      subscription: { id, alerts: [{ name: expect.any(String), isSystem: true }] },
      userErrors: [],
    });
    const missing = await payloadOf(
      user.token,
      'mutation($input: SetSubscriptionAlertsInput!) { setSubscriptionAlerts(input: $input) { subscription { id } userErrors { field code } } }',
      { input: { id, alertIds: [globalId('Alert', 2_000_000_000)] } },
    );
    expect(missing.userErrors).toEqual([{ field: ['input', 'alertIds'], code: 'BAD_USER_INPUT' }]);

    const CHANGE = `mutation($input: ChangePriceInput!) { changePrice(input: $input) {
      subscription { price { amount currency } priceHistory { totalCount nodes { effectiveFrom price { amount currency } } } }
      userErrors { field code } } }`;
    const firstStep = monthsFromToday(-1);
    const laterStep = monthsFromToday(2);
    await payloadOf(user.token, CHANGE, { input: { id, price: '16.99', effectiveFrom: firstStep } });
    const changed = await payloadOf(user.token, CHANGE, { input: { id, price: '18', effectiveFrom: laterStep } });
    expect(changed).toEqual({
      subscription: {
        price: { amount: '16.99', currency: 'USD' },
        priceHistory: {
          totalCount: 3,
          nodes: [
            { effectiveFrom: record.payment_date, price: { amount: '15.49', currency: 'USD' } },
            { effectiveFrom: firstStep, price: { amount: '16.99', currency: 'USD' } },
            { effectiveFrom: laterStep, price: { amount: '18.00', currency: 'USD' } },
          ],
        },
      },
      userErrors: [],
    });
    const HISTORY = `query($id: ID!, $first: Int, $after: String, $last: Int, $before: String) { subscription(id: $id) {
      priceHistory(first: $first, after: $after, last: $last, before: $before) {
        totalCount pageInfo { hasNextPage hasPreviousPage startCursor endCursor } edges { cursor node { effectiveFrom } } } } }`;
    const history = async (variables: Record<string, unknown>) =>
      (await gql(user.token, HISTORY, { id, ...variables })).subscription.priceHistory;
    const head = await history({ first: 2 });
    expect(head.edges.map((edge: any) => edge.node.effectiveFrom)).toEqual([record.payment_date, firstStep]);
    expect(head.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
    const tail = await history({ first: 2, after: head.pageInfo.endCursor });
    expect(tail.edges.map((edge: any) => edge.node.effectiveFrom)).toEqual([laterStep]);
    expect(tail.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
    const back = await history({ last: 1, before: tail.pageInfo.startCursor });
    expect(back.edges.map((edge: any) => edge.node.effectiveFrom)).toEqual([firstStep]);
    expect(back).toMatchObject({ totalCount: 3, pageInfo: { hasNextPage: true, hasPreviousPage: true } });

    const tooEarly = await payloadOf(user.token, CHANGE, {
      input: { id, price: '1', effectiveFrom: addDays(record.payment_date as string, -1) },
    });
    expect(tooEarly.userErrors).toEqual([{ field: ['input', 'effectiveFrom'], code: 'BAD_USER_INPUT' }]);
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
      '{ spendingSummary(groupBy: CURRENCY, from: "2026-01-01", to: "2026-12-31") { baseCurrency monthlyTotal { amount currency } yearlyTotal { amount currency } periodTotal { amount currency } groups { key count monthlyTotal { amount currency } periodTotal { amount currency } } } }';
    const usd = (amount: string) => ({ amount, currency: 'USD' });
    const { spendingSummary } = await gql(user.token, query);
    expect(spendingSummary).toEqual({
      baseCurrency: 'USD',
      monthlyTotal: usd('20.00'),
      yearlyTotal: usd('240.00'),
      periodTotal: usd('240.00'),
      groups: [
        { key: 'EUR', count: 1, monthlyTotal: usd('10.00'), periodTotal: usd('120.00') },
        { key: 'USD', count: 1, monthlyTotal: usd('10.00'), periodTotal: usd('120.00') },
      ],
    });
    const months = await gql(
      user.token,
      '{ spendingSummary(groupBy: MONTH, from: "2026-03-01", to: "2026-04-30") { periodTotal { amount currency } groups { key periodTotal { amount currency } count } } }',
    );
    expect(months.spendingSummary).toEqual({
      periodTotal: usd('140.00'),
      groups: [
        { key: '2026-03', periodTotal: usd('130.00'), count: 2 },
        { key: '2026-04', periodTotal: usd('10.00'), count: 1 },
      ],
    });

    const profile = await updateProfile(testApp, user.token, { baseCurrency: 'EUR', timezone: 'Europe/Berlin' });
    expect(profile).toEqual({ baseCurrency: 'EUR', timezone: 'Europe/Berlin' });
    const inEuro = await gql(user.token, query);
    expect(inEuro.spendingSummary.baseCurrency).toBe('EUR');
    expect(inEuro.spendingSummary.monthlyTotal).toEqual({ amount: '17.04', currency: 'EUR' });
  });

  it('lists upcoming payments and calendar entries', async () => {
    const user = await signUp(testApp, 'Planner');
    // An anchor on the 31st: the calendar's dates clamp to each month's end.
    const anchor = dayOfMonthFromToday(-13, 31);
    const from = dayOfMonthFromToday(-12, 1);
    const to = dayOfMonthFromToday(-11, 31);
    const record = await createSubscription(testApp, user.token, { payment_date: anchor });
    const { calendar } = await gql(
      user.token,
      'query($from: LocalDate, $to: LocalDate) { calendar(from: $from, to: $to) { key date subscription { id legacyId } } }',
      {
        from,
        to,
      },
    );
    expect(calendar.map((entry: { date: string }) => entry.date)).toEqual([dayOfMonthFromToday(-12, 31), to]);
    expect(calendar[0].subscription).toEqual({ id: recordId(record.id), legacyId: record.id });
    expect(new Set(calendar.map((entry: { key: string }) => entry.key)).size).toBe(2);
    const again = await gql(
      user.token,
      'query($from: LocalDate, $to: LocalDate) { calendar(from: $from, to: $to) { key } }',
      { from, to },
    );
    expect(again.calendar).toEqual(calendar.map((entry: { key: string }) => ({ key: entry.key })));
    const { upcomingPayments } = await gql(
      user.token,
      '{ upcomingPayments(days: 31) { id nextPaymentDate price { amount currency } basePrice { amount currency } } }',
    );
    expect(upcomingPayments).toEqual([
      {
        id: recordId(record.id),
        nextPaymentDate: record.next_payment_date,
        price: { amount: '15.49', currency: 'USD' },
        basePrice: { amount: '15.49', currency: 'USD' },
      },
    ]);
    expect(record.next_payment_date! >= today()).toBe(true);
  });
});

describe('folders, tags, payment modes and categories', () => {
  it('link records by global id: another user cannot', async () => {
    const a = await signUp(testApp, 'A');
    const b = await signUp(testApp, 'B');
    const made = await gql(
      a.token,
      `mutation {
      createFolder(input: {name: "Bills", color: "#abc"}) { folder { id legacyId } }
      createTag(input: {name: "shared"}) { tag { id legacyId } }
      createProductCategory(input: {name: "Hobbies"}) { productCategory { id legacyId } }
    }`,
    );
    const record = await createSubscription(testApp, a.token, {
      folder_id: String(made.createFolder.folder.legacyId),
      category_id: String(made.createProductCategory.productCategory.legacyId),
    });
    const { subscription } = await gql(
      a.token,
      'query($id: ID!) { subscription(id: $id) { folder { id } category { id } } }',
      {
        id: recordId(record.id),
      },
    );
    expect(subscription).toEqual({
      folder: { id: made.createFolder.folder.id },
      category: { id: made.createProductCategory.productCategory.id },
    });
    const refused = await payloadOf(b.token, CREATE, {
      input: {
        productId: globalId('Product', 1),
        type: 'SUBSCRIPTION',
        price: '1',
        currency: 'USD',
        billingCycle: 'MONTHLY',
        paymentDate: daysFromToday(-1),
        categoryId: made.createProductCategory.productCategory.id,
        tagIds: [made.createTag.tag.id],
      },
    });
    expect(
      refused.userErrors.map((error: { field: string[]; code: string }) => [error.field.join('.'), error.code]).sort(),
    ).toEqual([
      ['input.categoryId', 'BAD_USER_INPUT'],
      ['input.tagIds', 'BAD_USER_INPUT'],
    ]);
    const viaRest = await testApp.http
      .post('/api/v1/subscriptions')
      .set('authorization', `Bearer ${b.token}`)
      .field('brand_id', '1')
      .field('type', '1')
      .field('price', '1')
      .field('price_type', 'USD')
      .field('billing_type', '2')
      .field('billing_frequency', '1')
      .field('billing_cycle', '3')
      .field('payment_date', daysFromToday(-1))
      .field('status', '1')
      .field('recurring', '1')
      .field('category_id', String(made.createProductCategory.productCategory.legacyId))
      .field('tags[]', String(made.createTag.tag.legacyId));
    expect(viaRest.status).toBe(400);
    expectErrorBody(viaRest.body, ['category_id', 'tags']);
  });
});

describe('catalogue products', () => {
  const PRODUCTS = `query($search: String, $categoryId: ID, $first: Int, $after: String, $last: Int, $before: String) {
    products(search: $search, categoryId: $categoryId, first: $first, after: $after, last: $last, before: $before) {
      totalCount pageInfo { hasNextPage hasPreviousPage startCursor endCursor } nodes { id legacyId name categoryId } } }`;

  it('pages the catalogue both ways, in a category, and searches', async () => {
    const all = (await gql(ann.token, PRODUCTS, { first: 50 })).products;
    expect(all.nodes).toHaveLength(50);
    expect(all.totalCount).toBeGreaterThan(50);
    expect(all.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
    expect((await gql(ann.token, PRODUCTS, {})).products.nodes).toHaveLength(20);
    const second = (await gql(ann.token, PRODUCTS, { first: 5, after: all.pageInfo.endCursor })).products;
    const back = (await gql(ann.token, PRODUCTS, { last: 5, before: second.pageInfo.startCursor })).products;
    expect(back.nodes).toEqual(all.nodes.slice(45));
    const end = (await gql(ann.token, PRODUCTS, { last: 3 })).products;
    expect(end.nodes).toHaveLength(3);
    expect(end.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });

    const categoryId = all.nodes[0].categoryId;
    const inCategory = (await gql(ann.token, PRODUCTS, { categoryId, first: 50 })).products;
    expect(inCategory.totalCount).toBeGreaterThan(0);
    for (const product of inCategory.nodes) expect(product.categoryId).toBe(categoryId);

    const found = (await gql(ann.token, PRODUCTS, { search: all.nodes[0].name, first: 1 })).products;
    expect(found.nodes[0]).toEqual(all.nodes[0]);
    const wrongType = await gqlError(ann.token, PRODUCTS, { categoryId: globalId('Folder', 1) });
    expect(wrongType.extensions.code).toBe('NOT_FOUND');
    const { product } = await gql(ann.token, `query($id: ID!) { product(id: $id) { id name } }`, {
      id: all.nodes[1].id,
    });
    expect(product).toEqual({ id: all.nodes[1].id, name: all.nodes[1].name });
  });
});
