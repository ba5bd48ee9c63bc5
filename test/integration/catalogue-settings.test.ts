import { expectErrorBody, SQL_TIMESTAMP } from '../support/shapes';
import { createSubscription, globalId } from '../support/subscriptions';
import { graphql, type SignedUpUser, signUp, startTestApp, type TestApp } from '../support/test-app';

let testApp: TestApp;
let ann: SignedUpUser;
const auth = (token: string) => ({ authorization: `Bearer ${token}`, accept: 'application/json' });
const ISO_MICROS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
const MONEY_OR_NULL = (value: unknown) => value === null || /^\d+\.\d{2}$/.test(String(value));

beforeAll(async () => {
  testApp = await startTestApp();
  ann = await signUp(testApp, 'Ann');
});
afterAll(() => testApp.close());

const search = (q: string, token = ann.token) =>
  testApp.http.get('/api/v1/products/search').query({ q }).set(auth(token));
const names = async (q: string) =>
  (await search(q)).body.map((product: { product_name: string }) => product.product_name) as string[];

const PRODUCT_KEYS = [
  'id',
  'admin_id',
  'category_id',
  'product_name',
  'brandname',
  'product_type',
  'description',
  'featured',
  'rating',
  'pop_factor',
  'url',
  'url_app',
  'app_url',
  'image',
  'favicon',
  'status',
  'sub_ltd',
  'launch_year',
  'sub_platform',
  'pricing_type',
  'currency_code',
  'price1_name',
  'price1_value',
  'price2_name',
  'price2_value',
  'price3_name',
  'price3_value',
  'refund_days',
  'billing_frequency',
  'billing_cycle',
  'ltdval_price',
  'ltdval_frequency',
  'ltdval_cycle',
  'created_at',
  'created_by',
];

function expectProductShape(product: Record<string, unknown>, withUpdatedAt: boolean): void {
  expect(Object.keys(product).sort()).toEqual([...PRODUCT_KEYS, ...(withUpdatedAt ? ['updated_at'] : [])].sort());
  for (const field of [
    'id',
    'admin_id',
    'category_id',
    'product_type',
    'status',
    'sub_ltd',
    'sub_platform',
    'pricing_type',
    'refund_days',
    'billing_frequency',
    'billing_cycle',
    'created_by',
  ]) {
    expect([field, Number.isInteger(product[field])]).toEqual([field, true]);
  }
  for (const field of ['product_name', 'brandname', 'description', 'image', 'favicon', 'currency_code'])
    expect([field, typeof product[field]]).toEqual([field, 'string']);
  for (const field of ['featured', 'rating', 'pop_factor']) expect(product[field]).toBeNull();
  for (const field of ['price1_value', 'price2_value', 'price3_value', 'ltdval_price'])
    expect([field, MONEY_OR_NULL(product[field])]).toEqual([field, true]);
  expect(product.created_at).toMatch(SQL_TIMESTAMP);
  if (withUpdatedAt) expect(product.updated_at === null || SQL_TIMESTAMP.test(String(product.updated_at))).toBe(true);
}

describe('GET /api/v1/products/search (operation 19)', () => {
  it('puts the exact name first, then names that start with the text', async () => {
    expect((await names('Netflix Standard'))[0]).toBe('Netflix Standard');
    expect((await names('netflix standard'))[0]).toBe('Netflix Standard');
    const spot = await names('spot');
    expect(spot.slice(0, 4).every((name) => name.startsWith('Spotify'))).toBe(true);
  });

  it('then names with a word that starts with the text, and brands', async () => {
    const music = await names('music');
    const prefixed = music.filter((name) => name.toLowerCase().startsWith('music'));
    const worded = music.filter((name) => / music/i.test(name));
    expect(worded.length).toBeGreaterThan(0);
    expect(music.indexOf(worded[0])).toBeGreaterThanOrEqual(prefixed.length);
    expect(await names('JetBrains')).toEqual(
      expect.arrayContaining(['IntelliJ IDEA Ultimate', 'PyCharm Professional']),
    );
  });

  it('still finds misspelt names', async () => {
    expect((await names('Spotfy')).some((name) => name.startsWith('Spotify'))).toBe(true);
    expect((await names('Netflx')).some((name) => name.startsWith('Netflix'))).toBe(true);
    expect((await names('Dropbx Plus'))[0]).toBe('Dropbox Plus');
  });

  it('answers 10 products of the documented shape, as the original, and at most 50 a page', async () => {
    const response = await search('premium');
    expect(response.status).toBe(200);
    expect(response.body).toHaveLength(10);
    for (const product of response.body) expectProductShape(product, false);
    const page = await testApp.http
      .get('/api/v1/products/search')
      .query({ q: 'premium', length: '50' })
      .set(auth(ann.token));
    expect(page.body.length).toBeGreaterThan(20);
    expect(page.body.length).toBeLessThanOrEqual(50);
    expect(page.body.slice(0, 10)).toEqual(response.body);
    expectErrorBody(
      (await testApp.http.get('/api/v1/products/search').query({ q: 'premium', length: '51' }).set(auth(ann.token)))
        .body,
      ['length'],
    );
  });

  it('answers 400 when nothing matches; without q it pages through the catalogue', async () => {
    const none = await search('qqqqqqqqqq');
    expect(none.status).toBe(400);
    expectErrorBody(none.body);
    const missing = await testApp.http.get('/api/v1/products/search').set(auth(ann.token));
    expect(missing.status).toBe(200);
    expect(missing.body).toHaveLength(10);
  });

  it('finds a private product for its owner only', async () => {
    const bob = await signUp(testApp, 'Bob');
    const record = await createSubscription(testApp, ann.token, { brand_id: 'Zebra Yoga Studio' });
    expect(await names('Zebra Yoga')).toEqual(['Zebra Yoga Studio']);
    expect((await search('Zebra Yoga', bob.token)).status).toBe(400);
    const own = await testApp.http.get(`/api/v1/products/${record.brand_id}`).set(auth(ann.token));
    expect(own.status).toBe(200);
    expect(own.body.image).toBe(`${testApp.config.baseUrl}/static/default-product.svg`);
    expect((await testApp.http.get(`/api/v1/products/${record.brand_id}`).set(auth(bob.token))).status).toBe(400);
  });
});

