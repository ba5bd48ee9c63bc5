import { addDays, addMonths, daysInMonth, todayIn } from '../../src/platform/dates';
import { countOwnedRows } from '../support/hardening';
import { expectErrorBody } from '../support/shapes';
import {
  createSubscription,
  expectRecordShape,
  LIST_EXTRAS,
  MINIMAL,
  postAddon,
  postSubscription,
  recordId,
} from '../support/subscriptions';
import { graphql, graphqlData, type SignedUpUser, signUp, startTestApp, type TestApp } from '../support/test-app';

let testApp: TestApp;
let ann: SignedUpUser;
const auth = (token: string) => ({ authorization: `Bearer ${token}`, accept: 'application/json' });
const today = () => todayIn('UTC');

beforeAll(async () => {
  testApp = await startTestApp();
  ann = await signUp(testApp, 'Ann');
});
afterAll(() => testApp.close());

const gql = <T = Record<string, any>>(token: string, query: string, variables?: Record<string, unknown>) =>
  graphqlData<T>(testApp, token, query, variables);

describe('POST /api/v1/subscriptions (operation 4)', () => {
  it('creates from the minimal form and answers {status, message, subscription} with every field typed', async () => {
    const response = await postSubscription(testApp, ann.token, MINIMAL);
    expect(response.status).toBe(200);
    expect(response.body.status).toBe(true);
    expect(typeof response.body.message).toBe('string');
    const record = response.body.subscription;
    expectRecordShape(record);
    expect(record).toMatchObject({
      user_id: ann.id,
      created_by: ann.id,
      brand_id: 1,
      product_name: 'Netflix Standard',
      brandname: 'Netflix',
      category_id: 2,
      folder_id: 0,
      alert_id: 1,
      price: 15.49,
      price_type: 'USD',
      currency_code: 'USD',
      base_value: '15.49',
      base_currency: 'USD',
      payment_date: MINIMAL.payment_date,
      status: 1,
      status_value: 'Active',
      type_value: 'Subscription',
      recurring_value: 'Recurring',
      billing_cycle_value: 'Monthly',
      billing_type_value: 'Date',
      pricing_type: 1,
      pricing_type_value: 'Subscription',
      sub_addon: 0,
      sub_addon_value: 'Subscription',
      sub_id: null,
      timezone: 'UTC',
      homepage: 'https://netflix.com/',
      refund_days: null,
      refund_date: null,
    });
    // The first monthly date on or after today: within a month, on the anchor's day (the month's last day when
    // it has fewer days).
    const next: string = record.next_payment_date;
    expect(next >= today() && next <= addMonths(today(), 1)).toBe(true);
    const anchorDay = Number(MINIMAL.payment_date.slice(8));
    expect(Number(next.slice(8))).toBe(
      Math.min(anchorDay, daysInMonth(Number(next.slice(0, 4)), Number(next.slice(5, 7)))),
    );
  });

  it("creates from the full form, linking the caller's folder, payment mode, category, alert and tags", async () => {
    const {
      createFolder: { folder },
    } = await gql<{ createFolder: { folder: { legacyId: number } } }>(
      ann.token,
      'mutation { createFolder(input: {name: "Media", color: "#123456"}) { folder { legacyId } } }',
    );
    const {
      createPaymentMode: { paymentMode },
    } = await gql<{ createPaymentMode: { paymentMode: { legacyId: number } } }>(
      ann.token,
      'mutation { createPaymentMode(input: {name: "Visa"}) { paymentMode { legacyId } } }',
    );
    const response = await postSubscription(testApp, ann.token, {
      ...MINIMAL,
      brand_id: '2',
      price: '22.50',
      price_type: 'EUR',
      folder_id: String(folder.legacyId),
      alert_id: '1',
      category_id: '3',
      description: 'Family plan',
      discount_voucher: 'WELCOME10',
      payment_mode_id: String(paymentMode.legacyId),
      'tags[]': ['video', 'family'],
      rating: '4',
      ltdval_price: '199.9',
      ltdval_cycle: '4',
      ltdval_frequency: '1',
      refund_days: '14',
    });
    expect(response.status).toBe(200);
    const record = response.body.subscription;
    expectRecordShape(record);
    expect(record).toMatchObject({
      folder_id: folder.legacyId,
      category_id: 3,
      description: 'Family plan',
      discount_voucher: 'WELCOME10',
      payment_mode_id: paymentMode.legacyId,
      payment_mode: 'Visa',
      rating: 4,
      ltdval_price: '199.90',
      ltdval_cycle: 4,
      ltdval_cycle_value: 'Yearly',
      ltdval_frequency: 1,
      refund_days: 14,
      refund_date: addDays(MINIMAL.payment_date, 14),
      price: 22.5,
      price_type: 'EUR',
      base_value: '26.41',
      tags: null,
    });
    const { subscription } = await gql<{ subscription: { tags: { name: string }[] } }>(
      ann.token,
      'query($id: ID!) { subscription(id: $id) { tags { name } } }',
      { id: recordId(record.id) },
    );
    expect(subscription.tags.map((tag) => tag.name)).toEqual(['family', 'video']);
  });

  it("makes a private product from a free-text brand_id, with DESIGN's defaults", async () => {
    const record = await createSubscription(testApp, ann.token, { brand_id: 'Corner Gym', price: '30' });
    expect(record).toMatchObject({
      product_name: 'Corner Gym',
      folder_id: 0,
      category_id: 1,
      alert_id: 1,
      brandname: null,
    });
    expect(record.image).toBe(`${testApp.config.baseUrl}/static/default-product.svg`);
    const again = await createSubscription(testApp, ann.token, { brand_id: 'Corner Gym', price: '31' });
    expect(again.brand_id).toBe(record.brand_id);
  });

  it('refuses an integer brand_id that names no product, storing nothing', async () => {
    const before = await countOwnedRows(testApp, 'subscriptions', ann.id);
    const response = await postSubscription(testApp, ann.token, { ...MINIMAL, brand_id: '999999' });
    expect(response.status).toBe(400);
    expectErrorBody(response.body, ['brand_id']);
    expect(await countOwnedRows(testApp, 'subscriptions', ann.id)).toBe(before);
  });

  it('names every bad field at once and stores nothing, not even new tags or products', async () => {
    const counts = await Promise.all(
      ['subscriptions', 'tags', 'products'].map((table) => countOwnedRows(testApp, table, ann.id)),
    );
    const response = await postSubscription(testApp, ann.token, {
      brand_id: 'A New Product',
      type: '9',
      price: '-1',
      price_type: 'XYZ',
      billing_type: '3',
      billing_frequency: '0',
      billing_cycle: '5',
      payment_date: '2025-02-29',
      status: '7',
      recurring: '2',
      'tags[]': ['new-tag'],
    });
    expect(response.status).toBe(400);
    expectErrorBody(response.body, [
      'type',
      'price',
      'billing_type',
      'billing_frequency',
      'billing_cycle',
      'payment_date',
      'status',
      'recurring',
    ]);
    const unknownCurrency = await postSubscription(testApp, ann.token, {
      ...MINIMAL,
      brand_id: 'Another New Product',
      price_type: 'XYZ',
      'tags[]': ['new-tag'],
    });
    expect(unknownCurrency.status).toBe(400);
    expectErrorBody(unknownCurrency.body, ['price_type']);
    expect(
      await Promise.all(['subscriptions', 'tags', 'products'].map((table) => countOwnedRows(testApp, table, ann.id))),
    ).toEqual(counts);
  });

  it('names missing required fields', async () => {
    const response = await postSubscription(testApp, ann.token, { brand_id: '1' });
    expect(response.status).toBe(400);
    expectErrorBody(response.body, [
      'type',
      'price',
      'price_type',
      'billing_type',
      'billing_frequency',
      'billing_cycle',
      'payment_date',
      'status',
      'recurring',
    ]);
  });

  it("refuses another user's folder and an unknown payment mode", async () => {
    const bob = await signUp(testApp, 'Bob');
    const { createFolder } = await gql<{ createFolder: { folder: { legacyId: number } } }>(
      bob.token,
      'mutation { createFolder(input: {name: "Bob\'s"}) { folder { legacyId } } }',
    );
    const response = await postSubscription(testApp, ann.token, {
      ...MINIMAL,
      folder_id: String(createFolder.folder.legacyId),
      payment_mode_id: '424242',
    });
    expect(response.status).toBe(400);
    expectErrorBody(response.body, ['folder_id', 'payment_mode_id']);
  });
});

