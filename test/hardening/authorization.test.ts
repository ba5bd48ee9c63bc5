import { readFileSync } from 'node:fs';
import path from 'node:path';

import { buildSchema, type GraphQLObjectType } from 'graphql';

import { exportedAlert, exportedPayment, exportedRecord, uploadAccount } from '../support/account-imports';
import {
  AnswerLog,
  linksToOthersRows,
  ownedRows,
  restRoutes,
  storedSecrets,
  tablesWithoutOwnership,
} from '../support/hardening';
import { Receiver } from '../support/receiver';
import { expectErrorBody } from '../support/shapes';
import { generateStatement } from '../support/statement-generator';
import { writeStatement } from '../support/statement-writers';
import { createSubscription, MINIMAL, postSubscription } from '../support/subscriptions';
import { graphql, graphqlData, type SignedUpUser, signUp, sql, startTestApp, type TestApp } from '../support/test-app';
import { daysFromToday, monthsFromToday } from '../support/test-clock';
import { until } from '../support/wait';

/**
 * Two users; B tries every REST operation and every GraphQL query and mutation on A's ids. B gets "not
 * found" (400 on REST, NOT_FOUND on GraphQL), never sees A's data, and A's rows stay byte for byte the same.
 * The cases are keyed by the app's own routes and schema, so a new route or field without a case fails here.
 */

/** Put in every name A gives, so any answer to B that carries A's data shows it. */
const MARK = 'alphaPrivate7781';

let testApp: TestApp;
let receiver: Receiver;
let a: SignedUpUser;
let b: SignedUpUser;
const log = new AnswerLog();
const ids = {} as Record<
  | 'subscription'
  | 'deleted'
  | 'addon'
  | 'alert'
  | 'folder'
  | 'tag'
  | 'paymentMode'
  | 'category'
  | 'product'
  | 'endpoint'
  | 'inboundToken'
  | 'calendarFeed'
  | 'notificationTarget'
  | 'delivery'
  | 'entry'
  | 'household'
  | 'member'
  | 'proposal',
  number
>;
/** An invitation of A's household to an address that is not B's. */
let inviteCode: string;
let bSubscription: number;
let bManageToken: string;
let before: Record<string, string[]>;

const asB = () => ({ authorization: `Bearer ${b.token}`, accept: 'application/json' });

beforeAll(async () => {
  receiver = new Receiver();
  await receiver.start();
  testApp = await startTestApp({
    WEBHOOK_ALLOW_PRIVATE: 'true',
    NOTIFY_SECRET_KEY: 'authorization-matrix-secret-key-0123456789',
  });
  a = await signUp(testApp, `A ${MARK}`);
  b = await signUp(testApp, 'B');
  const asA = (query: string) => graphqlData(testApp, a.token, query);
  // Settings of A's own, which no import of B may reach.
  await asA('mutation { updateExtensionSettings(input: {notifyBefore: 4}) { notifyBefore } }');
  ids.folder = (await asA(`mutation { createFolder(input: {name: "folder ${MARK}"}) { id } }`)).createFolder.id;
  ids.tag = (await asA(`mutation { createTag(input: {name: "tag ${MARK}"}) { id } }`)).createTag.id;
  ids.paymentMode = (
    await asA(`mutation { createPaymentMode(input: {name: "card ${MARK}"}) { id } }`)
  ).createPaymentMode.id;
  ids.category = (
    await asA(`mutation { createProductCategory(input: {name: "category ${MARK}"}) { id } }`)
  ).createProductCategory.id;
  const alert = await testApp.http
    .post('/api/v1/alerts')
    .set('authorization', `Bearer ${a.token}`)
    .field('alert_name', `alert ${MARK}`)
    .field('time_period', '2')
    .field('time', '09:00')
    .field('timezone', 'UTC')
    .field('alert_type', '1')
    .field('alert_condition', '1')
    .field('alert_subs_type', '3');
  expect(alert.status).toBe(200);
  ids.alert = alert.body.id;
  ids.endpoint = (
    await asA(`mutation { createWebhookEndpoint(input: {url: "${receiver.url}${MARK}"}) { id } }`)
  ).createWebhookEndpoint.id;
  ids.inboundToken = (
    await asA('mutation { createInboundWebhookToken(kind: MANAGE) { id } }')
  ).createInboundWebhookToken.id;
  ids.calendarFeed = (
    await asA(`mutation { createCalendarFeed(input: {name: "feed ${MARK}"}) { id } }`)
  ).createCalendarFeed.id;
  ids.notificationTarget = (
    await asA(
      `mutation { createNotificationTarget(input: {name: "target ${MARK}", url: "ntfy://ntfy.example.com/topic${MARK}"}) { id } }`,
    )
  ).createNotificationTarget.id;
  await asA(`mutation { setAlertTargets(alertId: ${ids.alert}, targetIds: [${ids.notificationTarget}]) }`);
  const record = await createSubscription(testApp, a.token, {
    brand_id: `product ${MARK}`,
    note: `note ${MARK}`,
    folder_id: String(ids.folder),
    'tags[]': String(ids.tag),
    payment_mode_id: String(ids.paymentMode),
    category_id: String(ids.category),
    alert_id: String(ids.alert),
  });
  ids.subscription = record.id as number;
  ids.product = record.brand_id as number;
  const addon = await testApp.http
    .post(`/api/v1/subscriptions/${ids.subscription}/addon`)
    .set('authorization', `Bearer ${a.token}`)
    .field('type', '3')
    .field('price', '5.00')
    .field('price_type', 'USD')
    .field('payment_date', '2026-02-01')
    .field('status', '1')
    .field('recurring', '0');
  expect(addon.status).toBe(200);
  ids.addon = addon.body.subscription.id;
  [{ id: ids.entry }] = (await asA('{ paymentEntries { id } }')).paymentEntries;
  await asA(`mutation { setBudget(input: {amount: "50", categoryId: ${ids.category}}) { id } }`);
  const statement = generateStatement(1, { from: monthsFromToday(-24), months: 24, currency: 'EUR' });
  const analysis = await testApp.http
    .post('/graphql')
    .set('authorization', `Bearer ${a.token}`)
    .field('operations', JSON.stringify({ query: ANALYZE_STATEMENT, variables: { file: null } }))
    .field('map', JSON.stringify({ 0: ['variables.file'] }))
    .attach('0', writeStatement(statement.transactions, 'csv', 'english'), 'statement.csv');
  [{ id: ids.proposal }] = analysis.body.data.analyzeStatement.proposals;
  ids.household = (await asA(`mutation { createHousehold(name: "home ${MARK}") { id } }`)).createHousehold.id;
  ids.member = (
    await asA(`mutation { addHouseholdMember(input: {name: "member ${MARK}"}) { id } }`)
  ).addHouseholdMember.id;
  inviteCode = (
    await asA(
      `mutation { addHouseholdMember(input: {name: "invited ${MARK}", email: "invited@example.com"}) { invitationCode } }`,
    )
  ).addHouseholdMember.invitationCode;
  await asA(
    `mutation { shareSubscription(id: ${ids.subscription}, input: {payerMemberId: ${ids.member}, shares: [{memberId: ${ids.member}}]}) { id } }`,
  );
  ids.deleted = (await createSubscription(testApp, a.token, { note: `deleted ${MARK}` })).id as number;
  expect(
    (await testApp.http.delete(`/api/v1/subscriptions/${ids.deleted}`).set('authorization', `Bearer ${a.token}`))
      .status,
  ).toBe(200);
  // Every event of A delivered, so nothing of A's changes in the background while B tries.
  await until(
    async () =>
      (
        await sql<{ n: string }>(testApp, `select count(*) as "n" from "webhook_deliveries" where "status" = 'PENDING'`)
      )[0].n === '0',
    'deliveries of A settled',
    15_000,
  );
  [{ id: ids.delivery }] = await sql<{ id: number }>(
    testApp,
    `select d."id" from "webhook_deliveries" d join "webhook_endpoints" e on e."id" = d."endpoint_id" where e."user_id" = ? limit 1`,
    [a.id],
  );

  bSubscription = (await createSubscription(testApp, b.token)).id as number;
  const created = await graphqlData(testApp, b.token, 'mutation { createInboundWebhookToken(kind: MANAGE) { token } }');
  bManageToken = created.createInboundWebhookToken.token;
  before = await ownedRows(testApp, a.id);
}, 60_000);