describe('GET /api/v1/products/{id} (operation 20)', () => {
  it('answers every documented field, updated_at included, prices as two-decimal strings', async () => {
    const response = await testApp.http.get('/api/v1/products/1').set(auth(ann.token));
    expect(response.status).toBe(200);
    expectProductShape(response.body, true);
    expect(response.body).toMatchObject({
      id: 1,
      product_name: 'Netflix Standard',
      brandname: 'Netflix',
      price1_value: '15.49',
      currency_code: 'USD',
      billing_cycle: 3,
    });
  });

  it('answers 400 for an unknown product', async () => {
    const response = await testApp.http.get('/api/v1/products/999999').set(auth(ann.token));
    expect(response.status).toBe(400);
    expectErrorBody(response.body);
  });
});

describe('product categories (operations 21 and 22)', () => {
  it('lists global and own categories with q, start, length and sort', async () => {
    const user = await signUp(testApp, 'Cat');
    const mine = (
      await graphql(
        testApp,
        user.token,
        'mutation { createProductCategory(input: {name: "Zz Hobbies"}) { productCategory { id: legacyId } } }',
      )
    ).body.data.createProductCategory.productCategory;
    const list = async (query: Record<string, string>) =>
      testApp.http.get('/api/v1/products/categories').query(query).set(auth(user.token));
    expect((await list({})).body).toHaveLength(10);
    const all = await list({ length: '100' });
    expect(all.status).toBe(200);
    expect(all.body.length).toBeGreaterThanOrEqual(16);
    for (const category of all.body) {
      expect(Object.keys(category).sort()).toEqual(['created_at', 'id', 'name', 'updated_at', 'user_id']);
      expect(category.created_at).toMatch(ISO_MICROS);
      expect(category.updated_at === null || ISO_MICROS.test(category.updated_at)).toBe(true);
      expect([null, user.id]).toContain(category.user_id);
    }
    const newest = await list({ sort: 'id:desc', length: '1' });
    expect(newest.body).toEqual([expect.objectContaining({ id: mine.id, user_id: user.id, name: 'Zz Hobbies' })]);
    expect((await list({ q: 'stream' })).body.map((c: { name: string }) => c.name)).toEqual(['Video Streaming']);
    expect((await list({ sort: 'id:asc', start: '1', length: '2' })).body.map((c: { id: number }) => c.id)).toEqual([
      2, 3,
    ]);
    expect((await list({ q: 'no such category' })).status).toBe(400);
    expectErrorBody((await list({ sort: 'user_id:asc' })).body, ['sort']);

    const one = await testApp.http.get(`/api/v1/products/categories/${mine.id}`).set(auth(user.token));
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ id: mine.id, user_id: user.id, name: 'Zz Hobbies' });
    expect((await testApp.http.get('/api/v1/products/categories/1').set(auth(user.token))).body).toMatchObject({
      id: 1,
      user_id: null,
      name: 'Other',
    });

    const other = await signUp(testApp, 'Other');
    expect((await testApp.http.get(`/api/v1/products/categories/${mine.id}`).set(auth(other.token))).status).toBe(400);
    expect(
      (await testApp.http.get('/api/v1/products/categories').query({ q: 'Zz Hobbies' }).set(auth(other.token))).status,
    ).toBe(400);
  });
});

