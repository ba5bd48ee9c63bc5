import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { graphqlData, signUp, sql, startTestApp, type SignedUpUser, type TestApp } from '../support/test-app';

/** Imports over HTTP as a GraphQL client uploads a file (graphql-multipart-request-spec), from real-shaped files. */
let testApp: TestApp;

beforeAll(async () => {
  testApp = await startTestApp();
});
afterAll(() => testApp.close());

const fixture = (name: string) => readFileSync(join(__dirname, '../fixtures/imports', name));

const IMPORT = `mutation ($format: ImportFormat!, $file: Upload!, $dryRun: Boolean, $skipRefused: Boolean, $currency: String, $dateOrder: DateOrder, $mapping: [ColumnMappingInput!]) {
  importSubscriptions(format: $format, file: $file, dryRun: $dryRun, skipRefused: $skipRefused, currency: $currency, dateOrder: $dateOrder, mapping: $mapping) {
    format dryRun total created refused
    rows { line name outcome recordId matches { kind name id existing } notes problems { field messages } }
    webhookEndpoints { id url secret }
  }
}`;

interface RowReport {
  line: number;
  name: string;
  outcome: string;
  recordId: number | null;
  matches: Array<{ kind: string; name: string; id: number | null; existing: boolean }>;
  notes: string[];
  problems: Array<{ field: string; messages: string[] }>;
}
interface Report {
  format: string;
  dryRun: boolean;
  total: number;
  created: number;
  refused: number;
  rows: RowReport[];
  webhookEndpoints: Array<{ id: number; url: string; secret: string }>;
}

function upload(token: string | null, format: string, file: Buffer, variables: Record<string, unknown> = {}, filename = 'export.file') {
  const request = testApp.http
    .post('/graphql')
    .field('operations', JSON.stringify({ query: IMPORT, variables: { format, file: null, ...variables } }))
    .field('map', JSON.stringify({ 0: ['variables.file'] }))
    .attach('0', file, filename);
  return token ? request.set('authorization', `Bearer ${token}`) : request;
}

async function imported(token: string, format: string, file: Buffer, variables: Record<string, unknown> = {}): Promise<Report> {
  const response = await upload(token, format, file, variables);
  expect(response.status).toBe(200);
  expect(response.body.errors).toBeUndefined();
  return response.body.data.importSubscriptions;
}

const records = (user: SignedUpUser) =>
  graphqlData<{ subscriptions: { edges: Array<{ node: Record<string, any> }> } }>(
    testApp,
    user.token,
    `{ subscriptions(first: 100) { edges { node { id productName price currency billingCycle billingFrequency billingType paymentDate nextPaymentDate
        status recurring note contractExpiry alertId category { id } paymentMode { id name } tags { name } product { id } } } } }`,
  ).then((data) =>
    data.subscriptions.edges.map(({ node: { category, paymentMode, ...node } }) => ({
      ...node,
      categoryId: category?.id ?? null,
      paymentModeId: paymentMode?.id ?? null,
      paymentMode: paymentMode?.name ?? null,
    })),
  );

const count = async (table: string, user: SignedUpUser) =>
  Number((await sql<{ n: string }>(testApp, `select count(*) as n from "${table}" where "user_id" = ?`, [user.id]))[0].n);

