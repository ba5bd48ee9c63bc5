import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { addMonths } from '../../src/platform/dates';
import { fromGlobalId, toGlobalId } from '../../src/platform/graphql/global-ids';
import { nextOnOrAfter } from '../../src/subscriptions/payment-dates';
import { exportedAlert, exportedPayment, exportedRecord, uploadAccount } from '../support/account-imports';
import { ownedRows } from '../support/hardening';
import { runCli } from '../support/service-process';
import { MINIMAL, postSubscription } from '../support/subscriptions';
import { graphqlData, type SignedUpUser, signUp, sql, startTestApp, type TestApp } from '../support/test-app';
import { daysFromToday, today } from '../support/test-clock';

/** Imports over HTTP as a GraphQL client uploads a file (graphql-multipart-request-spec), from real-shaped files. */
let testApp: TestApp;

beforeAll(async () => {
  testApp = await startTestApp();
});
afterAll(() => testApp.close());

const fixture = (name: string) => readFileSync(join(__dirname, '../fixtures/imports', name));

const IMPORT = `mutation ($input: ImportSubscriptionsInput!) {
  importSubscriptions(input: $input) {
    report {
      format dryRun total created refused
      rows { line name outcome recordId matches { kind name id existing } notes problems { field messages } }
      webhookEndpoints { id url secret }
    }
    userErrors { field code message }
  }
}`;

interface RowReport {
  line: number;
  name: string;
  outcome: string;
  recordId: string | null;
  matches: Array<{ kind: string; name: string; id: string | null; existing: boolean }>;
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
  webhookEndpoints: Array<{ id: string; url: string; secret: string }>;
}

/** The row id of a record a report names. */
const rowId = (recordId: string | null): number => {
  const decoded = fromGlobalId(recordId!);
  expect(decoded?.typeName).toBe('SubscriptionRecord');
  return decoded!.id;
};

function upload(
  token: string | null,
  format: string,
  file: Buffer,
  variables: Record<string, unknown> = {},
  filename = 'export.file',
) {
  const request = testApp.http
    .post('/graphql')
    .field('operations', JSON.stringify({ query: IMPORT, variables: { input: { format, file: null, ...variables } } }))
    .field('map', JSON.stringify({ 0: ['variables.input.file'] }))
    .attach('0', file, filename);
  return token ? request.set('authorization', `Bearer ${token}`) : request;
}

async function imported(
  token: string,
  format: string,
  file: Buffer,
  variables: Record<string, unknown> = {},
): Promise<Report> {
  const response = await upload(token, format, file, variables);
  expect(response.status).toBe(200);
  expect(response.body.errors).toBeUndefined();
  expect(response.body.data.importSubscriptions.userErrors).toEqual([]);
  return response.body.data.importSubscriptions.report;
}

/** The userErrors of a refused upload, checked to be the first of its errors too, with that error. */
async function refusedUpload(response: { body: any }, code: string) {
  expect(response.body.data.importSubscriptions.report).toBeNull();
  const [userError] = response.body.data.importSubscriptions.userErrors;
  expect(userError).toEqual({ field: expect.any(Array), code, message: expect.any(String) });
  expect(response.body.errors[0].extensions.code).toBe(code);
  return response.body.data.importSubscriptions.userErrors;
}

const records = (user: SignedUpUser) =>
  graphqlData<{ subscriptions: { edges: Array<{ node: Record<string, any> }> } }>(
    testApp,
    user.token,
    `{ subscriptions(first: 100) { edges { node { id legacyId productName price { amount currency } billingCycle billingFrequency billingType paymentDate nextPaymentDate
        status recurring note contractExpiry alerts { id } category { id } paymentMode { id name } tags { name } product { id } } } } }`,
  ).then((data) =>
    data.subscriptions.edges.map(({ node: { price, category, paymentMode, ...node } }): Record<string, any> => ({
      ...node,
      // The price's amount and currency side by side, as the file gives them.
      price: price.amount,
      currency: price.currency,
      categoryId: category?.id ?? null,
      paymentModeId: paymentMode?.id ?? null,
      paymentMode: paymentMode?.name ?? null,
    })),
  );
/** The alerts of a record as GraphQL lists them, by their row ids. */
const alertsOf = (...rowIds: number[]) => rowIds.map((id) => ({ id: toGlobalId('Alert', id) }));

const count = async (table: string, user: SignedUpUser) =>
  Number(
    (await sql<{ n: string }>(testApp, `select count(*) as n from "${table}" where "user_id" = ?`, [user.id]))[0].n,
  );