describe('GET /api/v1/subscriptions/{id} (operation 9)', () => {
  it('answers a one-element array', async () => {
    const created = await createSubscription(testApp, ann.token);
    const response = await testApp.http.get(`/api/v1/subscriptions/${created.id}`).set(auth(ann.token));
    expect(response.status).toBe(200);
    expect(response.body).toHaveLength(1);
    expectRecordShape(response.body[0]);
    expect(response.body[0]).toEqual(created);
  });

  it.each(['999999', 'abc', '0', '-1', '99999999999'])('answers 400 for id %s', async (id) => {
    const response = await testApp.http.get(`/api/v1/subscriptions/${id}`).set(auth(ann.token));
    expect(response.status).toBe(400);
    expectErrorBody(response.body);
  });
});

describe('GET /api/v1/subscriptions (operation 8)', () => {
  let carol: SignedUpUser;
  let folderId: number;
  beforeAll(async () => {
    carol = await signUp(testApp, 'Carol');
    folderId = (
      await gql<{ createFolder: { folder: { legacyId: number } } }>(
        carol.token,
        'mutation { createFolder(input: {name: "Work", color: "#00ff00"}) { folder { legacyId } } }',
      )
    ).createFolder.folder.legacyId;
    await createSubscription(testApp, carol.token, {
      brand_id: 'Alpha Tool',
      price: '5',
      billing_cycle: '4',
      payment_date: '2026-03-01',
      folder_id: String(folderId),
    });
    await createSubscription(testApp, carol.token, {
      brand_id: 'Beta Cloud',
      price: '20',
      billing_cycle: '3',
      payment_date: '2026-02-01',
      description: 'storage for photos',
    });
    await createSubscription(testApp, carol.token, {
      brand_id: 'Gamma Lifetime',
      price: '99',
      type: '3',
      recurring: '0',
      payment_date: '2026-01-15',
    });
  });
  const list = (query: Record<string, string>) =>
    testApp.http.get('/api/v1/subscriptions').query(query).set(auth(carol.token));

  it("lists the caller's records with the list extras, sorted by payment_date by default", async () => {
    const response = await list({});
    expect(response.status).toBe(200);
    expect(response.body.map((r: { product_name: string }) => r.product_name)).toEqual([
      'Gamma Lifetime',
      'Beta Cloud',
      'Alpha Tool',
    ]);
    for (const record of response.body) expectRecordShape(record, LIST_EXTRAS);
    const alpha = response.body.find((r: { product_name: string }) => r.product_name === 'Alpha Tool');
    expect(alpha).toMatchObject({
      folder_name: 'Work',
      folder_color: '#00ff00',
      product_category_name: 'Other',
      alert_name: 'Default alert',
      attachment_count: 0,
      payment_method_name: null,
    });
  });

  it('searches name, brand, description and note with q', async () => {
    expect((await list({ q: 'beta' })).body.map((r: { product_name: string }) => r.product_name)).toEqual([
      'Beta Cloud',
    ]);
    expect((await list({ q: 'PHOTOS' })).body.map((r: { product_name: string }) => r.product_name)).toEqual([
      'Beta Cloud',
    ]);
    expect((await list({ q: '' })).body).toHaveLength(3);
    expect((await list({ q: '100%_' })).status).toBe(400);
  });

  it('pages with start and length and sorts on whitelisted fields', async () => {
    const byPrice = await list({ sort: 'price:desc' });
    expect(byPrice.body.map((r: { price: number }) => r.price)).toEqual([99, 20, 5]);
    const page = await list({ sort: 'price:desc', start: '1', length: '1' });
    expect(page.body.map((r: { price: number }) => r.price)).toEqual([20]);
  });

  it('filters on folder_id (0: none), type and billing_cycle; an empty filters string is no filter', async () => {
    const names = async (filters: string) =>
      (await list({ filters })).body.map((r: { product_name: string }) => r.product_name);
    expect(await names(JSON.stringify({ subscription: { folder_id: [String(folderId)] } }))).toEqual(['Alpha Tool']);
    expect(await names(JSON.stringify({ subscription: { folder_id: ['0'] } }))).toEqual([
      'Gamma Lifetime',
      'Beta Cloud',
    ]);
    expect(await names(JSON.stringify({ subscription: { type: ['3'] } }))).toEqual(['Gamma Lifetime']);
    expect(await names(JSON.stringify({ subscription: { billing_cycle: ['3'], type: ['1'] } }))).toEqual([
      'Beta Cloud',
    ]);
    expect(await names('')).toHaveLength(3);
  });

  it.each([
    ['sort', 'password:asc'],
    ['sort', 'price:sideways'],
    ['filters', '{not json'],
    ['filters', '{"subscription": {"folder_id": ["x"]}}'],
    ['filters', '{"subscription": {"payment_date": "2026-02-30"}}'],
    ['start', '-1'],
    ['length', '0'],
    ['length', '1001'],
    ['length', 'ten'],
  ])('answers 400 naming %s for %p', async (name, value) => {
    const response = await list({ [name]: value });
    expect(response.status).toBe(400);
    expectErrorBody(response.body, [name]);
  });

  it('answers 400 when nothing matches', async () => {
    const response = await list({ q: 'no such thing anywhere' });
    expect(response.status).toBe(400);
    expectErrorBody(response.body);
  });
});

