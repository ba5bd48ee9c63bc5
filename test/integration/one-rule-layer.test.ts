import { createSubscription, globalId, MINIMAL, postSubscription, recordId } from '../support/subscriptions';
import { graphql, graphqlData, type SignedUpUser, signUp, startTestApp, type TestApp } from '../support/test-app';

/**
 * One rule layer: the domain alone decides what a record may hold, so REST and GraphQL refuse the same input
 * with the same field errors (named as REST names them), and GraphQL can set every field REST can.
 */
let testApp: TestApp;
let ann: SignedUpUser;

beforeAll(async () => {
  testApp = await startTestApp();
  ann = await signUp(testApp, 'Ann');
});
afterAll(() => testApp.close());

/** Every field of operation 4 (REST name and a value) with the GraphQL input field that sets it. */
const FIELDS: Array<{ rest: string; value: string; graphql: string; graphqlValue: unknown }> = [
  { rest: 'brand_id', value: '7', graphql: 'productId', graphqlValue: globalId('Product', 7) },
  { rest: 'type', value: '3', graphql: 'type', graphqlValue: 'LIFETIME' },
  { rest: 'price', value: '49.50', graphql: 'price', graphqlValue: '49.50' },
  { rest: 'price_type', value: 'EUR', graphql: 'currency', graphqlValue: 'EUR' },
  { rest: 'billing_type', value: '1', graphql: 'billingType', graphqlValue: 'FIXED_DAYS' },
  { rest: 'billing_frequency', value: '2', graphql: 'billingFrequency', graphqlValue: 2 },
  { rest: 'billing_cycle', value: '4', graphql: 'billingCycle', graphqlValue: 'YEARLY' },
  { rest: 'payment_date', value: '2026-03-15', graphql: 'paymentDate', graphqlValue: '2026-03-15' },
  { rest: 'status', value: '0', graphql: 'status', graphqlValue: 'DRAFT' },
  { rest: 'recurring', value: '0', graphql: 'recurring', graphqlValue: 'ONCE' },
  { rest: 'alert_id', value: '0', graphql: 'alertId', graphqlValue: null },
  { rest: 'category_id', value: '3', graphql: 'categoryId', graphqlValue: globalId('ProductCategory', 3) },
  { rest: 'description', value: 'A description', graphql: 'description', graphqlValue: 'A description' },
  { rest: 'discount_voucher', value: 'SAVE10', graphql: 'discountVoucher', graphqlValue: 'SAVE10' },
  { rest: 'note', value: 'A note', graphql: 'note', graphqlValue: 'A note' },
  { rest: 'company_name', value: 'Acme Ltd', graphql: 'companyName', graphqlValue: 'Acme Ltd' },
  { rest: 'tags[]', value: 'work', graphql: 'tagNames', graphqlValue: ['work'] },
  { rest: 'rating', value: '8', graphql: 'rating', graphqlValue: 8 },
  { rest: 'ltdval_price', value: '199.99', graphql: 'ltdvalPrice', graphqlValue: '199.99' },
  { rest: 'ltdval_cycle', value: '4', graphql: 'ltdvalCycle', graphqlValue: 'YEARLY' },
  { rest: 'ltdval_frequency', value: '3', graphql: 'ltdvalFrequency', graphqlValue: 3 },
  { rest: 'refund_days', value: '14', graphql: 'refundDays', graphqlValue: 14 },
  { rest: 'expiry_date', value: '2030-01-01', graphql: 'expiryDate', graphqlValue: '2030-01-01' },
  { rest: 'contract_expiry', value: '2028-06-30', graphql: 'contractExpiry', graphqlValue: '2028-06-30' },
  { rest: 'timezone', value: 'Asia/Tokyo', graphql: 'timezone', graphqlValue: 'Asia/Tokyo' },
];

/** The folder and payment mode links need rows of the caller's own. */
async function ownLinks(user: SignedUpUser) {
  const { createFolder, createPaymentMode } = await graphqlData(
    testApp,
    user.token,
    'mutation { createFolder(input: {name: "Bills"}) { folder { id legacyId } } createPaymentMode(input: {name: "Visa"}) { paymentMode { id legacyId } } }',
  );
  return { folder: createFolder.folder, paymentMode: createPaymentMode.paymentMode };
}

const readRest = async (token: string, id: unknown) =>
  (
    (await testApp.http.get(`/api/v1/subscriptions/${String(id)}`).set('authorization', `Bearer ${token}`))
      .body as Array<Record<string, unknown>>
  )[0];

/** The fields of two records that differ (ids, times and tag ids aside). */
const differences = (a: Record<string, unknown>, b: Record<string, unknown>) =>
  Object.keys(a).filter(
    (key) =>
      !['id', 'created_at', 'updated_at', 'tags'].includes(key) && JSON.stringify(a[key]) !== JSON.stringify(b[key]),
  );