describe('Wallos exports', () => {
  it('a dry run answers row by row what would be created, matched or refused, and changes nothing', async () => {
    const ann = await signUp(testApp, 'Ann');
    const report = await imported(ann.token, 'WALLOS', fixture('wallos-export.json'), { dryRun: true });
    expect(report).toMatchObject({
      format: 'WALLOS',
      dryRun: true,
      total: 4,
      created: 0,
      refused: 1,
      webhookEndpoints: [],
    });
    const [youtube, backblaze, gym, mystery] = report.rows;
    expect(youtube).toMatchObject({
      line: 1,
      name: 'YouTube Premium',
      outcome: 'WOULD_CREATE',
      recordId: null,
      problems: [],
    });
    expect(youtube.matches).toEqual([
      { kind: 'PRODUCT', name: 'YouTube Premium', id: expect.any(String), existing: true },
      { kind: 'CURRENCY', name: 'EUR', id: null, existing: true },
      { kind: 'CATEGORY', name: 'Video Streaming', id: toGlobalId('ProductCategory', 2), existing: true },
      { kind: 'PAYMENT_MODE', name: 'PayPal', id: null, existing: false },
    ]);
    expect(youtube.notes).toEqual(['The URL is kept in the note (a record takes its web address from its product).']);
    expect(backblaze.matches).toContainEqual({ kind: 'CATEGORY', name: 'Backups', id: null, existing: false });
    expect(backblaze.notes).toContain('"$" read as USD (it may be USD, AUD, CAD).');
    expect(gym).toMatchObject({ outcome: 'WOULD_CREATE', problems: [] });
    // Wallos' "No category" is no category here.
    expect(gym.matches.map((match) => match.kind)).toEqual(['PRODUCT', 'CURRENCY', 'PAYMENT_MODE']);
    expect(mystery.outcome).toBe('REFUSED');
    expect(mystery.problems).toEqual([
      {
        field: 'billing_cycle',
        messages: ['"Every 2 Fortnights" is not a billing period (e.g. Monthly, Every 3 Months).'],
      },
      {
        field: 'price_type',
        messages: [
          'The currency ¤ is not in the exchange-rate table.',
          'The price_type must be a 3-letter currency code.',
        ],
      },
    ]);
    expect(await count('subscriptions', ann)).toBe(0);
    expect(await count('payment_modes', ann)).toBe(0);
  });

  it('a real run with a refused row imports nothing and says which rows and why', async () => {
    const ann = await signUp(testApp, 'Ann');
    const response = await upload(ann.token, 'WALLOS', fixture('wallos-export.json'));
    // Each of the refused row's problems, under its line.
    const userErrors = await refusedUpload(response, 'BAD_USER_INPUT');
    expect(userErrors).toContainEqual({
      field: ['input', 'line 4'],
      code: 'BAD_USER_INPUT',
      message: expect.stringContaining('Every 2 Fortnights'),
    });
    expect(userErrors.every((error: { field: string[] }) => error.field.join('.') === 'input.line 4')).toBe(true);
    expect(response.body.errors[0]).toMatchObject({
      message: '1 of 4 rows are refused, so nothing was imported: fix them, or import with skipRefused.',
      extensions: {
        code: 'BAD_USER_INPUT',
        errors: { 'line 4': expect.arrayContaining([expect.stringContaining('Every 2 Fortnights')]) },
      },
    });
    expect(await count('subscriptions', ann)).toBe(0);
    expect(await count('product_categories', ann)).toBe(0);
  });

  it('with skipRefused, imports the others through the domain: links made once, one event and reminders per record', async () => {
    const ann = await signUp(testApp, 'Ann');
    const report = await imported(ann.token, 'WALLOS', fixture('wallos-export.json'), { skipRefused: true });
    expect(report).toMatchObject({ dryRun: false, total: 4, created: 3, refused: 1 });
    expect(report.rows.map((row) => row.outcome)).toEqual(['CREATED', 'CREATED', 'CREATED', 'REFUSED']);
    const byId = new Map((await records(ann)).map((record) => [record.legacyId as number, record]));
    const [youtube, backblaze, gym] = report.rows.slice(0, 3).map((row) => byId.get(rowId(row.recordId))!);
    expect(youtube).toMatchObject({
      productName: 'YouTube Premium',
      price: '15.99',
      currency: 'EUR',
      billingCycle: 'MONTHLY',
      billingFrequency: 1,
      billingType: 'CALENDAR_DATE',
      paymentDate: '2027-01-31',
      // The file's next payment while it is ahead; on a later day, the first month end on or after today.
      nextPaymentDate: nextOnOrAfter(
        { anchor: '2027-01-31', billingType: 2, billingCycle: 3, billingFrequency: 1 },
        today(),
      ),
      status: 'ACTIVE',
      recurring: 'RECURRING',
      note: 'Family plan\nhttps://youtube.com\nPaid by Ann',
      alerts: alertsOf(1),
      categoryId: toGlobalId('ProductCategory', 2),
      paymentMode: 'PayPal',
    });
    expect(youtube.product.id).toBe(report.rows[0].matches[0].id);
    expect(backblaze).toMatchObject({
      price: '21.00',
      currency: 'USD',
      billingCycle: 'MONTHLY',
      billingFrequency: 3,
      alerts: [],
      contractExpiry: '2027-06-30',
    });
    expect(gym).toMatchObject({
      price: '120.00',
      currency: 'GBP',
      billingCycle: 'YEARLY',
      status: 'CANCELLED',
      note: 'Closed branch\nPaid by Ann',
    });
    // "Credit Card" named twice is one payment method; "Backups" became the user's category.
    expect(backblaze.paymentModeId).toBe(gym.paymentModeId);
    expect(await count('payment_modes', ann)).toBe(2);
    const [backups] = await sql<{ id: number }>(
      testApp,
      `select "id" from "product_categories" where "user_id" = ? and "name" = 'Backups'`,
      [ann.id],
    );
    expect(backblaze.categoryId).toBe(toGlobalId('ProductCategory', backups.id));
    // Reminders aside: on a day when an imported record's next payment is close, one may fire at once.
    const events = await sql<{ topic: string; n: string }>(
      testApp,
      `select "topic", count(*) as n from "webhook_events" where "user_id" = ? and "topic" not like '%\\_due' group by 1`,
      [ann.id],
    );
    expect(events).toEqual([{ topic: 'subscription.created', n: '3' }]);
    const reminders = await sql<{ subscription_id: number }>(
      testApp,
      `select distinct "subscription_id" from "reminders" where "user_id" = ?`,
      [ann.id],
    );
    // Only the active record with notifications on has reminders (Backblaze's are off, the gym is cancelled).
    expect(reminders.map((row) => row.subscription_id)).toEqual([rowId(report.rows[0].recordId)]);
  });

  it("reads Wallos' CSV export the same as its JSON, and the older CSV without the payment cycle", async () => {
    const ann = await signUp(testApp, 'Ann');
    const fromJson = await imported(ann.token, 'WALLOS', fixture('wallos-export.json'), { dryRun: true });
    const fromCsv = await imported(ann.token, 'WALLOS', fixture('wallos-export.csv'), { dryRun: true });
    // Lines differ (the header is line 1 of the CSV); what each row becomes does not.
    expect(fromCsv.rows.map((row) => row.line)).toEqual([2, 3, 4, 5]);
    expect(fromCsv.rows.map(({ line: _line, ...row }) => row)).toEqual(
      fromJson.rows.map(({ line: _line, ...row }) => row),
    );

    const older = await imported(ann.token, 'WALLOS', fixture('wallos-export-2024.csv'));
    expect(older.rows[0]).toMatchObject({
      outcome: 'CREATED',
      notes: expect.arrayContaining(['No billing period given: monthly.']),
    });
    expect(older.rows[0].matches).toContainEqual({ kind: 'CATEGORY', name: 'Cloud', id: null, existing: false });
    const [record] = await records(ann);
    expect(record).toMatchObject({
      productName: 'Nextcloud hosting',
      price: '9.50',
      currency: 'CHF',
      billingCycle: 'MONTHLY',
      paymentMode: 'Bank transfer',
    });
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
    const byId = new Map((await records(ann)).map((record) => [record.legacyId as number, record]));
    const spotify = byId.get(rowId(report.rows[0].recordId))!;
    expect(spotify).toMatchObject({
      price: '19.99',
      currency: 'EUR',
      paymentDate: '2027-01-31',
      categoryId: toGlobalId('ProductCategory', 3),
      note: 'Shared with\r\nthe kids; paid by Ann',
    });
    expect(spotify.tags.map((tag: { name: string }) => tag.name).sort()).toEqual(['family', 'music']);
    expect(byId.get(rowId(report.rows[1].recordId))).toMatchObject({
      price: '1234.50',
      currency: 'SEK',
      billingCycle: 'YEARLY',
      paymentDate: '2028-02-29',
    });
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
      {
        field: 'payment_date',
        messages: ['"03/04/2027" could be day/month or month/day: give the file\'s date order (DMY or MDY).'],
      },
    ]);
    const dayFirst = await imported(ann.token, 'CSV', file, { mapping, dateOrder: 'DMY', currency: 'EUR' });
    expect(dayFirst.rows[0].outcome).toBe('CREATED');
    const [record] = await records(ann);
    expect(record).toMatchObject({
      productName: 'Hosting',
      paymentDate: '2027-04-03',
      billingCycle: 'WEEKLY',
      billingFrequency: 2,
      currency: 'EUR',
      price: '5.00',
    });
  });
});