afterAll(async () => {
  await testApp.close();
  await receiver.stop();
});

/** B's request on A's data: a 400 JSON error, and no trace of A in it. */
async function refusedRest(label: string, request: () => PromiseLike<import('supertest').Response>) {
  const response = log.add(label, await request());
  expect([label, response.status]).toEqual([label, 400]);
  expectErrorBody(response.body);
  expect(response.text).not.toContain(MARK);
}

/** B's request that answers B's own data (or nothing): never A's. */
async function ownDataOnly(label: string, request: () => PromiseLike<import('supertest').Response>) {
  const response = log.add(label, await request());
  expect([label, response.status < 500]).toEqual([label, true]);
  expect(response.headers['content-type']).toMatch(/json/);
  expect(response.text).not.toContain(MARK);
  expect(response.text).not.toContain(a.email);
}

/** The REST fields that link a record to another row, with A's row for each. */
const aLinks = () =>
  [
    ['brand_id', ids.product],
    ['folder_id', ids.folder],
    ['alert_id', ids.alert],
    ['category_id', ids.category],
    ['payment_mode_id', ids.paymentMode],
    ['tags[]', ids.tag],
  ] as const;

const REST_CASES: Record<string, () => Promise<void>> = {
  'POST /api/v1/auth/login': async () => {
    const response = log.add(
      'login as A with a wrong password',
      await testApp.http.post('/api/v1/auth/login').field('email', a.email).field('password', 'not the password'),
    );
    expect(response.status).toBe(401);
    expect(response.text).not.toContain(MARK);
  },
  'GET /api/v1/auth/token': () => ownDataOnly('token', () => testApp.http.get('/api/v1/auth/token').set(asB())),
  'GET /api/v1/auth/logout': async () => {
    // A second token of B's, so B's main token keeps working for the other cases.
    const login = await testApp.http.post('/api/v1/auth/login').field('email', b.email).field('password', b.password);
    await ownDataOnly('logout', () =>
      testApp.http.get('/api/v1/auth/logout').set('authorization', `Bearer ${login.body.token}`),
    );
  },
  'POST /api/v1/subscriptions': async () => {
    for (const [field, value] of aLinks()) {
      await refusedRest(`create linking A's ${field}`, () =>
        postSubscription(testApp, b.token, { ...MINIMAL, [field]: String(value) }),
      );
    }
  },
  'POST /api/v1/subscriptions/:id/refund': () =>
    refusedRest('refund', () => testApp.http.post(`/api/v1/subscriptions/${ids.subscription}/refund`).set(asB())),
  'POST /api/v1/subscriptions/:id/cancel': () =>
    refusedRest('cancel', () => testApp.http.post(`/api/v1/subscriptions/${ids.subscription}/cancel`).set(asB())),
  'POST /api/v1/subscriptions/:id/addon': () =>
    refusedRest('addon', () =>
      testApp.http
        .post(`/api/v1/subscriptions/${ids.subscription}/addon`)
        .set(asB())
        .field('type', '3')
        .field('price', '1.00')
        .field('price_type', 'USD')
        .field('payment_date', '2026-02-01')
        .field('status', '1')
        .field('recurring', '0'),
    ),
  'GET /api/v1/subscriptions': () =>
    ownDataOnly('list', () => testApp.http.get(`/api/v1/subscriptions?q=${MARK}`).set(asB())),
  'GET /api/v1/subscriptions/:id': async () => {
    for (const id of [ids.subscription, ids.addon, ids.deleted])
      await refusedRest(`get ${id}`, () => testApp.http.get(`/api/v1/subscriptions/${id}`).set(asB()));
  },
  'GET /api/v1/subscriptions/upcoming': () =>
    ownDataOnly('upcoming', () => testApp.http.get('/api/v1/subscriptions/upcoming?days=366').set(asB())),
  'PUT /api/v1/subscriptions/:id': async () => {
    await refusedRest("update A's", () =>
      testApp.http.put(`/api/v1/subscriptions/${ids.subscription}`).set(asB()).type('form').send({ price: '1.00' }),
    );
    for (const [field, value] of aLinks()) {
      await refusedRest(`link B's record to A's ${field}`, () =>
        testApp.http
          .put(`/api/v1/subscriptions/${bSubscription}`)
          .set(asB())
          .type('form')
          .send({ [field]: String(value) }),
      );
    }
  },
  'DELETE /api/v1/subscriptions/:id': () =>
    refusedRest('delete', () => testApp.http.delete(`/api/v1/subscriptions/${ids.subscription}`).set(asB())),
  'GET /api/v1/calendar': () =>
    ownDataOnly('calendar', () => testApp.http.get('/api/v1/calendar?start=2026-01-01&end=2026-12-31').set(asB())),
  'POST /api/v1/alerts': () =>
    ownDataOnly('create alert', () =>
      testApp.http
        .post('/api/v1/alerts')
        .set(asB())
        .field('alert_name', 'b')
        .field('time_period', '1')
        .field('time', '09:00')
        .field('timezone', 'UTC')
        .field('alert_type', '1')
        .field('alert_condition', '1')
        .field('alert_subs_type', '3'),
    ),
  'GET /api/v1/alerts': () => ownDataOnly('alerts', () => testApp.http.get('/api/v1/alerts').set(asB())),
  'GET /api/v1/alerts/:id': () =>
    refusedRest('get alert', () => testApp.http.get(`/api/v1/alerts/${ids.alert}`).set(asB())),
  'PUT /api/v1/alerts/:id': () =>
    refusedRest('update alert', () =>
      testApp.http.put(`/api/v1/alerts/${ids.alert}`).set(asB()).type('form').send({ alert_name: 'mine now' }),
    ),
  'DELETE /api/v1/alerts/:id': () =>
    refusedRest('delete alert', () => testApp.http.delete(`/api/v1/alerts/${ids.alert}`).set(asB())),
  'GET /api/v1/products/search': () =>
    ownDataOnly("search A's private product", () => testApp.http.get(`/api/v1/products/search?q=${MARK}`).set(asB())),
  'GET /api/v1/products/:id': () =>
    refusedRest("A's private product", () => testApp.http.get(`/api/v1/products/${ids.product}`).set(asB())),
  'GET /api/v1/products/categories': () =>
    ownDataOnly('categories', () => testApp.http.get('/api/v1/products/categories').set(asB())),
  'GET /api/v1/products/categories/:id': () =>
    refusedRest("A's category", () => testApp.http.get(`/api/v1/products/categories/${ids.category}`).set(asB())),
  'GET /api/v1/settings/extension': () =>
    ownDataOnly('settings', () => testApp.http.get('/api/v1/settings/extension').set(asB())),
  'PUT /api/v1/settings/extension': () =>
    ownDataOnly('update settings', () =>
      testApp.http.put('/api/v1/settings/extension').set(asB()).type('form').send({ notify_before: '2' }),
    ),
  'GET /api/v1/products': () =>
    ownDataOnly('catalogue list', () => testApp.http.get('/api/v1/products?length=50&start=0').set(asB())),
  ...ownedResourceCases('/api/v1/folders', 'folder'),
  ...ownedResourceCases('/api/v1/tags', 'tag'),
  ...ownedResourceCases('/api/v1/payments/methods', 'paymentMode'),
  'POST /webhook/user/data/:token': async () => {
    for (const event of ['updated', 'deleted', 'refunded', 'canceled']) {
      const body =
        event === 'updated' ? { id: String(ids.subscription), ...MINIMAL } : { id: String(ids.subscription) };
      await refusedRest(`inbound ${event}`, () =>
        testApp.http
          .post(`/webhook/user/data/${encodeURIComponent(bManageToken)}`)
          .set('content-type', 'application/json')
          .set('x-subledger-webhook-event', event)
          .set('x-subledger-webhook-resource', 'subscription')
          .set('x-subledger-webhook-topic', `subscription.${event}`)
          .send(body),
      );
    }
    // The same request on B's own record goes through: the refusals above were ownership, not the headers.
    const own = await testApp.http
      .post(`/webhook/user/data/${encodeURIComponent(bManageToken)}`)
      .set('content-type', 'application/json')
      .set('x-subledger-webhook-topic', 'subscription.updated')
      .send({ id: String(bSubscription), price: '2.00' });
    expect(own.status).toBe(200);
  },
};

