import { expectErrorBody } from '../support/shapes';
import { createSubscription, globalId, MINIMAL, postAddon, postSubscription } from '../support/subscriptions';
import { graphql, type SignedUpUser, signUp, sql, startTestApp, type TestApp } from '../support/test-app';
import { daysFromToday } from '../support/test-clock';

// Where the spec is silent, a client of the original service (Laravel, config/table.php, routes/api.php,
// app/Http/Controllers/Api/v1) works unchanged: each case is one call such a client makes.

let testApp: TestApp;
let ann: SignedUpUser;
let bob: SignedUpUser;
const auth = (token: string) => ({ authorization: `Bearer ${token}`, accept: 'application/json' });
const ISO_MICROS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

beforeAll(async () => {
  testApp = await startTestApp({ CORS_ORIGINS: '' });
  ann = await signUp(testApp, 'Ann');
  bob = await signUp(testApp, 'Bob');
});
afterAll(() => testApp.close());

const list = (query: Record<string, string>, token = ann.token) =>
  testApp.http.get('/api/v1/subscriptions').query(query).set(auth(token));
const ids = (response: { body: Array<{ id: number }> }) => response.body.map((record) => record.id);

describe('codes and labels are the original config/table.php', () => {
  it('labels status 2-4, recurring 0, add-ons and the catalogue product type', async () => {
    const main = await createSubscription(testApp, ann.token, { recurring: '0' });
    expect(main).toMatchObject({ recurring_value: 'Once', sub_addon_value: 'Subscription', status_value: 'Active' });
    const addon = await postAddon(testApp, ann.token, main.id);
    expect(addon.status).toBe(200);
    expect(addon.body.subscription).toMatchObject({
      sub_addon: 1,
      sub_addon_value: 'Addon',
      type_value: 'Lifetime',
      status: 1,
      recurring: 1,
    });

    const [cancelled, refunded] = [
      await createSubscription(testApp, ann.token),
      await createSubscription(testApp, ann.token),
    ];
    await testApp.http.post(`/api/v1/subscriptions/${cancelled.id}/cancel`).set(auth(ann.token)).expect(200);
    await testApp.http.post(`/api/v1/subscriptions/${refunded.id}/refund`).set(auth(ann.token)).expect(200);
    const labels = async (id: unknown) =>
      (await testApp.http.get(`/api/v1/subscriptions/${id}`).set(auth(ann.token))).body[0].status_value;
    expect([await labels(cancelled.id), await labels(refunded.id)]).toEqual(['Cancel', 'Refund']);

    const listed = await list({ length: '100' });
    const item = listed.body.find((record: { id: number }) => record.id === main.id);
    expect(item.product_type).toBe(1);
    expect(item.product_type_name).toBe('SaaS');
  });

  it('offers type 1-3 only, rating 0-10, and alert_id 0 for no alert', async () => {
    const four = await postSubscription(testApp, ann.token, { ...MINIMAL, type: '4' });
    expect(four.status).toBe(400);
    expectErrorBody(four.body, ['type']);
    expect((await createSubscription(testApp, ann.token, { rating: '10' })).rating).toBe(10);
    expect((await postSubscription(testApp, ann.token, { ...MINIMAL, rating: '11' })).status).toBe(400);

    const silent = await createSubscription(testApp, ann.token, { alert_id: '0', payment_date: '2030-01-01' });
    expect(silent.alert_id).toBe(0);
    const [row] = await sql<{ alert_id: number | null }>(
      testApp,
      'select "alert_id" from "subscriptions" where "id" = ?',
      [silent.id],
    );
    expect(row.alert_id).toBeNull();
    expect(await sql(testApp, 'select 1 from "reminders" where "subscription_id" = ?', [silent.id])).toEqual([]);
    const fallback = await createSubscription(testApp, ann.token, { payment_date: '2030-01-01' });
    expect(fallback.alert_id).toBe(1);
  });

  it('accepts JSON booleans for status and recurring, as Laravel does', async () => {
    const response = await testApp.http.post('/api/v1/subscriptions').set(auth(ann.token)).send({
      brand_id: '1',
      type: '1',
      price: '5',
      price_type: 'USD',
      billing_type: '2',
      billing_frequency: '1',
      billing_cycle: '3',
      payment_date: '2026-03-01',
      status: true,
      recurring: false,
    });
    expect(response.status).toBe(200);
    expect(response.body.subscription).toMatchObject({ status: 1, recurring: 0 });
  });

  it("an add-on without status takes the main record's, and recurring 1", async () => {
    const main = await createSubscription(testApp, ann.token, { status: '0' });
    const addon = await postAddon(testApp, ann.token, main.id);
    expect(addon.body.subscription).toMatchObject({ status: 0, recurring: 1 });
  });
});

