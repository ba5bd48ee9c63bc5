import { readFileSync } from 'node:fs';
import path from 'node:path';

import {
  buildSchema,
  getNamedType,
  type GraphQLObjectType,
  type GraphQLOutputType,
  isAbstractType,
  isLeafType,
  isNonNullType,
  isObjectType,
  Kind,
  type OperationDefinitionNode,
  parse,
} from 'graphql';
import { type Client, createClient } from 'graphql-ws';
import { generate } from 'otplib';
import WebSocket from 'ws';

import { exportedAlert, exportedPayment, exportedRecord, uploadAccount } from '../support/account-imports';
import {
  AnswerLog,
  linksToOthersRows,
  ownedRows,
  ownedRowsDigest,
  restRoutes,
  storedSecrets,
  tablesWithoutOwnership,
} from '../support/hardening';
import { Receiver } from '../support/receiver';
import { expectErrorBody } from '../support/shapes';
import { generateStatement } from '../support/statement-generator';
import { writeStatement } from '../support/statement-writers';
import { createSubscription, globalId, MINIMAL, postSubscription } from '../support/subscriptions';
import { graphql, graphqlData, type SignedUpUser, signUp, sql, startTestApp, type TestApp } from '../support/test-app';
import { daysFromToday, monthsFromToday } from '../support/test-clock';
import { until } from '../support/wait';

/**
 * Two users; B tries every REST operation and every GraphQL query, mutation and subscription on A's ids. B
 * gets "not found" (400 on REST; NOT_FOUND on GraphQL, in a mutation's userErrors and in errors both), or
 * null from node(id:)/nodes(ids:), never sees A's data, and A's rows stay byte for byte the same. The cases
 * are keyed by the app's own routes and schema (root fields, fields with arguments, Node types, Subscription
 * fields), so a new route, field or Node type without a case fails here.
 */

/** Put in every name A gives, so any answer to B that carries A's data shows it. */
const MARK = 'alphaPrivate7781';

/** The schema as clients see it (schema/schema.graphql is generated from the app's). */
const SCHEMA = buildSchema(readFileSync(path.join(__dirname, '../../schema/schema.graphql'), 'utf8'));

/** A's objects the cases name, and the Node type of each. */
const A_OBJECTS = {
  user: 'User',
  subscription: 'SubscriptionRecord',
  addon: 'SubscriptionRecord',
  deleted: 'SubscriptionRecord',
  alert: 'Alert',
  folder: 'Folder',
  tag: 'Tag',
  paymentMode: 'PaymentMode',
  category: 'ProductCategory',
  product: 'Product',
  endpoint: 'WebhookEndpoint',
  inboundToken: 'InboundWebhookToken',
  calendarFeed: 'CalendarFeed',
  personalAccessToken: 'PersonalAccessToken',
  session: 'Session',
  notificationTarget: 'NotificationTarget',
  delivery: 'WebhookDelivery',
  attempt: 'WebhookDeliveryAttempt',
  entry: 'PaymentEntry',
  reminder: 'Reminder',
  budget: 'Budget',
  household: 'Household',
  ownerMember: 'HouseholdMember',
  member: 'HouseholdMember',
  proposal: 'SubscriptionProposal',
  // A signed up first: A is the instance's admin, and these are what an admin sees.
  account: 'Account',
  invitation: 'Invitation',
  auditEntry: 'AuditEntry',
} as const;
type Key = keyof typeof A_OBJECTS;

let testApp: TestApp;
let receiver: Receiver;
let a: SignedUpUser;
let b: SignedUpUser;
const log = new AnswerLog();
/** A's objects' global ids (the `id` fields), for GraphQL. */
const gid = {} as Record<Key, string>;
/** A's objects' legacy ids (`legacyId`, the row ids), for REST and files. */
const legacy = {} as Record<Key, number>;
/** An invitation of A's household to an address that is not B's. */
let inviteCode: string;
let bSubscription: number;
/** B's own objects the cases name beside A's: B's record, the system default alert, B's endpoint and target. */
const bGid = {} as Record<'subscription' | 'systemAlert' | 'endpoint' | 'target', string>;
/** B's own household while a case that needs one runs (see `bHousehold`). */
let bHousehold: { id: string; member: string } | null = null;
let bManageToken: string;
let before: Record<string, string[]>;
/** The test clock: null is the real time (the live updates' reminder moves it). */
let now: Date | null = null;
/** A's two-factor secret and recovery codes (A has 2FA on). */
let aTwoFactor: { secret: string; recoveryCodes: string[] };

const asB = () => ({ authorization: `Bearer ${b.token}`, accept: 'application/json' });
const ANALYZE_STATEMENT =
  'mutation ($input: AnalyzeStatementInput!) { analyzeStatement(input: $input) { analysis { proposals { id legacyId } } userErrors { field code message } } }';

/** Runs a GraphQL document as A; any error or userError fails the setup. */
async function asA(query: string, variables?: Record<string, unknown>): Promise<Record<string, any>> {
  const data = await graphqlData(testApp, a.token, query, variables);
  for (const [field, payload] of Object.entries(data)) {
    if (payload && typeof payload === 'object' && 'userErrors' in payload && payload.userErrors.length > 0)
      throw new Error(`${field}: ${JSON.stringify(payload.userErrors)}`);
  }
  return data;
}

/** The code an authenticator app shows at the server's now. */
const totpNow = (secret: string) => generate({ secret, epoch: Math.floor((now ?? new Date()).getTime() / 1000) });

/** Turns 2FA on for the token's user: the secret and the recovery codes. */
async function turnOnTwoFactor(token: string): Promise<{ secret: string; recoveryCodes: string[] }> {
  const { secret } = (
    await graphqlData(testApp, token, 'mutation { startTwoFactorEnrolment { secret userErrors { code } } }')
  ).startTwoFactorEnrolment;
  const { confirmTwoFactor } = await graphqlData(
    testApp,
    token,
    'mutation($code: String!) { confirmTwoFactor(input: {code: $code}) { recoveryCodes userErrors { code } } }',
    { code: await totpNow(secret) },
  );
  if (confirmTwoFactor.userErrors.length > 0) throw new Error(JSON.stringify(confirmTwoFactor.userErrors));
  return { secret, recoveryCodes: confirmTwoFactor.recoveryCodes };
}

/** Keeps one of A's objects: its global id and legacy id, as a GraphQL answer gave them. */
function keep(key: Key, node: Record<string, any> | undefined) {
  if (!node || typeof node.id !== 'string' || !Number.isInteger(node.legacyId))
    throw new Error(`no id for A's ${key}: ${JSON.stringify(node)}`);
  gid[key] = node.id;
  legacy[key] = node.legacyId;
}

/** The one node of a list with this legacy id. */
function byLegacyId(list: Array<Record<string, any>>, legacyId: unknown): Record<string, any> | undefined {
  return list.find((node) => node.legacyId === Number(legacyId));
}