/** The original's folder, tag and payment-method routes: B lists and creates its own, never reaches A's. */
function ownedResourceCases(path: string, key: 'folder' | 'tag' | 'paymentMode'): Record<string, () => Promise<void>> {
  return {
    [`GET ${path}`]: () => ownDataOnly(`list ${path}`, () => testApp.http.get(`${path}?q=${MARK}`).set(asB())),
    [`POST ${path}`]: () =>
      ownDataOnly(`create ${path}`, () =>
        testApp.http.post(path).set(asB()).field('name', `B's ${key}`).field('payment_type', 'Others'),
      ),
    [`GET ${path}/:id`]: () => refusedRest(`get ${path}`, () => testApp.http.get(`${path}/${ids[key]}`).set(asB())),
    [`PUT ${path}/:id`]: () =>
      refusedRest(`update ${path}`, () =>
        testApp.http.put(`${path}/${ids[key]}`).set(asB()).type('form').send({ name: 'mine now' }),
      ),
    [`DELETE ${path}/:id`]: () =>
      refusedRest(`delete ${path}`, () => testApp.http.delete(`${path}/${ids[key]}`).set(asB())),
  };
}

/** A's ids found in an answer under the names that point at A's rows (subscription, alert, endpoint, token). */
function foreignIds(data: unknown): string[] {
  const found: string[] = [];
  const visit = (value: unknown, key: string) => {
    if (Array.isArray(value)) return value.forEach((item) => visit(item, key));
    if (value !== null && typeof value === 'object')
      return Object.entries(value).forEach(([name, item]) => visit(item, name));
    const of: Record<string, number[]> = {
      subscriptionId: [ids.subscription, ids.addon, ids.deleted],
      alertId: [ids.alert],
      endpointId: [ids.endpoint],
    };
    if (of[key]?.includes(value as number)) found.push(`${key} ${String(value)}`);
  };
  visit(data, '');
  return found;
}

type GraphQLCase = { refused?: string[]; ownOnly?: string[]; asMissing?: string[] };

/**
 * B's documents per field: `refused` ones must fail with NOT_FOUND; `ownOnly` ones answer without A's data;
 * `asMissing` ones (A's ids given as links in an input) must get exactly the answer a missing id gets.
 */