describe('GET /api/v1/subscriptions/upcoming (operation 10)', () => {
  it('lists active records due within `days` (default 7), soonest first, with labels', async () => {
    const dave = await signUp(testApp, 'Dave');
    const inThree = await createSubscription(testApp, dave.token, {
      brand_id: 'Soon',
      payment_date: addDays(today(), 3),
    });
    const inTwenty = await createSubscription(testApp, dave.token, {
      brand_id: 'Later',
      payment_date: addDays(today(), 20),
    });
    await createSubscription(testApp, dave.token, {
      brand_id: 'Draft',
      payment_date: addDays(today(), 1),
      status: '0',
    });
    const byDefault = await testApp.http.get('/api/v1/subscriptions/upcoming').set(auth(dave.token));
    expect(byDefault.status).toBe(200);
    expect(byDefault.body.map((r: { id: number }) => r.id)).toEqual([inThree.id]);
    expectRecordShape(byDefault.body[0]);
    const wide = await testApp.http.get('/api/v1/subscriptions/upcoming?days=30').set(auth(dave.token));
    expect(wide.body.map((r: { id: number }) => r.id)).toEqual([inThree.id, inTwenty.id]);
    const none = await testApp.http.get('/api/v1/subscriptions/upcoming?days=1').set(auth(dave.token));
    expect(none.status).toBe(400);
    const bad = await testApp.http.get('/api/v1/subscriptions/upcoming?days=400').set(auth(dave.token));
    expect(bad.status).toBe(400);
    expectErrorBody(bad.body, ['days']);
  });
});