it("gives the records ids in the file's order, new products and catalogue ones alike", async () => {
  const ann = await signUp(testApp, 'Ann');
  const lines = ['Ordered New A', 'YouTube TV', 'Ordered New B', 'YouTube TV', 'Ordered New A'];
  const file = Buffer.from(
    `Name,Price,Currency,Next payment date\n${lines.map((name) => `${name},5,USD,2027-01-01`).join('\n')}\n`,
  );
  const report = await imported(ann.token, 'CSV', file);
  expect(report.rows.map((row) => row.outcome)).toEqual(lines.map(() => 'CREATED'));
  const ids = report.rows.map((row) => rowId(row.recordId));
  expect(ids).toEqual(ids.map((_, index) => ids[0] + index));
});

describe('the upload', () => {
  it('needs a Bearer token, and refuses a file that is not in the format', async () => {
    const ann = await signUp(testApp, 'Ann');
    const anonymous = await upload(null, 'CSV', fixture('spreadsheet.csv'));
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual({ status: false, message: 'A file upload needs your Bearer token' });
    const broken = await upload(
      ann.token,
      'SUBLEDGER',
      Buffer.from('{"format": "subledger-account", "version": 1, "subscriptions": [{'),
    );
    expect(broken.body.errors[0]).toMatchObject({ extensions: { code: 'BAD_USER_INPUT' } });
    expect(broken.body.data.importSubscriptions).toEqual({
      report: null,
      userErrors: [{ field: [], code: 'BAD_USER_INPUT', message: broken.body.errors[0].message }],
    });
    expect(broken.body.errors[0].message).toMatch(/^The file is not readable as JSON/);
    const foreign = await upload(ann.token, 'SUBLEDGER', Buffer.from('{"format": "other", "version": 1}'));
    expect(foreign.body.errors[0].message).toBe(
      'The file is not a Subledger account export (format subledger-account, version 1).',
    );
  });

  it('refuses a file over 10 MB with a 413-coded error', async () => {
    const ann = await signUp(testApp, 'Ann');
    const row = `Hosting,5,2027-01-01,${'x'.repeat(100_000)}\n`;
    const big = Buffer.from(`name,price,date,notes\n${row.repeat(Math.ceil((10 * 1024 * 1024) / row.length) + 1)}`);
    const response = await upload(ann.token, 'CSV', big, { dryRun: true });
    expect(response.body.data.importSubscriptions).toEqual({
      report: null,
      userErrors: [{ field: [], code: 'PAYLOAD_TOO_LARGE', message: 'The file is over the 10 MB an import takes.' }],
    });
    expect(response.body.errors[0]).toMatchObject({
      message: 'The file is over the 10 MB an import takes.',
      extensions: { code: 'PAYLOAD_TOO_LARGE' },
    });
    expect(await count('subscriptions', ann)).toBe(0);
  });
});

