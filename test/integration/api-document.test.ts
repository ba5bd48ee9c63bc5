import { openApiDocument } from '../../rest-facade/openapi/document';
import { addDays, todayIn } from '../../src/platform/dates';
import { startIdentityProvider, TestBrowser, type TestIdentityProvider } from '../support/identity-provider';
import { checkAgainstDocument, checkedAnswers } from '../support/openapi-check';
import { createSubscription, MINIMAL, postAddon } from '../support/subscriptions';
import { graphqlData, type SignedUpUser, signUp, startTestApp, type TestApp } from '../support/test-app';

/** The app's public address: single sign-on's provider sends the browser back there. */
const PUBLIC = 'http://subledger.test';

let provider: TestIdentityProvider;
let testApp: TestApp;
let user: SignedUpUser;

beforeAll(async () => {
  const client = { clientId: 'subledger', clientSecret: 'a secret', redirectUri: `${PUBLIC}/auth/oidc/callback` };
  provider = await startIdentityProvider(client);
  testApp = await startTestApp({
    SERVICE_SHORT_NAME: 'ledger',
    BASE_URL: PUBLIC,
    OIDC_ISSUER: provider.issuer,
    OIDC_CLIENT_ID: client.clientId,
    OIDC_CLIENT_SECRET: client.clientSecret,
  });
  user = await signUp(testApp);
});
afterAll(async () => {
  await testApp?.close();
  await provider?.close();
});

const bearer = () => ({ authorization: `Bearer ${user.token}`, accept: 'application/json' });
const documented = openApiDocument();
const operations = Object.entries(documented.paths).flatMap(([path, item]) =>
  Object.keys(item).map((method) => `${method} ${path}`),
);

describe('the answers of every documented operation match the document', () => {
  it('answers each operation once with its documented success, every answer checked by the suite’s agent', async () => {
    const http = testApp.http;
    const today = todayIn('UTC');
    const login = await http
      .post('/api/v1/auth/login')
      .field('email', user.email)
      .field('password', user.password)
      .expect(201);
    const token = login.body.token as string;
    const auth = { authorization: `Bearer ${token}`, accept: 'application/json' };
    await http.get('/api/v1/auth/token').set(auth).expect(200);

    const main = await createSubscription(testApp, token, { payment_date: today, refund_days: '30', tags: ['video'] });
    const other = await createSubscription(testApp, token, { payment_date: today, refund_days: '30' });
    await http.get('/api/v1/subscriptions').set(auth).expect(200);
    await http.get('/api/v1/subscriptions/upcoming?days=40').set(auth).expect(200);
    await http.get(`/api/v1/subscriptions/${main.id}`).set(auth).expect(200);
    await http.put(`/api/v1/subscriptions/${main.id}`).set(auth).type('form').send({ price: '17.99' }).expect(200);
    await postAddon(testApp, token, main.id, { payment_date: today }).expect(200);
    await http
      .get(`/api/v1/calendar?start=${today}&end=${addDays(today, 40)}`)
      .set(auth)
      .expect(200);
    await http.post(`/api/v1/subscriptions/${other.id}/refund`).set(auth).expect(200);
    await http.post(`/api/v1/subscriptions/${main.id}/cancel`).set(auth).expect(200);
    await http.delete(`/api/v1/subscriptions/${other.id}`).set(auth).expect(200);

    const alert = await http
      .post('/api/v1/alerts')
      .set(auth)
      .field({
        alert_name: 'Week before',
        time_period: '7',
        time: '09:00',
        alert_condition: '2',
        alert_type: '2',
        timezone: 'Europe/Berlin',
        alert_subs_type: '1',
      })
      .expect(200);
    await http.get('/api/v1/alerts').set(auth).expect(200);
    await http.get(`/api/v1/alerts/${alert.body.id}`).set(auth).expect(200);
    await http
      .put(`/api/v1/alerts/${alert.body.id}`)
      .set(auth)
      .type('form')
      .send({ alert_name: 'Six days', time_period: '6' })
      .expect(200);
    await http.delete(`/api/v1/alerts/${alert.body.id}`).set(auth).expect(200);

    const products = await http.get('/api/v1/products/search?q=netflix').set(auth).expect(200);
    await http.get('/api/v1/products?length=3').set(auth).expect(200);
    await http.get(`/api/v1/products/${products.body[0].id}`).set(auth).expect(200);
    const categories = await http.get('/api/v1/products/categories').set(auth).expect(200);
    await http.get(`/api/v1/products/categories/${categories.body[0].id}`).set(auth).expect(200);
    await http.get('/api/v1/settings/extension').set(auth).expect(200);
    await http.put('/api/v1/settings/extension').set(auth).type('form').send({ notify_before: '3' }).expect(200);

    for (const path of ['/api/v1/folders', '/api/v1/tags', '/api/v1/payments/methods']) {
      const made = await http.post(path).set(auth).field('name', `Made at ${path}`).expect(201);
      await http.get(path).set(auth).expect(200);
      await http.get(`${path}/${made.body.id}`).set(auth).expect(200);
      await http
        .put(`${path}/${made.body.id}`)
        .set(auth)
        .type('form')
        .send({ name: `Renamed at ${path}` })
        .expect(200);
      await http.delete(`${path}/${made.body.id}`).set(auth).expect(204);
    }

    const { createInboundWebhookToken } = await graphqlData(
      testApp,
      token,
      'mutation { createInboundWebhookToken(input: { kind: CREATE }) { token } }',
    );
    await http
      .post(`/webhook/user/data/${createInboundWebhookToken.token}`)
      .set('x-ledger-webhook-topic', 'subscription.created')
      .send({ ...MINIMAL, payment_date: today })
      .expect(200);
    const { createCalendarFeed } = await graphqlData(
      testApp,
      token,
      'mutation { createCalendarFeed(input: {name: "Phone"}) { calendarFeed { id } url } }',
    );
    const feedPath = new URL(createCalendarFeed.url).pathname;
    const feed = await http.get(feedPath).expect(200);
    await http.get(feedPath).set('if-none-match', feed.headers.etag).expect(304);
    await http.get('/export/subscriptions.csv').set(auth).expect(200);
    await http.get('/export/account.json').set(auth).expect(200);
    await http.get('/api/v1/auth/logout').set(auth).expect(200);
    // Single sign-on's two steps succeed with a redirect: to the provider, then back to the dashboard.
    await http.get('/auth/oidc/login').expect(303);
    provider.signInAs({ sub: 'api-document', email: user.email, email_verified: true });
    const callback = await new TestBrowser().followUntil(`${testApp.baseUrl}/auth/oidc/login`, PUBLIC);
    await http.get(`${callback.pathname}${callback.search}`).expect(303);

    const succeeded = new Set(
      [...checkedAnswers]
        .filter((answer) => /\s(2\d\d|303)$/.test(answer))
        .map((answer) => answer.replace(/\s\d+$/, '')),
    );
    expect(operations.filter((operation) => !succeeded.has(operation))).toEqual([]);
  });

  it('checks failures against the document too: the error body on a refused create, an unknown id and a missing token', async () => {
    checkedAnswers.clear();
    await testApp.http.post('/api/v1/subscriptions').set(bearer()).field('brand_id', '1').expect(400);
    await testApp.http.get('/api/v1/alerts/999999').set(bearer()).expect(400);
    await testApp.http.get('/api/v1/subscriptions').expect(401);
    expect([...checkedAnswers].sort()).toEqual([
      'get /api/v1/alerts/{id} 400',
      'get /api/v1/subscriptions 401',
      'post /api/v1/subscriptions 400',
    ]);
  });
});