describe('refund, as DESIGN now has it', () => {
  it('refunds an Active or Cancelled record whatever the refund date, and nothing else', async () => {
    const late = await createSubscription(testApp, ann.token, { payment_date: '2020-01-01', refund_days: '7' });
    expect((await testApp.http.post(`/api/v1/subscriptions/${late.id}/refund`).set(auth(ann.token))).status).toBe(200);
    const cancelled = await createSubscription(testApp, ann.token);
    await testApp.http.post(`/api/v1/subscriptions/${cancelled.id}/cancel`).set(auth(ann.token)).expect(200);
    expect((await testApp.http.post(`/api/v1/subscriptions/${cancelled.id}/refund`).set(auth(ann.token))).status).toBe(
      200,
    );
    const draft = await createSubscription(testApp, ann.token, { status: '0' });
    const refused = await testApp.http.post(`/api/v1/subscriptions/${draft.id}/refund`).set(auth(ann.token));
    expect(refused.status).toBe(400);
    expectErrorBody(refused.body);
  });
});

describe('status 4 Expired', () => {
  it('the sweep moves Active records past expiry_date to Expired, with an event and no reminders left', async () => {
    const gone = await createSubscription(testApp, ann.token, {
      expiry_date: '2026-01-10',
      payment_date: '2030-01-01',
    });
    const later = await createSubscription(testApp, ann.token, {
      expiry_date: '2999-01-01',
      payment_date: '2030-01-01',
    });
    const cancelled = await createSubscription(testApp, ann.token, { expiry_date: '2026-01-10' });
    await testApp.http.post(`/api/v1/subscriptions/${cancelled.id}/cancel`).set(auth(ann.token)).expect(200);

    expect(await testApp.app.services.subscriptions.expireDue()).toBeGreaterThanOrEqual(1);
    const status = async (id: unknown) =>
      (await testApp.http.get(`/api/v1/subscriptions/${id}`).set(auth(ann.token))).body[0];
    expect(await status(gone.id)).toMatchObject({ status: 4, status_value: 'Expired', next_payment_date: null });
    expect((await status(later.id)).status).toBe(1);
    expect((await status(cancelled.id)).status).toBe(2);
    const events = await sql<{ topic: string }>(
      testApp,
      `select "topic" from "webhook_events" where "subscription_id" = ? order by "created_at", "topic"`,
      [gone.id],
    );
    expect(events.map((event) => event.topic)).toEqual(['subscription.created', 'subscription.updated']);
    expect(
      await sql(testApp, `select 1 from "reminders" where "subscription_id" = ? and "status" = 'SCHEDULED'`, [gone.id]),
    ).toEqual([]);
    expect(await testApp.app.services.subscriptions.expireDue()).toBe(0);
  });
});