beforeAll(async () => {
  receiver = new Receiver();
  await receiver.start();
  testApp = await startTestApp(
    { WEBHOOK_ALLOW_PRIVATE: 'true', NOTIFY_SECRET_KEY: 'authorization-matrix-secret-key-0123456789' },
    { clock: () => now ?? new Date() },
  );
  a = await signUp(testApp, `A ${MARK}`);
  b = await signUp(testApp, 'B');
  keep('user', (await asA('{ me { id legacyId } }')).me);
  keep('account', byLegacyId((await asA('{ accounts { nodes { id legacyId } } }')).accounts.nodes, a.id));
  keep(
    'invitation',
    (await asA('mutation { createInvitation(input: {}) { invitation { id legacyId } userErrors { code } } }'))
      .createInvitation.invitation,
  );
  keep('auditEntry', (await asA('{ auditLog(first: 1) { nodes { id legacyId } } }')).auditLog.nodes[0]);
  // Settings of A's own, which no import of B may reach.
  await asA('mutation { updateExtensionSettings(input: {notifyBefore: 4}) { userErrors { code } } }');
  keep(
    'folder',
    (
      await asA(
        `mutation { createFolder(input: {name: "folder ${MARK}"}) { folder { id legacyId } userErrors { code } } }`,
      )
    ).createFolder.folder,
  );
  keep(
    'tag',
    (await asA(`mutation { createTag(input: {name: "tag ${MARK}"}) { tag { id legacyId } userErrors { code } } }`))
      .createTag.tag,
  );
  keep(
    'paymentMode',
    (
      await asA(
        `mutation { createPaymentMode(input: {name: "card ${MARK}"}) { paymentMode { id legacyId } userErrors { code } } }`,
      )
    ).createPaymentMode.paymentMode,
  );
  keep(
    'category',
    (
      await asA(
        `mutation { createProductCategory(input: {name: "category ${MARK}"}) { productCategory { id legacyId } userErrors { code } } }`,
      )
    ).createProductCategory.productCategory,
  );
  // For records (alert_subs_type 1), so that A's record has a reminder for the Reminder node's case.
  const alert = await testApp.http
    .post('/api/v1/alerts')
    .set('authorization', `Bearer ${a.token}`)
    .field('alert_name', `alert ${MARK}`)
    .field('time_period', '2')
    .field('time', '09:00')
    .field('timezone', 'UTC')
    .field('alert_type', '1')
    .field('alert_condition', '1')
    .field('alert_subs_type', '1');
  expect(alert.status).toBe(200);
  keep('alert', byLegacyId((await asA('{ alerts { id legacyId } }')).alerts, alert.body.id));
  keep(
    'endpoint',
    (
      await asA(
        `mutation { createWebhookEndpoint(input: {url: "${receiver.url}${MARK}"}) { webhookEndpoint { id legacyId } userErrors { code } } }`,
      )
    ).createWebhookEndpoint.webhookEndpoint,
  );
  keep(
    'inboundToken',
    (
      await asA(
        'mutation { createInboundWebhookToken(input: {kind: MANAGE}) { inboundWebhookToken { id legacyId } userErrors { code } } }',
      )
    ).createInboundWebhookToken.inboundWebhookToken,
  );
  keep(
    'calendarFeed',
    (
      await asA(
        `mutation { createCalendarFeed(input: {name: "feed ${MARK}"}) { calendarFeed { id legacyId } userErrors { code } } }`,
      )
    ).createCalendarFeed.calendarFeed,
  );
  keep(
    'personalAccessToken',
    (
      await asA(
        `mutation { createPersonalAccessToken(input: {name: "token ${MARK}", scope: READ_WRITE}) { personalAccessToken { id legacyId } userErrors { code } } }`,
      )
    ).createPersonalAccessToken.personalAccessToken,
  );
  keep('session', (await asA('{ sessions { id legacyId } }')).sessions[0]);
  keep(
    'notificationTarget',
    (
      await asA(
        `mutation { createNotificationTarget(input: {name: "target ${MARK}", url: "ntfy://ntfy.example.com/topic${MARK}"}) { notificationTarget { id legacyId } userErrors { code } } }`,
      )
    ).createNotificationTarget.notificationTarget,
  );
  await asA(
    'mutation($input: SetAlertTargetsInput!) { setAlertTargets(input: $input) { notificationTargets { id } userErrors { code } } }',
    { input: { alertId: gid.alert, targetIds: [gid.notificationTarget] } },
  );
  const record = await createSubscription(testApp, a.token, {
    brand_id: `product ${MARK}`,
    note: `note ${MARK}`,
    folder_id: String(legacy.folder),
    'tags[]': String(legacy.tag),
    payment_mode_id: String(legacy.paymentMode),
    category_id: String(legacy.category),
    alert_id: String(legacy.alert),
  });
  const records = (await asA('{ subscriptions(first: 100) { nodes { id legacyId product { id legacyId } } } }'))
    .subscriptions.nodes;
  const main = byLegacyId(records, record.id);
  keep('subscription', main);
  keep('product', main?.product);
  expect(legacy.product).toBe(record.brand_id);
  keep(
    'addon',
    (
      await asA(
        `mutation($input: AddAddonInput!) { addAddon(input: $input) { subscription { id legacyId } userErrors { code } } }`,
        {
          input: {
            mainRecordId: gid.subscription,
            price: '5.00',
            currency: 'USD',
            paymentDate: daysFromToday(-30),
            status: 'ACTIVE',
            recurring: 'ONCE',
          },
        },
      )
    ).addAddon.subscription,
  );
  keep('entry', (await asA('{ paymentEntries(first: 1) { nodes { id legacyId } } }')).paymentEntries.nodes[0]);
  keep(
    'budget',
    (
      await asA(
        'mutation($input: SetBudgetInput!) { setBudget(input: $input) { budget { id legacyId } userErrors { code } } }',
        { input: { amount: '50', categoryId: gid.category } },
      )
    ).setBudget.budget,
  );
  const reminders = (
    await asA(
      'query($from: DateTime!, $to: DateTime!) { reminders(from: $from, to: $to) { nodes { id legacyId subscriptionId } } }',
      { from: new Date().toISOString(), to: new Date(Date.now() + 60 * 86_400_000).toISOString() },
    )
  ).reminders.nodes as Array<{ id: string; legacyId: number; subscriptionId: string }>;
  keep(
    'reminder',
    reminders.find((reminder) => reminder.subscriptionId === gid.subscription),
  );
  const statement = generateStatement(1, { from: monthsFromToday(-24), months: 24, currency: 'EUR' });
  const analysis = await testApp.http
    .post('/graphql')
    .set('authorization', `Bearer ${a.token}`)
    .field('operations', JSON.stringify({ query: ANALYZE_STATEMENT, variables: { input: { file: null } } }))
    .field('map', JSON.stringify({ 0: ['variables.input.file'] }))
    .attach('0', writeStatement(statement.transactions, 'csv', 'english'), 'statement.csv');
  keep('proposal', analysis.body.data.analyzeStatement.analysis.proposals[0]);
  const household = (
    await asA(
      `mutation { createHousehold(input: {name: "home ${MARK}"}) { household { id legacyId viewerMember { id legacyId } } userErrors { code } } }`,
    )
  ).createHousehold.household;
  keep('household', household);
  keep('ownerMember', household.viewerMember);
  keep(
    'member',
    (
      await asA(
        `mutation { addHouseholdMember(input: {name: "member ${MARK}"}) { householdMember { id legacyId } userErrors { code } } }`,
      )
    ).addHouseholdMember.householdMember,
  );
  inviteCode = (
    await asA(
      `mutation { addHouseholdMember(input: {name: "invited ${MARK}", email: "invited@example.com"}) { invitationCode userErrors { code } } }`,
    )
  ).addHouseholdMember.invitationCode;
  await asA(
    'mutation($input: ShareSubscriptionInput!) { shareSubscription(input: $input) { subscription { id } userErrors { code } } }',
    { input: { id: gid.subscription, payerMemberId: gid.member, shares: [{ memberId: gid.member }] } },
  );
  const doomed = (
    await asA(
      `mutation($input: CreateSubscriptionInput!) { createSubscription(input: $input) { subscription { id legacyId } userErrors { code } } }`,
      {
        input: {
          type: 'SUBSCRIPTION',
          price: '3.00',
          currency: 'USD',
          billingCycle: 'MONTHLY',
          paymentDate: daysFromToday(14),
          productName: `deleted ${MARK}`,
          note: `deleted ${MARK}`,
        },
      },
    )
  ).createSubscription.subscription;
  keep('deleted', doomed);
  expect(
    (await testApp.http.delete(`/api/v1/subscriptions/${legacy.deleted}`).set('authorization', `Bearer ${a.token}`))
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
  const deliveries = (
    await asA('{ webhookDeliveries(first: 50) { nodes { id legacyId endpointId attempts { id legacyId } } } }')
  ).webhookDeliveries.nodes as Array<{
    id: string;
    legacyId: number;
    endpointId: string | null;
    attempts: Array<{ id: string; legacyId: number }>;
  }>;
  const delivered = deliveries.find((delivery) => delivery.endpointId === gid.endpoint && delivery.attempts.length > 0);
  keep('delivery', delivered);
  keep('attempt', delivered?.attempts[0]);

  bSubscription = (await createSubscription(testApp, b.token)).id as number;
  const asBData = (query: string) => graphqlData(testApp, b.token, query);
  bGid.subscription = byLegacyId(
    (await asBData('{ subscriptions { nodes { id legacyId } } }')).subscriptions.nodes,
    bSubscription,
  )!.id;
  bGid.systemAlert = (await asBData('{ alerts { id isSystem } }')).alerts.find(
    (candidate: { isSystem: boolean }) => candidate.isSystem,
  ).id;
  bGid.endpoint = (
    await asBData(`mutation { createWebhookEndpoint(input: {url: "${receiver.url}b-own"}) { webhookEndpoint { id } } }`)
  ).createWebhookEndpoint.webhookEndpoint.id;
  bGid.target = (
    await asBData(
      'mutation { createNotificationTarget(input: {name: "B own", url: "ntfy://ntfy.example.com/b-own"}) { notificationTarget { id } } }',
    )
  ).createNotificationTarget.notificationTarget.id;
  bManageToken = (await asBData('mutation { createInboundWebhookToken(input: {kind: MANAGE}) { token } }'))
    .createInboundWebhookToken.token;
  aTwoFactor = await turnOnTwoFactor(a.token);
  before = await ownedRows(testApp, a.id);
}, 90_000);

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
    ['brand_id', legacy.product],
    ['folder_id', legacy.folder],
    ['alert_id', legacy.alert],
    ['category_id', legacy.category],
    ['payment_mode_id', legacy.paymentMode],
    ['tags[]', legacy.tag],
  ] as const;