describe('PUT /api/v1/subscriptions/{id} (operation 11)', () => {
  it('updates from URL-encoded fields and answers {status, message}', async () => {
    const created = await createSubscription(testApp, ann.token);
    const response = await testApp.http
      .put(`/api/v1/subscriptions/${created.id}`)
      .set(auth(ann.token))
      .type('form')
      .send({
        id: String(created.id),
        brand_id: '40',
        type: '1',
        price: '9.99',
        currency_code: 'GBP',
        billing_type: '2',
        billing_frequency: '1',
        billing_cycle: '4',
        payment_date: '2026-02-28',
        status: '1',
        recurring: '1',
      });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: true, message: expect.any(String) });
    const [record] = (await testApp.http.get(`/api/v1/subscriptions/${created.id}`).set(auth(ann.token))).body;
    expect(record).toMatchObject({
      brand_id: 40,
      price: 9.99,
      price_type: 'GBP',
      currency_code: 'GBP',
      billing_cycle: 4,
      billing_cycle_value: 'Yearly',
      payment_date: '2026-02-28',
    });
    expect(record.product_name).not.toBe('Netflix Standard');
  });

  it('refuses bad fields and a mismatched id, changing nothing', async () => {
    const created = await createSubscription(testApp, ann.token);
    const bad = await testApp.http
      .put(`/api/v1/subscriptions/${created.id}`)
      .set(auth(ann.token))
      .type('form')
      .send({ price: 'free', billing_cycle: '9', payment_date: '2026-13-01' });
    expect(bad.status).toBe(400);
    expectErrorBody(bad.body, ['price', 'billing_cycle', 'payment_date']);
    const mismatch = await testApp.http
      .put(`/api/v1/subscriptions/${created.id}`)
      .set(auth(ann.token))
      .type('form')
      .send({ id: '1', price: '1' });
    expect(mismatch.status).toBe(400);
    expectErrorBody(mismatch.body, ['id']);
    const [record] = (await testApp.http.get(`/api/v1/subscriptions/${created.id}`).set(auth(ann.token))).body;
    expect(record).toEqual(created);
  });

  it('answers 400 for an unknown id', async () => {
    const response = await testApp.http
      .put('/api/v1/subscriptions/999999')
      .set(auth(ann.token))
      .type('form')
      .send({ price: '1' });
    expect(response.status).toBe(400);
    expectErrorBody(response.body);
  });
});