describe('CORS and PATCH', () => {
  it('answers a preflight from any origin without a token', async () => {
    const response = await testApp.http
      .options('/api/v1/subscriptions')
      .set('origin', 'https://dash.example.com')
      .set('access-control-request-method', 'POST')
      .set('access-control-request-headers', 'authorization');
    expect(response.status).toBe(204);
    expect(response.headers['access-control-allow-origin']).toBe('*');
    expect(response.headers['access-control-allow-methods']).toContain('PATCH');
    expect(response.headers['access-control-allow-headers']).toContain('authorization');
    const graphqlPreflight = await testApp.http
      .options('/graphql')
      .set('origin', 'https://dash.example.com')
      .set('access-control-request-method', 'POST');
    expect(graphqlPreflight.status).toBe(204);
    const get = await list({}).set('origin', 'https://dash.example.com');
    expect(get.headers['access-control-allow-origin']).toBe('*');
    expect(get.headers['access-control-expose-headers']).toContain('X-RateLimit-Remaining');
  });

  it('CORS_ORIGINS narrows the origins', async () => {
    const narrowed = await startTestApp({ CORS_ORIGINS: 'https://one.example.com' });
    try {
      const allowed = await narrowed.http
        .options('/api/v1/alerts')
        .set('origin', 'https://one.example.com')
        .set('access-control-request-method', 'GET');
      expect(allowed.headers['access-control-allow-origin']).toBe('https://one.example.com');
      const other = await narrowed.http
        .options('/api/v1/alerts')
        .set('origin', 'https://two.example.com')
        .set('access-control-request-method', 'GET');
      expect(other.headers['access-control-allow-origin']).toBeUndefined();
    } finally {
      await narrowed.close();
    }
  });

  it('routes PATCH like PUT on subscriptions, alerts and extension settings', async () => {
    const record = await createSubscription(testApp, ann.token);
    const patched = await testApp.http
      .patch(`/api/v1/subscriptions/${record.id}`)
      .set(auth(ann.token))
      .type('form')
      .send({ price: '7.50' });
    expect(patched.body).toEqual({ status: true, message: expect.any(String) });
    expect((await testApp.http.get(`/api/v1/subscriptions/${record.id}`).set(auth(ann.token))).body[0].price).toBe(7.5);
    const alert = await createAlert({});
    const alertPatch = await testApp.http
      .patch(`/api/v1/alerts/${alert.id}`)
      .set(auth(ann.token))
      .type('form')
      .send({ alert_name: 'Renamed' });
    expect(alertPatch.body.alert_name).toBe('Renamed');
    const settings = await testApp.http
      .patch('/api/v1/settings/extension')
      .set(auth(ann.token))
      .type('form')
      .send({ notify_before: '4' });
    expect(settings.body.status).toBe(true);
  });
});