describe('Wallos exports', () => {
  it('a dry run answers row by row what would be created, matched or refused, and changes nothing', async () => {
    const ann = await signUp(testApp, 'Ann');
    const report = await imported(ann.token, 'WALLOS', fixture('wallos-export.json'), { dryRun: true });
    expect(report).toMatchObject({ format: 'WALLOS', dryRun: true, total: 4, created: 0, refused: 1, webhookEndpoints: [] });
    const [youtube, backblaze, gym, mystery] = report.rows;
    expect(youtube).toMatchObject({ line: 1, name: 'YouTube Premium', outcome: 'WOULD_CREATE', recordId: null, problems: [] });
    expect(youtube.matches).toEqual([
      { kind: 'product', name: 'YouTube Premium', id: expect.any(Number), existing: true },
      { kind: 'currency', name: 'EUR', id: null, existing: true },
      { kind: 'category', name: 'Video Streaming', id: 2, existing: true },
      { kind: 'paymentMode', name: 'PayPal', id: null, existing: false },
    ]);
    expect(youtube.notes).toEqual(['The URL is kept in the note (a record takes its web address from its product).']);
    expect(backblaze.matches).toContainEqual({ kind: 'category', name: 'Backups', id: null, existing: false });
    expect(backblaze.notes).toContain('"$" read as USD (it may be USD, AUD, CAD).');
    expect(gym).toMatchObject({ outcome: 'WOULD_CREATE', problems: [] });
    // Wallos' "No category" is no category here.
    expect(gym.matches.map((match) => match.kind)).toEqual(['product', 'currency', 'paymentMode']);
    expect(mystery.outcome).toBe('REFUSED');
    expect(mystery.problems).toEqual([
      { field: 'billing_cycle', messages: ['"Every 2 Fortnights" is not a billing period (e.g. Monthly, Every 3 Months).'] },
      { field: 'price_type', messages: ['The currency ¤ is not in the exchange-rate table.', 'The price_type must be a 3-letter currency code.'] },
    ]);
    expect(await count('subscriptions', ann)).toBe(0);
    expect(await count('payment_modes', ann)).toBe(0);
  });

  it('a real run with a refused row imports nothing and says which rows and why', async () => {
    const ann = await signUp(testApp, 'Ann');
    const response = await upload(ann.token, 'WALLOS', fixture('wallos-export.json'));
    expect(response.body.data).toBeNull();
    expect(response.body.errors[0]).toMatchObject({
      message: '1 of 4 rows are refused, so nothing was imported: fix them, or import with skipRefused.',
      extensions: { code: 'BAD_USER_INPUT', errors: { 'line 4': expect.arrayContaining([expect.stringContaining('Every 2 Fortnights')]) } },
    });
    expect(await count('subscriptions', ann)).toBe(0);
    expect(await count('product_categories', ann)).toBe(0);
  });

  it('with skipRefused, imports the others through the domain: links made once, one event and reminders per record', async () => {
    const ann = await signUp(testApp, 'Ann');
    const report = await imported(ann.token, 'WALLOS', fixture('wallos-export.json'), { skipRefused: true });
    expect(report).toMatchObject({ dryRun: false, total: 4, created: 3, refused: 1 });
    expect(report.rows.map((row) => row.outcome)).toEqual(['CREATED', 'CREATED', 'CREATED', 'REFUSED']);
    const byId = new Map((await records(ann)).map((record) => [Number(record.id), record]));
    const [youtube, backblaze, gym] = report.rows.map((row) => byId.get(row.recordId!)!);
    expect(youtube).toMatchObject({
      productName: 'YouTube Premium',
      price: '15.99',
      currency: 'EUR',
      billingCycle: 3,
      billingFrequency: 1,
      billingType: 2,
      paymentDate: '2027-01-31',
      nextPaymentDate: '2027-01-31',
      status: 1,
      recurring: 1,
      note: 'Family plan\nhttps://youtube.com\nPaid by Ann',
      alertId: 1,
      categoryId: 2,
      paymentMode: 'PayPal',
    });
    expect(youtube.product.id).toBe(report.rows[0].matches[0].id);
    expect(backblaze).toMatchObject({ price: '21.00', currency: 'USD', billingCycle: 3, billingFrequency: 3, alertId: 0, contractExpiry: '2027-06-30' });
    expect(gym).toMatchObject({ price: '120.00', currency: 'GBP', billingCycle: 4, status: 2, note: 'Closed branch\nPaid by Ann' });
    // "Credit Card" named twice is one payment method; "Backups" became the user's category.
    expect(backblaze.paymentModeId).toBe(gym.paymentModeId);
    expect(await count('payment_modes', ann)).toBe(2);
    const [backups] = await sql<{ id: number }>(testApp, `select "id" from "product_categories" where "user_id" = ? and "name" = 'Backups'`, [ann.id]);
    expect(backblaze.categoryId).toBe(backups.id);
    const events = await sql<{ topic: string; n: string }>(testApp, `select "topic", count(*) as n from "webhook_events" where "user_id" = ? group by 1`, [
      ann.id,
    ]);
    expect(events).toEqual([{ topic: 'subscription.created', n: '3' }]);
    const reminders = await sql<{ subscription_id: number }>(testApp, `select distinct "subscription_id" from "reminders" where "user_id" = ?`, [ann.id]);
    // Only the active record with notifications on has reminders (Backblaze's are off, the gym is cancelled).
    expect(reminders.map((row) => row.subscription_id)).toEqual([report.rows[0].recordId]);
  });

  it("reads Wallos' CSV export the same as its JSON, and the older CSV without the payment cycle", async () => {
    const ann = await signUp(testApp, 'Ann');
    const fromJson = await imported(ann.token, 'WALLOS', fixture('wallos-export.json'), { dryRun: true });
    const fromCsv = await imported(ann.token, 'WALLOS', fixture('wallos-export.csv'), { dryRun: true });
    // Lines differ (the header is line 1 of the CSV); what each row becomes does not.
    expect(fromCsv.rows.map((row) => row.line)).toEqual([2, 3, 4, 5]);
    expect(fromCsv.rows.map(({ line: _line, ...row }) => row)).toEqual(fromJson.rows.map(({ line: _line, ...row }) => row));

    const older = await imported(ann.token, 'WALLOS', fixture('wallos-export-2024.csv'));
    expect(older.rows[0]).toMatchObject({ outcome: 'CREATED', notes: expect.arrayContaining(['No billing period given: monthly.']) });
    expect(older.rows[0].matches).toContainEqual({ kind: 'category', name: 'Cloud', id: null, existing: false });
    const [record] = await records(ann);
    expect(record).toMatchObject({ productName: 'Nextcloud hosting', price: '9.50', currency: 'CHF', billingCycle: 3, paymentMode: 'Bank transfer' });
  });
});