describe('the check refuses what the document does not describe', () => {
  const record = async () =>
    (await testApp.http.get('/api/v1/subscriptions?length=1').set(bearer()).expect(200)).body as Record<
      string,
      unknown
    >[];
  const answer = (status: number, body: unknown, type = 'application/json; charset=utf-8') => ({
    status,
    headers: { 'content-type': type },
    body,
  });

  it('refuses a record with a field missing, a field of another type, or a field too many', async () => {
    await createSubscription(testApp, user.token);
    const [item] = await record();
    expect(() => checkAgainstDocument('get', '/api/v1/subscriptions', answer(200, [item]))).not.toThrow();
    const { price: _price, ...withoutPrice } = item;
    expect(() => checkAgainstDocument('get', '/api/v1/subscriptions', answer(200, [withoutPrice]))).toThrow(
      /must have required property 'price'/,
    );
    expect(() =>
      checkAgainstDocument('get', '/api/v1/subscriptions', answer(200, [{ ...item, price: '15.49' }])),
    ).toThrow(/price must be number/);
    expect(() => checkAgainstDocument('get', '/api/v1/subscriptions', answer(200, [{ ...item, secret: 1 }]))).toThrow(
      /additional properties/,
    );
  });

  it('refuses an undocumented status, another media type and a body where none is documented', () => {
    expect(() =>
      checkAgainstDocument('delete', '/api/v1/tags/3', answer(404, { status: false, message: 'x' })),
    ).toThrow(/does not list/);
    expect(() => checkAgainstDocument('get', '/export/subscriptions.csv', answer(200, {}, 'application/json'))).toThrow(
      /the document says text\/csv/,
    );
    expect(() => checkAgainstDocument('delete', '/api/v1/tags/3', { ...answer(204, {}), text: 'body' })).toThrow(
      /does not describe/,
    );
  });
});

describe('the document over HTTP, and the pages that render it', () => {
  it('serves /openapi.json with the configured service name in the inbound webhook’s headers', async () => {
    const response = await testApp.http.get('/openapi.json').expect(200);
    expect(response.body).toEqual(openApiDocument('ledger'));
    const headers = response.body.paths['/webhook/user/data/{token}'].post.parameters.map(
      (parameter: { name: string }) => parameter.name,
    );
    expect(headers).toEqual(expect.arrayContaining(['x-ledger-webhook-topic', 'x-ledger-webhook-event']));
  });

  it.each([
    ['/docs', 'text/html'],
    ['/graphql', 'text/html'],
  ])('serves %s to browsers with scripts and styles from this server only', async (path) => {
    const page = await testApp.http.get(path).set('accept', 'text/html,application/xhtml+xml').expect(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    const assets = [...page.text.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1]);
    expect(assets.length).toBeGreaterThan(0);
    for (const asset of assets) {
      expect(asset).toMatch(/^\/[a-z]/);
      const served = await testApp.http.get(asset).expect(200);
      expect(served.headers['content-type']).toMatch(/javascript|css/);
      // The libraries themselves, or the page's start-up script served beside them.
      expect(Number(served.headers['content-length'])).toBeGreaterThan(asset.endsWith('/start.js') ? 100 : 1000);
    }
  });

  it('leaves GraphQL over GET to Apollo for API clients', async () => {
    const answer = await testApp.http
      .get('/graphql?query=%7B__typename%7D')
      .set('accept', 'application/json')
      .set('apollo-require-preflight', '1')
      .expect(200);
    expect(answer.body).toEqual({ data: { __typename: 'Query' } });
  });
});