const REST_CASES: Record<string, () => Promise<void>> = {
  'POST /api/v1/auth/login': async () => {
    const response = log.add(
      'login as A with a wrong password',
      await testApp.http.post('/api/v1/auth/login').field('email', a.email).field('password', 'not the password'),
    );
    expect(response.status).toBe(401);
    expect(response.text).not.toContain(MARK);
    // A's recovery code with a wrong password: refused, and not spent.
    const withCode = log.add(
      'login as A with a wrong password and a recovery code of A',
      await testApp.http
        .post('/api/v1/auth/login')
        .field('email', a.email)
        .field('password', 'not the password')
        .field('code', aTwoFactor.recoveryCodes[0]),
    );
    expect([withCode.status, withCode.body.message]).toEqual([401, 'Invalid credentials']);
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
    refusedRest('refund', () => testApp.http.post(`/api/v1/subscriptions/${legacy.subscription}/refund`).set(asB())),
  'POST /api/v1/subscriptions/:id/cancel': () =>
    refusedRest('cancel', () => testApp.http.post(`/api/v1/subscriptions/${legacy.subscription}/cancel`).set(asB())),
  'POST /api/v1/subscriptions/:id/addon': () =>
    refusedRest('addon', () =>
      testApp.http
        .post(`/api/v1/subscriptions/${legacy.subscription}/addon`)
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
    for (const id of [legacy.subscription, legacy.addon, legacy.deleted])
      await refusedRest(`get ${id}`, () => testApp.http.get(`/api/v1/subscriptions/${id}`).set(asB()));
  },
  'GET /api/v1/subscriptions/upcoming': () =>
    ownDataOnly('upcoming', () => testApp.http.get('/api/v1/subscriptions/upcoming?days=366').set(asB())),
  'PUT /api/v1/subscriptions/:id': async () => {
    await refusedRest("update A's", () =>
      testApp.http.put(`/api/v1/subscriptions/${legacy.subscription}`).set(asB()).type('form').send({ price: '1.00' }),
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
    refusedRest('delete', () => testApp.http.delete(`/api/v1/subscriptions/${legacy.subscription}`).set(asB())),
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
    refusedRest('get alert', () => testApp.http.get(`/api/v1/alerts/${legacy.alert}`).set(asB())),
  'PUT /api/v1/alerts/:id': () =>
    refusedRest('update alert', () =>
      testApp.http.put(`/api/v1/alerts/${legacy.alert}`).set(asB()).type('form').send({ alert_name: 'mine now' }),
    ),
  'DELETE /api/v1/alerts/:id': () =>
    refusedRest('delete alert', () => testApp.http.delete(`/api/v1/alerts/${legacy.alert}`).set(asB())),
  'GET /api/v1/products/search': () =>
    ownDataOnly("search A's private product", () => testApp.http.get(`/api/v1/products/search?q=${MARK}`).set(asB())),
  'GET /api/v1/products/:id': () =>
    refusedRest("A's private product", () => testApp.http.get(`/api/v1/products/${legacy.product}`).set(asB())),
  'GET /api/v1/products/categories': () =>
    ownDataOnly('categories', () => testApp.http.get('/api/v1/products/categories').set(asB())),
  'GET /api/v1/products/categories/:id': () =>
    refusedRest("A's category", () => testApp.http.get(`/api/v1/products/categories/${legacy.category}`).set(asB())),
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
        event === 'updated' ? { id: String(legacy.subscription), ...MINIMAL } : { id: String(legacy.subscription) };
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
    [`GET ${path}/:id`]: () => refusedRest(`get ${path}`, () => testApp.http.get(`${path}/${legacy[key]}`).set(asB())),
    [`PUT ${path}/:id`]: () =>
      refusedRest(`update ${path}`, () =>
        testApp.http.put(`${path}/${legacy[key]}`).set(asB()).type('form').send({ name: 'mine now' }),
      ),
    [`DELETE ${path}/:id`]: () =>
      refusedRest(`delete ${path}`, () => testApp.http.delete(`${path}/${legacy[key]}`).set(asB())),
  };
}

/** Whether an object type has a global id. */
const isNode = (type: GraphQLObjectType) => type.getInterfaces().some((implemented) => implemented.name === 'Node');

/**
 * A selection of everything of a type a client can ask without arguments, `depth` object levels down: an answer
 * that carries any of A's data shows it (names carry MARK, ids are A's).
 */
function selectionOf(type: GraphQLOutputType, depth: number): string {
  const named = getNamedType(type);
  if (isLeafType(named)) return '';
  if (isAbstractType(named)) return '{ __typename id legacyId }';
  const object = named as GraphQLObjectType;
  if (depth === 0) return isNode(object) ? '{ __typename id }' : '{ __typename }';
  const fields = Object.values(object.getFields()).filter((field) =>
    field.args.every((arg) => !isNonNullType(arg.type) || arg.defaultValue !== undefined),
  );
  return `{ ${fields.map((field) => field.name + selectionOf(field.type, depth - 1)).join(' ')} }`;
}

const mutationFields = () => (SCHEMA.getMutationType() as GraphQLObjectType).getFields();

/** The result fields of a mutation's payload (all but userErrors): null when the input is refused. */
function resultFieldsOf(field: string): string[] {
  const payload = getNamedType(mutationFields()[field].type) as GraphQLObjectType;
  return Object.keys(payload.getFields()).filter((name) => name !== 'userErrors');
}

/**
 * A mutation document: `input` (GraphQL literal) in, every result of the payload (but `omit`) and its
 * userErrors out.
 */
function mutation(field: string, input: string | null, omit: string[] = []): string {
  const payload = getNamedType(mutationFields()[field].type) as GraphQLObjectType;
  const results = resultFieldsOf(field)
    .filter((name) => !omit.includes(name))
    .map((name) => name + selectionOf(payload.getFields()[name].type, 2));
  return `mutation { ${field}${input === null ? '' : `(input: ${input})`} { ${results.join(' ')} userErrors { field code message } } }`;
}

/** The first root field a document asks (its response key), and whether it is a mutation. */
function rootOf(document: string): { key: string; isMutation: boolean } {
  const operation = parse(document).definitions.find(
    (definition): definition is OperationDefinitionNode => definition.kind === Kind.OPERATION_DEFINITION,
  )!;
  const [first] = operation.selectionSet.selections;
  if (first.kind !== Kind.FIELD) throw new Error(`the first selection of ${document} is not a field`);
  return { key: first.alias?.value ?? first.name.value, isMutation: operation.operation === 'mutation' };
}

type GraphQLCase = {
  /** Fail with NOT_FOUND; a mutation's payload has its results null, and NOT_FOUND in userErrors and errors. */
  refused?: string[];
  /** Fail as `refused` does, with FORBIDDEN: the admin's operations, which B is not. */
  forbidden?: string[];
  /** Answer null (node(id:) of A's object) with no error. */
  hidden?: string[];
  /** Answer B's own data, without error. */
  ownOnly?: string[];
  /** A's ids given as links or filters: exactly the answer a missing id gets (ids aside). */
  asMissing?: string[];
  /** Run with a household of B's own (B_HOUSEHOLD, B_MEMBER), removed after. */
  bHousehold?: boolean;
};

/** Days for the documents, from today. */
const DAY = {
  past: daysFromToday(-30),
  soon: daysFromToday(20),
  rangeFrom: daysFromToday(-180),
  rangeTo: daysFromToday(180),
};
const INSTANT = { from: `${DAY.rangeFrom}T00:00:00Z`, to: `${DAY.rangeTo}T00:00:00Z` };
const MONEY = '{ amount currency }';

/** The links of a record's input, each to one of A's objects. */
const RECORD_LINKS = [
  'productId: A_PRODUCT',
  'folderId: A_FOLDER',
  'alertId: A_ALERT',
  'categoryId: A_CATEGORY',
  'paymentModeId: A_PAYMENT_MODE',
  'tagIds: [A_TAG]',
];
/** The filters of the record list, each naming one of A's objects. */
const RECORD_FILTERS = [
  'folderIds: [A_FOLDER]',
  'tagIds: [A_TAG]',
  'paymentModeIds: [A_PAYMENT_MODE]',
  'alertIds: [A_ALERT]',
  'categoryIds: [A_CATEGORY]',
];
const RECORD = `id legacyId productName note price ${MONEY} folder { id name } tags { id name } product { id name } category { id name } paymentMode { id name } alerts { id name } sharing { householdId payerName }`;

/**
 * B's documents per field of the schema: every field of Query and Mutation, and every field that takes
 * arguments on another type (as `Type.field`). Placeholders A_… stand for A's global ids, B_… for B's own.
 */
const GRAPHQL_CASES: Record<string, GraphQLCase> = {
  node: { hidden: ['{ node(id: A_SUBSCRIPTION) { id } }'], ownOnly: ['{ node(id: B_SUBSCRIPTION) { id } }'] },
  nodes: {
    ownOnly: ['{ nodes(ids: [A_SUBSCRIPTION, A_FOLDER, B_SUBSCRIPTION]) { id } }'],
  },
  me: { ownOnly: ['{ me { id legacyId email name } }'] },
  alerts: { ownOnly: ['{ alerts { id legacyId name isSystem contact } }'] },
  alert: { refused: ['{ alert(id: A_ALERT) { id name } }'] },
  calendarFeeds: { ownOnly: ['{ calendarFeeds { id name } }'] },
  personalAccessTokens: { ownOnly: ['{ personalAccessTokens { id name scope lastUsedAt } }'] },
  sessions: { ownOnly: ['{ sessions { id device current } }'] },
  products: {
    ownOnly: [
      `{ products(search: "${MARK}") { totalCount nodes { id name brandName } } }`,
      '{ products(first: 50) { totalCount edges { cursor node { id name } } pageInfo { hasNextPage endCursor } } }',
      '{ products(last: 5) { totalCount nodes { id name } pageInfo { hasPreviousPage startCursor } } }',
    ],
    asMissing: ['{ products(categoryId: A_CATEGORY) { totalCount nodes { id name } } }'],
  },
  product: { refused: ['{ product(id: A_PRODUCT) { id name } }'] },
  subscriptionProposals: {
    ownOnly: [`{ subscriptionProposals { id legacyId payee price ${MONEY} payments { date amount ${MONEY} } } }`],
  },
  exportLinks: { ownOnly: ['{ exportLinks { subscriptionsCsv accountJson } }'] },
  currencies: { ownOnly: ['{ currencies }'] },
  households: {
    bHousehold: true,
    ownOnly: [
      '{ households { id name ownerName viewerRole members { id name email } subscriptions { totalCount nodes { id note sharing { payerName } } } } }',
    ],
  },
  paymentEntries: {
    ownOnly: [
      `{ paymentEntries { totalCount nodes { id subscriptionId productName note expectedAmount ${MONEY} } } }`,
      '{ paymentEntries(last: 3) { totalCount edges { cursor node { id productName } } pageInfo { hasPreviousPage } } }',
    ],
    refused: ['{ paymentEntries(filter: {householdId: A_HOUSEHOLD}) { totalCount nodes { id } } }'],
    asMissing: ['{ paymentEntries(filter: {subscriptionId: A_SUBSCRIPTION}) { totalCount nodes { id } } }'],
  },
  webhookEndpoints: { ownOnly: ['{ webhookEndpoints { id url deliveries { totalCount nodes { id eventId } } } }'] },
  inboundWebhookTokens: { ownOnly: ['{ inboundWebhookTokens { id kind } }'] },
  webhookDeliveries: {
    ownOnly: [
      '{ webhookDeliveries { totalCount edges { node { id eventId endpointId targetId attempts { id responseExcerpt } } } } }',
      '{ webhookDeliveries(status: SUCCEEDED, last: 5) { totalCount nodes { id eventId } } }',
    ],
    asMissing: [
      '{ webhookDeliveries(endpointId: A_ENDPOINT) { totalCount nodes { id } } }',
      '{ webhookDeliveries(targetId: A_NOTIFICATION_TARGET) { totalCount nodes { id } } }',
    ],
  },
  notificationTargets: { ownOnly: ['{ notificationTargets { id name scheme url deliveries { totalCount } } }'] },
  alertTargets: {
    refused: ['{ alertTargets(alertId: A_ALERT) { id name url } }'],
    ownOnly: ['{ alertTargets(alertId: B_SYSTEM_ALERT) { id name url } }'],
  },
  folders: { ownOnly: ['{ folders { id name } }'] },
  tags: { ownOnly: ['{ tags { id name } }'] },
  paymentModes: { ownOnly: ['{ paymentModes { id name } }'] },
  productCategories: { ownOnly: ['{ productCategories { id name isGlobal } }'] },
  reminders: {
    ownOnly: [
      `{ reminders(from: "${INSTANT.from}", to: "${INSTANT.to}") { totalCount nodes { id subscriptionId alertId kind date } } }`,
      `{ reminders(from: "${INSTANT.from}", to: "${INSTANT.to}", last: 2) { totalCount nodes { id subscriptionId } } }`,
    ],
  },
  dueReminders: { ownOnly: ['{ dueReminders { id subscriptionId alertId } }'] },
  extensionSettings: { ownOnly: ['{ extensionSettings { notifyBefore } }'] },
  spendingSummary: {
    bHousehold: true,
    ownOnly: [
      `{ spendingSummary(groupBy: FOLDER) { monthlyTotal ${MONEY} groups { key label monthlyTotal ${MONEY} } } }`,
      `{ spendingSummary(from: "${DAY.past}", to: "${DAY.soon}") { paidTotal ${MONEY} budget ${MONEY} groups { key label paidTotal ${MONEY} budget ${MONEY} } } }`,
      `{ spendingSummary(view: MY_SHARE) { periodTotal ${MONEY} groups { key label periodTotal ${MONEY} } } }`,
      `{ spendingSummary(view: HOUSEHOLD, householdId: B_HOUSEHOLD) { periodTotal ${MONEY} groups { key label } } }`,
    ],
    refused: [
      `{ spendingSummary(view: HOUSEHOLD, householdId: A_HOUSEHOLD) { periodTotal ${MONEY} } }`,
      `{ spendingSummary(view: HOUSEHOLD, householdId: A_HOUSEHOLD, memberId: A_MEMBER) { periodTotal ${MONEY} } }`,
    ],
    asMissing: [
      `{ spendingSummary(view: HOUSEHOLD, householdId: B_HOUSEHOLD, memberId: A_MEMBER) { periodTotal ${MONEY} } }`,
    ],
  },
  budgets: { ownOnly: [`{ budgets { id categoryId categoryName amount ${MONEY} alertId } }`] },
  subscriptions: {
    ownOnly: [
      `{ subscriptions(search: "${MARK}") { totalCount edges { node { id note } } } }`,
      `{ subscriptions { totalCount nodes { ${RECORD} } } }`,
      '{ subscriptions(orderBy: {field: PRICE, direction: DESC}, last: 2) { totalCount nodes { id note } pageInfo { hasPreviousPage } } }',
    ],
    asMissing: RECORD_FILTERS.map(
      (filter) => `{ subscriptions(filter: {${filter}}) { totalCount nodes { id note } } }`,
    ),
  },
  subscription: {
    refused: ['A_SUBSCRIPTION', 'A_ADDON', 'A_DELETED'].map((key) => `{ subscription(id: ${key}) { id note } }`),
    ownOnly: [`{ subscription(id: B_SUBSCRIPTION) { ${RECORD} } }`],
  },
  upcomingPayments: { ownOnly: ['{ upcomingPayments(days: 366) { id note } }'] },
  calendar: {
    ownOnly: [`{ calendar(from: "${DAY.rangeFrom}", to: "${DAY.rangeTo}") { key subscription { id note } } }`],
  },

  // Fields with arguments below the root: reached only through an object B may see.
  'SubscriptionRecord.priceHistory': {
    refused: ['{ subscription(id: A_SUBSCRIPTION) { priceHistory { totalCount nodes { price { amount } } } } }'],
    hidden: [
      '{ node(id: A_SUBSCRIPTION) { ... on SubscriptionRecord { priceHistory(last: 5) { totalCount nodes { effectiveFrom price { amount } } } } } }',
    ],
    ownOnly: [
      '{ subscription(id: B_SUBSCRIPTION) { priceHistory(first: 1) { totalCount nodes { effectiveFrom price { amount } } pageInfo { hasNextPage } } } }',
    ],
  },
  'Household.subscriptions': {
    bHousehold: true,
    hidden: [
      '{ node(id: A_HOUSEHOLD) { ... on Household { name subscriptions(first: 5) { totalCount nodes { id note } } } } }',
    ],
    ownOnly: [
      '{ node(id: B_HOUSEHOLD) { ... on Household { subscriptions(last: 5) { totalCount nodes { id note } pageInfo { hasPreviousPage } } } } }',
    ],
  },
  'WebhookEndpoint.deliveries': {
    hidden: [
      '{ node(id: A_ENDPOINT) { ... on WebhookEndpoint { url deliveries(first: 5) { totalCount nodes { id eventId attempts { responseExcerpt } } } } } }',
    ],
    ownOnly: [
      '{ node(id: B_ENDPOINT) { ... on WebhookEndpoint { deliveries(status: SUCCEEDED, last: 5) { totalCount nodes { id eventId } } } } }',
    ],
  },
  'NotificationTarget.deliveries': {
    hidden: [
      '{ node(id: A_NOTIFICATION_TARGET) { ... on NotificationTarget { name deliveries(first: 5) { totalCount nodes { id eventId } } } } }',
    ],
    ownOnly: [
      '{ node(id: B_TARGET) { ... on NotificationTarget { deliveries(last: 5) { totalCount nodes { id eventId } } } } }',
    ],
  },

  signUp: { ownOnly: [mutation('signUp', '{email: A_EMAIL, password: "another password", name: "x"}')] },
  login: {
    ownOnly: [
      mutation('login', '{email: A_EMAIL, password: "wrong password"}'),
      mutation('login', '{email: A_EMAIL, password: "wrong password", code: "123456"}'),
    ],
  },
  signInMethods: { ownOnly: ['{ signInMethods { singleSignOn singleSignOnUrl passwordLogin } }'] },
  // Its code is a bearer secret a sign-on made (single-sign-on.test.ts): one no sign-on made finds no one.
  completeSingleSignOn: { ownOnly: [mutation('completeSingleSignOn', '{code: "a code no sign-on made"}')] },
  logout: {},
  // B's own password, unchanged (B's documents run on B's token); A's e-mail: the answer anyone gets, which
  // mails nothing here (no SMTP_URL), so A's rows stay as they were. A reset token is a secret, not an id: B's
  // guess gets the answer of any unknown token.
  changePassword: {
    ownOnly: [
      mutation(
        'changePassword',
        '{currentPassword: "correct horse battery", newPassword: "correct horse battery", keepOtherSessions: true}',
      ),
    ],
  },
  requestPasswordReset: { ownOnly: [mutation('requestPasswordReset', '{email: A_EMAIL}')] },
  resetPassword: {
    asMissing: [
      mutation('resetPassword', '{token: "guessed-reset-token-of-someone-else", newPassword: "long enough"}'),
    ],
  },
  // B's own pending secret (B's sign-in is unchanged until a code confirms it).
  startTwoFactorEnrolment: {
    ownOnly: ['mutation { startTwoFactorEnrolment { uri secret qrCode userErrors { code } } }'],
  },
  confirmTwoFactor: {},
  disableTwoFactor: {},
  regenerateRecoveryCodes: {},
  instance: { ownOnly: ['{ instance { signUpMode } }'] },
  accounts: { forbidden: ['{ accounts { totalCount nodes { id email name recordCount admin } } }'] },
  invitations: { forbidden: ['{ invitations(last: 5) { totalCount nodes { id email status } } }'] },
  auditLog: { forbidden: ['{ auditLog(first: 5) { totalCount nodes { id action actorEmail targetEmail } } }'] },
  disableAccount: { forbidden: [mutation('disableAccount', '{id: A_ACCOUNT}')] },
  enableAccount: { forbidden: [mutation('enableAccount', '{id: A_ACCOUNT}')] },
  deleteAccount: { forbidden: [mutation('deleteAccount', '{id: A_ACCOUNT, confirmEmail: A_EMAIL}')] },
  createInvitation: { forbidden: [mutation('createInvitation', '{email: "someone@example.com"}')] },
  revokeInvitation: { forbidden: [mutation('revokeInvitation', '{id: A_INVITATION}')] },
  setSignUpMode: { forbidden: [mutation('setSignUpMode', '{mode: CLOSED}')] },
  createAlert: {
    ownOnly: [mutation('createAlert', '{name: "b", timePeriod: 1, time: "09:00", timezone: "UTC", channel: EMAIL}')],
  },
  updateAlert: { refused: [mutation('updateAlert', '{id: A_ALERT, name: "mine"}')] },
  deleteAlert: { refused: [mutation('deleteAlert', '{id: A_ALERT}')] },
  createSubscription: {
    asMissing: RECORD_LINKS.map((link) =>
      mutation(
        'createSubscription',
        `{type: SUBSCRIPTION, price: "1.00", currency: "USD", billingCycle: MONTHLY, paymentDate: "${DAY.soon}", ${link.startsWith('productId') ? '' : 'productName: "B thing", '}${link}}`,
      ),
    ),
  },
  updateSubscription: {
    refused: [mutation('updateSubscription', '{id: A_SUBSCRIPTION, price: "1.00"}')],
    asMissing: RECORD_LINKS.map((link) => mutation('updateSubscription', `{id: B_SUBSCRIPTION, ${link}}`)),
  },
  deleteSubscription: { refused: [mutation('deleteSubscription', '{id: A_SUBSCRIPTION}')] },
  restoreSubscription: { refused: [mutation('restoreSubscription', '{id: A_DELETED}')] },
  cancelSubscription: { refused: [mutation('cancelSubscription', '{id: A_SUBSCRIPTION}')] },
  refundSubscription: { refused: [mutation('refundSubscription', '{id: A_SUBSCRIPTION}')] },
  addAddon: {
    refused: [
      mutation(
        'addAddon',
        `{mainRecordId: A_SUBSCRIPTION, price: "1.00", currency: "USD", paymentDate: "${DAY.past}"}`,
      ),
    ],
  },
  setSubscriptionAlerts: {
    refused: [mutation('setSubscriptionAlerts', '{id: A_SUBSCRIPTION, alertIds: [B_SYSTEM_ALERT]}')],
    asMissing: [mutation('setSubscriptionAlerts', '{id: B_SUBSCRIPTION, alertIds: [A_ALERT]}')],
  },
  changePrice: {
    refused: [mutation('changePrice', `{id: A_SUBSCRIPTION, price: "1.00", effectiveFrom: "${DAY.soon}"}`)],
  },
  updateProfile: { ownOnly: [mutation('updateProfile', '{name: "B again"}')] },
  sendTestReminder: { refused: [mutation('sendTestReminder', '{alertId: A_ALERT}')] },
  updateExtensionSettings: { ownOnly: [mutation('updateExtensionSettings', '{notifyBefore: 3}')] },
  // B's own new secret is shown this once; the property check below holds every logged answer free of secrets.
  createWebhookEndpoint: {
    ownOnly: [mutation('createWebhookEndpoint', '{url: "https://example.com/b-hook"}', ['secret'])],
  },
  updateWebhookEndpoint: {
    refused: [mutation('updateWebhookEndpoint', '{id: A_ENDPOINT, url: "https://example.com/hook"}')],
  },
  enableWebhookEndpoint: { refused: [mutation('enableWebhookEndpoint', '{id: A_ENDPOINT}')] },
  disableWebhookEndpoint: { refused: [mutation('disableWebhookEndpoint', '{id: A_ENDPOINT}')] },
  rotateWebhookEndpointSecret: { refused: [mutation('rotateWebhookEndpointSecret', '{id: A_ENDPOINT}')] },
  deleteWebhookEndpoint: { refused: [mutation('deleteWebhookEndpoint', '{id: A_ENDPOINT}')] },
  createInboundWebhookToken: { ownOnly: [mutation('createInboundWebhookToken', '{kind: CREATE}')] },
  revokeInboundWebhookToken: { refused: [mutation('revokeInboundWebhookToken', '{id: A_INBOUND_TOKEN}')] },
  redeliver: { refused: [mutation('redeliver', '{deliveryId: A_DELIVERY}')] },
  createCalendarFeed: { ownOnly: [mutation('createCalendarFeed', '{name: "B feed"}')] },
  revokeCalendarFeed: { refused: [mutation('revokeCalendarFeed', '{id: A_CALENDAR_FEED}')] },
  createPersonalAccessToken: {
    ownOnly: [mutation('createPersonalAccessToken', '{name: "B token", scope: READ_ONLY}')],
  },
  revokePersonalAccessToken: {
    refused: [mutation('revokePersonalAccessToken', '{id: A_PERSONAL_ACCESS_TOKEN}')],
  },
  revokeSession: { refused: [mutation('revokeSession', '{id: A_SESSION}')] },
  importSubscriptions: {},
  uploadLogo: {},
  removeLogo: {
    refused: [mutation('removeLogo', '{id: A_SUBSCRIPTION}'), mutation('removeLogo', '{id: A_PRODUCT}')],
  },
  createNotificationTarget: {
    ownOnly: [mutation('createNotificationTarget', '{name: "B target", url: "ntfy://ntfy.example.com/b"}')],
  },
  updateNotificationTarget: {
    refused: [mutation('updateNotificationTarget', '{id: A_NOTIFICATION_TARGET, name: "mine"}')],
  },
  deleteNotificationTarget: { refused: [mutation('deleteNotificationTarget', '{id: A_NOTIFICATION_TARGET}')] },
  setAlertTargets: {
    refused: [mutation('setAlertTargets', '{alertId: A_ALERT, targetIds: []}')],
    asMissing: [mutation('setAlertTargets', '{alertId: B_SYSTEM_ALERT, targetIds: [A_NOTIFICATION_TARGET]}')],
  },
  sendTestNotification: { refused: [mutation('sendTestNotification', '{id: A_NOTIFICATION_TARGET}')] },
  markPaid: { refused: [mutation('markPaid', '{id: A_ENTRY}'), mutation('markPaid', '{id: A_ENTRY, amount: "1.00"}')] },
  markSkipped: { refused: [mutation('markSkipped', '{id: A_ENTRY, note: "mine"}')] },
  setBudget: {
    ownOnly: [mutation('setBudget', '{amount: "5"}')],
    asMissing: [
      mutation('setBudget', '{amount: "5", categoryId: A_CATEGORY}'),
      mutation('setBudget', '{amount: "5", alertId: A_ALERT}'),
    ],
  },
  removeBudget: { refused: [mutation('removeBudget', '{categoryId: A_CATEGORY}')] },
  analyzeStatement: {},
  acceptProposals: { refused: [mutation('acceptProposals', '{ids: [A_PROPOSAL]}')] },
  dismissProposals: { refused: [mutation('dismissProposals', '{ids: [A_PROPOSAL]}')] },
  createHousehold: { ownOnly: [mutation('createHousehold', '{name: "B home"}')] },
  renameHousehold: {
    bHousehold: true,
    refused: [mutation('renameHousehold', '{id: A_HOUSEHOLD, name: "mine"}')],
    ownOnly: [mutation('renameHousehold', '{id: B_HOUSEHOLD, name: "B flat"}')],
  },
  deleteHousehold: {
    bHousehold: true,
    refused: [mutation('deleteHousehold', '{id: A_HOUSEHOLD}')],
    ownOnly: [mutation('deleteHousehold', '{id: B_HOUSEHOLD}')],
  },
  addHouseholdMember: { bHousehold: true, ownOnly: [mutation('addHouseholdMember', '{name: "B member"}')] },
  inviteHouseholdMember: {
    bHousehold: true,
    refused: [mutation('inviteHouseholdMember', '{memberId: A_MEMBER, email: "b@example.com"}')],
  },
  updateHouseholdMember: {
    bHousehold: true,
    refused: [
      mutation('updateHouseholdMember', '{memberId: A_MEMBER, canEdit: true}'),
      mutation('updateHouseholdMember', '{memberId: A_OWNER_MEMBER, name: "mine"}'),
    ],
  },
  removeHouseholdMember: {
    bHousehold: true,
    refused: [mutation('removeHouseholdMember', '{memberId: A_MEMBER}')],
  },
  joinHousehold: { refused: [mutation('joinHousehold', '{code: A_INVITE_CODE}')] },
  leaveHousehold: { refused: [mutation('leaveHousehold', '{householdId: A_HOUSEHOLD}')] },
  shareSubscription: {
    bHousehold: true,
    refused: [
      mutation('shareSubscription', '{id: A_SUBSCRIPTION, payerMemberId: A_MEMBER, shares: [{memberId: A_MEMBER}]}'),
      mutation('shareSubscription', '{id: A_SUBSCRIPTION, payerMemberId: B_MEMBER, shares: [{memberId: B_MEMBER}]}'),
    ],
    asMissing: [
      mutation('shareSubscription', '{id: B_SUBSCRIPTION, payerMemberId: A_MEMBER, shares: [{memberId: A_MEMBER}]}'),
      mutation('shareSubscription', '{id: B_SUBSCRIPTION, payerMemberId: B_MEMBER, shares: [{memberId: A_MEMBER}]}'),
    ],
  },
  unshareSubscription: { refused: [mutation('unshareSubscription', '{id: A_SUBSCRIPTION}')] },
  ...ownedNameCases('Folder', 'A_FOLDER'),
  ...ownedNameCases('Tag', 'A_TAG'),
  ...ownedNameCases('PaymentMode', 'A_PAYMENT_MODE'),
  ...ownedNameCases('ProductCategory', 'A_CATEGORY'),
};

/** Folders, tags, payment modes and categories share one generic resolver, and so one set of cases. */
function ownedNameCases(kind: string, placeholder: string): Record<string, GraphQLCase> {
  return {
    [`create${kind}`]: { ownOnly: [mutation(`create${kind}`, `{name: "B's ${kind}"}`)] },
    [`update${kind}`]: { refused: [mutation(`update${kind}`, `{id: ${placeholder}, name: "mine"}`)] },
    [`delete${kind}`]: { refused: [mutation(`delete${kind}`, `{id: ${placeholder}}`)] },
  };
}

/**
 * Fields without documents: GraphQL logout would end B's token for the other cases (its own test is below);
 * an import takes a file upload (its case is "GraphQL importSubscriptions" below), and so does a statement's
 * analysis, which reads no id (a statement holds none) and answers only the caller's proposals
 * (test/integration/detection.test.ts), and a logo's (another user's record is not found: logos.test.ts). The two-factor changes take a code of the caller's own, made at the
 * time they run ("two-factor changes act on the caller's own account" below).
 */
const WITHOUT_DOCUMENTS = new Set([
  'logout',
  'importSubscriptions',
  'analyzeStatement',
  'uploadLogo',
  'confirmTwoFactor',
  'disableTwoFactor',
  'regenerateRecoveryCodes',
]);

/** A's objects by placeholder: A_SUBSCRIPTION, A_PAYMENT_MODE, … */
const A_PLACEHOLDERS: Record<string, Key> = Object.fromEntries(
  (Object.keys(A_OBJECTS) as Key[]).map((key) => [
    `A_${key.replace(/[A-Z]/g, (letter) => `_${letter}`).toUpperCase()}`,
    key,
  ]),
);
const PLACEHOLDER = /\b[AB]_[A-Z_]+\b/g;
/** A row id nobody has. */
const MISSING_ROW = 2147480000;

/** The value of a placeholder as a GraphQL literal: A's or B's global id (or A's e-mail, A's invitation). */
function valueOf(placeholder: string, missing: boolean): string {
  const key = A_PLACEHOLDERS[placeholder];
  if (key) return JSON.stringify(missing ? globalId(A_OBJECTS[key], MISSING_ROW) : gid[key]);
  const others: Record<string, () => string | undefined> = {
    A_EMAIL: () => a.email,
    A_INVITE_CODE: () => inviteCode,
    B_SUBSCRIPTION: () => bGid.subscription,
    B_SYSTEM_ALERT: () => bGid.systemAlert,
    B_ENDPOINT: () => bGid.endpoint,
    B_TARGET: () => bGid.target,
    B_HOUSEHOLD: () => bHousehold?.id,
    B_MEMBER: () => bHousehold?.member,
  };
  const value = others[placeholder]?.();
  if (value === undefined) throw new Error(`no value for ${placeholder}`);
  return JSON.stringify(value);
}

/** The document with A's ids (and B's own) in place of the placeholders. */
const withIds = (document: string) => document.replace(PLACEHOLDER, (placeholder) => valueOf(placeholder, false));
/** The same document with ids nobody has (of the same types) in place of A's. */
const withMissingIds = (document: string) =>
  document.replace(PLACEHOLDER, (placeholder) => valueOf(placeholder, placeholder in A_PLACEHOLDERS));

/**
 * An answer with the ids a document gave (A's, or the missing ones in their place) written alike, global and
 * legacy: an error may name the id it was given, and answers for A's ids and for missing ones differ in it only.
 */
function scrubIds(document: string, answer: unknown): unknown {
  const keys = (document.match(PLACEHOLDER) ?? []).flatMap((placeholder) => A_PLACEHOLDERS[placeholder] ?? []);
  const globalIds = keys.flatMap((key) => [gid[key], globalId(A_OBJECTS[key], MISSING_ROW)]);
  const numbers = [...keys.map((key) => legacy[key]), MISSING_ROW];
  const scrub = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(scrub);
    if (value !== null && typeof value === 'object')
      return Object.fromEntries(Object.entries(value).map(([name, item]) => [name, scrub(item)]));
    if (typeof value !== 'string') return value;
    let text = value;
    for (const id of globalIds) text = text.replaceAll(id, '<id>');
    for (const number of numbers) text = text.replace(new RegExp(`\\b${number}\\b`, 'g'), '<n>');
    return text;
  };
  return scrub(answer);
}

/** A's global ids found as values in an answer (an id of A's in an answer is A's data). */
function foreignIds(data: unknown): string[] {
  const ofA = new Set(Object.values(gid));
  const found: string[] = [];
  const visit = (value: unknown, key: string) => {
    if (Array.isArray(value)) return value.forEach((item) => visit(item, key));
    if (value !== null && typeof value === 'object')
      return Object.entries(value).forEach(([name, item]) => visit(item, name));
    if (typeof value === 'string' && ofA.has(value)) found.push(`${key} ${value}`);
  };
  visit(data, '');
  return found;
}

/** Gives B a household of its own for a case (B_HOUSEHOLD, B_MEMBER). */
async function makeBHousehold() {
  const made = await graphqlData(
    testApp,
    b.token,
    'mutation { createHousehold(input: {name: "B home"}) { household { id viewerMember { id } } userErrors { code message } } }',
  );
  const { household } = made.createHousehold;
  if (!household) throw new Error(`B's household: ${JSON.stringify(made)}`);
  bHousehold = { id: household.id, member: household.viewerMember.id };
}

/** Removes B's own household if there is one (a case made it, or createHousehold did). */
async function dropBHousehold() {
  bHousehold = null;
  const { households } = await graphqlData(testApp, b.token, '{ households { id viewerRole } }');
  for (const household of households as Array<{ id: string; viewerRole: string }>) {
    if (household.viewerRole !== 'OWNER') continue;
    await graphqlData(
      testApp,
      b.token,
      'mutation($id: ID!) { deleteHousehold(input: {id: $id}) { deletedHouseholdId } }',
      {
        id: household.id,
      },
    );
  }
}

/** The GraphQL fields the matrix must cover: the root fields, and the fields with arguments of the other types. */
function schemaFields(): string[] {
  const roots = [SCHEMA.getQueryType(), SCHEMA.getMutationType(), SCHEMA.getSubscriptionType()];
  const rootFields = [SCHEMA.getQueryType(), SCHEMA.getMutationType()].flatMap((type) =>
    Object.keys((type as GraphQLObjectType).getFields()),
  );
  const withArguments = Object.values(SCHEMA.getTypeMap())
    .filter(
      (type): type is GraphQLObjectType => isObjectType(type) && !type.name.startsWith('__') && !roots.includes(type),
    )
    .flatMap((type) =>
      Object.values(type.getFields())
        .filter((field) => field.args.length > 0)
        .map((field) => `${type.name}.${field.name}`),
    );
  return [...rootFields, ...withArguments];
}

/** Every type that implements Node, with the keys of A's objects of that type. */
const NODE_CASES: Record<string, Key[]> = Object.entries(A_OBJECTS).reduce<Record<string, Key[]>>(
  (cases, [key, type]) => ({ ...cases, [type]: [...(cases[type] ?? []), key as Key] }),
  {},
);
const nodeTypes = () =>
  Object.values(SCHEMA.getTypeMap())
    .filter((type): type is GraphQLObjectType => isObjectType(type) && isNode(type))
    .map((type) => type.name)
    .sort();

/** Every field of a Node type's object as a fragment on it (no aliases: one type a document). */
const nodeDocument = (type: string) =>
  `query($id: ID!) { node(id: $id) { __typename id legacyId ... on ${type} ${selectionOf(SCHEMA.getType(type) as GraphQLObjectType, 1)} } }`;

describe('authorization matrix', () => {
  it('has a case for every REST route the app serves and for every table with user data', async () => {
    expect(restRoutes(testApp).filter((route) => !(route in REST_CASES))).toEqual([]);
    expect(Object.keys(REST_CASES).filter((route) => !restRoutes(testApp).includes(route))).toEqual([]);
    expect(await tablesWithoutOwnership(testApp)).toEqual([]);
  });

  it('has a case for every GraphQL query and mutation, every field with arguments, every Node type and every live update', () => {
    const fields = schemaFields();
    expect(fields.filter((field) => !(field in GRAPHQL_CASES))).toEqual([]);
    expect(Object.keys(GRAPHQL_CASES).filter((field) => !fields.includes(field))).toEqual([]);
    for (const [field, { refused = [], forbidden = [], hidden = [], ownOnly = [], asMissing = [] }] of Object.entries(
      GRAPHQL_CASES,
    )) {
      if (refused.length + forbidden.length + hidden.length + ownOnly.length + asMissing.length === 0)
        expect([field, WITHOUT_DOCUMENTS.has(field)]).toEqual([field, true]);
    }
    // One of A's objects at least for every type node(id:) finds, and no case for a type it does not.
    expect(Object.keys(NODE_CASES).sort()).toEqual(nodeTypes());
    const subscriptions = Object.keys((SCHEMA.getSubscriptionType() as GraphQLObjectType).getFields()).sort();
    expect(Object.keys(LIVE_CASES).sort()).toEqual(subscriptions);
  });

  it.each(Object.keys(REST_CASES))("REST %s: B cannot reach A's data", async (route) => {
    const digest = await ownedRowsDigest(testApp, a.id);
    await REST_CASES[route]();
    expect([route, await ownedRowsDigest(testApp, a.id)]).toEqual([route, digest]);
  });

  it.each(Object.keys(GRAPHQL_CASES))("GraphQL %s: B cannot reach A's data", async (field) => {
    const digest = await ownedRowsDigest(testApp, a.id);
    const {
      refused = [],
      forbidden = [],
      hidden = [],
      ownOnly = [],
      asMissing = [],
      bHousehold: needsHousehold,
    } = GRAPHQL_CASES[field];
    const ask = async (document: string) => {
      const response = await graphql(testApp, b.token, document);
      log.add(`graphql ${field}`, response);
      expect([document, response.status < 500, response.text.includes(MARK)]).toEqual([document, true, false]);
      expect([document, response.text.includes(`"${a.email}"`)]).toEqual([document, false]);
      return response;
    };
    try {
      if (needsHousehold) await makeBHousehold();
      for (const [document, code] of [
        ...refused.map((text) => [text, 'NOT_FOUND']),
        ...forbidden.map((text) => [text, 'FORBIDDEN']),
      ]) {
        const response = await ask(withIds(document));
        const { key, isMutation } = rootOf(document);
        const errors = (response.body.errors ?? []) as Array<{ path?: string[]; extensions?: { code?: string } }>;
        if (isMutation) {
          // The payload answers: its results null, and why in userErrors; errors say it too (existing clients).
          const payload = response.body.data?.[key];
          expect([document, payload === null || payload === undefined]).toEqual([document, false]);
          const results = Object.fromEntries(resultFieldsOf(key).map((name) => [name, payload[name]]));
          expect([document, results]).toEqual([
            document,
            Object.fromEntries(resultFieldsOf(key).map((name) => [name, null])),
          ]);
          const codes = (payload.userErrors as Array<{ code: string }>).map((error) => error.code);
          expect([document, codes.length > 0, [...new Set(codes)]]).toEqual([document, true, [code]]);
          const ofField = errors.filter((error) => error.path?.[0] === key).map((error) => error.extensions?.code);
          expect([document, ofField.length > 0, [...new Set(ofField)]]).toEqual([document, true, [code]]);
        } else {
          expect([document, errors[0]?.extensions?.code]).toEqual([document, code]);
          expect([document, response.body.data?.[key] ?? null]).toEqual([document, null]);
        }
      }
      for (const document of hidden) {
        const response = await ask(withIds(document));
        const { key } = rootOf(document);
        expect([document, response.body.errors, response.body.data?.[key]]).toEqual([document, undefined, null]);
      }
      for (const document of ownOnly) {
        const response = await ask(withIds(document));
        // What B may do answers B's own data: it ran, with no error to hide behind (a login or sign-up as A,
        // or a sign-on's code B has not got, is refused, as it should be).
        if (!/\b(login|signUp|completeSingleSignOn)\b/.test(document)) {
          expect([document, response.body.errors]).toEqual([document, undefined]);
          const { key, isMutation } = rootOf(document);
          if (isMutation) expect([document, response.body.data[key].userErrors]).toEqual([document, []]);
        }
        expect([document, foreignIds(response.body.data)]).toEqual([document, []]);
      }
      for (const document of asMissing) {
        const foreign = await ask(withIds(document));
        const missing = await ask(withMissingIds(document));
        const { key } = rootOf(document);
        const answer = (response: typeof foreign) =>
          scrubIds(document, {
            errors: (response.body.errors ?? []).map((error: Record<string, any>) => ({
              message: error.message,
              extensions: error.extensions,
            })),
            data: response.body.data?.[key] ?? null,
          });
        expect([document, answer(foreign)]).toEqual([document, answer(missing)]);
      }
    } finally {
      await dropBHousehold();
    }
    expect([field, await ownedRowsDigest(testApp, a.id)]).toEqual([field, digest]);
  });

  it.each(Object.keys(NODE_CASES))(
    "GraphQL node(id:) of A's %s: null to B, with nothing of A's; A's own answer finds it",
    async (type) => {
      const digest = await ownedRowsDigest(testApp, a.id);
      for (const key of NODE_CASES[type]) {
        const document = nodeDocument(type);
        const mine = await graphql(testApp, a.token, document, { id: gid[key] });
        expect([key, mine.body.errors]).toEqual([key, undefined]);
        // A finds each of its objects (a deleted record is gone for A too): B's null below is not an id's fault.
        if (key === 'deleted') expect(mine.body.data.node).toBeNull();
        else expect([key, mine.body.data.node?.__typename, mine.body.data.node?.id]).toEqual([key, type, gid[key]]);
        const theirs = log.add(`node ${type}`, await graphql(testApp, b.token, document, { id: gid[key] }));
        expect([key, theirs.status, theirs.body.errors, theirs.body.data?.node]).toEqual([key, 200, undefined, null]);
        expect([key, theirs.text.includes(MARK)]).toEqual([key, false]);
      }
      expect(await ownedRowsDigest(testApp, a.id)).toBe(digest);
    },
  );

  it("GraphQL nodes(ids:) with every id of A's: null for each, to B; found for A", async () => {
    const keys = Object.keys(A_OBJECTS) as Key[];
    const document = 'query($ids: [ID!]!) { nodes(ids: $ids) { __typename id legacyId } }';
    const ids = keys.map((key) => gid[key]);
    const mine = await graphqlData(testApp, a.token, document, { ids });
    expect(mine.nodes.map((node: { __typename: string } | null) => node?.__typename ?? null)).toEqual(
      keys.map((key) => (key === 'deleted' ? null : A_OBJECTS[key])),
    );
    const theirs = log.add('nodes', await graphql(testApp, b.token, document, { ids: [...ids, bGid.subscription] }));
    expect(theirs.body.errors).toBeUndefined();
    expect(theirs.body.data.nodes).toEqual([
      ...keys.map(() => null),
      expect.objectContaining({ id: bGid.subscription }),
    ]);
    expect(theirs.text).not.toContain(MARK);
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
      subscription_id: legacy.subscription,
      household_id: legacy.household,
    };
    const record = (overrides: Record<string, unknown>) => ({ ...exportedRecord(), ...ofA, ...overrides });

    // A's ids as the file's own ids: each is the file's row, made anew as B's, and the file's links follow them.
    const document = {
      format: 'subledger-account',
      version: 1,
      ...ofA,
      profile: { ...ofA, id: a.id, name: 'B', email: a.email, baseCurrency: 'EUR', timezone: 'UTC' },
      settings: { ...ofA, notifyBefore: 7 },
      folders: [{ ...ofA, id: legacy.folder, name: 'B folder', color: null, isDefault: true }],
      tags: [{ ...ofA, id: legacy.tag, name: 'B tag' }],
      paymentModes: [{ ...ofA, id: legacy.paymentMode, name: 'B card' }],
      categories: [{ ...ofA, id: legacy.category, name: 'B category' }],
      alerts: [{ ...exportedAlert(legacy.alert, 'B alert'), ...ofA }],
      webhookEndpoints: [{ ...ofA, id: legacy.endpoint, url: `${receiver.url}b-import`, events: [], enabled: false }],
      budgets: [{ ...ofA, id: legacy.category, categoryId: legacy.category, amount: '20.00', alertId: legacy.alert }],
      household: {
        ...ofA,
        id: legacy.household,
        name: 'B home',
        members: [{ ...ofA, id: legacy.member, name: 'B', isOwner: true, canEdit: false }],
      },
      subscriptions: [
        record({
          id: legacy.subscription,
          folder_id: legacy.folder,
          payment_mode_id: legacy.paymentMode,
          category_id: legacy.category,
          alert_id: legacy.alert,
          alert_ids: [legacy.alert],
          brand_id: legacy.product,
          product_name: 'B product',
          tags: ['B tag'],
          price_history: [{ ...ofA, id: legacy.entry, effective_from: daysFromToday(-40), price: '12.50' }],
          payments: [exportedPayment(10, { ...ofA, id: legacy.entry })],
          sharing: {
            ...ofA,
            payer_member_id: legacy.member,
            mode: 'equal',
            shares: [{ ...ofA, member_id: legacy.member, value: null }],
          },
        }),
        record({ id: legacy.addon, sub_addon: 1, sub_id: legacy.subscription, product_name: 'B product', price: 2 }),
      ],
    };
    const response = await imported(document);
    expect(response.body.errors).toBeUndefined();
    const { report, userErrors } = response.body.data.importSubscriptions;
    expect(userErrors).toEqual([]);
    expect(report).toMatchObject({ total: 2, created: 2, refused: 0 });
    // The report names records by global id; their legacy ids are what the rows below are read by.
    const recordIds = report.rows.map((row: { recordId: string }) => row.recordId);
    expect(recordIds).not.toContain(gid.subscription);
    const [mainId, addonId] = (
      await graphqlData(testApp, b.token, 'query($ids: [ID!]!) { nodes(ids: $ids) { legacyId } }', { ids: recordIds })
    ).nodes.map((node: { legacyId: number }) => node.legacyId);
    expect([mainId, addonId]).not.toContain(legacy.subscription);
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
        aId: legacy.category,
        refused: true,
        file: (id) => linking({}, [record({ id: 900_001, category_id: id })]),
      },
      {
        place: "a record's alert_ids",
        aId: legacy.alert,
        refused: true,
        file: (id) => linking({}, [record({ id: 900_001, alert_id: id, alert_ids: [id] })]),
      },
      {
        place: "an add-on's sub_id",
        aId: legacy.subscription,
        refused: true,
        file: (id) => linking({}, [record({ id: 900_001 }), record({ id: 900_002, sub_addon: 1, sub_id: id })]),
      },
      {
        place: "a budget's categoryId",
        aId: legacy.category,
        refused: true,
        file: (id) => linking({ budgets: [{ categoryId: id, amount: '1.00', alertId: null }] }),
      },
      {
        place: "a budget's alertId",
        aId: legacy.alert,
        refused: true,
        file: (id) => linking({ budgets: [{ categoryId: null, amount: '1.00', alertId: id }] }),
      },
      {
        place: "a share's payer_member_id",
        aId: legacy.member,
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
        aId: legacy.member,
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
        aId: legacy.folder,
        refused: false,
        file: (id) => linking({}, [record({ id: 900_001, folder_id: id })]),
      },
      {
        place: "a record's payment_mode_id",
        aId: legacy.paymentMode,
        refused: false,
        file: (id) => linking({}, [record({ id: 900_001, payment_mode_id: id })]),
      },
      {
        place: "a record's brand_id as a catalogue product's",
        aId: legacy.product,
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
        rows: answer.body.data?.importSubscriptions?.report?.rows?.map((row: Record<string, unknown>) => ({
          ...row,
          recordId: row.recordId === null ? null : '<id>',
        })),
        userErrors: answer.body.data?.importSubscriptions?.userErrors,
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

  it("two-factor changes act on the caller's own account: A's codes do nothing for B, B's own change nothing of A's", async () => {
    const digest = await ownedRowsDigest(testApp, a.id);
    const TWO_FACTOR = {
      confirmTwoFactor:
        'mutation($code: String!) { confirmTwoFactor(input: {code: $code}) { user { id } recoveryCodes userErrors { code } } }',
      disableTwoFactor:
        'mutation($code: String!) { disableTwoFactor(input: {code: $code}) { user { id } userErrors { code } } }',
      regenerateRecoveryCodes:
        'mutation($code: String!) { regenerateRecoveryCodes(input: {code: $code}) { user { id } recoveryCodes userErrors { code } } }',
    };
    const asB = async (field: keyof typeof TWO_FACTOR, code: string) => {
      const response = log.add(`graphql ${field}`, await graphql(testApp, b.token, TWO_FACTOR[field], { code }));
      expect([field, response.text.includes(MARK), response.text.includes(a.email)]).toEqual([field, false, false]);
      return response.body.data[field];
    };
    const refusedFor = async (field: keyof typeof TWO_FACTOR, code: string) =>
      (await asB(field, code)).userErrors.map((error: { code: string }) => error.code);
    // B with A's codes: B's 2FA is off, or pending on B's own secret.
    expect(await refusedFor('disableTwoFactor', aTwoFactor.recoveryCodes[1])).toEqual(['CONFLICT']);
    expect(await refusedFor('regenerateRecoveryCodes', await totpNow(aTwoFactor.secret))).toEqual(['CONFLICT']);
    await graphqlData(testApp, b.token, 'mutation { startTwoFactorEnrolment { uri userErrors { code } } }');
    expect(await refusedFor('confirmTwoFactor', await totpNow(aTwoFactor.secret))).toEqual(['BAD_USER_INPUT']);
    // B's own 2FA, on and off with B's own codes; A's codes are no codes of B's.
    const bTwoFactor = await turnOnTwoFactor(b.token);
    expect(await refusedFor('disableTwoFactor', aTwoFactor.recoveryCodes[1])).toEqual(['BAD_USER_INPUT']);
    const renewed = await asB('regenerateRecoveryCodes', bTwoFactor.recoveryCodes[0]);
    expect([renewed.userErrors, renewed.recoveryCodes.length]).toEqual([[], 10]);
    expect((await asB('disableTwoFactor', renewed.recoveryCodes[0])).userErrors).toEqual([]);
    expect(await ownedRowsDigest(testApp, a.id)).toEqual(digest);
    expect((await graphqlData(testApp, a.token, '{ me { twoFactorEnabled recoveryCodesLeft } }')).me).toEqual({
      twoFactorEnabled: true,
      recoveryCodesLeft: 10,
    });
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
      'webhook_delivery_attempts',
      'calendar_feeds',
      'notification_targets',
      'alert_targets',
      'payment_entries',
      'budgets',
      'reminders',
      'households',
      'household_members',
      'subscription_shares',
      'statement_proposals',
      'two_factor',
      'two_factor_recovery_codes',
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
      expect.arrayContaining([
        'password hash',
        'access token hash',
        'inbound token hash',
        'webhook secret',
        'sealed two-factor secret',
        'recovery code hash',
      ]),
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
      `mutation { createWebhookEndpoint(input: {url: "${receiver.url}"}) { webhookEndpoint { id } secret } }`,
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
    const { logout } = await graphqlData(testApp, second, 'mutation { logout { user { id } userErrors { code } } }');
    expect(logout).toEqual({ user: { id: expect.any(String) }, userErrors: [] });
    expect((await testApp.http.get('/api/v1/auth/token').set('authorization', `Bearer ${second}`)).status).toBe(401);
    expect((await testApp.http.get('/api/v1/auth/token').set(asB())).status).toBe(200);
    expect((await testApp.http.get('/api/v1/auth/token').set('authorization', `Bearer ${a.token}`)).status).toBe(200);
  });

  it('ignores owner and bookkeeping fields sent as JSON, on alerts and through the inbound webhook too', async () => {
    const forged = {
      user_id: String(a.id),
      created_by: String(a.id),
      created_at: '2001-01-01 00:00:00',
      id: String(legacy.subscription),
    };
    const json = await testApp.http
      .post('/api/v1/subscriptions')
      .set(asB())
      .send({ ...MINIMAL, ...forged });
    expect(json.status).toBe(200);
    expect([json.body.subscription.user_id, json.body.subscription.created_by]).toEqual([b.id, b.id]);
    expect(json.body.subscription.id).not.toBe(legacy.subscription);
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
        id: String(legacy.alert),
        is_default: '1',
      });
    expect(alert.status).toBe(200);
    expect(alert.body.user_id).toBe(b.id);
    expect(alert.body.id).not.toBe(legacy.alert);
    const createToken = (
      await graphqlData(testApp, b.token, 'mutation { createInboundWebhookToken(input: {kind: CREATE}) { token } }')
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
      id: String(legacy.subscription),
      user_id: String(a.id),
      created_by: String(a.id),
      created_at: '2001-01-01 00:00:00',
    };
    const created = await postSubscription(testApp, b.token, forged);
    expect(created.status).toBe(200);
    const record = created.body.subscription;
    expect(record.id).not.toBe(legacy.subscription);
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
      .send({ id: String(legacy.subscription), note: 'x' });
    expect(moved.status).toBe(400);
    expect(await ownedRows(testApp, a.id)).toEqual(before);
  });
});