/** An add-on of Ann's record, as operation 7 makes it. */
async function addonOf(mainId: unknown) {
  return (await postAddon(testApp, ann.token, mainId, { status: '1', recurring: '1' })).body.subscription;
}

describe('DELETE /api/v1/subscriptions/{id} (operation 12)', () => {
  it('soft-deletes the record and its add-ons; GraphQL restores them', async () => {
    const created = await createSubscription(testApp, ann.token);
    const addon = await addonOf(created.id);
    const response = await testApp.http.delete(`/api/v1/subscriptions/${created.id}`).set(auth(ann.token));
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: true, message: expect.any(String) });
    expect((await testApp.http.get(`/api/v1/subscriptions/${created.id}`).set(auth(ann.token))).status).toBe(400);
    expect((await testApp.http.get(`/api/v1/subscriptions/${addon.id}`).set(auth(ann.token))).status).toBe(400);
    expect((await testApp.http.delete(`/api/v1/subscriptions/${created.id}`).set(auth(ann.token))).status).toBe(400);
    const [row] = await testApp.app.db.orm.em
      .getConnection()
      .execute<{ deleted_at: string | null }[]>('select "deleted_at" from "subscriptions" where "id" = ?', [
        created.id,
      ]);
    expect(row.deleted_at).not.toBeNull();

    const restored = await gql<{
      restoreSubscription: { subscription: { id: string; legacyId: number }; userErrors: unknown[] };
    }>(
      ann.token,
      'mutation($input: RestoreSubscriptionInput!) { restoreSubscription(input: $input) { subscription { id legacyId } userErrors { code } } }',
      { input: { id: recordId(created.id) } },
    );
    expect(restored.restoreSubscription).toEqual({
      subscription: { id: recordId(created.id), legacyId: created.id },
      userErrors: [],
    });
    expect((await testApp.http.get(`/api/v1/subscriptions/${addon.id}`).set(auth(ann.token))).status).toBe(200);
  });
});