describe('paging, sorting, filters and search (operation 8)', () => {
  let mine: SignedUpUser;
  beforeAll(async () => {
    mine = await signUp(testApp, 'Lister');
    for (let day = 1; day <= 12; day++) {
      await createSubscription(testApp, mine.token, {
        payment_date: `2026-05-${String(day).padStart(2, '0')}`,
        price: String(day),
        rating: String(day % 3),
      });
    }
  });

  it('answers 10 records by default, as the original', async () => {
    expect((await list({}, mine.token)).body).toHaveLength(10);
    expect((await list({ length: '11' }, mine.token)).body).toHaveLength(11);
  });

  it('takes a bare field (ascending) and several fields', async () => {
    const bare = await list({ sort: 'payment_date', length: '100' }, mine.token);
    expect(bare.status).toBe(200);
    const dates = bare.body.map((record: { payment_date: string }) => record.payment_date);
    expect(dates).toEqual([...dates].sort());
    const several = await list({ sort: 'rating:desc,price:asc', length: '100' }, mine.token);
    const pairs = several.body.map((record: { rating: number; price: number }) => [record.rating, record.price]);
    expect(pairs).toEqual([...pairs].sort((a, b) => b[0] - a[0] || a[1] - b[1]));
    expectErrorBody((await list({ sort: 'bogus' }, mine.token)).body, ['sort']);
  });

  it("filters on the original's fields and ignores unknown keys (constructor included)", async () => {
    const filter = (fields: Record<string, unknown>) =>
      list({ length: '100', filters: JSON.stringify({ subscription: fields }) }, mine.token);
    const rated = await filter({ rating: ['2'] });
    expect(rated.body.length).toBeGreaterThan(0);
    expect(rated.body.every((record: { rating: number }) => record.rating === 2)).toBe(true);
    expect(ids(await filter({ payment_date: '2026-05-03' }))).toHaveLength(1);
    expect(
      (await filter({ recurring: ['1'], alert_id: ['1'], category_id: [], bogus: ['x'], constructor: ['y'] })).body,
    ).toHaveLength(12);
    expect((await filter({ recurring: ['0'] })).status).toBe(400);
    expectErrorBody((await filter({ rating: ['high'] })).body, ['filters']);
  });

  it('filters on tag, payment method and alert', async () => {
    const method = await testApp.http
      .post('/api/v1/payments/methods')
      .set(auth(mine.token))
      .field('name', 'Visa')
      .field('payment_type', 'Credit Card');
    const tagged = await createSubscription(testApp, mine.token, {
      'tags[]': ['work'],
      payment_mode_id: String(method.body.id),
      alert_id: '0',
    });
    const tag = (await testApp.http.get('/api/v1/tags').set(auth(mine.token))).body[0];
    const filter = (fields: Record<string, unknown>) =>
      list({ length: '100', filters: JSON.stringify({ subscription: fields }) }, mine.token);
    expect(ids(await filter({ tag_id: [String(tag.id)] }))).toEqual([tagged.id]);
    expect(ids(await filter({ payment_method_id: [String(method.body.id)] }))).toEqual([tagged.id]);
    expect(ids(await filter({ alert_id: ['0'] }))).toEqual([tagged.id]);
  });

  it('q matches price, currency, payment method, category and labels', async () => {
    const other = await signUp(testApp, 'Searcher');
    const method = await testApp.http
      .post('/api/v1/payments/methods')
      .set(auth(other.token))
      .field('name', 'Revolut card')
      .field('payment_type', 'Others');
    const trial = await createSubscription(testApp, other.token, {
      type: '2',
      price: '12.34',
      price_type: 'EUR',
      billing_cycle: '4',
      payment_mode_id: String(method.body.id),
    });
    const plain = await createSubscription(testApp, other.token, { price: '1' });
    const search = async (q: string) => ids(await list({ q, length: '100' }, other.token));
    expect(await search('12.34')).toEqual([trial.id]);
    expect(await search('eur')).toEqual([trial.id]);
    expect(await search('revolut')).toEqual([trial.id]);
    expect(await search('trial')).toEqual([trial.id]);
    expect(await search('yearly')).toEqual([trial.id]);
    expect((await search('monthly')).sort()).toEqual([plain.id]);
    const category =
      trial.category_id === null
        ? null
        : (await testApp.http.get(`/api/v1/products/categories/${trial.category_id}`).set(auth(other.token))).body.name;
    if (category) expect(await search(String(category).toLowerCase())).toEqual(expect.arrayContaining([trial.id]));
  });

  it('sorts alerts by is_default and categories by updated_at', async () => {
    expect(
      (await testApp.http.get('/api/v1/alerts').query({ sort: 'is_default:desc' }).set(auth(ann.token))).status,
    ).toBe(200);
    expect(
      (await testApp.http.get('/api/v1/products/categories').query({ sort: 'updated_at:desc' }).set(auth(ann.token)))
        .status,
    ).toBe(200);
    expect((await testApp.http.get('/api/v1/products/categories').set(auth(ann.token))).body).toHaveLength(10);
  });
});