/**
 * The live updates (the Subscription type, over graphql-ws on /graphql): each field's document, asking for
 * everything its events carry. A subscription takes no id; what is checked is its scope: B hears B's own
 * events, and nothing of A's while A's own subscription hears A's.
 */
const LIVE_CASES: Record<string, string> = Object.fromEntries(
  Object.values((SCHEMA.getSubscriptionType() as GraphQLObjectType).getFields()).map((field) => [
    field.name,
    `subscription { ${field.name} ${selectionOf(field.type, 2)} }`,
  ]),
);

/** What one subscription received: each event's data, and its errors. */
interface Feed {
  events: Array<Record<string, any>>;
  errors: unknown[];
  stop(): void;
}

function liveClient(token: string): Client {
  return createClient({
    url: `${testApp.baseUrl.replace(/^http/, 'ws')}/graphql`,
    webSocketImpl: WebSocket,
    connectionParams: { authorization: `Bearer ${token}` },
    retryAttempts: 0,
    shouldRetry: () => false,
  });
}

function subscribe(client: Client, query: string): Feed {
  const feed: Feed = { events: [], errors: [], stop: () => undefined };
  feed.stop = client.subscribe<Record<string, Record<string, any>>>(
    { query },
    {
      next: (result) => {
        if (result.errors) feed.errors.push(result.errors);
        if (result.data) feed.events.push(Object.values(result.data)[0]);
      },
      error: (error) => feed.errors.push(error),
      complete: () => undefined,
    },
  );
  return feed;
}

