import { addDays, addMonths, todayIn } from '../../src/platform/dates';
import { createSubscription, LIST_EXTRAS, postAddon } from '../support/subscriptions';
import { graphqlData, type SignedUpUser, signUp, startTestApp, type TestApp } from '../support/test-app';

/**
 * The list and upcoming answers are JSON the database writes (record-shape.sql.ts); one record's answer is
 * presented in code (record-shape.ts). For records that use every field, each item of the list is the record's
 * own answer plus the list's names, key for key and in the same order, and so is each upcoming payment.
 */
let testApp: TestApp;
let user: SignedUpUser;

beforeAll(async () => {
  testApp = await startTestApp();
  user = await signUp(testApp, 'Shapes');
});
afterAll(() => testApp.close());

const get = (path: string) => testApp.http.get(path).set('authorization', `Bearer ${user.token}`);

async function seedVariedRecords(): Promise<void> {
  const today = todayIn('UTC');
  const named = await graphqlData(
    testApp,
    user.token,
    `mutation { folder: createFolder(input: {name: "Home \\"A\\"", color: "#aa0000"}) { folder { id: legacyId } }
      mode: createPaymentMode(input: {name: "Visa ✓"}) { paymentMode { id: legacyId } }
      category: createProductCategory(input: {name: "Mine"}) { productCategory { id: legacyId } } }`,
  );
  const main = await createSubscription(testApp, user.token, {
    brand_id: 'Naïve "Quoted" \\ Service',
    price: '1234567.05',
    price_type: 'EUR',
    folder_id: String(named.folder.folder.id),
    payment_mode_id: String(named.mode.paymentMode.id),
    category_id: String(named.category.productCategory.id),
    note: 'line one\nline two\ttabbed 🎉 </script>',
    description: 'Ünïcödé',
    company_name: 'ACME',
    discount_voucher: 'SAVE10',
    rating: '8',
    refund_days: '30',
    expiry_date: addDays(today, 200),
    contract_expiry: addDays(today, 100),
    timezone: 'Pacific/Kiritimati',
    payment_date: addMonths(addDays(today, 3), -5),
  });
  await postAddon(testApp, user.token, main.id, { payment_date: addDays(today, 2) });
  await createSubscription(testApp, user.token, {
    type: '3',
    recurring: '0',
    ltdval_price: '499',
    ltdval_cycle: '4',
    ltdval_frequency: '2',
    payment_date: addDays(today, -40),
  });
  await createSubscription(testApp, user.token, {
    billing_type: '1',
    billing_cycle: '2',
    billing_frequency: '3',
    payment_date: `${addMonths(today, -2).slice(0, 8)}01`,
    timezone: 'Pacific/Pago_Pago',
  });
  await createSubscription(testApp, user.token, {
    billing_cycle: '4',
    price: '0.1',
    payment_date: addDays(addMonths(today, -12), 5),
    status: '0',
  });
  await createSubscription(testApp, user.token, { brand_id: '2', payment_date: addDays(today, 1), price: '10.50' });
}

it('writes each list item as the record reads alone, plus the names the list joins in', async () => {
  await seedVariedRecords();
  const list = await get('/api/v1/subscriptions?length=100');
  expect(list.status).toBe(200);
  const items = list.body as Array<Record<string, unknown>>;
  expect(items).toHaveLength(6);
  for (const item of items) {
    const [alone] = (await get(`/api/v1/subscriptions/${String(item.id)}`)).body as Array<Record<string, unknown>>;
    const { ...record } = item;
    for (const name of LIST_EXTRAS) delete record[name];
    expect(record).toEqual(alone);
    expect(Object.keys(record)).toEqual(Object.keys(alone));
    expect(Object.keys(item).slice(-LIST_EXTRAS.length)).toEqual(LIST_EXTRAS);
  }
  const withNames = items.find((item) => item.folder_name !== null)!;
  expect(withNames).toMatchObject({
    brand_name: 'Naïve "Quoted" \\ Service',
    folder_name: 'Home "A"',
    folder_color: '#aa0000',
    payment_method_name: 'Visa ✓',
    product_category_name: 'Mine',
    attachment_count: 0,
    price: 1234567.05,
    note: 'line one\nline two\ttabbed 🎉 </script>',
  });
  const catalogued = items.find((item) => item.brand_id === 2)!;
  expect(catalogued).toMatchObject({ price: 10.5, product_type_name: expect.any(String) });
});

it('writes each upcoming payment as the record reads alone', async () => {
  const upcoming = await get('/api/v1/subscriptions/upcoming?days=366');
  expect(upcoming.status).toBe(200);
  const items = upcoming.body as Array<Record<string, unknown>>;
  expect(items.length).toBeGreaterThanOrEqual(3);
  const dates = items.map((item) => String(item.next_payment_date));
  expect(dates).toEqual([...dates].sort());
  for (const item of items) {
    const [alone] = (await get(`/api/v1/subscriptions/${String(item.id)}`)).body as Array<Record<string, unknown>>;
    expect(item).toEqual(alone);
    expect(Object.keys(item)).toEqual(Object.keys(alone));
  }
});