describe('a Subledger account export', () => {
  /** Ids are the account's own: each becomes its kind and place in the document, so links stay comparable. */
  function normalised(account: Record<string, any>): string {
    const ordinal = (prefix: string, rows: Array<{ id: number }>) =>
      new Map(rows.map((row, index) => [row.id, `${prefix}${index}`]));
    const folders = ordinal('folder', account.folders);
    const modes = ordinal('mode', account.paymentModes);
    const categories = ordinal('category', account.categories);
    const alerts = ordinal('alert', account.alerts);
    const records = ordinal('record', account.subscriptions);
    const members = ordinal('member', account.household?.members ?? []);
    const own = <T>(map: Map<number, string>, id: T) => map.get(id as number) ?? id;
    return JSON.stringify({
      ...account,
      exportedAt: 'at export',
      profile: { ...account.profile, email: 'the account' },
      folders: account.folders.map((row: any) => ({ ...row, id: own(folders, row.id) })),
      tags: account.tags.map((row: any) => ({ ...row, id: 'tag' })),
      paymentModes: account.paymentModes.map((row: any) => ({ ...row, id: own(modes, row.id) })),
      categories: account.categories.map((row: any) => ({ ...row, id: own(categories, row.id) })),
      alerts: account.alerts.map((row: any) => ({ ...row, id: own(alerts, row.id) })),
      webhookEndpoints: account.webhookEndpoints.map((row: any) => ({ ...row, id: 'endpoint' })),
      budgets: account.budgets.map((row: any) => ({
        ...row,
        categoryId: own(categories, row.categoryId),
        alertId: own(alerts, row.alertId),
      })),
      household: account.household && {
        ...account.household,
        members: account.household.members.map((row: any) => ({ ...row, id: own(members, row.id) })),
      },
      subscriptions: account.subscriptions.map((record: any) => ({
        ...record,
        id: own(records, record.id),
        user_id: 'user',
        created_by: 'user',
        folder_id: own(folders, record.folder_id),
        payment_mode_id: own(modes, record.payment_mode_id),
        category_id: own(categories, record.category_id),
        alert_id: own(alerts, record.alert_id),
        alert_ids: record.alert_ids.map((id: number) => own(alerts, id)),
        sub_id: own(records, record.sub_id),
        brand_id: record.brandname === null ? 'private product' : record.brand_id,
        sharing: record.sharing && {
          ...record.sharing,
          payer_member_id: own(members, record.sharing.payer_member_id),
          shares: record.sharing.shares.map((share: any) => ({ ...share, member_id: own(members, share.member_id) })),
        },
      })),
    });
  }

  const exported = async (user: SignedUpUser) => {
    const response = await testApp.http.get('/export/account.json').set('authorization', `Bearer ${user.token}`);
    expect(response.status).toBe(200);
    return response.body as Record<string, any>;
  };
  const rest = (user: SignedUpUser) => ({ authorization: `Bearer ${user.token}` });

  it('restores into an empty account losslessly: export, import, export are equal but for the ids', async () => {
    const ann = await signUp(testApp, 'Ann');
    const data = <T>(query: string) => graphqlData<T>(testApp, ann.token, query);
    await data(
      'mutation { updateProfile(input: {baseCurrency: "EUR", timezone: "Europe/Berlin"}) { user { id } userErrors { code } } }',
    );
    await data(
      'mutation { updateExtensionSettings(input: {notifyBefore: 5, browserNotifications: true}) { extensionSettings { notifyBefore } } }',
    );
    const {
      createFolder: { folder },
    } = await data<{ createFolder: { folder: { id: number } } }>(
      'mutation { createFolder(input: {name: "Media", color: "#112233"}) { folder { id: legacyId } } }',
    );
    const {
      createPaymentMode: { paymentMode: mode },
    } = await data<{ createPaymentMode: { paymentMode: { id: number } } }>(
      'mutation { createPaymentMode(input: {name: "Visa"}) { paymentMode { id: legacyId } } }',
    );
    const {
      createProductCategory: { productCategory: category },
    } = await data<{ createProductCategory: { productCategory: { id: number; globalId: string } } }>(
      'mutation { createProductCategory(input: {name: "Home"}) { productCategory { id: legacyId globalId: id } } }',
    );
    await data('mutation { createTag(input: {name: "unused"}) { tag { id } } }');
    const {
      createAlert: { alert },
    } = await data<{ createAlert: { alert: { id: number; globalId: string } } }>(
      'mutation { createAlert(input: {name: "Week before", timePeriod: 1, timeCycle: WEEKS, time: "08:30", condition: BEFORE_DUE_DATE, channel: EMAIL, timezone: "Europe/Berlin", subjects: SUBSCRIPTION}) { alert { id: legacyId globalId: id } } }',
    );
    const form = (fields: Record<string, string | string[]>) =>
      postSubscription(testApp, ann.token, { ...MINIMAL, price: '12.5', ...fields });
    // The main record's price changes on its anchor's day a year on, about two weeks from today.
    const anchor = MINIMAL.payment_date;
    const changedFrom = addMonths(anchor, 12);
    const main = await form({
      brand_id: 'Neighbourhood allotment',
      folder_id: String(folder.id),
      payment_mode_id: String(mode.id),
      category_id: String(category.id),
      alert_id: String(alert.id),
      'tags[]': ['garden', 'family'],
      note: 'Plot 7\nGate code 1234',
      rating: '8',
      refund_days: '14',
      contract_expiry: '2027-03-31',
    });
    expect(main.status).toBe(200);
    const mainId = main.body.subscription.id;
    const mainGlobalId = toGlobalId('SubscriptionRecord', mainId);
    await data(
      `mutation { setSubscriptionAlerts(input: {id: "${mainGlobalId}", alertIds: ["${alert.globalId}", "${toGlobalId('Alert', 1)}"]}) { subscription { id } } }`,
    );
    const addon = await testApp.http
      .post(`/api/v1/subscriptions/${mainId}/addon`)
      .set(rest(ann))
      .field({ type: '3', price: '4', price_type: 'EUR', payment_date: '2026-02-01', recurring: '0' });
    expect(addon.status).toBe(200);
    expect(
      (
        await form({
          brand_id: 'Old magazine',
          status: '2',
          billing_cycle: '4',
          price: '30',
          price_type: 'EUR',
          expiry_date: '2026-12-31',
        })
      ).status,
    ).toBe(200);
    await data(
      'mutation { createWebhookEndpoint(input: {url: "https://hooks.example.com/subledger", events: [SUBSCRIPTION_CREATED]}) { webhookEndpoint { id } } }',
    );
    // Issue 20's parts: a price change, a paid and a skipped payment, budgets, and a household sharing the main record.
    await data(
      `mutation { changePrice(input: {id: "${mainGlobalId}", price: "14.00", effectiveFrom: "${changedFrom}"}) { subscription { id } } }`,
    );
    const {
      paymentEntries: { nodes: entries },
    } = await data<{ paymentEntries: { nodes: Array<{ id: string }> } }>(
      `{ paymentEntries(filter: {subscriptionId: "${mainGlobalId}"}) { nodes { id } } }`,
    );
    expect(entries.length).toBeGreaterThanOrEqual(2);
    await data(
      `mutation { markPaid(input: {id: "${entries[0].id}", amount: "13.00", paidAt: "${today()}", note: "card"}) { paymentEntry { id } } }`,
    );
    await data(`mutation { markSkipped(input: {id: "${entries[1].id}", note: "paused"}) { paymentEntry { id } } }`);
    await data(`mutation { setBudget(input: {amount: "100.00", alertId: "${alert.globalId}"}) { budget { id } } }`);
    await data(
      `mutation { setBudget(input: {amount: "30.00", categoryId: "${category.globalId}"}) { budget { id } } }`,
    );
    type Member = { id: number; globalId: string };
    const {
      createHousehold: {
        household: { viewerMember: owner },
      },
    } = await data<{ createHousehold: { household: { viewerMember: Member } } }>(
      'mutation { createHousehold(input: {name: "Family"}) { household { viewerMember { id: legacyId globalId: id } } } }',
    );
    const {
      addHouseholdMember: { householdMember: kim },
    } = await data<{ addHouseholdMember: { householdMember: Member } }>(
      'mutation { addHouseholdMember(input: {name: "Kim", canEdit: true}) { householdMember { id: legacyId globalId: id } } }',
    );
    const { shareSubscription } = await data<{ shareSubscription: { userErrors: unknown[] } }>(
      `mutation { shareSubscription(input: {id: "${mainGlobalId}", payerMemberId: "${kim.globalId}", mode: AMOUNTS, shares: [{memberId: "${owner.globalId}", value: "10.00"}, {memberId: "${kim.globalId}", value: "2.50"}]}) { subscription { id } userErrors { code } } }`,
    );
    expect(shareSubscription.userErrors).toEqual([]);

    const before = await exported(ann);
    expect(before.subscriptions).toHaveLength(3);
    const exportedMain = before.subscriptions.find((record: { id: number }) => record.id === mainId);
    expect(exportedMain.price_history).toEqual([
      { effective_from: anchor, price: '12.50' },
      { effective_from: changedFrom, price: '14.00' },
    ]);
    expect(exportedMain.payments.map((payment: { status: string }) => payment.status)).toEqual(['paid', 'skipped']);
    expect(exportedMain.sharing).toEqual({
      payer_member_id: kim.id,
      mode: 'amounts',
      shares: [
        { member_id: owner.id, value: '10.00' },
        { member_id: kim.id, value: '2.50' },
      ],
    });
    expect(before.budgets).toHaveLength(2);
    expect(before.household).toEqual({
      name: 'Family',
      members: [
        { id: owner.id, name: 'Ann', isOwner: true, canEdit: false },
        { id: kim.id, name: 'Kim', isOwner: false, canEdit: true },
      ],
    });
    const bob = await signUp(testApp, 'Ann');
    const report = await imported(bob.token, 'SUBLEDGER', Buffer.from(JSON.stringify(before)));
    expect(report).toMatchObject({ total: 3, created: 3, refused: 0 });
    const [{ id: endpointId }] = await sql<{ id: number }>(
      testApp,
      `select "id" from "webhook_endpoints" where "user_id" = ?`,
      [bob.id],
    );
    expect(report.webhookEndpoints).toEqual([
      {
        id: toGlobalId('WebhookEndpoint', endpointId),
        url: 'https://hooks.example.com/subledger',
        secret: expect.stringMatching(/^whsec_/),
      },
    ]);
    const after = await exported(bob);
    expect(normalised(after)).toBe(normalised(before));
    // One event per record, as any create (the main record's second alert comes with it, not as an update).
    const topics = await sql<{ topic: string; n: string }>(
      testApp,
      `select "topic", count(*) as n from "webhook_events" where "user_id" = ? group by 1`,
      [bob.id],
    );
    expect(topics).toEqual([{ topic: 'subscription.created', n: '3' }]);
    // The restored main record is reminded by both its alerts, as the original is.
    const remindersBy = async (user: SignedUpUser) =>
      (
        await sql<{ n: string }>(
          testApp,
          `select count(*) as n from "reminders" r join "subscriptions" s on s."id" = r."subscription_id" where r."user_id" = ? and s."sub_id" is null group by s."id" order by s."id"`,
          [user.id],
        )
      ).map((row) => Number(row.n));
    expect(await remindersBy(bob)).toEqual(await remindersBy(ann));
    expect((await remindersBy(bob))[0]).toBe(2);
  });
});