const GRAPHQL_CASES: Record<string, GraphQLCase> = {
  me: { ownOnly: ['{ me { id email name } }'] },
  alerts: { ownOnly: ['{ alerts { id name } }'] },
  alert: { refused: ['{ alert(id: ALERT) { id } }'] },
  subscriptions: {
    ownOnly: [
      `{ subscriptions(search: "${MARK}") { totalCount edges { node { id note } } } }`,
      '{ subscriptions { edges { node { id note folder { name } tags { name } product { productName } } } } }',
    ],
  },
  subscription: { refused: ['SUBSCRIPTION', 'ADDON', 'DELETED'].map((key) => `{ subscription(id: ${key}) { id } }`) },
  upcomingPayments: { ownOnly: ['{ upcomingPayments(days: 366) { id note } }'] },
  calendar: { ownOnly: ['{ calendar(from: "2026-01-01", to: "2026-12-31") { id subscription { note } } }'] },
  spendingSummary: {
    ownOnly: [
      '{ spendingSummary(groupBy: FOLDER) { monthlyTotal groups { key label monthlyTotal } } }',
      '{ spendingSummary(from: "2026-01-01", to: "2026-12-31") { paidTotal budget groups { key label paidTotal budget } } }',
      '{ spendingSummary(view: MY_SHARE) { periodTotal groups { key label periodTotal } } }',
    ],
    refused: [
      '{ spendingSummary(view: HOUSEHOLD, householdId: A_HOUSEHOLD) { periodTotal } }',
      '{ spendingSummary(view: HOUSEHOLD, householdId: A_HOUSEHOLD, memberId: A_MEMBER) { periodTotal } }',
    ],
  },
  reminders: {
    ownOnly: [
      '{ reminders(from: "2026-01-01T00:00:00Z", to: "2026-12-31T00:00:00Z") { id subscriptionId alertId kind date } }',
    ],
  },
  dueReminders: { ownOnly: ['{ dueReminders { id subscriptionId alertId } }'] },
  products: { ownOnly: [`{ products(search: "${MARK}") { edges { node { id productName } } } }`] },
  product: { refused: ['{ product(id: PRODUCT) { id } }'] },
  extensionSettings: { ownOnly: ['{ extensionSettings { notifyBefore } }'] },
  webhookEndpoints: { ownOnly: ['{ webhookEndpoints { id url } }'] },
  inboundWebhookTokens: { ownOnly: ['{ inboundWebhookTokens { id kind } }'] },
  webhookDeliveries: {
    ownOnly: [
      '{ webhookDeliveries { edges { node { id eventId } } } }',
      '{ webhookDeliveries(endpointId: ENDPOINT) { edges { node { id } } } }',
    ],
  },
  folders: { ownOnly: ['{ folders { id name } }'] },
  tags: { ownOnly: ['{ tags { id name } }'] },
  paymentModes: { ownOnly: ['{ paymentModes { id name } }'] },
  productCategories: { ownOnly: ['{ productCategories { id name } }'] },
  signUp: {
    ownOnly: [`mutation { signUp(input: {email: "${'A_EMAIL'}", password: "another password", name: "x"}) { token } }`],
  },
  login: { ownOnly: ['mutation { login(email: "A_EMAIL", password: "wrong password") { token } }'] },
  logout: { ownOnly: [] },
  createAlert: {
    ownOnly: [
      'mutation { createAlert(input: {name: "b", timePeriod: 1, time: "09:00", timezone: "UTC", channel: 1}) { id } }',
    ],
  },
  updateAlert: { refused: ['mutation { updateAlert(id: ALERT, input: {name: "mine"}) { id } }'] },
  deleteAlert: { refused: ['mutation { deleteAlert(id: ALERT) }'] },
  createSubscription: {
    asMissing: [
      'folderId: FOLDER_ID',
      'alertId: ALERT',
      'categoryId: CATEGORY',
      'paymentModeId: PAYMENT_MODE',
      'productId: PRODUCT',
    ].map(
      (link) =>
        `mutation { createSubscription(input: {type: 1, price: "1.00", currency: "USD", billingCycle: 3, paymentDate: "2026-01-01", ${link}}) { id } }`,
    ),
  },
  updateSubscription: {
    refused: ['mutation { updateSubscription(id: SUBSCRIPTION, input: {price: "1.00"}) { id } }'],
    asMissing: [
      'folderId: FOLDER_ID',
      'alertId: ALERT',
      'categoryId: CATEGORY',
      'paymentModeId: PAYMENT_MODE',
      'productId: PRODUCT',
    ].map((link) => `mutation { updateSubscription(id: B_SUBSCRIPTION, input: {${link}}) { id } }`),
  },
  deleteSubscription: { refused: ['mutation { deleteSubscription(id: SUBSCRIPTION) }'] },
  restoreSubscription: { refused: ['mutation { restoreSubscription(id: DELETED) { id } }'] },
  cancelSubscription: { refused: ['mutation { cancelSubscription(id: SUBSCRIPTION) { id } }'] },
  refundSubscription: { refused: ['mutation { refundSubscription(id: SUBSCRIPTION) { id } }'] },
  addAddon: {
    refused: [
      'mutation { addAddon(subscriptionId: SUBSCRIPTION, input: {price: "1.00", currency: "USD", paymentDate: "2026-01-01"}) { id } }',
    ],
  },
  updateProfile: { ownOnly: ['mutation { updateProfile(input: {name: "B again"}) { id name } }'] },
  setSubscriptionAlerts: {
    refused: ['mutation { setSubscriptionAlerts(id: SUBSCRIPTION, alertIds: [1]) { id } }'],
    asMissing: ['mutation { setSubscriptionAlerts(id: B_SUBSCRIPTION, alertIds: [ALERT]) { id } }'],
  },
  sendTestReminder: { refused: ['mutation { sendTestReminder(alertId: ALERT) }'] },
  updateExtensionSettings: {
    ownOnly: ['mutation { updateExtensionSettings(input: {notifyBefore: 3}) { notifyBefore } }'],
  },
  createWebhookEndpoint: {
    ownOnly: ['mutation { createWebhookEndpoint(input: {url: "https://example.com/b-hook"}) { id url events } }'],
  },
  updateWebhookEndpoint: {
    refused: ['mutation { updateWebhookEndpoint(id: ENDPOINT, input: {url: "https://example.com/hook"}) { id } }'],
  },
  enableWebhookEndpoint: { refused: ['mutation { enableWebhookEndpoint(id: ENDPOINT) { id } }'] },
  disableWebhookEndpoint: { refused: ['mutation { disableWebhookEndpoint(id: ENDPOINT) { id } }'] },
  rotateWebhookEndpointSecret: { refused: ['mutation { rotateWebhookEndpointSecret(id: ENDPOINT) { secret } }'] },
  deleteWebhookEndpoint: { refused: ['mutation { deleteWebhookEndpoint(id: ENDPOINT) }'] },
  createInboundWebhookToken: { ownOnly: ['mutation { createInboundWebhookToken(kind: CREATE) { id kind } }'] },
  revokeInboundWebhookToken: { refused: ['mutation { revokeInboundWebhookToken(id: INBOUND_TOKEN) { id } }'] },
  calendarFeeds: { ownOnly: ['{ calendarFeeds { id name } }'] },
  exportLinks: { ownOnly: ['{ exportLinks { subscriptionsCsv accountJson } }'] },
  importSubscriptions: {},
  createCalendarFeed: { ownOnly: ['mutation { createCalendarFeed(input: {name: "B feed"}) { id name url } }'] },
  revokeCalendarFeed: { refused: ['mutation { revokeCalendarFeed(id: CALENDAR_FEED) { id } }'] },
  redeliver: { refused: ['mutation { redeliver(deliveryId: DELIVERY) { id } }'] },
  notificationTargets: { ownOnly: ['{ notificationTargets { id name scheme url } }'] },
  alertTargets: { refused: ['{ alertTargets(alertId: ALERT) }'], ownOnly: ['{ alertTargets(alertId: 1) }'] },
  createNotificationTarget: {
    ownOnly: [
      'mutation { createNotificationTarget(input: {name: "B target", url: "ntfy://ntfy.example.com/b"}) { id url } }',
    ],
  },
  updateNotificationTarget: {
    refused: ['mutation { updateNotificationTarget(id: NOTIFICATION_TARGET, input: {name: "mine"}) { id } }'],
  },
  deleteNotificationTarget: { refused: ['mutation { deleteNotificationTarget(id: NOTIFICATION_TARGET) }'] },
  setAlertTargets: {
    refused: ['mutation { setAlertTargets(alertId: ALERT, targetIds: []) }'],
    asMissing: ['mutation { setAlertTargets(alertId: 1, targetIds: [NOTIFICATION_TARGET]) }'],
  },
  sendTestNotification: { refused: ['mutation { sendTestNotification(id: NOTIFICATION_TARGET) { id } }'] },
  changePrice: {
    refused: ['mutation { changePrice(id: SUBSCRIPTION, price: "1.00", effectiveFrom: "2026-06-01") { id } }'],
  },
  paymentEntries: {
    ownOnly: ['{ paymentEntries { id subscriptionId productName note } }'],
    refused: ['{ paymentEntries(filter: {householdId: A_HOUSEHOLD}) { id } }'],
  },
  markPaid: { refused: ['mutation { markPaid(entryId: ENTRY) { id } }'] },
  markSkipped: { refused: ['mutation { markSkipped(entryId: ENTRY) { id } }'] },
  budgets: { ownOnly: ['{ budgets { id categoryId categoryName amount } }'] },
  analyzeStatement: {},
  subscriptionProposals: { ownOnly: ['{ subscriptionProposals { id payee price payments { date amount } } }'] },
  acceptProposals: { refused: ['mutation { acceptProposals(ids: [PROPOSAL]) { id } }'] },
  dismissProposals: { refused: ['mutation { dismissProposals(ids: [PROPOSAL]) }'] },
  setBudget: {
    ownOnly: ['mutation { setBudget(input: {amount: "5"}) { id categoryId amount } }'],
    asMissing: [
      'mutation { setBudget(input: {amount: "5", categoryId: CATEGORY}) { id } }',
      'mutation { setBudget(input: {amount: "5", alertId: ALERT}) { id } }',
    ],
  },
  removeBudget: { refused: ['mutation { removeBudget(categoryId: CATEGORY) }'] },
  households: {
    ownOnly: [
      '{ households { id name ownerName members { id name email } subscriptions { id note sharing { payerName } } } }',
    ],
  },
  // Each document makes B's own household and removes it again, so that the cases do not depend on their order.
  createHousehold: {
    ownOnly: ['mutation { createHousehold(name: "B home") { id name members { name } } deleteHousehold }'],
  },
  renameHousehold: {
    ownOnly: [
      'mutation { createHousehold(name: "B home") { id } renameHousehold(name: "B flat") { id name } deleteHousehold }',
    ],
  },
  deleteHousehold: { ownOnly: ['mutation { createHousehold(name: "B home") { id } deleteHousehold }'] },
  addHouseholdMember: {
    ownOnly: [
      'mutation { createHousehold(name: "B home") { id } addHouseholdMember(input: {name: "B member"}) { id name } deleteHousehold }',
    ],
  },
  inviteHouseholdMember: {
    refused: ['mutation { inviteHouseholdMember(memberId: A_MEMBER, email: "b@example.com") { id } }'],
  },
  updateHouseholdMember: {
    refused: ['mutation { updateHouseholdMember(memberId: A_MEMBER, input: {canEdit: true}) { id } }'],
  },
  removeHouseholdMember: { refused: ['mutation { removeHouseholdMember(memberId: A_MEMBER) }'] },
  joinHousehold: { refused: ['mutation { joinHousehold(code: "A_INVITE_CODE") { id } }'] },
  leaveHousehold: { refused: ['mutation { leaveHousehold(householdId: A_HOUSEHOLD) }'] },
  shareSubscription: {
    refused: [
      'mutation { shareSubscription(id: SUBSCRIPTION, input: {payerMemberId: A_MEMBER, shares: [{memberId: A_MEMBER}]}) { id } }',
    ],
    asMissing: [
      'mutation { shareSubscription(id: B_SUBSCRIPTION, input: {payerMemberId: A_MEMBER, shares: [{memberId: A_MEMBER}]}) { id } }',
    ],
  },
  unshareSubscription: { refused: ['mutation { unshareSubscription(id: SUBSCRIPTION) { id } }'] },
  ...ownedNameCases('Folder', 'FOLDER_ID'),
  ...ownedNameCases('Tag', 'TAG'),
  ...ownedNameCases('PaymentMode', 'PAYMENT_MODE'),
  ...ownedNameCases('ProductCategory', 'CATEGORY'),
};