describe('catalogue', () => {
  it('search with an empty q pages through the catalogue, and GET /products lists it', async () => {
    const first = await testApp.http.get('/api/v1/products/search').query({ q: '' }).set(auth(ann.token));
    expect(first.status).toBe(200);
    expect(first.body).toHaveLength(10);
    const listed = await testApp.http.get('/api/v1/products').query({ start: '10', length: '5' }).set(auth(ann.token));
    expect(listed.status).toBe(200);
    expect(listed.body).toHaveLength(5);
    expect(listed.body.map((product: { id: number }) => product.id)).not.toContain(first.body[0].id);
    expect(Object.keys(listed.body[0])).toEqual(Object.keys(first.body[0]));
  });
});

describe('calendar entries', () => {
  it('carry calendar_date, their payment date', async () => {
    await createSubscription(testApp, bob.token, { payment_date: '2026-01-15' });
    const response = await testApp.http
      .get('/api/v1/calendar')
      .query({ start: '2026-03-01', end: '2026-03-31' })
      .set(auth(bob.token));
    expect(response.status).toBe(200);
    expect(response.body[0].calendar_date).toBe('2026-03-15');
    expect(response.body[0].calendar_date).toBe(response.body[0].payment_date);
  });
});

async function createAlert(fields: Record<string, string>, token = ann.token) {
  const request = testApp.http.post('/api/v1/alerts').set(auth(token));
  const all = {
    alert_name: 'Week before',
    time_period: '7',
    time: '09:00',
    alert_condition: '2',
    alert_type: '2',
    timezone: 'UTC',
    alert_subs_type: '1',
    ...fields,
  };
  for (const [name, value] of Object.entries(all)) request.field(name, value);
  const response = await request;
  if (response.status !== 200) throw new Error(`alert create failed: ${JSON.stringify(response.body)}`);
  return response.body as Record<string, unknown> & { id: number };
}

describe('alerts', () => {
  it('refuses to delete an alert records use, with 409, and deletes it once they are gone', async () => {
    const alert = await createAlert({});
    const record = await createSubscription(testApp, ann.token, { alert_id: String(alert.id) });
    const refused = await testApp.http.delete(`/api/v1/alerts/${alert.id}`).set(auth(ann.token));
    expect(refused.status).toBe(409);
    expectErrorBody(refused.body);
    expect((await testApp.http.get(`/api/v1/alerts/${alert.id}`).set(auth(ann.token))).status).toBe(200);
    const viaGraphql = await graphql(
      testApp,
      ann.token,
      'mutation($input: DeleteAlertInput!) { deleteAlert(input: $input) { deletedAlertId userErrors { field code } } }',
      { input: { id: globalId('Alert', alert.id) } },
    );
    expect(viaGraphql.body.errors[0].extensions.code).toBe('IN_USE');
    expect(viaGraphql.body.data.deleteAlert).toEqual({
      deletedAlertId: null,
      userErrors: [{ field: [], code: 'IN_USE' }],
    });
    await testApp.http
      .put(`/api/v1/subscriptions/${record.id}`)
      .set(auth(ann.token))
      .type('form')
      .send({ alert_id: '1' })
      .expect(200);
    expect((await testApp.http.delete(`/api/v1/alerts/${alert.id}`).set(auth(ann.token))).status).toBe(200);
  });

  it("lists the system default alert with user_id 0, and refuses codes outside the original's", async () => {
    const listed = await testApp.http.get('/api/v1/alerts').query({ length: '100' }).set(auth(bob.token));
    expect(listed.body.find((alert: { id: number }) => alert.id === 1)).toMatchObject({
      user_id: 0,
      alert_condition: 2,
      alert_type: 1,
      alert_subs_type: 1,
    });
    const bad = testApp.http.post('/api/v1/alerts').set(auth(ann.token));
    for (const [name, value] of Object.entries({
      alert_name: 'x',
      time_period: '1',
      time: '09:00',
      alert_condition: '4',
      alert_type: '5',
      timezone: 'UTC',
      alert_subs_type: '4',
    }))
      bad.field(name, value);
    expectErrorBody((await bad).body, ['alert_condition', 'alert_type', 'alert_subs_type']);
  });
});