describe('GraphQL catalogue', () => {
  it('pages products by search or by category, and reads one', async () => {
    const found = await graphql(
      testApp,
      ann.token,
      '{ products(search: "spotify", first: 2) { totalCount edges { node { productName: name price { amount currency } productType: type isPrivate } } pageInfo { hasNextPage hasPreviousPage endCursor } } }',
    );
    const page = found.body.data.products;
    expect(page.edges).toHaveLength(2);
    expect(page.edges[0].node).toMatchObject({
      productName: expect.stringMatching(/^Spotify/),
      price: { amount: expect.stringMatching(/^\d+\.\d{2}$/), currency: 'USD' },
      productType: 'SAAS',
      isPrivate: false,
    });
    expect(page.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
    expect(page.totalCount).toBeGreaterThan(2);
    const next = await graphql(
      testApp,
      ann.token,
      `{ products(search: "spotify", first: 2, after: "${page.pageInfo.endCursor}") { edges { node { productName: name } } } }`,
    );
    expect(
      next.body.data.products.edges.map((e: { node: { productName: string } }) => e.node.productName),
    ).not.toContain(page.edges[0].node.productName);
    const category = globalId('ProductCategory', 10);
    const byCategory = await graphql(
      testApp,
      ann.token,
      'query($category: ID) { products(categoryId: $category, first: 50) { edges { node { categoryId } } } }',
      { category },
    );
    expect(byCategory.body.data.products.edges.length).toBeGreaterThan(10);
    for (const edge of byCategory.body.data.products.edges) expect(edge.node.categoryId).toBe(category);
    const one = await graphql(
      testApp,
      ann.token,
      'query($id: ID!) { product(id: $id) { id legacyId productName: name brandName productType: type price { amount currency } billingCycle } }',
      { id: globalId('Product', 1) },
    );
    expect(one.body.data.product).toEqual({
      id: globalId('Product', 1),
      legacyId: 1,
      productName: 'Netflix Standard',
      brandName: 'Netflix',
      productType: 'SAAS',
      price: { amount: '15.49', currency: 'USD' },
      billingCycle: 'MONTHLY',
    });
  });
});

describe('extension settings (operations 23 and 24)', () => {
  it('starts at the defaults, takes valid changes, and refuses bad ones without changing anything', async () => {
    const user = await signUp(testApp, 'Ext');
    const read = async (token = user.token) => {
      const body = (await testApp.http.get('/api/v1/settings/extension').set(auth(token))).body;
      // Both names of the one setting, and the original's user object beside them.
      expect(body.extension.notify_before_days).toBe(body.extension.notify_before);
      expect(body.user.id).toBe(token === user.token ? user.id : other.id);
      return {
        extension: {
          auto_detect_subscriptions: body.extension.auto_detect_subscriptions,
          browser_notifications: body.extension.browser_notifications,
          notify_before: body.extension.notify_before,
        },
      };
    };
    let other = user;
    expect(await read()).toEqual({
      extension: { auto_detect_subscriptions: 0, browser_notifications: 0, notify_before: 3 },
    });
    const put = (fields: Record<string, string>) =>
      testApp.http.put('/api/v1/settings/extension').set(auth(user.token)).type('form').send(fields);
    const ok = await put({ auto_detect_subscriptions: '1', browser_notifications: '1', notify_before: '10' });
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ status: true, message: expect.any(String) });
    expect(await read()).toEqual({
      extension: { auto_detect_subscriptions: 1, browser_notifications: 1, notify_before: 10 },
    });

    const bad = await put({ auto_detect_subscriptions: '2', browser_notifications: 'yes', notify_before: '366' });
    expect(bad.status).toBe(400);
    expectErrorBody(bad.body, ['auto_detect_subscriptions', 'browser_notifications', 'notify_before']);
    const partlyBad = await put({ auto_detect_subscriptions: '0', notify_before: '-1' });
    expect(partlyBad.status).toBe(400);
    expect(await read()).toEqual({
      extension: { auto_detect_subscriptions: 1, browser_notifications: 1, notify_before: 10 },
    });
    expect((await put({})).status).toBe(400);

    other = await signUp(testApp, 'Other ext');
    expect(await read(other.token)).toEqual({
      extension: { auto_detect_subscriptions: 0, browser_notifications: 0, notify_before: 3 },
    });

    const viaGraphql = await graphql(
      testApp,
      user.token,
      'mutation { updateExtensionSettings(input: {browserNotifications: false, notifyBefore: 0}) { extensionSettings { autoDetectSubscriptions browserNotifications notifyBefore } userErrors { field code } } }',
    );
    expect(viaGraphql.body.data.updateExtensionSettings).toEqual({
      extensionSettings: { autoDetectSubscriptions: true, browserNotifications: false, notifyBefore: 0 },
      userErrors: [],
    });
    expect(
      (await graphql(testApp, user.token, '{ extensionSettings { notifyBefore } }')).body.data.extensionSettings
        .notifyBefore,
    ).toBe(0);
    const refused = await graphql(
      testApp,
      user.token,
      'mutation { updateExtensionSettings(input: {notifyBefore: 999}) { extensionSettings { notifyBefore } userErrors { field code } } }',
    );
    expect(refused.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    expect(refused.body.data.updateExtensionSettings).toEqual({
      extensionSettings: null,
      userErrors: [{ field: ['input', 'notifyBefore'], code: 'BAD_USER_INPUT' }],
    });
  });
});
