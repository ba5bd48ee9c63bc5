import { parse } from 'csv-parse/sync';

import { createSubscription } from '../support/subscriptions';
import { graphqlData, type SignedUpUser, signUp, startTestApp, type TestApp } from '../support/test-app';

/** The downloads of one's data, over HTTP with a Bearer token as a client fetches them. */
let testApp: TestApp;
let ann: SignedUpUser;
let bob: SignedUpUser;
let tagged: Record<string, unknown>;
let secret: string;

beforeAll(async () => {
  testApp = await startTestApp({ WEBHOOK_ALLOW_PRIVATE: 'true' });
  [ann, bob] = await Promise.all([signUp(testApp, 'Ann'), signUp(testApp, 'Bob')]);
  const { createFolder } = await graphqlData<{ createFolder: { folder: { legacyId: number } } }>(
    testApp,
    ann.token,
    'mutation { createFolder(input: {name: "Media", color: "#112233"}) { folder { legacyId } } }',
  );
  tagged = await createSubscription(testApp, ann.token, {
    folder_id: String(createFolder.folder.legacyId),
    'tags[]': ['video', 'family'],
    note: 'shared, with "quotes"\nand a second line',
  });
  await createSubscription(testApp, ann.token, { recurring: '0', price: '99.00', price_type: 'EUR' });
  await createSubscription(testApp, bob.token, { note: "Bob's own" });
  const endpoint = await graphqlData<{ createWebhookEndpoint: { secret: string } }>(
    testApp,
    ann.token,
    'mutation { createWebhookEndpoint(input: {url: "http://127.0.0.1:9/hook"}) { secret } }',
  );
  secret = endpoint.createWebhookEndpoint.secret;
});
afterAll(() => testApp.close());

const download = (path: string, token: string | null) => {
  const request = testApp.http
    .get(path)
    .buffer(true)
    .parse((res, done) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => done(null, Buffer.concat(chunks).toString('utf8')));
    });
  return token ? request.set('authorization', `Bearer ${token}`) : request;
};

it('exports every record as CSV with labels, for spreadsheets (a BOM, quoted commas and newlines, tags in one cell)', async () => {
  const response = await download('/export/subscriptions.csv', ann.token);
  expect(response.status).toBe(200);
  expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
  expect(response.headers['content-disposition']).toBe('attachment; filename=subscriptions.csv');
  const text = response.body as string;
  expect(text.startsWith('\uFEFF')).toBe(true);
  const rows = parse(text, { bom: true, columns: true }) as Array<Record<string, string>>;
  expect(rows).toHaveLength(2);
  const first = rows.find((row) => row.id === String(tagged.id))!;
  expect(first).toMatchObject({
    product_name: tagged.product_name,
    price: '15.49',
    price_type: 'USD',
    status_value: 'Active',
    folder_name: 'Media',
    tags: 'family;video',
  });
  expect(first.note).toBe('shared, with "quotes"\nand a second line');
  expect(text).not.toContain("Bob's own");
});

it('exports the whole account as JSON: own rows only, with links between them, and no secrets', async () => {
  const response = await testApp.http.get('/export/account.json').set('authorization', `Bearer ${ann.token}`);
  expect(response.status).toBe(200);
  expect(response.headers['content-disposition']).toBe('attachment; filename=account.json');
  const account = response.body;
  expect(account).toMatchObject({ format: 'subledger-account', version: 1, exportedAt: expect.any(String) });
  expect(account.profile).toEqual({ name: 'Ann', email: ann.email, baseCurrency: 'USD', timezone: 'UTC' });
  expect(account.settings).toEqual({ autoDetectSubscriptions: 0, browserNotifications: 0, notifyBefore: 3 });
  expect(account.folders).toEqual([{ id: expect.any(Number), name: 'Media', color: '#112233', isDefault: false }]);
  expect(account.tags.map((tag: { name: string }) => tag.name).sort()).toEqual(['family', 'video']);
  // The system's default alert and global categories are the server's, not the account's.
  expect(account.alerts).toEqual([]);
  expect(account.categories).toEqual([]);
  expect(account.webhookEndpoints).toEqual([
    { id: expect.any(Number), url: 'http://127.0.0.1:9/hook', events: [], enabled: true },
  ]);
  expect(response.text).not.toContain(secret);
  expect(account.subscriptions).toHaveLength(2);
  const record = account.subscriptions.find((item: { id: number }) => item.id === tagged.id);
  expect(record).toMatchObject({
    folder_id: account.folders[0].id,
    tags: ['family', 'video'],
    alert_ids: [1],
    price: 15.49,
  });
  expect(response.text).not.toContain("Bob's own");
});

it('lets a dashboard on another origin download them (CORS), with the file name exposed', async () => {
  const preflight = await testApp.http
    .options('/export/account.json')
    .set('origin', 'https://dash.example.com')
    .set('access-control-request-method', 'GET')
    .set('access-control-request-headers', 'authorization');
  expect([preflight.status, preflight.headers['access-control-allow-origin']]).toEqual([204, '*']);
  const download = await testApp.http
    .get('/export/account.json')
    .set('origin', 'https://dash.example.com')
    .set('authorization', `Bearer ${ann.token}`);
  expect(download.headers['access-control-expose-headers']).toContain('Content-Disposition');
});

it('needs a token, and names the downloads in GraphQL', async () => {
  for (const path of ['/export/subscriptions.csv', '/export/account.json']) {
    const response = await testApp.http.get(path);
    expect([path, response.status, response.body.status]).toEqual([path, 401, false]);
  }
  const { exportLinks } = await graphqlData<{ exportLinks: Record<string, string> }>(
    testApp,
    bob.token,
    '{ exportLinks { subscriptionsCsv accountJson } }',
  );
  expect(exportLinks).toEqual({
    subscriptionsCsv: `${testApp.config.baseUrl}/export/subscriptions.csv`,
    accountJson: `${testApp.config.baseUrl}/export/account.json`,
  });
});