/** Folders, tags, payment modes and categories share one generic resolver, and so one set of cases. */
function ownedNameCases(kind: string, placeholder: string): Record<string, GraphQLCase> {
  return {
    [`create${kind}`]: { ownOnly: [`mutation { create${kind}(input: {name: "B's ${kind}"}) { id name } }`] },
    [`update${kind}`]: { refused: [`mutation { update${kind}(id: ${placeholder}, input: {name: "mine"}) { id } }`] },
    [`delete${kind}`]: { refused: [`mutation { delete${kind}(id: ${placeholder}) }`] },
  };
}

const PLACEHOLDER =
  /\b(B_SUBSCRIPTION|SUBSCRIPTION|ADDON|DELETED|ALERT|FOLDER_ID|TAG|PAYMENT_MODE|CATEGORY|PRODUCT|ENDPOINT|INBOUND_TOKEN|CALENDAR_FEED|NOTIFICATION_TARGET|DELIVERY|ENTRY|A_EMAIL|A_HOUSEHOLD|A_MEMBER|A_INVITE_CODE|PROPOSAL)\b/g;

/** The document with A's ids (and B's own record) in place of the placeholders. */
function withIds(document: string): string {
  const values: Record<string, number | string> = {
    B_SUBSCRIPTION: bSubscription,
    SUBSCRIPTION: ids.subscription,
    ADDON: ids.addon,
    DELETED: ids.deleted,
    ALERT: ids.alert,
    FOLDER_ID: ids.folder,
    TAG: ids.tag,
    PAYMENT_MODE: ids.paymentMode,
    CATEGORY: ids.category,
    PRODUCT: ids.product,
    ENDPOINT: ids.endpoint,
    INBOUND_TOKEN: ids.inboundToken,
    CALENDAR_FEED: ids.calendarFeed,
    NOTIFICATION_TARGET: ids.notificationTarget,
    DELIVERY: ids.delivery,
    ENTRY: ids.entry,
    A_EMAIL: a.email,
    A_HOUSEHOLD: ids.household,
    A_MEMBER: ids.member,
    A_INVITE_CODE: inviteCode,
    PROPOSAL: ids.proposal,
  };
  return document.replace(PLACEHOLDER, (key) => String(values[key]));
}