describe('POST /api/v1/subscriptions/{id}/cancel and /refund (operations 6 and 5)', () => {
  it('cancels an active record and its add-ons; a second cancel is a 400', async () => {
    const created = await createSubscription(testApp, ann.token);
    const addon = await addonOf(created.id);
    const response = await testApp.http.post(`/api/v1/subscriptions/${created.id}/cancel`).set(auth(ann.token));
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: true, message: expect.any(String) });
    for (const id of [created.id, addon.id]) {
      const [record] = (await testApp.http.get(`/api/v1/subscriptions/${id}`).set(auth(ann.token))).body;
      expect(record).toMatchObject({ status: 2, status_value: 'Cancel', next_payment_date: null });
    }
    const again = await testApp.http.post(`/api/v1/subscriptions/${created.id}/cancel`).set(auth(ann.token));
    expect(again.status).toBe(400);
    expectErrorBody(again.body);
  });

  it('refunds within the refund window, with add-ons; refuses a second refund', async () => {
    const created = await createSubscription(testApp, ann.token, {
      payment_date: addDays(today(), -2),
      refund_days: '14',
    });
    const addon = (
      await testApp.http
        .post(`/api/v1/subscriptions/${created.id}/addon`)
        .set(auth(ann.token))
        .field('type', '3')
        .field('price', '2')
        .field('price_type', 'USD')
        .field('payment_date', today())
        .field('status', '1')
        .field('recurring', '1')
    ).body.subscription;
    const response = await testApp.http.post(`/api/v1/subscriptions/${created.id}/refund`).set(auth(ann.token));
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: true, message: expect.any(String) });
    for (const id of [created.id, addon.id]) {
      const [record] = (await testApp.http.get(`/api/v1/subscriptions/${id}`).set(auth(ann.token))).body;
      expect(record).toMatchObject({ status: 3, status_value: 'Refund', next_payment_date: null });
    }
    expect((await testApp.http.post(`/api/v1/subscriptions/${created.id}/refund`).set(auth(ann.token))).status).toBe(
      400,
    );
  });

  it('refunds after the refund date too: the user records a refund the vendor granted', async () => {
    const created = await createSubscription(testApp, ann.token, {
      payment_date: addDays(today(), -20),
      refund_days: '14',
    });
    const response = await testApp.http.post(`/api/v1/subscriptions/${created.id}/refund`).set(auth(ann.token));
    expect(response.status).toBe(200);
    expect((await testApp.http.get(`/api/v1/subscriptions/${created.id}`).set(auth(ann.token))).body[0].status).toBe(3);
  });
});

describe('POST /api/v1/subscriptions/{id}/addon (operation 7)', () => {
  it('creates an add-on under the main record, inheriting its product', async () => {
    const main = await createSubscription(testApp, ann.token, { brand_id: '5' });
    const response = await testApp.http
      .post(`/api/v1/subscriptions/${main.id}/addon`)
      .set(auth(ann.token))
      .field('type', '3')
      .field('price', '4.5')
      .field('price_type', 'USD')
      .field('payment_date', '2026-03-01')
      .field('status', '1')
      .field('recurring', '1')
      .field('refund_date', '2026-03-15');
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ status: true, message: expect.any(String) });
    const addon = response.body.subscription;
    expectRecordShape(addon);
    expect(addon).toMatchObject({
      sub_addon: 1,
      sub_addon_value: 'Addon',
      sub_id: main.id,
      type: 3,
      pricing_type: 3,
      type_value: 'Lifetime',
      price: 4.5,
      brand_id: main.brand_id,
      product_name: main.product_name,
      image: main.image,
      refund_date: '2026-03-15',
      refund_days: 14,
    });
  });

  it('refuses bad fields and a refund_date before the payment_date', async () => {
    const main = await createSubscription(testApp, ann.token);
    const response = await testApp.http
      .post(`/api/v1/subscriptions/${main.id}/addon`)
      .set(auth(ann.token))
      .field('type', '3')
      .field('price', '1')
      .field('price_type', 'USD')
      .field('payment_date', '2026-03-10')
      .field('status', '1')
      .field('recurring', '1')
      .field('refund_date', '2026-03-01');
    expect(response.status).toBe(400);
    expectErrorBody(response.body, ['refund_date']);
    const missing = await testApp.http
      .post(`/api/v1/subscriptions/${main.id}/addon`)
      .set(auth(ann.token))
      .field('type', '3');
    expect(missing.status).toBe(400);
    expectErrorBody(missing.body, ['price', 'price_type', 'payment_date']);
    expect(Object.keys(missing.body.errors)).not.toContain('status');
    expect(
      (
        await testApp.http
          .post('/api/v1/subscriptions/999999/addon')
          .set(auth(ann.token))
          .field('type', '3')
          .field('price', '1')
          .field('price_type', 'USD')
          .field('payment_date', '2026-03-10')
          .field('status', '1')
          .field('recurring', '1')
      ).status,
    ).toBe(400);
  });
});