describe('extension settings, login and tokens', () => {
  it('answers notify_before_days beside notify_before and the user, and accepts either name', async () => {
    await testApp.http
      .put('/api/v1/settings/extension')
      .set(auth(bob.token))
      .type('form')
      .send({ notify_before_days: '6' })
      .expect(200);
    const response = await testApp.http.get('/api/v1/settings/extension').set(auth(bob.token));
    expect(response.body.extension).toEqual({
      auto_detect_subscriptions: expect.any(Number),
      browser_notifications: expect.any(Number),
      notify_before: 6,
      notify_before_days: 6,
    });
    expect(response.body.user).toMatchObject({ id: bob.id, email: bob.email, plan_name: 'Free' });
    expect(response.body.user.password).toBeUndefined();
  });

  it('login and token answers carry plan_name', async () => {
    const login = await testApp.http
      .post('/api/v1/auth/login')
      .field('email', bob.email)
      .field('password', bob.password);
    expect(login.status).toBe(201);
    expect(login.body.user.plan_name).toBe('Free');
    expect((await testApp.http.get('/api/v1/auth/token').set(auth(bob.token))).body.plan_name).toBe('Free');
  });

  it("a use pushes the token's expiry on, at most once an hour", async () => {
    const carol = await signUp(testApp, 'Carol');
    const [id] = carol.token.split('|');
    await sql(
      testApp,
      `update "access_tokens" set "expires_at" = (now() at time zone 'utc') + interval '2 days' where "id" = ?`,
      [id],
    );
    await testApp.http.get('/api/v1/auth/token').set(auth(carol.token)).expect(200);
    const [renewed] = await sql<{ days: number }>(
      testApp,
      `select extract(day from "expires_at" - (now() at time zone 'utc'))::int as "days" from "access_tokens" where "id" = ?`,
      [id],
    );
    expect(renewed.days).toBe(29);
    await sql(
      testApp,
      `update "access_tokens" set "expires_at" = (now() at time zone 'utc') + interval '30 days' - interval '30 minutes' where "id" = ?`,
      [id],
    );
    await testApp.http.get('/api/v1/auth/token').set(auth(carol.token)).expect(200);
    const [kept] = await sql<{ minutes: number }>(
      testApp,
      `select extract(epoch from (now() at time zone 'utc') + interval '30 days' - "expires_at")::int / 60 as "minutes" from "access_tokens" where "id" = ?`,
      [id],
    );
    expect(kept.minutes).toBeGreaterThanOrEqual(29);
    await sql(
      testApp,
      `update "access_tokens" set "expires_at" = (now() at time zone 'utc') - interval '1 minute' where "id" = ?`,
      [id],
    );
    expect((await testApp.http.get('/api/v1/auth/token').set(auth(carol.token))).status).toBe(401);
  });

  it('TOKEN_TTL_DAYS=0: tokens never expire', async () => {
    const forever = await startTestApp({ TOKEN_TTL_DAYS: '0' });
    try {
      const user = await signUp(forever);
      const [row] = await sql<{ expires_at: string | null }>(
        forever,
        'select "expires_at" from "access_tokens" where "id" = ?',
        [user.token.split('|')[0]],
      );
      expect(row.expires_at).toBeNull();
      await sql(forever, `update "access_tokens" set "expires_at" = '2000-01-01'`);
      expect((await forever.http.get('/api/v1/auth/token').set(auth(user.token))).status).toBe(200);
    } finally {
      await forever.close();
    }
  });
});