describe('the money parts of a Subledger export', () => {
  it('refuses a record whose price history or payments the file gives wrongly, and restores none of it', async () => {
    const cleo = await signUp(testApp, 'Cleo');
    expect((await postSubscription(testApp, cleo.token, { ...MINIMAL })).status).toBe(200);
    const document = (await testApp.http.get('/export/account.json').set('authorization', `Bearer ${cleo.token}`)).body;
    const dan = await signUp(testApp, 'Dan');
    const broken = (record: Record<string, unknown>) =>
      Buffer.from(JSON.stringify({ ...document, subscriptions: [{ ...document.subscriptions[0], ...record }] }));
    const steps = await imported(
      dan.token,
      'SUBLEDGER',
      broken({ price_history: [{ effective_from: '2026-02-30', price: '9.00' }] }),
      { dryRun: true },
    );
    expect(steps.rows[0]).toMatchObject({
      outcome: 'REFUSED',
      problems: [{ field: 'price_history', messages: [expect.any(String)] }],
    });
    const paid = broken({
      payments: [
        {
          due_date: '2026-02-28',
          expected_amount: '15.49',
          currency: 'USD',
          status: 'paid',
          paid_amount: null,
          paid_on: null,
          note: null,
        },
      ],
    });
    expect((await imported(dan.token, 'SUBLEDGER', paid, { dryRun: true })).rows[0]).toMatchObject({
      outcome: 'REFUSED',
      problems: [{ field: 'payments', messages: [expect.any(String)] }],
    });
    expect(await count('subscriptions', dan)).toBe(0);
  });
});