/** Changes a record's note through REST until its change arrives on the feed: the subscription is live. */
async function live(feed: Feed, token: string, recordId: number, note: string): Promise<void> {
  for (
    let touch = 1;
    !feed.events.some((event) => event.recordId === globalId('SubscriptionRecord', recordId));
    touch += 1
  ) {
    if (touch > 40) throw new Error('the subscription did not become live');
    const touched = await testApp.http
      .put(`/api/v1/subscriptions/${recordId}`)
      .set('authorization', `Bearer ${token}`)
      .type('form')
      .send({ note: `${note} ${touch}` });
    expect(touched.status).toBe(200);
    expect(feed.errors).toEqual([]);
    await until(
      () => feed.events.some((event) => event.recordId === globalId('SubscriptionRecord', recordId)),
      'the probe',
      500,
    ).catch(() => undefined);
  }
}

/** An alert that reminds through webhooks only (nothing is mailed), as `token`'s user; its global id. */
async function webhookAlert(token: string, name: string): Promise<string> {
  const made = await graphqlData(
    testApp,
    token,
    `mutation { createAlert(input: {name: "${name}", timePeriod: 2, time: "09:00", timezone: "UTC", channel: WEBHOOK}) { alert { id } userErrors { code } } }`,
  );
  return made.createAlert.alert.id;
}