/** The same document with ids nobody has in place of A's (B's own record stays). */
function withMissingIds(document: string): string {
  return withIds(document.replace(PLACEHOLDER, (key) => (key === 'B_SUBSCRIPTION' ? key : '2147480000')));
}

/**
 * Fields without documents: GraphQL logout would end B's token for the other cases (its own test is below);
 * an import takes a file upload (its case is "GraphQL importSubscriptions" below), and so does a statement's
 * analysis, which reads no id (a statement holds none) and answers only the caller's proposals
 * (test/integration/detection.test.ts).
 */
const WITHOUT_DOCUMENTS = new Set(['logout', 'importSubscriptions', 'analyzeStatement']);

const ANALYZE_STATEMENT = 'mutation ($file: Upload!) { analyzeStatement(file: $file) { proposals { id } } }';

describe('authorization matrix', () => {
  it('has a case for every REST route the app serves and for every table with user data', async () => {
    expect(restRoutes(testApp).filter((route) => !(route in REST_CASES))).toEqual([]);
    expect(Object.keys(REST_CASES).filter((route) => !restRoutes(testApp).includes(route))).toEqual([]);
    expect(await tablesWithoutOwnership(testApp)).toEqual([]);
  });

  it('has a case for every GraphQL query and mutation of the schema', () => {
    const schema = buildSchema(readFileSync(path.join(__dirname, '../../schema/schema.graphql'), 'utf8'));
    const fields = [schema.getQueryType(), schema.getMutationType()].flatMap((type) =>
      Object.keys((type as GraphQLObjectType).getFields()),
    );
    expect(fields.filter((field) => !(field in GRAPHQL_CASES))).toEqual([]);
    expect(Object.keys(GRAPHQL_CASES).filter((field) => !fields.includes(field))).toEqual([]);
    for (const [field, { refused = [], ownOnly = [], asMissing = [] }] of Object.entries(GRAPHQL_CASES)) {
      if (refused.length + ownOnly.length + asMissing.length === 0)
        expect([field, WITHOUT_DOCUMENTS.has(field)]).toEqual([field, true]);
    }
  });

  it.each(Object.keys(REST_CASES))("REST %s: B cannot reach A's data", async (route) => {
    await REST_CASES[route]();
  });

  it.each(Object.keys(GRAPHQL_CASES))("GraphQL %s: B cannot reach A's data", async (field) => {
    const { refused = [], ownOnly = [], asMissing = [] } = GRAPHQL_CASES[field];
    const ask = async (document: string) => {
      const response = await graphql(testApp, b.token, document);
      log.add(`graphql ${field}`, response);
      expect(response.text).not.toContain(MARK);
      expect(response.text).not.toContain(`"${a.email}"`);
      return response;
    };
    for (const document of refused) {
      const response = await ask(withIds(document));
      expect([document, response.body.errors?.[0]?.extensions?.code]).toEqual([document, 'NOT_FOUND']);
      expect(response.body.data?.[field] ?? null).toBeNull();
    }
    for (const document of ownOnly) {
      const response = await ask(withIds(document));
      expect([document, response.status < 500]).toEqual([document, true]);
      // What B may do answers B's own data: it ran, with no error to hide behind.
      if (!/password|signUp/.test(document)) expect([document, response.body.errors]).toEqual([document, undefined]);
      // Answers made only of ids carry no text to spot a leak by: none of A's ids may be in them.
      expect([document, foreignIds(response.body.data)]).toEqual([document, []]);
    }
    for (const document of asMissing) {
      const foreign = await ask(withIds(document));
      const missing = await ask(withMissingIds(document));
      expect(foreign.body.errors?.length).toBeGreaterThan(0);
      const answer = (response: typeof foreign) => ({
        code: response.body.errors[0].extensions.code,
        message: response.body.errors[0].message,
        data: response.body.data?.[field] ?? null,
      });
      expect([document, answer(foreign)]).toEqual([document, answer(missing)]);
    }
  });

  it("GraphQL importSubscriptions: a file with A's ids in every place restores into B's own rows, and A's ids as links are missing ones", async () => {
    const SETTINGS = '{ extensionSettings { autoDetectSubscriptions browserNotifications notifyBefore } }';
    const aSettings = await graphqlData(testApp, a.token, SETTINGS);
    expect(aSettings.extensionSettings.notifyBefore).toBe(4);
    const notifyBeforeOfB = async () => (await graphqlData(testApp, b.token, SETTINGS)).extensionSettings.notifyBefore;
    const imported = async (document: unknown) => {
      const response = log.add('import', await uploadAccount(testApp, b.token, document));
      expect(response.status).toBe(200);
      expect(response.text).not.toContain(MARK);
      return response;
    };
    // Owner and bookkeeping ids of A on every object of the file: none of them is read.
    const ofA = {
      user: a.id,
      user_id: a.id,
      owner_id: a.id,
      created_by: a.id,
      subscription_id: ids.subscription,
      household_id: ids.household,
    };
    const record = (overrides: Record<string, unknown>) => ({ ...exportedRecord(), ...ofA, ...overrides });

    // A's ids as the file's own ids: each is the file's row, made anew as B's, and the file's links follow them.
    const document = {
      format: 'subledger-account',
      version: 1,
      ...ofA,
      profile: { ...ofA, id: a.id, name: 'B', email: a.email, baseCurrency: 'EUR', timezone: 'UTC' },
      settings: { ...ofA, notifyBefore: 7 },
      folders: [{ ...ofA, id: ids.folder, name: 'B folder', color: null, isDefault: true }],
      tags: [{ ...ofA, id: ids.tag, name: 'B tag' }],
      paymentModes: [{ ...ofA, id: ids.paymentMode, name: 'B card' }],
      categories: [{ ...ofA, id: ids.category, name: 'B category' }],
      alerts: [{ ...exportedAlert(ids.alert, 'B alert'), ...ofA }],
      webhookEndpoints: [{ ...ofA, id: ids.endpoint, url: `${receiver.url}b-import`, events: [], enabled: false }],
      budgets: [{ ...ofA, id: ids.category, categoryId: ids.category, amount: '20.00', alertId: ids.alert }],
      household: {
        ...ofA,
        id: ids.household,
        name: 'B home',
        members: [{ ...ofA, id: ids.member, name: 'B', isOwner: true, canEdit: false }],
      },
      subscriptions: [
        record({
          id: ids.subscription,
          folder_id: ids.folder,
          payment_mode_id: ids.paymentMode,
          category_id: ids.category,
          alert_id: ids.alert,
          alert_ids: [ids.alert],
          brand_id: ids.product,
          product_name: 'B product',
          tags: ['B tag'],
          price_history: [{ ...ofA, id: ids.entry, effective_from: daysFromToday(-40), price: '12.50' }],
          payments: [exportedPayment(10, { ...ofA, id: ids.entry })],
          sharing: {
            ...ofA,
            payer_member_id: ids.member,
            mode: 'equal',
            shares: [{ ...ofA, member_id: ids.member, value: null }],
          },
        }),
        record({ id: ids.addon, sub_addon: 1, sub_id: ids.subscription, product_name: 'B product', price: 2 }),
      ],
    };
    const response = await imported(document);
    expect(response.body.errors).toBeUndefined();
    const report = response.body.data.importSubscriptions;
    expect(report).toMatchObject({ total: 2, created: 2, refused: 0 });
    const [mainId, addonId] = report.rows.map((row: { recordId: number }) => row.recordId);
    expect([mainId, addonId]).not.toContain(ids.subscription);
    expect(await notifyBeforeOfB()).toBe(7);
    expect(await graphqlData(testApp, a.token, SETTINGS)).toEqual(aSettings);
    expect(await ownedRows(testApp, a.id)).toEqual(before);
    expect(await linksToOthersRows(testApp, b.id, a.id)).toEqual({});
    // The file's links were restored, to B's rows.
    const [main] = await sql<Record<string, unknown>>(
      testApp,
      `select s."user_id", s."created_by", f."name" as "folder", f."user_id" as "folder_owner", m."name" as "mode", c."name" as "category",
              al."alert_name" as "alert", p."owner_id" as "product_owner", (select count(*)::int from "subscription_shares" x where x."subscription_id" = s."id") as "shares",
              (select count(*)::int from "payment_entries" e where e."subscription_id" = s."id" and e."status" = 'paid') as "paid"
         from "subscriptions" s left join "folders" f on f."id" = s."folder_id" left join "payment_modes" m on m."id" = s."payment_mode_id"
         left join "product_categories" c on c."id" = s."category_id" left join "alerts" al on al."id" = s."alert_id" join "products" p on p."id" = s."product_id"
        where s."id" = ?`,
      [mainId],
    );
    expect(main).toEqual({
      user_id: b.id,
      created_by: b.id,
      folder: 'B folder',
      folder_owner: b.id,
      mode: 'B card',
      category: 'B category',
      alert: 'B alert',
      product_owner: b.id,
      shares: 1,
      paid: 1,
    });
    const [addon] = await sql<{ sub_id: number; user_id: number }>(
      testApp,
      `select "sub_id", "user_id" from "subscriptions" where "id" = ?`,
      [addonId],
    );
    expect(addon).toEqual({ sub_id: mainId, user_id: b.id });

    // A's ids as links the file does not hold: each is a missing id, refused or dropped as one, and changes nothing of A's.
    const MISSING = 2147480000;
    // The file's own ids are far from any of A's.
    const household = { name: 'B home', members: [{ id: 900_003, name: 'B', isOwner: true, canEdit: false }] };
    const linking = (
      parts: Record<string, unknown>,
      records: Array<Record<string, unknown>> = [record({ id: 900_001 })],
    ) => ({
      format: 'subledger-account',
      version: 1,
      settings: { notifyBefore: 9, user: a.id },
      ...parts,
      subscriptions: records,
    });
    const cases: Array<{ place: string; aId: number; refused: boolean; file: (id: number) => unknown }> = [
      {
        place: "a record's category_id",
        aId: ids.category,
        refused: true,
        file: (id) => linking({}, [record({ id: 900_001, category_id: id })]),
      },
      {
        place: "a record's alert_ids",
        aId: ids.alert,
        refused: true,
        file: (id) => linking({}, [record({ id: 900_001, alert_id: id, alert_ids: [id] })]),
      },
      {
        place: "an add-on's sub_id",
        aId: ids.subscription,
        refused: true,
        file: (id) => linking({}, [record({ id: 900_001 }), record({ id: 900_002, sub_addon: 1, sub_id: id })]),
      },
      {
        place: "a budget's categoryId",
        aId: ids.category,
        refused: true,
        file: (id) => linking({ budgets: [{ categoryId: id, amount: '1.00', alertId: null }] }),
      },
      {
        place: "a budget's alertId",
        aId: ids.alert,
        refused: true,
        file: (id) => linking({ budgets: [{ categoryId: null, amount: '1.00', alertId: id }] }),
      },
      {
        place: "a share's payer_member_id",
        aId: ids.member,
        refused: true,
        file: (id) =>
          linking({ household }, [
            record({
              id: 900_001,
              sharing: { payer_member_id: id, mode: 'equal', shares: [{ member_id: 900_003, value: null }] },
            }),
          ]),
      },
      {
        place: "a share's member_id",
        aId: ids.member,
        refused: true,
        file: (id) =>
          linking({ household }, [
            record({
              id: 900_001,
              sharing: { payer_member_id: 900_003, mode: 'equal', shares: [{ member_id: id, value: null }] },
            }),
          ]),
      },
      {
        place: "a record's folder_id",
        aId: ids.folder,
        refused: false,
        file: (id) => linking({}, [record({ id: 900_001, folder_id: id })]),
      },
      {
        place: "a record's payment_mode_id",
        aId: ids.paymentMode,
        refused: false,
        file: (id) => linking({}, [record({ id: 900_001, payment_mode_id: id })]),
      },
      {
        place: "a record's brand_id as a catalogue product's",
        aId: ids.product,
        refused: false,
        file: (id) =>
          linking({}, [record({ id: 900_001, brand_id: id, brandname: 'B brand', product_name: 'B product' })]),
      },
    ];
    // What an answer says, its numbers aside (the id it names, the ids of the records it makes).
    const said = (answer: { body: Record<string, any> }) =>
      JSON.stringify({
        errors: answer.body.errors?.map((error: Record<string, any>) => ({
          message: error.message,
          extensions: error.extensions,
        })),
        rows: answer.body.data?.importSubscriptions?.rows,
      }).replace(/\d+/g, '#');
    // B's rows less the progress of B's deliveries, which the relay makes in the background (B's endpoint
    // does not resolve, so they are retried for the whole test): a refused import writes no event to deliver.
    const bRows = async () => {
      const {
        webhook_deliveries: _deliveries,
        webhook_delivery_attempts: _attempts,
        ...rows
      } = await ownedRows(testApp, b.id);
      return rows;
    };
    for (const { place, aId, refused, file } of cases) {
      const bBefore = await bRows();
      const foreign = await imported(file(aId));
      expect([place, foreign.body.errors?.[0]?.extensions?.code ?? 'imported']).toEqual([
        place,
        refused ? 'BAD_USER_INPUT' : 'imported',
      ]);
      if (refused) {
        expect([place, await bRows()]).toEqual([place, bBefore]);
        expect([place, await notifyBeforeOfB()]).toEqual([place, 7]);
      }
      const missing = await imported(file(MISSING));
      expect([place, said(foreign)]).toEqual([place, said(missing)]);
      expect([place, await linksToOthersRows(testApp, b.id, a.id)]).toEqual([place, {}]);
      expect([place, await ownedRows(testApp, a.id)]).toEqual([place, before]);
    }
    expect(await notifyBeforeOfB()).toBe(9);
    expect(await graphqlData(testApp, a.token, SETTINGS)).toEqual(aSettings);
  });

  it('leaves every row of A byte for byte as it was', async () => {
    expect(await ownedRows(testApp, a.id)).toEqual(before);
    // The snapshot is not empty: it holds what A made.
    for (const table of [
      'subscriptions',
      'alerts',
      'folders',
      'tags',
      'payment_modes',
      'product_categories',
      'products',
      'webhook_endpoints',
      'webhook_deliveries',
      'inbound_webhook_tokens',
      'subscription_tags',
    ]) {
      expect([table, before[table].length > 0]).toEqual([table, true]);
    }
  });
});