describe('GraphQL sets every field REST sets', () => {
  let links: Awaited<ReturnType<typeof ownLinks>>;
  let viaRest: Record<string, unknown>;
  let defaults: Record<string, unknown>;
  // The REST record shows tags as null (as the original's); they are read through GraphQL below.
  const restNames = FIELDS.filter((field) => field.rest !== 'tags[]').map((field) => field.rest);
  const tagNames = async (id: unknown) =>
    (
      await graphqlData(testApp, ann.token, 'query($id: ID!) { subscription(id: $id) { tags { name } } }', {
        id: recordId(id),
      })
    ).subscription.tags.map((tag: { name: string }) => tag.name);

  beforeAll(async () => {
    links = await ownLinks(ann);
    const restFields = Object.fromEntries(FIELDS.map((field) => [field.rest, field.value]));
    const made = await createSubscription(testApp, ann.token, {
      ...restFields,
      folder_id: String(links.folder.legacyId),
      payment_mode_id: String(links.paymentMode.legacyId),
    });
    viaRest = await readRest(ann.token, made.id);
    defaults = await readRest(ann.token, (await createSubscription(testApp, ann.token)).id);
  });

  it('sets each field through REST to something other than its default (so equal records mean set fields)', async () => {
    expect(restNames.filter((name) => JSON.stringify(viaRest[name]) === JSON.stringify(defaults[name]))).toEqual([]);
    expect(await tagNames(viaRest.id)).toEqual(['work']);
  });

  it('makes the same record from the same fields through GraphQL', async () => {
    const input = {
      ...Object.fromEntries(FIELDS.map((field) => [field.graphql, field.graphqlValue])),
      folderId: links.folder.id,
      paymentModeId: links.paymentMode.id,
    };
    const {
      createSubscription: { subscription: made },
    } = await graphqlData(
      testApp,
      ann.token,
      'mutation ($input: CreateSubscriptionInput!) { createSubscription(input: $input) { subscription { legacyId } } }',
      { input },
    );
    expect(differences(viaRest, await readRest(ann.token, made.legacyId))).toEqual([]);
    expect(await tagNames(made.legacyId)).toEqual(['work']);
  });

  it('changes every field through a GraphQL update as well', async () => {
    const record = await createSubscription(testApp, ann.token);
    const input = {
      ...Object.fromEntries(FIELDS.map((field) => [field.graphql, field.graphqlValue])),
      folderId: links.folder.id,
      paymentModeId: links.paymentMode.id,
    };
    await graphqlData(
      testApp,
      ann.token,
      'mutation ($input: UpdateSubscriptionInput!) { updateSubscription(input: $input) { subscription { id } } }',
      { input: { ...input, id: recordId(record.id) } },
    );
    expect(differences(viaRest, await readRest(ann.token, record.id))).toEqual([]);
    expect(await tagNames(record.id)).toEqual(['work']);
  });
});