it("a file cannot reach another user's rows: their ids are refused, their names are not matched", async () => {
  const [ann, bob] = await Promise.all([signUp(testApp, 'Ann'), signUp(testApp, 'Bob')]);
  const {
    createProductCategory: { productCategory: category },
  } = await graphqlData<{ createProductCategory: { productCategory: { id: number } } }>(
    testApp,
    ann.token,
    'mutation { createProductCategory(input: {name: "Ann only"}) { productCategory { id: legacyId } } }',
  );
  await graphqlData(testApp, ann.token, 'mutation { createFolder(input: {name: "Shared name"}) { folder { id } } }');
  const {
    createAlert: { alert },
  } = await graphqlData<{ createAlert: { alert: { id: number } } }>(
    testApp,
    ann.token,
    'mutation { createAlert(input: {name: "Ann", timePeriod: 1, time: "08:00", channel: EMAIL, timezone: "UTC"}) { alert { id: legacyId } } }',
  );
  const record = (overrides: Record<string, unknown>) => ({
    id: 1,
    type: 1,
    price: 5,
    price_type: 'USD',
    billing_type: 2,
    billing_frequency: 1,
    billing_cycle: 3,
    payment_date: '2026-05-01',
    status: 1,
    recurring: 1,
    product_name: 'Thing',
    brandname: null,
    brand_id: 1,
    folder_id: 0,
    payment_mode_id: null,
    category_id: 1,
    alert_id: 1,
    alert_ids: [1],
    tags: [],
    sub_addon: 0,
    sub_id: null,
    created_at: '2026-01-01 00:00:00',
    timezone: 'UTC',
    ...overrides,
  });
  const document = {
    format: 'subledger-account',
    version: 1,
    folders: [{ id: 9, name: 'Shared name', color: null, isDefault: false }],
    subscriptions: [
      record({ id: 1, category_id: category.id }),
      record({ id: 2, alert_id: alert.id, alert_ids: [alert.id] }),
      record({ id: 3, folder_id: 9 }),
    ],
  };
  const report = await imported(bob.token, 'SUBLEDGER', Buffer.from(JSON.stringify(document)), { skipRefused: true });
  expect(report.rows.map((row) => row.outcome)).toEqual(['REFUSED', 'REFUSED', 'CREATED']);
  expect(report.rows[0].problems).toEqual([
    { field: 'category_id', messages: ['The selected category_id does not exist.'] },
  ]);
  expect(report.rows[1].problems).toEqual([
    { field: 'alert_id', messages: [`The alert definition ${alert.id} is neither in the file nor a system one.`] },
  ]);
  const [folder] = await sql<{ id: number; user_id: number }>(
    testApp,
    `select "id", "user_id" from "folders" where "user_id" = ?`,
    [bob.id],
  );
  expect((await records(bob)).map((record) => record.id)).toEqual([report.rows[2].recordId]);
  const [stored] = await sql<{ folder_id: number }>(testApp, `select "folder_id" from "subscriptions" where "id" = ?`, [
    rowId(report.rows[2].recordId),
  ]);
  expect(stored.folder_id).toBe(folder.id);
  expect(await count('subscriptions', ann)).toBe(0);
});