describe("folders, tags and payment methods (the original's routes)", () => {
  const resources = [
    {
      path: '/api/v1/folders',
      fields: { name: 'Work', color: '#aabbcc', is_default: '1' },
      keys: ['id', 'user_id', 'name', 'color', 'is_default', 'created_at', 'updated_at'],
    },
    { path: '/api/v1/tags', fields: { name: 'family' }, keys: ['id', 'user_id', 'name', 'created_at', 'updated_at'] },
    {
      path: '/api/v1/payments/methods',
      fields: { name: 'Amex', payment_type: 'Credit Card', description: 'Business card', expiry: '2028-04-30' },
      keys: ['id', 'user_id', 'name', 'payment_type', 'description', 'expiry', 'created_at', 'updated_at'],
    },
  ];

  it.each(resources)(
    "$path: create, list, read, update (PUT and PATCH), delete; another user's id is not found",
    async ({ path, fields, keys }) => {
      const owner = await signUp(testApp, 'Organizer');
      expect((await testApp.http.get(path).set(auth(owner.token))).status).toBe(400);
      const create = testApp.http.post(path).set(auth(owner.token));
      for (const [name, value] of Object.entries(fields)) create.field(name, value);
      const created = await create;
      expect(created.status).toBe(201);
      expect(Object.keys(created.body).sort()).toEqual([...keys].sort());
      expect(created.body).toMatchObject({
        ...fields,
        user_id: owner.id,
        ...('is_default' in fields ? { is_default: 1 } : {}),
      });
      expect(Number.isInteger(created.body.id)).toBe(true);
      expect(created.body.created_at).toMatch(ISO_MICROS);

      const listed = await testApp.http
        .get(path)
        .query({ q: fields.name.slice(0, 2), sort: 'name:desc' })
        .set(auth(owner.token));
      expect(listed.body).toEqual([created.body]);
      expect((await testApp.http.get(`${path}/${created.body.id}`).set(auth(owner.token))).body).toEqual(created.body);

      const put = await testApp.http
        .put(`${path}/${created.body.id}`)
        .set(auth(owner.token))
        .type('form')
        .send({ name: 'Renamed' });
      expect(put.status).toBe(200);
      expect(put.body.name).toBe('Renamed');
      const patch = await testApp.http
        .patch(`${path}/${created.body.id}`)
        .set(auth(owner.token))
        .type('form')
        .send({ name: 'Patched' });
      expect(patch.body.name).toBe('Patched');

      const duplicate = testApp.http.post(path).set(auth(owner.token)).field('name', 'Patched');
      if ('payment_type' in fields) duplicate.field('payment_type', 'Others');
      expectErrorBody((await duplicate).body, ['name']);

      for (const call of [
        testApp.http.get(`${path}/${created.body.id}`),
        testApp.http.put(`${path}/${created.body.id}`).type('form').send({ name: 'Stolen' }),
        testApp.http.delete(`${path}/${created.body.id}`),
      ]) {
        const response = await call.set(auth(bob.token));
        expect(response.status).toBe(400);
        expectErrorBody(response.body);
      }
      const deleted = await testApp.http.delete(`${path}/${created.body.id}`).set(auth(owner.token));
      expect(deleted.status).toBe(204);
      expect((await testApp.http.get(`${path}/${created.body.id}`).set(auth(owner.token))).status).toBe(400);
    },
  );

  it('refuses bad fields with their names, and keeps one default folder', async () => {
    const folder = await testApp.http
      .post('/api/v1/folders')
      .set(auth(ann.token))
      .field('name', 'Bad')
      .field('color', 'red');
    expectErrorBody(folder.body, ['color']);
    const method = await testApp.http
      .post('/api/v1/payments/methods')
      .set(auth(ann.token))
      .field('name', 'Bad')
      .field('payment_type', 'Cash')
      .field('expiry', '2028-02-30');
    expectErrorBody(method.body, ['payment_type', 'expiry']);
    expectErrorBody((await testApp.http.post('/api/v1/tags').set(auth(ann.token))).body, ['name']);

    const first = await testApp.http
      .post('/api/v1/folders')
      .set(auth(ann.token))
      .field('name', 'One')
      .field('is_default', '1');
    const second = await testApp.http
      .post('/api/v1/folders')
      .set(auth(ann.token))
      .field('name', 'Two')
      .field('is_default', '1');
    expect((await testApp.http.get(`/api/v1/folders/${first.body.id}`).set(auth(ann.token))).body.is_default).toBe(0);
    expect(second.body.is_default).toBe(1);
    expect(await sql(testApp, 'select 1 from "folders" where "name" = ?', ['Bad'])).toEqual([]);
  });
});