/** A record due `days` from today with this alert, as `token`'s user; when its payment reminder fires. */
async function remindedRecord(token: string, days: number, alertId: string, note: string): Promise<Date> {
  const made = await graphqlData(
    testApp,
    token,
    'mutation($input: CreateSubscriptionInput!) { createSubscription(input: $input) { subscription { id } userErrors { code message } } }',
    {
      input: {
        type: 'SUBSCRIPTION',
        price: '9.00',
        currency: 'USD',
        billingCycle: 'MONTHLY',
        paymentDate: daysFromToday(days),
        alertId,
        productName: note,
        note,
      },
    },
  );
  const record = made.createSubscription.subscription.id as string;
  const { reminders } = await graphqlData(
    testApp,
    token,
    'query($from: DateTime!, $to: DateTime!) { reminders(from: $from, to: $to) { nodes { subscriptionId kind fireAt } } }',
    { from: new Date().toISOString(), to: new Date(Date.now() + 30 * 86_400_000).toISOString() },
  );
  const reminder = (reminders.nodes as Array<{ subscriptionId: string; kind: string; fireAt: string }>).find(
    (candidate) => candidate.subscriptionId === record && candidate.kind === 'PAYMENT',
  );
  if (!reminder) throw new Error(`no payment reminder of ${record}: ${JSON.stringify(reminders)}`);
  return new Date(reminder.fireAt);
}