describe('one rule layer', () => {
  /** Inputs the domain refuses, as REST fields and as GraphQL input fields (valid GraphQL scalars all). */
  const REFUSED: Array<{ rest: Record<string, string>; graphql: Record<string, unknown>; field: string }> = [
    { rest: { price: '1.234' }, graphql: { price: '1.234' }, field: 'price' },
    { rest: { rating: '11' }, graphql: { rating: 11 }, field: 'rating' },
    { rest: { billing_frequency: '0' }, graphql: { billingFrequency: 0 }, field: 'billing_frequency' },
    {
      rest: { brand_id: 'x'.repeat(201) },
      graphql: { productId: undefined, productName: 'x'.repeat(201) },
      field: 'brand_id',
    },
    { rest: { description: 'd'.repeat(5001) }, graphql: { description: 'd'.repeat(5001) }, field: 'description' },
    {
      rest: { discount_voucher: 'v'.repeat(201) },
      graphql: { discountVoucher: 'v'.repeat(201) },
      field: 'discount_voucher',
    },
    { rest: { company_name: 'c'.repeat(201) }, graphql: { companyName: 'c'.repeat(201) }, field: 'company_name' },
    { rest: { ltdval_price: '1.001' }, graphql: { ltdvalPrice: '1.001' }, field: 'ltdval_price' },
    { rest: { refund_days: '4000' }, graphql: { refundDays: 4000 }, field: 'refund_days' },
  ];
  const BASE_INPUT = {
    productId: globalId('Product', 1),
    type: 'SUBSCRIPTION',
    price: '15.49',
    currency: 'USD',
    billingType: 'CALENDAR_DATE',
    billingFrequency: 1,
    billingCycle: 'MONTHLY',
    paymentDate: MINIMAL.payment_date,
  };
  const CREATE =
    'mutation ($input: CreateSubscriptionInput!) { createSubscription(input: $input) { subscription { id } userErrors { field code } } }';

  it.each(REFUSED)(
    'refuses $field alike on both transports, named as REST names it',
    async ({ rest, graphql: change, field }) => {
      const restAnswer = await postSubscription(testApp, ann.token, { ...MINIMAL, ...rest });
      expect(restAnswer.status).toBe(400);
      const graphqlAnswer = await graphql(testApp, ann.token, CREATE, { input: { ...BASE_INPUT, ...change } });
      const [error] = graphqlAnswer.body.errors as Array<{
        extensions: { code: string; errors: Record<string, string[]> };
      }>;
      expect(error.extensions.code).toBe('BAD_USER_INPUT');
      expect(Object.keys(restAnswer.body.errors)).toEqual([field]);
      expect(error.extensions.errors).toEqual(restAnswer.body.errors);
      // The payload names the GraphQL input field.
      const inputField =
        field === 'brand_id' ? 'productId' : field.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
      expect(graphqlAnswer.body.data.createSubscription).toEqual({
        subscription: null,
        userErrors: [{ field: ['input', inputField], code: 'BAD_USER_INPUT' }],
      });
    },
  );

  it.each([
    { rest: { type: '9' }, graphql: { type: 'RENTAL' }, field: 'type' },
    { rest: { status: '7' }, graphql: { status: 'PAUSED' }, field: 'status' },
  ])(
    'refuses a $field code outside its set: REST in the domain, GraphQL by its enum',
    async ({ rest, graphql: change, field }) => {
      const restAnswer = await postSubscription(testApp, ann.token, { ...MINIMAL, ...rest });
      expect(restAnswer.status).toBe(400);
      expect(Object.keys(restAnswer.body.errors)).toEqual([field]);
      const graphqlAnswer = await graphql(testApp, ann.token, CREATE, { input: { ...BASE_INPUT, ...change } });
      expect(graphqlAnswer.body.data).toBeUndefined();
      expect(graphqlAnswer.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    },
  );
});

describe('one rule layer beyond records', () => {
  const ALERT = {
    alert_name: 'Before payment',
    time_period: '3',
    time: '09:00',
    alert_condition: '2',
    alert_type: '2',
    timezone: 'UTC',
    alert_subs_type: '1',
  };
  const ALERT_INPUT = {
    name: 'Before payment',
    timePeriod: 3,
    time: '09:00',
    timezone: 'UTC',
    condition: 'BEFORE_DUE_DATE',
    channel: 'EMAIL',
    subjects: 'SUBSCRIPTION',
  };
  const post = (path: string, fields: Record<string, string | undefined>) => {
    const request = testApp.http.post(path).set('authorization', `Bearer ${ann.token}`);
    for (const [name, value] of Object.entries(fields)) if (value !== undefined) request.field(name, value);
    return request;
  };
  const graphqlErrors = async (document: string, input: Record<string, unknown>) =>
    (
      (await graphql(testApp, ann.token, document, { input })).body.errors as Array<{
        extensions: { errors: Record<string, string[]> };
      }>
    )[0].extensions.errors;

  it.each([
    { rest: { alert_name: 'a'.repeat(201) }, graphql: { name: 'a'.repeat(201) }, field: 'alert_name' },
    { rest: { time: '25:00' }, graphql: { time: '25:00' }, field: 'time' },
    {
      rest: { alert_contact: `${'c'.repeat(320)}@example.com` },
      graphql: { contact: `${'c'.repeat(320)}@example.com` },
      field: 'alert_contact',
    },
  ])('refuses an alert with a bad $field alike', async ({ rest, graphql: change, field }) => {
    const answer = await post('/api/v1/alerts', { ...ALERT, ...rest });
    expect(answer.status).toBe(400);
    expect(Object.keys(answer.body.errors)).toEqual([field]);
    const document =
      'mutation ($input: CreateAlertInput!) { createAlert(input: $input) { alert { id } userErrors { field code } } }';
    const input = { ...ALERT_INPUT, ...change };
    expect(await graphqlErrors(document, input)).toEqual(answer.body.errors);
    // The payload names the GraphQL input field.
    const refused = await graphql(testApp, ann.token, document, { input });
    expect(refused.body.data.createAlert).toEqual({
      alert: null,
      userErrors: [{ field: ['input', Object.keys(change)[0]], code: 'BAD_USER_INPUT' }],
    });
  });

  it.each([
    { rest: { name: 'n'.repeat(101) }, graphql: { name: 'n'.repeat(101) }, field: 'name' },
    { rest: { name: 'Home', color: 'red' }, graphql: { name: 'Home', color: 'red' }, field: 'color' },
  ])('refuses a folder with a bad $field alike', async ({ rest, graphql: input, field }) => {
    const answer = await post('/api/v1/folders', rest);
    expect(answer.status).toBe(400);
    expect(Object.keys(answer.body.errors)).toEqual([field]);
    expect(
      await graphqlErrors(
        'mutation ($input: CreateFolderInput!) { createFolder(input: $input) { folder { id } } }',
        input,
      ),
    ).toEqual(answer.body.errors);
  });
});