describe('GraphQL uses the same codes', () => {
  it("no alert, rating 10, the original's filters, refund after the date and an add-on's default status", async () => {
    const user = await signUp(testApp, 'Graph codes');
    const [first, second, third] = [-30, -29, -28].map((days) => daysFromToday(days));
    const create = async (fields: Record<string, unknown>) =>
      (
        await graphql(
          testApp,
          user.token,
          `
            mutation ($input: CreateSubscriptionInput!) {
              createSubscription(input: $input) {
                subscription {
                  id
                  legacyId
                  alerts {
                    name
                  }
                  rating
                  status
                }
                userErrors {
                  field
                  code
                }
              }
            }
          `,
          {
            input: {
              productId: globalId('Product', 1),
              type: 'TRIAL',
              price: '3',
              currency: 'USD',
              billingCycle: 'MONTHLY',
              ...fields,
            },
          },
        )
      ).body.data.createSubscription;
    const silent = (await create({ paymentDate: first, alertId: null, rating: 10 })).subscription;
    expect(silent).toMatchObject({ alerts: [], rating: 10, status: 'ACTIVE' });
    const other = (await create({ paymentDate: second, status: 'DRAFT' })).subscription;
    expect(other.alerts).toHaveLength(1);
    expect((await create({ paymentDate: third, rating: 11 })).userErrors).toEqual([
      { field: ['input', 'rating'], code: 'BAD_USER_INPUT' },
    ]);
    const [viaRest] = (await testApp.http.get(`/api/v1/subscriptions/${silent.legacyId}`).set(auth(user.token))).body;
    expect(viaRest).toMatchObject({ alert_id: 0, rating: 10, status: 1, type: 2 });

    const filtered = async (filter: Record<string, unknown>) =>
      (
        await graphql(
          testApp,
          user.token,
          'query($filter: SubscriptionFilter) { subscriptions(filter: $filter) { edges { node { id } } } }',
          { filter },
        )
      ).body.data.subscriptions.edges.map((edge: { node: { id: string } }) => edge.node.id);
    expect(await filtered({ withoutAlert: true })).toEqual([silent.id]);
    expect(await filtered({ alertIds: [globalId('Alert', 1)] })).toEqual([other.id]);
    expect(await filtered({ ratings: [10] })).toEqual([silent.id]);
    expect(await filtered({ paymentDate: second })).toEqual([other.id]);
    expect(await filtered({ recurring: ['RECURRING'], statuses: ['DRAFT'] })).toEqual([other.id]);
    const searched = await graphql(testApp, user.token, '{ subscriptions(search: "trial") { totalCount } }');
    expect(searched.body.data.subscriptions.totalCount).toBe(2);

    const refunded = await graphql(
      testApp,
      user.token,
      'mutation($input: RefundSubscriptionInput!) { refundSubscription(input: $input) { subscription { status } } }',
      { input: { id: silent.id } },
    );
    expect(refunded.body.data.refundSubscription.subscription.status).toBe('REFUNDED');
    const addon = await graphql(
      testApp,
      user.token,
      'mutation($input: AddAddonInput!) { addAddon(input: $input) { subscription { status recurring } } }',
      { input: { mainRecordId: other.id, price: '1', currency: 'USD', paymentDate: daysFromToday(1) } },
    );
    expect(addon.body.data.addAddon.subscription).toEqual({ status: 'DRAFT', recurring: 'RECURRING' });
  });
});