describe('properties over every answer', () => {
  it('no answer carries a password hash, a token hash or a signing secret', async () => {
    // A's own reads too: nothing shows a secret after it was created.
    for (const query of ['{ webhookEndpoints { id url } }', '{ inboundWebhookTokens { id } }', '{ me { id } }'])
      log.add(`A ${query}`, await graphql(testApp, a.token, query));
    log.add('A token', await testApp.http.get('/api/v1/auth/token').set('authorization', `Bearer ${a.token}`));
    const secrets = await storedSecrets(testApp);
    expect(secrets.map((secret) => secret.kind)).toEqual(
      expect.arrayContaining(['password hash', 'access token hash', 'inbound token hash', 'webhook secret']),
    );
    expect(log.answers.length).toBeGreaterThan(80);
    for (const { label, text } of log.answers) {
      for (const secret of secrets)
        expect([label, secret.kind, text.includes(secret.value)]).toEqual([label, secret.kind, false]);
      expect([label, /\$argon2|secret_hash|password_hash|token_hash/.test(text)]).toEqual([label, false]);
    }
  });

  it('shows a webhook signing secret once, when the endpoint is made or its secret rotated', async () => {
    const made = await graphqlData(
      testApp,
      b.token,
      `mutation { createWebhookEndpoint(input: {url: "${receiver.url}"}) { id secret } }`,
    );
    expect(made.createWebhookEndpoint.secret).toMatch(/^whsec_/);
    const listed = await graphql(testApp, b.token, '{ webhookEndpoints { id url } }');
    expect(listed.text).not.toContain(made.createWebhookEndpoint.secret);
    const bad = await graphql(testApp, b.token, '{ webhookEndpoints { secret } }');
    expect(bad.body.errors?.[0]?.extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');
  });

  it('GraphQL logout ends only the token that asks', async () => {
    const login = await testApp.http.post('/api/v1/auth/login').field('email', b.email).field('password', b.password);
    const second = login.body.token as string;
    expect((await graphqlData(testApp, second, 'mutation { logout }')).logout).toBe(true);
    expect((await testApp.http.get('/api/v1/auth/token').set('authorization', `Bearer ${second}`)).status).toBe(401);
    expect((await testApp.http.get('/api/v1/auth/token').set(asB())).status).toBe(200);
    expect((await testApp.http.get('/api/v1/auth/token').set('authorization', `Bearer ${a.token}`)).status).toBe(200);
  });

  it('ignores owner and bookkeeping fields sent as JSON, on alerts and through the inbound webhook too', async () => {
    const forged = {
      user_id: String(a.id),
      created_by: String(a.id),
      created_at: '2001-01-01 00:00:00',
      id: String(ids.subscription),
    };
    const json = await testApp.http
      .post('/api/v1/subscriptions')
      .set(asB())
      .send({ ...MINIMAL, ...forged });
    expect(json.status).toBe(200);
    expect([json.body.subscription.user_id, json.body.subscription.created_by]).toEqual([b.id, b.id]);
    expect(json.body.subscription.id).not.toBe(ids.subscription);
    const alert = await testApp.http
      .post('/api/v1/alerts')
      .set(asB())
      .send({
        alert_name: 'forged',
        time_period: '1',
        time: '09:00',
        alert_condition: '2',
        alert_type: '2',
        timezone: 'UTC',
        alert_subs_type: '1',
        ...forged,
        id: String(ids.alert),
        is_default: '1',
      });
    expect(alert.status).toBe(200);
    expect(alert.body.user_id).toBe(b.id);
    expect(alert.body.id).not.toBe(ids.alert);
    const createToken = (
      await graphqlData(testApp, b.token, 'mutation { createInboundWebhookToken(kind: CREATE) { token } }')
    ).createInboundWebhookToken.token;
    const inbound = await testApp.http
      .post(`/webhook/user/data/${encodeURIComponent(createToken)}`)
      .set('content-type', 'application/json')
      .set('x-subledger-webhook-topic', 'subscription.created')
      .send({ ...MINIMAL, ...forged });
    expect(inbound.status).toBe(200);
    expect([inbound.body.subscription.user_id, inbound.body.subscription.created_by]).toEqual([b.id, b.id]);
    expect(await ownedRows(testApp, a.id)).toEqual(before);
  });

  it('ignores id, user_id, created_by and created_at sent with a create or an update', async () => {
    const forged = {
      ...MINIMAL,
      id: String(ids.subscription),
      user_id: String(a.id),
      created_by: String(a.id),
      created_at: '2001-01-01 00:00:00',
    };
    const created = await postSubscription(testApp, b.token, forged);
    expect(created.status).toBe(200);
    const record = created.body.subscription;
    expect(record.id).not.toBe(ids.subscription);
    expect([record.user_id, record.created_by]).toEqual([b.id, b.id]);
    expect(record.created_at).not.toMatch(/^2001/);
    const updated = await testApp.http
      .put(`/api/v1/subscriptions/${record.id}`)
      .set(asB())
      .type('form')
      .send({ user_id: String(a.id), created_by: String(a.id), created_at: '2001-01-01 00:00:00', note: 'changed' });
    expect(updated.status).toBe(200);
    const [row] = await sql<{ user_id: number; created_by: number; created_at: string; note: string }>(
      testApp,
      `select "user_id", "created_by", "created_at", "note" from "subscriptions" where "id" = ?`,
      [record.id],
    );
    expect([row.user_id, row.created_by, row.note]).toEqual([b.id, b.id, 'changed']);
    expect(row.created_at).not.toMatch(/^2001/);
    // The id in the path wins: a different id in the body is refused.
    const moved = await testApp.http
      .put(`/api/v1/subscriptions/${record.id}`)
      .set(asB())
      .type('form')
      .send({ id: String(ids.subscription), note: 'x' });
    expect(moved.status).toBe(400);
    expect(await ownedRows(testApp, a.id)).toEqual(before);
  });
});