describe('GET /api/v1/calendar (operation 13)', () => {
  it('gives one entry per payment date in range, with ids stable across calls', async () => {
    const erin = await signUp(testApp, 'Erin');
    const monthly = await createSubscription(testApp, erin.token, { payment_date: '2024-01-31' });
    await createSubscription(testApp, erin.token, {
      brand_id: 'Cancelled one',
      payment_date: '2024-01-10',
      status: '2',
    });
    const query = { start: '2024-01-01', end: '2024-04-30' };
    const first = await testApp.http.get('/api/v1/calendar').query(query).set(auth(erin.token));
    expect(first.status).toBe(200);
    expect(first.body.map((e: { payment_date: string }) => e.payment_date)).toEqual([
      '2024-01-31',
      '2024-02-29',
      '2024-03-31',
      '2024-04-30',
    ]);
    for (const entry of first.body) {
      expect(entry.subscription_id).toBe(monthly.id);
      expect(Number.isInteger(entry.id)).toBe(true);
      expect(entry.id).not.toBe(monthly.id);
      expect(Object.keys(entry).sort()).toEqual([...Object.keys(monthly), 'subscription_id', 'calendar_date'].sort());
    }
    expect(new Set(first.body.map((e: { id: number }) => e.id)).size).toBe(4);
    const second = await testApp.http
      .get('/api/v1/calendar')
      .query({ start: '2024-02-01', end: '2024-03-31' })
      .set(auth(erin.token));
    expect(second.body.map((e: { id: number }) => e.id)).toEqual(
      first.body.slice(1, 3).map((e: { id: number }) => e.id),
    );
  });

  it('defaults to the current month and refuses bad or too long ranges', async () => {
    const frank = await signUp(testApp, 'Frank');
    await createSubscription(testApp, frank.token, { payment_date: `${today().slice(0, 8)}01` });
    const current = await testApp.http.get('/api/v1/calendar').set(auth(frank.token));
    expect(current.status).toBe(200);
    expect(current.body.map((e: { payment_date: string }) => e.payment_date)).toEqual([`${today().slice(0, 8)}01`]);
    const tooLong = await testApp.http
      .get('/api/v1/calendar')
      .query({ start: '2024-01-01', end: '2025-01-02' })
      .set(auth(frank.token));
    expect(tooLong.status).toBe(400);
    expectErrorBody(tooLong.body, ['end']);
    const bad = await testApp.http
      .get('/api/v1/calendar')
      .query({ start: '2024-02-30', end: '2024-03-01' })
      .set(auth(frank.token));
    expectErrorBody(bad.body, ['start']);
    const empty = await testApp.http
      .get('/api/v1/calendar')
      .query({ start: '2000-01-01', end: '2000-01-31' })
      .set(auth(frank.token));
    expect(empty.status).toBe(400);
  });
});