describe('CSV from a spreadsheet', () => {
  it('reads a BOM, semicolons, CRLF, quoted line breaks, decimal commas and day-first dates; refuses an impossible date', async () => {
    const ann = await signUp(testApp, 'Ann');
    const report = await imported(ann.token, 'CSV', fixture('spreadsheet.csv'), { skipRefused: true });
    expect(report.rows.map((row) => [row.line, row.name, row.outcome])).toEqual([
      [2, 'Spotify Premium Family', 'CREATED'],
      [4, 'VPN', 'CREATED'],
      [5, 'Newspaper', 'REFUSED'],
    ]);
    expect(report.rows[2].problems).toEqual([{ field: 'payment_date', messages: ['The date does not exist.'] }]);
    const byId = new Map((await records(ann)).map((record) => [Number(record.id), record]));
    const spotify = byId.get(report.rows[0].recordId!)!;
    expect(spotify).toMatchObject({ price: '19.99', currency: 'EUR', paymentDate: '2027-01-31', categoryId: 3, note: 'Shared with\r\nthe kids; paid by Ann' });
    expect(spotify.tags.map((tag: { name: string }) => tag.name).sort()).toEqual(['family', 'music']);
    expect(byId.get(report.rows[1].recordId!)).toMatchObject({ price: '1234.50', currency: 'SEK', billingCycle: 4, paymentDate: '2028-02-29' });
  });

  it('takes a column mapping over the detected one, and the date order for slashed dates', async () => {
    const ann = await signUp(testApp, 'Ann');
    const file = Buffer.from('What,Cost,When,Plan\nHosting,5,03/04/2027,Every 2 weeks\n');
    const unmapped = await upload(ann.token, 'CSV', file, { dryRun: true });
    expect(unmapped.body.errors[0].message).toBe(
      'No column found for name, paymentDate in the header (What, Cost, When, Plan): map them (mapping: {field: "Column"}).',
    );
    const mapping = [
      { field: 'NAME', column: 'What' },
      { field: 'PRICE', column: 'cost' },
      { field: 'PAYMENT_DATE', column: 'When' },
      { field: 'CYCLE', column: 'Plan' },
    ];
    const ambiguous = await imported(ann.token, 'CSV', file, { dryRun: true, mapping });
    expect(ambiguous.rows[0].problems).toEqual([
      { field: 'payment_date', messages: ['"03/04/2027" could be day/month or month/day: give the file\'s date order (DMY or MDY).'] },
    ]);
    const dayFirst = await imported(ann.token, 'CSV', file, { mapping, dateOrder: 'DMY', currency: 'EUR' });
    expect(dayFirst.rows[0].outcome).toBe('CREATED');
    const [record] = await records(ann);
    expect(record).toMatchObject({ productName: 'Hosting', paymentDate: '2027-04-03', billingCycle: 2, billingFrequency: 2, currency: 'EUR', price: '5.00' });
  });
});

describe('the upload', () => {
  it('needs a Bearer token, and refuses a file that is not in the format', async () => {
    const ann = await signUp(testApp, 'Ann');
    const anonymous = await upload(null, 'CSV', fixture('spreadsheet.csv'));
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual({ status: false, message: 'A file upload needs your Bearer token' });
    const broken = await upload(ann.token, 'SUBLEDGER', Buffer.from('{"format": "subledger-account", "version": 1, "subscriptions": [{'));
    expect(broken.body.errors[0]).toMatchObject({ extensions: { code: 'BAD_USER_INPUT' } });
    expect(broken.body.errors[0].message).toMatch(/^The file is not readable as JSON/);
    const foreign = await upload(ann.token, 'SUBLEDGER', Buffer.from('{"format": "other", "version": 1}'));
    expect(foreign.body.errors[0].message).toBe('The file is not a Subledger account export (format subledger-account, version 1).');
  });

  it('refuses a file over 10 MB with a 413-coded error', async () => {
    const ann = await signUp(testApp, 'Ann');
    const row = `Hosting,5,2027-01-01,${'x'.repeat(100_000)}\n`;
    const big = Buffer.from(`name,price,date,notes\n${row.repeat(Math.ceil((10 * 1024 * 1024) / row.length) + 1)}`);
    const response = await upload(ann.token, 'CSV', big, { dryRun: true });
    expect(response.body.errors[0]).toMatchObject({ message: 'The file is over the 10 MB an import takes.', extensions: { code: 'PAYLOAD_TOO_LARGE' } });
    expect(await count('subscriptions', ann)).toBe(0);
  });
});
