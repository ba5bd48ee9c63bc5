import { countOwnedRows } from '../support/hardening';
import { expectErrorBody } from '../support/shapes';
import { MINIMAL, postSubscription } from '../support/subscriptions';
import { graphqlData, type SignedUpUser, signUp, sql, startTestApp, type TestApp } from '../support/test-app';
import { daysFromToday } from '../support/test-clock';

/**
 * A create plans, previews and inserts in one statement, answering from the preview without reading the row
 * back. These tests hold that answer, its event and its reminders to what the ordinary read and write paths
 * (GET, an update's event, an update's rescheduling) make of the stored row.
 */
let testApp: TestApp;
let ann: SignedUpUser;
let folderId: number;
let paymentModeId: number;
let alertId: number;

const auth = (token: string) => ({ authorization: `Bearer ${token}`, accept: 'application/json' });

beforeAll(async () => {
  testApp = await startTestApp();
  ann = await signUp(testApp, 'Ann');
  const data = await graphqlData<{
    createFolder: { folder: { legacyId: number } };
    createPaymentMode: { paymentMode: { legacyId: number } };
    createAlert: { alert: { legacyId: number } };
  }>(
    testApp,
    ann.token,
    `mutation {
      createFolder(input: {name: "Media", color: "#123456"}) { folder { legacyId } }
      createPaymentMode(input: {name: "Visa"}) { paymentMode { legacyId } }
      createAlert(input: {name: "Week before", timePeriod: 7, timeCycle: DAYS, time: "08:30", timezone: "Europe/Berlin", condition: ALL, channel: ALL, subjects: SUBSCRIPTION}) { alert { legacyId } }
    }`,
  );
  folderId = data.createFolder.folder.legacyId;
  paymentModeId = data.createPaymentMode.paymentMode.legacyId;
  alertId = data.createAlert.alert.legacyId;
  // A tag that exists before the creates that name it.
  await postSubscription(testApp, ann.token, { ...MINIMAL, 'tags[]': ['known'] });
});
afterAll(() => testApp.close());

const put = (id: number, fields: Record<string, string>) =>
  testApp.http.put(`/api/v1/subscriptions/${id}`).set(auth(ann.token)).type('form').send(fields);

async function eventPayload(id: number, topic: string): Promise<Record<string, unknown>> {
  const rows = await sql<{ payload: Record<string, unknown> }>(
    testApp,
    `select "payload" from "webhook_events" where "subscription_id" = ? and "topic" = ? order by "created_at" desc limit 1`,
    [id, topic],
  );
  expect(rows).toHaveLength(1);
  return rows[0].payload;
}

const reminders = (id: number) =>
  sql<{ alert_id: number; kind: string; reminder_date: string; fire_at: string }>(
    testApp,
    `select "alert_id", "kind", "reminder_date"::text, "fire_at"::text from "reminders" where "subscription_id" = ? and "status" = 'SCHEDULED' order by 1, 2, 3`,
    [id],
  );

const CASES: Array<[string, () => Record<string, string | string[]>]> = [
  ['the minimal form', () => MINIMAL],
  [
    'every link: folder, payment mode, category, own alert, tags old and new',
    () => ({
      ...MINIMAL,
      brand_id: '2',
      folder_id: String(folderId),
      payment_mode_id: String(paymentModeId),
      category_id: '3',
      alert_id: String(alertId),
      'tags[]': ['zeta', 'known', 'alpha'],
      description: 'Family plan',
      refund_days: '14',
    }),
  ],
  [
    'a first-use product name in a foreign currency',
    () => ({ ...MINIMAL, brand_id: 'Corner Gym', price: '30', price_type: 'EUR', 'tags[]': ['gym'] }),
  ],
  [
    'no alert, a lifetime purchase paid once',
    () => ({
      ...MINIMAL,
      type: '3',
      recurring: '0',
      alert_id: '0',
      ltdval_price: '199.9',
      ltdval_cycle: '4',
      ltdval_frequency: '1',
    }),
  ],
  [
    'fixed-day billing in a named zone',
    () => ({
      ...MINIMAL,
      billing_type: '1',
      billing_frequency: '10',
      billing_cycle: '1',
      timezone: 'Pacific/Auckland',
      price_type: 'JPY',
      price: '1200',
    }),
  ],
];

describe.each(CASES)('a create from %s', (_name, fields) => {
  it('answers the record a later GET reads, and its event carries what an update event of the same row carries', async () => {
    const response = await postSubscription(testApp, ann.token, fields());
    expect(response.status).toBe(200);
    const answer = response.body.subscription;
    const read = await testApp.http.get(`/api/v1/subscriptions/${answer.id}`).set(auth(ann.token));
    expect(read.status).toBe(200);
    expect(read.body).toEqual([answer]);

    const created = await eventPayload(answer.id, 'subscription.created');
    // An update that changes nothing but the note: its event is built from the row read back in its transaction.
    const touched = await put(answer.id, { note: 'touched' });
    expect(touched.body).toEqual({ status: true, message: 'Subscription updated successfully' });
    const updated = await eventPayload(answer.id, 'subscription.updated');
    expect(updated.note).toBe('touched');
    expect({ ...created, updated_at: null, note: null }).toEqual({ ...updated, updated_at: null, note: null });
  });
});