it('a refused account import changes nothing: not the settings and profile it restored first, nor any row', async () => {
  const eve = await signUp(testApp, 'Eve');
  const ACCOUNT =
    '{ me { baseCurrency timezone } extensionSettings { autoDetectSubscriptions browserNotifications notifyBefore } }';
  const account = () => graphqlData(testApp, eve.token, ACCOUNT);
  const before = await account();
  expect(before.extensionSettings).toEqual({
    autoDetectSubscriptions: false,
    browserNotifications: false,
    notifyBefore: 3,
  });
  const rowsBefore = await ownedRows(testApp, eve.id);
  const counts = (rows: Record<string, string[]>) =>
    Object.fromEntries(Object.entries(rows).map(([table, list]) => [table, list.length]));
  // Every part of the file is restored, in the import's order, before its webhook endpoints: the last of them is refused.
  const document = (url: string) => ({
    format: 'subledger-account',
    version: 1,
    profile: { baseCurrency: 'EUR', timezone: 'Europe/Berlin' },
    settings: { autoDetectSubscriptions: 1, browserNotifications: 1, notifyBefore: 5 },
    folders: [{ id: 11, name: 'Media', color: '#112233', isDefault: true }],
    tags: [{ id: 12, name: 'family' }],
    paymentModes: [{ id: 13, name: 'Visa' }],
    categories: [{ id: 14, name: 'Home' }],
    alerts: [exportedAlert(15, 'Week before')],
    budgets: [{ categoryId: 14, amount: '30.00', alertId: 15 }],
    household: { name: 'Family', members: [{ id: 16, name: 'Eve', isOwner: true, canEdit: false }] },
    webhookEndpoints: [
      { id: 17, url: 'https://hooks.example.com/subledger', events: [], enabled: true },
      { id: 18, url, events: [], enabled: true },
    ],
    subscriptions: [
      exportedRecord({
        id: 19,
        folder_id: 11,
        payment_mode_id: 13,
        category_id: 14,
        alert_id: 15,
        alert_ids: [15],
        tags: ['family'],
        price_history: [{ effective_from: daysFromToday(-40), price: '12.50' }],
        payments: [exportedPayment(20)],
        sharing: { payer_member_id: 16, mode: 'equal', shares: [{ member_id: 16, value: null }] },
      }),
    ],
  });
  const refused = await uploadAccount(testApp, eve.token, document('not a url'));
  expect(await refusedUpload(refused, 'BAD_USER_INPUT')).toEqual([
    { field: ['input', 'url'], code: 'BAD_USER_INPUT', message: expect.any(String) },
  ]);
  expect(refused.body.errors[0]).toMatchObject({
    extensions: { code: 'BAD_USER_INPUT', errors: { url: [expect.any(String)] } },
  });
  expect(await account()).toEqual(before);
  const rowsAfter = await ownedRows(testApp, eve.id);
  expect(counts(rowsAfter)).toEqual(counts(rowsBefore));
  expect(rowsAfter).toEqual(rowsBefore);

  // The same file with a good URL is restored whole: the refusal above was the URL's alone.
  const accepted = await uploadAccount(testApp, eve.token, document('https://hooks.example.com/other'));
  expect(accepted.body.errors).toBeUndefined();
  expect(accepted.body.data.importSubscriptions).toEqual({
    report: {
      total: 1,
      created: 1,
      refused: 0,
      rows: [expect.objectContaining({ outcome: 'CREATED' })],
      webhookEndpoints: expect.any(Array),
    },
    userErrors: [],
  });
  expect(await account()).toEqual({
    me: { baseCurrency: 'EUR', timezone: 'Europe/Berlin' },
    extensionSettings: { autoDetectSubscriptions: true, browserNotifications: true, notifyBefore: 5 },
  });
  const grown = counts(await ownedRows(testApp, eve.id));
  for (const table of [
    'folders',
    'tags',
    'payment_modes',
    'product_categories',
    'alerts',
    'budgets',
    'households',
    'webhook_endpoints',
    'subscriptions',
  ]) {
    expect([table, grown[table]]).toEqual([table, counts(rowsBefore)[table] + (table === 'webhook_endpoints' ? 2 : 1)]);
  }
  for (const table of ['price_changes', 'payment_entries', 'subscription_shares'])
    expect([table, grown[table] > 0]).toEqual([table, true]);
});