describe('two users', () => {
  it("B can neither read, list, change, cancel, refund, add on to, nor delete A's records", async () => {
    const a = await signUp(testApp, 'A');
    const b = await signUp(testApp, 'B');
    const record = await createSubscription(testApp, a.token, {
      payment_date: addDays(today(), -1),
      refund_days: '30',
    });
    await createSubscription(testApp, b.token, { brand_id: 'B own' });
    const before = await testApp.app.db.orm.em
      .getConnection()
      .execute('select * from "subscriptions" where "user_id" = ? order by "id"', [a.id]);
    const asB = auth(b.token);
    const answers = await Promise.all([
      testApp.http.get(`/api/v1/subscriptions/${record.id}`).set(asB),
      testApp.http.put(`/api/v1/subscriptions/${record.id}`).set(asB).type('form').send({ price: '0' }),
      testApp.http.post(`/api/v1/subscriptions/${record.id}/cancel`).set(asB),
      testApp.http.post(`/api/v1/subscriptions/${record.id}/refund`).set(asB),
      testApp.http
        .post(`/api/v1/subscriptions/${record.id}/addon`)
        .set(asB)
        .field('type', '3')
        .field('price', '1')
        .field('price_type', 'USD')
        .field('payment_date', '2026-01-01')
        .field('status', '1')
        .field('recurring', '1'),
      testApp.http.delete(`/api/v1/subscriptions/${record.id}`).set(asB),
    ]);
    for (const answer of answers) {
      expect(answer.status).toBe(400);
      expectErrorBody(answer.body);
    }
    const listed = await testApp.http.get('/api/v1/subscriptions').set(asB);
    expect(listed.body.map((r: { user_id: number }) => r.user_id)).toEqual([b.id]);
    const calendar = await testApp.http
      .get('/api/v1/calendar')
      .query({ start: '2020-01-01', end: '2020-12-31' })
      .set(asB);
    expect(calendar.status).toBe(400);
    const aRecord = recordId(record.id);
    const viaGraphql = await graphql(testApp, b.token, 'query($id: ID!) { subscription(id: $id) { id } }', {
      id: aRecord,
    });
    expect(viaGraphql.body.errors[0].extensions.code).toBe('NOT_FOUND');
    const viaNode = await graphql(testApp, b.token, 'query($id: ID!) { node(id: $id) { id } }', { id: aRecord });
    expect(viaNode.body.data.node).toBeNull();
    for (const mutation of ['cancelSubscription', 'refundSubscription', 'deleteSubscription', 'restoreSubscription']) {
      const inputType = `${mutation[0].toUpperCase()}${mutation.slice(1)}Input`;
      const result = mutation === 'deleteSubscription' ? 'deletedSubscriptionId' : 'subscription { id }';
      const answer = await graphql(
        testApp,
        b.token,
        `mutation($input: ${inputType}!) { ${mutation}(input: $input) { ${result} userErrors { field code } } }`,
        { input: { id: aRecord } },
      );
      expect(answer.body.errors[0].extensions.code).toBe('NOT_FOUND');
      expect(answer.body.data[mutation].userErrors).toEqual([{ field: expect.any(Array), code: 'NOT_FOUND' }]);
    }
    const update = await graphql(
      testApp,
      b.token,
      'mutation($input: UpdateSubscriptionInput!) { updateSubscription(input: $input) { subscription { id } userErrors { code } } }',
      { input: { id: aRecord, price: '0' } },
    );
    expect(update.body.errors[0].extensions.code).toBe('NOT_FOUND');
    expect(update.body.data.updateSubscription).toEqual({ subscription: null, userErrors: [{ code: 'NOT_FOUND' }] });
    const addon = await graphql(
      testApp,
      b.token,
      'mutation($input: AddAddonInput!) { addAddon(input: $input) { subscription { id } userErrors { code } } }',
      { input: { mainRecordId: aRecord, price: '1', currency: 'USD', paymentDate: '2026-01-01' } },
    );
    expect(addon.body.errors[0].extensions.code).toBe('NOT_FOUND');
    expect(addon.body.data.addAddon).toEqual({ subscription: null, userErrors: [{ code: 'NOT_FOUND' }] });
    const { body } = await graphql(testApp, b.token, '{ subscriptions { totalCount edges { node { id } } } }');
    expect(body.data.subscriptions.edges.map((edge: { node: { id: string } }) => edge.node.id)).not.toContain(aRecord);
    const after = await testApp.app.db.orm.em
      .getConnection()
      .execute('select * from "subscriptions" where "user_id" = ? order by "id"', [a.id]);
    expect(after).toEqual(before);
  });
});