it("schedules a new record's reminders as rescheduling the stored record does", async () => {
  // Far enough ahead that the week-before reminders of the payment and of the refund date are both still due.
  const fields = { ...MINIMAL, payment_date: daysFromToday(30), billing_cycle: '2', refund_days: '20' };
  const direct = (await postSubscription(testApp, ann.token, { ...fields, alert_id: String(alertId) })).body
    .subscription;
  const later = (await postSubscription(testApp, ann.token, { ...fields, alert_id: '0' })).body.subscription;
  expect(await reminders(later.id)).toEqual([]);
  expect((await put(later.id, { alert_id: String(alertId) })).status).toBe(200);
  const scheduled = await reminders(direct.id);
  expect(scheduled.length).toBeGreaterThan(1);
  expect(scheduled.map((reminder) => reminder.kind)).toContain('refund');
  expect(scheduled).toEqual(await reminders(later.id));
});

it('stores nothing when a link is refused, not even the first-use product or tags of that request', async () => {
  // A user of its own, whose rows no background work (reminders firing, the sweep) can move during the test.
  const refused = await signUp(testApp, 'Refused');
  expect((await postSubscription(testApp, refused.token, { ...MINIMAL, 'tags[]': ['known'] })).status).toBe(200);
  const tables = [
    'subscriptions',
    'subscription_tags',
    'tags',
    'products',
    'webhook_events',
    'webhook_deliveries',
    'reminders',
  ];
  const counts = () => Promise.all(tables.map((table) => countOwnedRows(testApp, table, refused.id)));
  const before = await counts();
  const response = await postSubscription(testApp, refused.token, {
    ...MINIMAL,
    brand_id: 'Never Made',
    folder_id: '999999',
    payment_mode_id: '999998',
    'tags[]': ['known', 'never-made'],
  });
  expect(response.status).toBe(400);
  expectErrorBody(response.body, ['folder_id', 'payment_mode_id']);
  expect(await counts()).toEqual(before);
});

it("copies a product's columns on an update as a create copies them, its category unless the record names one", async () => {
  const copied = [
    'brand_id',
    'product_name',
    'brandname',
    'product_type',
    'image',
    'favicon',
    'homepage',
    'category_id',
  ];
  const pick = (record: Record<string, unknown>) => Object.fromEntries(copied.map((key) => [key, record[key]]));
  const read = async (id: number) =>
    (await testApp.http.get(`/api/v1/subscriptions/${id}`).set(auth(ann.token))).body[0] as Record<string, unknown>;
  // A private product made by its first use (no image, no category of its own) and a catalogue product.
  const own = (await postSubscription(testApp, ann.token, { ...MINIMAL, brand_id: 'Copied Own' })).body.subscription;
  const listed = (await postSubscription(testApp, ann.token, { ...MINIMAL, brand_id: '12' })).body.subscription;
  expect(own.brandname).toBeNull();
  expect(own.image).toEqual(expect.any(String));
  expect(own.image).not.toBe('');
  expect(own.category_id).toBe(1);

  const moved = (await postSubscription(testApp, ann.token, { ...MINIMAL, brand_id: '12' })).body.subscription;
  expect((await put(moved.id, { brand_id: 'Copied Own' })).status).toBe(200);
  expect(pick(await read(moved.id))).toEqual(pick(own));
  expect((await put(moved.id, { brand_id: '12' })).status).toBe(200);
  expect(pick(await read(moved.id))).toEqual(pick(listed));

  const named = (await postSubscription(testApp, ann.token, { ...MINIMAL, brand_id: '12', category_id: '3' })).body
    .subscription;
  expect(named.category_id).toBe(3);
  expect((await put(moved.id, { brand_id: 'Copied Own', category_id: '3' })).status).toBe(200);
  expect(pick(await read(moved.id))).toEqual({ ...pick(own), category_id: 3 });
});

it("gives a new record the zone it names, else its owner's", async () => {
  const zoned = await signUp(testApp, 'Zoned');
  await sql(testApp, `update "users" set "timezone" = 'Asia/Tokyo' where "id" = ?`, [zoned.id]);
  const [unnamed, named] = await Promise.all([
    postSubscription(testApp, zoned.token, MINIMAL),
    postSubscription(testApp, zoned.token, { ...MINIMAL, timezone: 'Pacific/Auckland' }),
  ]);
  expect(unnamed.body.subscription.timezone).toBe('Asia/Tokyo');
  expect(named.body.subscription.timezone).toBe('Pacific/Auckland');
});

it('draws one id per create, also when a first-use product or tag makes it plan again', async () => {
  const first = (await postSubscription(testApp, ann.token, MINIMAL)).body.subscription;
  const freshTag = (await postSubscription(testApp, ann.token, { ...MINIMAL, brand_id: '12', 'tags[]': ['fresh-tag'] }))
    .body.subscription;
  const freshProduct = (
    await postSubscription(testApp, ann.token, { ...MINIMAL, brand_id: 'Fresh Product', 'tags[]': ['fresher-tag'] })
  ).body.subscription;
  const next = (await postSubscription(testApp, ann.token, MINIMAL)).body.subscription;
  expect([freshTag.id, freshProduct.id, next.id]).toEqual([first.id + 1, first.id + 2, first.id + 3]);
});
