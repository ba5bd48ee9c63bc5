import { addMonths } from '../../src/platform/dates';
import { toGlobalId } from '../../src/platform/graphql/global-ids';
import { SQL_TIMESTAMP } from './shapes';
import { graphql, type TestApp } from './test-app';
import { daysFromToday } from './test-clock';

/**
 * A monthly record. Its anchor is a year back, about two weeks past today's date, so on any day its next
 * payment is about two weeks ahead: no reminder of it comes due, and nothing rolls it on, while a test runs.
 */
export const MINIMAL = {
  brand_id: '1',
  type: '1',
  price: '15.49',
  price_type: 'USD',
  billing_type: '2',
  billing_frequency: '1',
  billing_cycle: '3',
  payment_date: addMonths(daysFromToday(14), -12),
  status: '1',
  recurring: '1',
};

/** POST /api/v1/subscriptions as a client does: a multipart form, `tags[]` repeated. */
export function postSubscription(testApp: TestApp, token: string, fields: Record<string, string | string[]>) {
  const request = testApp.http
    .post('/api/v1/subscriptions')
    .set('authorization', `Bearer ${token}`)
    .set('accept', 'application/json');
  for (const [name, value] of Object.entries(fields)) {
    for (const item of Array.isArray(value) ? value : [value]) request.field(name, item);
  }
  return request;
}

/** The fields operation 7 needs (status and recurring may be left out). */
export const ADDON_MINIMAL = { type: '3', price: '2', price_type: 'USD', payment_date: '2026-02-01' };

/** POST /api/v1/subscriptions/{id}/addon as a client does: a multipart form. */
export function postAddon(testApp: TestApp, token: string, mainId: unknown, fields: Record<string, string> = {}) {
  const request = testApp.http
    .post(`/api/v1/subscriptions/${String(mainId)}/addon`)
    .set('authorization', `Bearer ${token}`)
    .set('accept', 'application/json');
  for (const [name, value] of Object.entries({ ...ADDON_MINIMAL, ...fields })) request.field(name, value);
  return request;
}

export async function createSubscription(
  testApp: TestApp,
  token: string,
  fields: Record<string, string | string[]> = {},
) {
  const response = await postSubscription(testApp, token, { ...MINIMAL, ...fields });
  if (response.status !== 200) throw new Error(`create failed: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body.subscription as Record<string, unknown>;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const MONEY = /^\d+\.\d{2}$/;

const INTEGER = [
  'id',
  'user_id',
  'folder_id',
  'brand_id',
  'alert_id',
  'type',
  'recurring',
  'pay_gateway_id',
  'billing_frequency',
  'billing_cycle',
  'billing_type',
  'status',
  'rating',
  'sub_addon',
  'created_by',
];
const INTEGER_OR_NULL = [
  'category_id',
  'platform_id',
  'product_type',
  'payment_mode_id',
  'alert_type',
  'ltdval_frequency',
  'ltdval_cycle',
  'pricing_type',
  'refund_days',
  'sub_id',
];
const STRING = [
  'image',
  'product_name',
  'price_type',
  'timezone',
  'base_currency',
  'type_value',
  'recurring_value',
  'billing_cycle_value',
  'billing_type_value',
  'status_value',
  'pricing_type_value',
  'sub_addon_value',
];
const STRING_OR_NULL = [
  'favicon',
  'brandname',
  'description',
  'homepage',
  'note',
  'company_name',
  'discount_voucher',
  'payment_mode',
  'url',
  'currency_code',
  'ltdval_cycle_value',
];
const DATE_OR_NULL = ['next_payment_date', 'expiry_date', 'contract_expiry', 'refund_date'];
export const RECORD_FIELDS = [
  ...INTEGER,
  ...INTEGER_OR_NULL,
  ...STRING,
  ...STRING_OR_NULL,
  ...DATE_OR_NULL,
  'price',
  'payment_date',
  'payment_date_upd',
  'base_value',
  'ltdval_price',
  'include_notes',
  'support_details',
  'tags',
  'created_at',
];
export const LIST_EXTRAS = [
  'brand_name',
  'product_type_name',
  'product_category_name',
  'folder_color',
  'folder_name',
  'payment_method_name',
  'alert_name',
  'attachment_count',
];

/** Every field of the Subscription record, present and of its documented type. */
export function expectRecordShape(record: Record<string, unknown>, extras: string[] = []): void {
  expect(Object.keys(record).sort()).toEqual([...RECORD_FIELDS, ...extras].sort());
  for (const field of INTEGER) expect([field, Number.isInteger(record[field])]).toEqual([field, true]);
  for (const field of INTEGER_OR_NULL)
    expect([field, record[field] === null || Number.isInteger(record[field])]).toEqual([field, true]);
  for (const field of STRING) expect([field, typeof record[field]]).toEqual([field, 'string']);
  for (const field of STRING_OR_NULL)
    expect([field, record[field] === null || typeof record[field] === 'string']).toEqual([field, true]);
  for (const field of DATE_OR_NULL)
    expect([field, record[field] === null || DATE.test(String(record[field]))]).toEqual([field, true]);
  expect(typeof record.price).toBe('number');
  expect(record.payment_date).toMatch(DATE);
  expect(record.payment_date_upd).toMatch(DATE);
  expect(record.base_value).toMatch(MONEY);
  expect(record.ltdval_price === null || MONEY.test(String(record.ltdval_price))).toBe(true);
  expect(record.price_type).toMatch(/^[A-Z]{3}$/);
  expect(record.include_notes).toBeNull();
  expect(record.support_details).toBeNull();
  expect(record.tags).toBeNull();
  expect(record.created_at).toMatch(SQL_TIMESTAMP);
  expect(() => new URL(String(record.image))).not.toThrow();
}

/** The global id GraphQL gives a row of a type (`node(id:)` finds it). */
export const globalId = (typeName: string, rowId: unknown): string => toGlobalId(typeName, Number(rowId));

/** A record's global id from its REST (row) id. */
export const recordId = (rowId: unknown): string => globalId('SubscriptionRecord', rowId);

/**
 * Sets profile fields through GraphQL's updateProfile and answers the user's `fields`. The profile belongs to
 * the settings feature, whose mutation answers an UpdateProfilePayload with the user once issue 46 reaches it;
 * until then it answers the user itself: the schema tells which.
 */
export async function updateProfile(
  testApp: TestApp,
  token: string,
  input: Record<string, unknown>,
  fields = 'baseCurrency timezone',
): Promise<Record<string, any>> {
  const request = (query: string) => graphql(testApp, token, query, { input });
  const shape = await request('{ __type(name: "UpdateProfilePayload") { name } }');
  const payload = Boolean(shape.body.data?.__type);
  const answer = payload
    ? await request(
        `mutation($input: UpdateProfileInput!) { updateProfile(input: $input) { user { ${fields} } userErrors { field code message } } }`,
      )
    : await request(`mutation($input: ProfileInput!) { updateProfile(input: $input) { ${fields} } }`);
  if (answer.body.errors) throw new Error(JSON.stringify(answer.body.errors));
  return payload ? answer.body.data.updateProfile.user : answer.body.data.updateProfile;
}