/** Sets a budget of 1.00 (over any month's plan) with this alert, and sweeps for warnings. */
async function budgetOverPlan(token: string, alertId: string, categoryId: string | null): Promise<void> {
  const set = await graphqlData(
    testApp,
    token,
    'mutation($input: SetBudgetInput!) { setBudget(input: $input) { budget { id } userErrors { code message } } }',
    { input: { amount: '1.00', alertId, categoryId } },
  );
  expect(set.setBudget.userErrors).toEqual([]);
  await testApp.app.services.budgetWarnings.sweep();
}

/** The ids events name: their numbers under *Id keys, and their global ids. */
function idsIn(events: unknown[]): string[] {
  const found: string[] = [];
  const visit = (value: unknown, key: string) => {
    if (Array.isArray(value)) return value.forEach((item) => visit(item, key));
    if (value !== null && typeof value === 'object')
      return Object.entries(value).forEach(([name, item]) => visit(item, name));
    // Numbers under *Id keys name rows of one type each (legacyId, of any type, is left to the global ids).
    if (typeof value === 'number' && /Id$/.test(key) && key !== 'legacyId') found.push(`${key}:${value}`);
    if (typeof value === 'string' && /^id$|Id$/.test(key)) found.push(value);
  };
  visit(events, '');
  return found;
}