it('imports from the shell: npm run cli -- import, a dry run first, exit status 1 for refused rows', async () => {
  const ann = await signUp(testApp, 'Ann');
  const cli = (...args: string[]) => runCli(testApp.database.url, 'import', '--user', ann.email, ...args);
  const file = join(__dirname, '../fixtures/imports/wallos-export.csv');
  const dry = cli('--file', file, '--format', 'wallos', '--dry-run');
  expect(dry.stderr).toBe('');
  expect(dry.stdout.split('\n')).toEqual([
    'line 2\tWOULD_CREATE\tYouTube Premium\tnew paymentMode "PayPal"; The URL is kept in the note (a record takes its web address from its product).',
    'line 3\tWOULD_CREATE\tBackblaze Personal Backup\tnew category "Backups"; new paymentMode "Credit Card"; "$" read as USD (it may be USD, AUD, CAD).; Cancellation date 2027-06-30 kept as the contract end.',
    'line 4\tWOULD_CREATE\tGym\tnew product "Gym"; new paymentMode "Credit Card"; Cancellation date 2026-02-15 kept as the contract end.',
    'line 5\tREFUSED\tMystery box\tbilling_cycle: "Every 2 Fortnights" is not a billing period (e.g. Monthly, Every 3 Months).; price_type: The currency ¤ is not in the exchange-rate table. The price_type must be a 3-letter currency code.',
    '4 rows: 3 would be created, 1 refused',
    '',
  ]);
  expect(dry.status).toBe(1);
  const refused = cli('--file', file, '--format', 'wallos');
  expect(refused.status).toBe(1);
  expect(refused.stderr).toContain('1 of 4 rows are refused, so nothing was imported');
  expect(await count('subscriptions', ann)).toBe(0);
  const real = cli('--file', file, '--format', 'wallos', '--skip-refused', '--currency', 'CAD');
  expect(real.status).toBe(0);
  expect(real.stdout).toMatch(/^line 2\tCREATED #\d+\tYouTube Premium/);
  expect(real.stdout).toContain('"$" read as CAD (it may be USD, AUD, CAD).');
  expect(real.stdout).toContain('4 rows: 3 created, 1 refused');
  expect(await count('subscriptions', ann)).toBe(3);
  const usage = cli('--file', file, '--format', 'numbers');
  expect(usage.status).toBe(2);
  expect(usage.stderr).toContain('import --user EMAIL --file F --format wallos|csv|subledger');
});