describe('live updates', () => {
  afterAll(() => {
    now = null;
  });

  it("B's subscription to each live update hears B's own events and nothing of A's, while A's hears A's", async () => {
    const aClient = liveClient(a.token);
    const bClient = liveClient(b.token);
    // recordChanged last: once its probe arrives, the subscriptions made before it on the socket listen too.
    const fields = Object.keys(LIVE_CASES).sort(
      (x, y) => Number(x === 'recordChanged') - Number(y === 'recordChanged'),
    );
    const aFeeds = Object.fromEntries(fields.map((field) => [field, subscribe(aClient, LIVE_CASES[field])]));
    const bFeeds = Object.fromEntries(fields.map((field) => [field, subscribe(bClient, LIVE_CASES[field])]));
    const ofA = (field: string, what: string, check: (event: Record<string, any>) => boolean) =>
      until(() => aFeeds[field].events.some(check), `A's ${what}`, 20_000);
    const ofB = (field: string, what: string, check: (event: Record<string, any>) => boolean) =>
      until(() => bFeeds[field].events.some(check), `B's ${what}`, 20_000);
    try {
      // Both connections listen (their other subscriptions were made before these on the same socket).
      await live(bFeeds.recordChanged, b.token, bSubscription, 'B probe');
      await live(aFeeds.recordChanged, a.token, legacy.subscription, `A probe ${MARK}`);

      // A's events, each heard by A first: a record change through REST, its delivery to A's endpoint, a
      // budget over next month's plan, a payment reminder when the clock reaches it.
      await ofA('deliveryChanged', 'delivery', (event) => event.delivery?.endpointId === gid.endpoint);
      const aAlert = await webhookAlert(a.token, `live ${MARK}`);
      await budgetOverPlan(a.token, aAlert, gid.category);
      await ofA('budgetExceeded', 'budget warning', (event) => event.categoryName === `category ${MARK}`);
      const aFires = await remindedRecord(a.token, 10, aAlert, `reminded ${MARK}`);
      const bAlert = await webhookAlert(b.token, 'B live');
      const bFires = await remindedRecord(b.token, 11, bAlert, 'B reminded');
      expect(bFires.getTime()).toBeGreaterThan(aFires.getTime());
      now = aFires;
      testApp.app.reminderRelay.nudge();
      await ofA('reminderFired', 'reminder', (event) => String(event.record?.note).includes(MARK));

      // Then B's own, after A's on the bus: each of B's feeds has read past A's events when B's arrives.
      now = bFires;
      testApp.app.reminderRelay.nudge();
      await ofB('reminderFired', 'reminder', (event) => event.record?.note === 'B reminded');
      now = null;
      await budgetOverPlan(b.token, bAlert, null);
      await ofB('budgetExceeded', 'budget warning', (event) => event.amount?.amount === '1.00');
      await live(bFeeds.recordChanged, b.token, bSubscription, 'B again');
      await ofB('deliveryChanged', 'delivery', (event) => event.delivery?.endpointId === bGid.endpoint);

      // The positive control: A's feeds carry A's data (MARK), so B's would show it had they heard A's.
      for (const field of fields) {
        expect([field, aFeeds[field].errors]).toEqual([field, []]);
        expect([field, aFeeds[field].events.length > 0]).toEqual([field, true]);
      }
      expect(JSON.stringify(aFeeds.recordChanged.events)).toContain(MARK);
      expect(JSON.stringify(aFeeds.reminderFired.events)).toContain(MARK);
      expect(JSON.stringify(aFeeds.budgetExceeded.events)).toContain(MARK);
      expect(idsIn(aFeeds.deliveryChanged.events)).toContain(gid.endpoint);

      // The ids A's events name, less those B may see as well (the catalogue's products and categories).
      const named = [...new Set(fields.flatMap((field) => idsIn(aFeeds[field].events)))];
      const globalIds = named.filter((id) => !id.includes(':'));
      const seen = (
        await graphqlData(testApp, b.token, 'query($ids: [ID!]!) { nodes(ids: $ids) { id } }', { ids: globalIds })
      ).nodes as Array<{ id: string } | null>;
      const aIds = new Set(named.filter((id) => !seen.some((node) => node?.id === id)));
      expect(aIds.size).toBeGreaterThan(5);
      for (const field of fields) {
        const heard = bFeeds[field];
        expect([field, heard.errors]).toEqual([field, []]);
        expect([field, heard.events.length > 0]).toEqual([field, true]);
        const text = JSON.stringify(heard.events);
        expect([field, text.includes(MARK), text.includes(a.email)]).toEqual([field, false, false]);
        expect([field, idsIn(heard.events).filter((id) => aIds.has(id))]).toEqual([field, []]);
        expect([field, foreignIds(heard.events)]).toEqual([field, []]);
      }
    } finally {
      now = null;
      for (const feed of [...Object.values(aFeeds), ...Object.values(bFeeds)]) feed.stop();
      await Promise.all([aClient.dispose(), bClient.dispose()]);
    }
  }, 120_000);
});
