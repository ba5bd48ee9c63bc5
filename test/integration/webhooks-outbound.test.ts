import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

import { CONNECTIONS_PER_ORIGIN } from '../../src/webhooks/http-post';
import { signWebhook } from '../../src/webhooks/signature';
import { countOwnedRows } from '../support/hardening';
import { type ReceivedRequest, Receiver } from '../support/receiver';
import { createSubscription, globalId, MINIMAL } from '../support/subscriptions';
import {
  deliveriesSettled,
  graphql,
  graphqlData,
  type SignedUpUser,
  signUp,
  sql,
  startTestApp,
  type TestApp,
} from '../support/test-app';

/** Events from every channel, end to end to a real receiver on loopback (allowed here by WEBHOOK_ALLOW_PRIVATE). */
let testApp: TestApp;
let receiver: Receiver;

/**
 * Short enough for the timeout tests to be quick, long enough that a busy machine's pause (a CI pass runs
 * browsers beside this) does not time out a POST the receiver got, which is then rightly sent again.
 */
const TIMEOUT_MS = 2_000;

beforeAll(async () => {
  testApp = await startTestApp({ WEBHOOK_ALLOW_PRIVATE: 'true' }, { deliveryTiming: { timeoutMs: TIMEOUT_MS } });
});
beforeEach(async () => {
  receiver = new Receiver();
  await receiver.start();
});
afterEach(() => receiver.stop());
afterAll(() => testApp.close());

const gql = graphqlData;

/** A topic's name in the WebhookTopic enum: subscription.payment_due is SUBSCRIPTION_PAYMENT_DUE. */
const topicName = (topic: string) => topic.toUpperCase().replace('.', '_');

const CREATE_ENDPOINT = `mutation($input: CreateWebhookEndpointInput!) {
  createWebhookEndpoint(input: $input) {
    webhookEndpoint { id legacyId url events enabled createdAt }
    secret
    userErrors { field code message }
  }
}`;

interface Endpoint {
  id: string;
  legacyId: number;
  url: string;
  events: string[];
  enabled: boolean;
  secret: string;
}

async function createEndpoint(user: SignedUpUser, url: string, events: string[] = []): Promise<Endpoint> {
  const { createWebhookEndpoint } = await gql(testApp, user.token, CREATE_ENDPOINT, {
    input: { url, events: events.map(topicName) },
  });
  expect(createWebhookEndpoint.userErrors).toEqual([]);
  return { ...createWebhookEndpoint.webhookEndpoint, secret: createWebhookEndpoint.secret };
}

const endpointFor = (user: SignedUpUser, events: string[] = []) => createEndpoint(user, receiver.url, events);

function expectSigned(
  request: ReceivedRequest,
  endpoint: { legacyId: number; secret: string },
  topic: string,
): Record<string, any> {
  expect(request.headers['content-type']).toBe('application/json');
  expect(request.headers['x-subledger-webhook-id']).toBe(String(endpoint.legacyId));
  expect(request.headers['x-subledger-webhook-event']).toBe(topic);
  expect(request.headers['x-subledger-webhook-source']).toBe(testApp.config.baseUrl);
  expect(request.headers['user-agent']).toMatch(/^Subledger\/\d+\.\d+\.\d+$/);
  const id = String(request.headers['webhook-id']);
  expect(id).toMatch(/^evt_[0-9a-f]{32}$/);
  const timestamp = Number(request.headers['webhook-timestamp']);
  expect(request.headers['webhook-signature']).toBe(signWebhook(endpoint.secret, id, timestamp, request.body));
  return JSON.parse(request.body);
}

const inboundToken = async (user: SignedUpUser, kind: 'CREATE' | 'MANAGE') =>
  (await gql(testApp, user.token, `mutation { createInboundWebhookToken(input: { kind: ${kind} }) { token } }`))
    .createInboundWebhookToken.token as string;

function inbound(token: string, event: string, body: Record<string, string>) {
  return testApp.http
    .post(`/webhook/user/data/${token}`)
    .set('content-type', 'application/json')
    .set('x-subledger-webhook-event', event)
    .set('x-subledger-webhook-resource', 'subscription')
    .set('x-subledger-webhook-topic', `subscription.${event}`)
    .send(JSON.stringify(body));
}

it('delivers every topic from REST, GraphQL and the inbound webhook once, signed, with the Events body', async () => {
  const user = await signUp(testApp, 'Hooked');
  const endpoint = await endpointFor(user);
  expect(endpoint).toEqual({
    id: expect.any(String),
    legacyId: expect.any(Number),
    url: receiver.url,
    events: [],
    enabled: true,
    createdAt: expect.any(String),
    secret: expect.any(String),
  });
  const createFolder = (
    await gql(
      testApp,
      user.token,
      'mutation { createFolder(input: {name: "Media", color: "#101010"}) { folder { legacyId } } }',
    )
  ).createFolder.folder;
  const auth = { authorization: `Bearer ${user.token}` };

  // REST: created, updated, canceled, refunded, deleted
  const rest = await createSubscription(testApp, user.token, {
    folder_id: String(createFolder.legacyId),
    'tags[]': ['news', 'tv'],
    refund_days: '3650',
  });
  await testApp.http.put(`/api/v1/subscriptions/${rest.id}`).set(auth).type('form').send({ price: '17.00' });
  const second = await createSubscription(testApp, user.token, { refund_days: '3650' });
  await testApp.http.post(`/api/v1/subscriptions/${second.id}/refund`).set(auth);
  await testApp.http.post(`/api/v1/subscriptions/${rest.id}/cancel`).set(auth);
  await testApp.http.delete(`/api/v1/subscriptions/${rest.id}`).set(auth);
  // GraphQL: created, updated, canceled, refunded, deleted
  const graphqlCreate = `mutation { createSubscription(input: {productId: "${globalId('Product', 2)}", type: SUBSCRIPTION, price: "5", currency: "USD", billingCycle: MONTHLY, paymentDate: "2026-01-05", refundDays: 3650}) {
    subscription { id } userErrors { code } } }`;
  const { createSubscription: viaGraphql } = await gql(testApp, user.token, graphqlCreate);
  expect(viaGraphql.userErrors).toEqual([]);
  const graphqlId = viaGraphql.subscription.id;
  const edited = await gql(
    testApp,
    user.token,
    `mutation { updateSubscription(input: {id: "${graphqlId}", note: "changed"}) { subscription { id } userErrors { code } } }`,
  );
  expect(edited.updateSubscription).toEqual({ subscription: { id: graphqlId }, userErrors: [] });
  for (const mutation of ['cancelSubscription', 'refundSubscription']) {
    const answer = await gql(
      testApp,
      user.token,
      `mutation { ${mutation}(input: {id: "${graphqlId}"}) { subscription { id } userErrors { code } } }`,
    );
    expect(answer[mutation]).toEqual({ subscription: { id: graphqlId }, userErrors: [] });
  }
  const deleted = await gql(
    testApp,
    user.token,
    `mutation { deleteSubscription(input: {id: "${graphqlId}"}) { deletedSubscriptionId userErrors { code } } }`,
  );
  expect(deleted.deleteSubscription).toEqual({ deletedSubscriptionId: graphqlId, userErrors: [] });
  // Inbound: created, updated, canceled, refunded, deleted
  const created = await inbound(await inboundToken(user, 'CREATE'), 'created', {
    ...MINIMAL,
    brand_id: '3',
    refund_days: '3650',
  });
  expect(created.status).toBe(200);
  const manage = await inboundToken(user, 'MANAGE');
  const inboundId = String(created.body.subscription.id);
  for (const [event, body] of [
    ['updated', { id: inboundId, price: '1.50' }],
    ['canceled', { id: inboundId }],
    ['refunded', { id: inboundId }],
    ['deleted', { id: inboundId }],
  ] as const) {
    expect((await inbound(manage, event, body)).status).toBe(200);
  }

  const everyTopic = [
    'subscription.created',
    'subscription.updated',
    'subscription.canceled',
    'subscription.refunded',
    'subscription.deleted',
  ];
  const expected = [
    'subscription.created',
    'subscription.updated',
    'subscription.created',
    'subscription.refunded',
    'subscription.canceled',
    'subscription.deleted',
    ...everyTopic,
    ...everyTopic,
  ];
  await receiver.waitFor(expected.length);
  await deliveriesSettled(testApp);
  const requests = receiver.received;
  expect(requests).toHaveLength(expected.length);
  const topics = requests.map((request) => String(request.headers['x-subledger-webhook-event']));
  expect([...topics].sort()).toEqual([...expected].sort());
  expect(new Set(requests.map((request) => request.headers['webhook-id'])).size).toBe(expected.length);

  const firstCreated = requests.find(
    (request) =>
      request.headers['x-subledger-webhook-event'] === 'subscription.created' &&
      JSON.parse(request.body).id === rest.id,
  )!;
  const body = expectSigned(firstCreated, endpoint, 'subscription.created');
  expect(body).toMatchObject({
    id: rest.id,
    product_name: 'Netflix Standard',
    price: 15.49,
    base_value: '15.49',
    product_type: { id: 1, name: 'SaaS' },
    tags: [
      { id: expect.any(Number), name: 'news' },
      { id: expect.any(Number), name: 'tv' },
    ],
    folder: { id: createFolder.legacyId, name: 'Media', color: '#101010', is_default: 0 },
    product: {
      id: 1,
      product_name: 'Netflix Standard',
      brandname: 'Netflix',
      category_id: 2,
      product_type: 1,
      description: expect.any(String),
    },
    product_category: { id: 2, name: 'Video Streaming' },
    status: 1,
  });
  for (const request of requests) expectSigned(request, endpoint, String(request.headers['x-subledger-webhook-event']));
  const updated = JSON.parse(
    requests.find(
      (request) =>
        request.headers['x-subledger-webhook-event'] === 'subscription.updated' &&
        JSON.parse(request.body).id === rest.id,
    )!.body,
  );
  expect(updated.price).toBe(17);
});

it('delivers only the topics an endpoint takes, and nothing to a disabled one; refused writes emit nothing', async () => {
  const user = await signUp(testApp, 'Picky');
  const endpoint = await endpointFor(user, ['subscription.canceled']);
  const disabled = await endpointFor(user);
  const { disableWebhookEndpoint } = await gql(
    testApp,
    user.token,
    'mutation($id: ID!) { disableWebhookEndpoint(input: { id: $id }) { webhookEndpoint { id enabled } userErrors { code } } }',
    { id: disabled.id },
  );
  expect(disableWebhookEndpoint).toEqual({ webhookEndpoint: { id: disabled.id, enabled: false }, userErrors: [] });
  const record = await createSubscription(testApp, user.token);
  const events = await countOwnedRows(testApp, 'webhook_events', user.id);
  const refused = await testApp.http
    .put(`/api/v1/subscriptions/${record.id}`)
    .set({ authorization: `Bearer ${user.token}` })
    .type('form')
    .send({ price: 'nope' });
  expect(refused.status).toBe(400);
  expect(await countOwnedRows(testApp, 'webhook_events', user.id)).toBe(events);
  await testApp.http.post(`/api/v1/subscriptions/${record.id}/cancel`).set({ authorization: `Bearer ${user.token}` });
  const [request] = await receiver.waitFor(1);
  await deliveriesSettled(testApp);
  expect(receiver.received).toHaveLength(1);
  expect(request.headers['x-subledger-webhook-id']).toBe(String(endpoint.legacyId));
  expectSigned(request, endpoint, 'subscription.canceled');
});

it('times out a slow receiver, records it and schedules the retry', async () => {
  const user = await signUp(testApp, 'Slow');
  const slow = new Receiver();
  slow.delayMs = 2 * TIMEOUT_MS;
  await slow.start();
  try {
    await createEndpoint(user, slow.url);
    await createSubscription(testApp, user.token);
    let delivery: any;
    for (const deadline = Date.now() + 10_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 100))) {
      delivery = (
        await gql(
          testApp,
          user.token,
          '{ webhookDeliveries(first: 5) { edges { node { status attemptCount nextAttemptAt attempts { statusCode error } } } } }',
        )
      ).webhookDeliveries.edges[0]?.node;
      if (delivery?.attempts.length) break;
    }
    expect(delivery).toMatchObject({
      status: 'PENDING',
      attemptCount: 1,
      attempts: [{ statusCode: null, error: expect.stringMatching(/timed out/) }],
    });
    expect(new Date(delivery.nextAttemptAt).getTime() - Date.now()).toBeGreaterThan(2_000);
  } finally {
    await slow.stop();
  }
});

it('times out an answer whose body trickles in past the timeout, though each piece comes in time', async () => {
  const user = await signUp(testApp, 'Trickle');
  // Headers at once, then a byte every 100 ms for twice the timeout: each piece well within it.
  const trickle = createServer((req, res) => {
    req.resume();
    res.writeHead(200, { 'content-type': 'text/plain' });
    let sent = 0;
    const timer = setInterval(
      () => (++sent < (2 * TIMEOUT_MS) / 100 ? res.write('x') : (clearInterval(timer), res.end('x'))),
      100,
    );
    res.on('close', () => clearInterval(timer));
  });
  await new Promise<void>((resolve) => trickle.listen(0, '127.0.0.1', resolve));
  try {
    await createEndpoint(user, `http://127.0.0.1:${(trickle.address() as AddressInfo).port}/`);
    await createSubscription(testApp, user.token);
    let delivery: any;
    for (const deadline = Date.now() + 10_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 100))) {
      delivery = (
        await gql(
          testApp,
          user.token,
          '{ webhookDeliveries(first: 5) { edges { node { status attempts { statusCode error } } } } }',
        )
      ).webhookDeliveries.edges[0]?.node;
      if (delivery?.attempts.length) break;
    }
    expect(delivery).toMatchObject({
      status: 'PENDING',
      attempts: [{ statusCode: null, error: `timed out after ${TIMEOUT_MS} ms` }],
    });
  } finally {
    trickle.closeAllConnections();
    await new Promise((resolve) => trickle.close(resolve));
  }
});

it('sends a burst to one receiver over at most CONNECTIONS_PER_ORIGIN connections, every delivery arriving', async () => {
  const user = await signUp(testApp, 'Burst');
  const burst = CONNECTIONS_PER_ORIGIN * 2 + 10;
  const sockets = new Set<unknown>();
  let arrived = 0;
  // Answers after 200 ms, so that the burst's POSTs are under way together.
  const slowish = createServer((req, res) => {
    sockets.add(req.socket);
    req.resume();
    req.on('end', () => setTimeout(() => (arrived++, res.writeHead(204).end()), 200));
  });
  await new Promise<void>((resolve) => slowish.listen(0, '127.0.0.1', resolve));
  try {
    const endpoint = await createEndpoint(user, `http://127.0.0.1:${(slowish.address() as AddressInfo).port}/`);
    // The outbox rows a busy moment leaves, written at once (as the bench's burst is).
    await sql(
      testApp,
      `with e as (insert into "webhook_events" ("id", "user_id", "topic", "payload")
                  select 'evt_burst_' || g, ?, 'subscription.updated', '{}'::json from generate_series(1, ?) g returning "id")
       insert into "webhook_deliveries" ("event_id", "endpoint_id", "next_attempt_at") select "id", ?, (now() at time zone 'utc') from e`,
      [user.id, burst, endpoint.legacyId],
    );
    testApp.app.nudgeRelays();
    for (const deadline = Date.now() + 20_000; arrived < burst && Date.now() < deadline;)
      await new Promise((r) => setTimeout(r, 50));
    expect(arrived).toBe(burst);
    expect(sockets.size).toBeGreaterThan(1);
    expect(sockets.size).toBeLessThanOrEqual(CONNECTIONS_PER_ORIGIN);
  } finally {
    slowish.closeAllConnections();
    await new Promise((resolve) => slowish.close(resolve));
  }
});

const DELIVERIES = `query($status: DeliveryStatus, $endpointId: ID, $first: Int) {
  webhookDeliveries(first: $first, status: $status, endpointId: $endpointId) {
    totalCount
    edges { node { id legacyId eventId topic endpointId targetId status attemptCount
      attempts { id legacyId attemptNumber statusCode durationMs responseExcerpt error } } } } }`;

const REDELIVER = `mutation($id: ID!) {
  redeliver(input: { deliveryId: $id }) { webhookDelivery { id status } userErrors { field code message } }
}`;

it('lists deliveries with their attempts, filters them, and redelivers a failed one', async () => {
  const user = await signUp(testApp, 'Logger');
  receiver.status = 410;
  const endpoint = await endpointFor(user);
  await createSubscription(testApp, user.token);
  await receiver.waitFor(1);
  let failed: any[] = [];
  for (
    const deadline = Date.now() + 10_000;
    failed.length === 0 && Date.now() < deadline;
    await new Promise((r) => setTimeout(r, 50))
  ) {
    failed = (await gql(testApp, user.token, DELIVERIES, { status: 'FAILED' })).webhookDeliveries.edges;
  }
  expect(failed).toHaveLength(1);
  const delivery = failed[0].node;
  expect(delivery).toEqual({
    id: expect.any(String),
    legacyId: expect.any(Number),
    eventId: expect.stringMatching(/^evt_[0-9a-f]{32}$/),
    topic: 'SUBSCRIPTION_CREATED',
    endpointId: endpoint.id,
    targetId: null,
    status: 'FAILED',
    attemptCount: 1,
    attempts: [
      {
        id: expect.any(String),
        legacyId: expect.any(Number),
        attemptNumber: 1,
        statusCode: 410,
        durationMs: expect.any(Number),
        responseExcerpt: 'received',
        error: null,
      },
    ],
  });
  expect(delivery.id).not.toMatch(/^\d+$/);
  expect(delivery.attempts[0].id).not.toBe(delivery.id);
  // Another user's endpoint id filters to nothing; an id of another type is not found.
  const other = await signUp(testApp, 'Other');
  const othersEndpoint = await endpointFor(other);
  const filtered = await gql(testApp, user.token, DELIVERIES, { endpointId: othersEndpoint.id });
  expect(filtered.webhookDeliveries).toEqual({ totalCount: 0, edges: [] });
  const wrongType = await graphql(testApp, user.token, DELIVERIES, { endpointId: delivery.id });
  expect(wrongType.body.errors[0].extensions).toMatchObject({
    code: 'NOT_FOUND',
    errors: { endpointId: [expect.any(String)] },
  });

  // node(id:) finds the delivery and its attempt for their owner, and nothing for anyone else.
  const NODES = `query($ids: [ID!]!) { nodes(ids: $ids) { __typename id
    ... on WebhookDelivery { status topic } ... on WebhookDeliveryAttempt { statusCode } ... on WebhookEndpoint { url events } } }`;
  const ids = [delivery.id, delivery.attempts[0].id, endpoint.id];
  expect((await gql(testApp, user.token, NODES, { ids })).nodes).toEqual([
    { __typename: 'WebhookDelivery', id: delivery.id, status: 'FAILED', topic: 'SUBSCRIPTION_CREATED' },
    { __typename: 'WebhookDeliveryAttempt', id: delivery.attempts[0].id, statusCode: 410 },
    { __typename: 'WebhookEndpoint', id: endpoint.id, url: receiver.url, events: [] },
  ]);
  expect((await gql(testApp, other.token, NODES, { ids })).nodes).toEqual([null, null, null]);

  receiver.status = 200;
  const { redeliver } = await gql(testApp, user.token, REDELIVER, { id: delivery.id });
  expect(redeliver).toEqual({ webhookDelivery: { id: delivery.id, status: 'PENDING' }, userErrors: [] });
  const requests = await receiver.waitFor(2);
  expect(requests[1].headers['webhook-id']).toBe(delivery.eventId);
  const foreign = await graphql(testApp, other.token, REDELIVER, { id: delivery.id });
  expect(foreign.body.data.redeliver).toEqual({
    webhookDelivery: null,
    userErrors: [{ field: [], code: 'NOT_FOUND', message: expect.any(String) }],
  });
  expect(foreign.body.errors[0].extensions.code).toBe('NOT_FOUND');
  expect((await gql(testApp, other.token, DELIVERIES, {})).webhookDeliveries.edges).toEqual([]);
  // A pending delivery is not redelivered: a conflict.
  await sql(testApp, `update "webhook_deliveries" set "status" = 'PENDING', "next_attempt_at" = null where "id" = ?`, [
    delivery.legacyId,
  ]);
  const pending = await graphql(testApp, user.token, REDELIVER, { id: delivery.id });
  expect(pending.body.data.redeliver.userErrors).toEqual([
    { field: [], code: 'CONFLICT', message: expect.any(String) },
  ]);
  await sql(testApp, `update "webhook_deliveries" set "status" = 'SUCCEEDED' where "id" = ?`, [delivery.legacyId]);
});

it('pages the delivery log forward and back, with totalCount, also per endpoint', async () => {
  const user = await signUp(testApp, 'Pager');
  const endpoint = await createEndpoint(user, receiver.url);
  await gql(
    testApp,
    user.token,
    'mutation($id: ID!) { disableWebhookEndpoint(input: { id: $id }) { userErrors { code } } }',
    {
      id: endpoint.id,
    },
  );
  // Five finished deliveries (the relay leaves them alone), oldest first, the third failed.
  const rows = await sql<{ id: number }>(
    testApp,
    `with e as (insert into "webhook_events" ("id", "user_id", "topic", "payload")
                select 'evt_page_' || ? || '_' || g, ?, 'subscription.updated', '{}'::json from generate_series(1, 5) g returning "id")
     insert into "webhook_deliveries" ("event_id", "endpoint_id", "status", "attempt_count", "completed_at")
     select "id", ?, case when "id" like '%\\_3' then 'FAILED' else 'SUCCEEDED' end, 1, (now() at time zone 'utc')
       from e order by "id" returning "id"`,
    [user.id, user.id, endpoint.legacyId],
  );
  const newestFirst = rows.map((row) => row.id).sort((a, b) => b - a);
  const PAGE = `query($first: Int, $after: String, $last: Int, $before: String) {
    webhookDeliveries(first: $first, after: $after, last: $last, before: $before) {
      totalCount pageInfo { hasNextPage hasPreviousPage startCursor endCursor } nodes { legacyId topic }
    } }`;
  const page = async (variables: Record<string, unknown>) =>
    (await gql(testApp, user.token, PAGE, variables)).webhookDeliveries;
  const first = await page({ first: 2 });
  expect(first).toEqual({
    totalCount: 5,
    pageInfo: {
      hasNextPage: true,
      hasPreviousPage: false,
      startCursor: expect.any(String),
      endCursor: expect.any(String),
    },
    nodes: newestFirst.slice(0, 2).map((legacyId) => ({ legacyId, topic: 'SUBSCRIPTION_UPDATED' })),
  });
  const second = await page({ first: 2, after: first.pageInfo.endCursor });
  expect(second.nodes.map((node: { legacyId: number }) => node.legacyId)).toEqual(newestFirst.slice(2, 4));
  expect(second.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: true });
  const last = await page({ last: 2 });
  expect(last.nodes.map((node: { legacyId: number }) => node.legacyId)).toEqual(newestFirst.slice(3));
  expect(last.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
  const before = await page({ last: 2, before: last.pageInfo.startCursor });
  expect(before.nodes.map((node: { legacyId: number }) => node.legacyId)).toEqual(newestFirst.slice(1, 3));
  expect(before.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: true });
  expect((await graphql(testApp, user.token, PAGE, { first: 201 })).body.errors[0].extensions.code).toBe(
    'BAD_USER_INPUT',
  );

  // The endpoint's own deliveries, filtered by status.
  const { node } = await gql(
    testApp,
    user.token,
    `query($id: ID!) { node(id: $id) { ... on WebhookEndpoint { enabled
      all: deliveries(first: 1) { totalCount nodes { legacyId } }
      failed: deliveries(status: FAILED) { totalCount nodes { legacyId status } } } } }`,
    { id: endpoint.id },
  );
  expect(node).toEqual({
    enabled: false,
    all: { totalCount: 5, nodes: [{ legacyId: newestFirst[0] }] },
    failed: { totalCount: 1, nodes: [{ legacyId: newestFirst[2], status: 'FAILED' }] },
  });
});

it('manages endpoints: the secret shows once, rotates, and signs with the new one', async () => {
  const user = await signUp(testApp, 'Manager');
  const endpoint = await endpointFor(user);
  expect(endpoint.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
  const listed = await graphql(testApp, user.token, '{ webhookEndpoints { id url events enabled secret } }');
  expect(listed.body.errors[0].message).toMatch(/secret/);
  const { rotateWebhookEndpointSecret } = await gql(
    testApp,
    user.token,
    'mutation($id: ID!) { rotateWebhookEndpointSecret(input: { id: $id }) { webhookEndpoint { id } secret userErrors { code } } }',
    { id: endpoint.id },
  );
  expect(rotateWebhookEndpointSecret).toEqual({
    webhookEndpoint: { id: endpoint.id },
    secret: expect.stringMatching(/^whsec_/),
    userErrors: [],
  });
  expect(rotateWebhookEndpointSecret.secret).not.toBe(endpoint.secret);
  const UPDATE = `mutation($input: UpdateWebhookEndpointInput!) {
    updateWebhookEndpoint(input: $input) { webhookEndpoint { id url events } userErrors { field code message } } }`;
  const { updateWebhookEndpoint } = await gql(testApp, user.token, UPDATE, {
    input: { id: endpoint.id, events: ['SUBSCRIPTION_CREATED', 'SUBSCRIPTION_PAYMENT_DUE'] },
  });
  expect(updateWebhookEndpoint).toEqual({
    webhookEndpoint: {
      id: endpoint.id,
      url: receiver.url,
      events: ['SUBSCRIPTION_CREATED', 'SUBSCRIPTION_PAYMENT_DUE'],
    },
    userErrors: [],
  });
  const stored = await sql<{ events: string[] }>(testApp, 'select "events" from "webhook_endpoints" where "id" = ?', [
    endpoint.legacyId,
  ]);
  expect(stored[0].events).toEqual(['subscription.created', 'subscription.payment_due']);
  // Refusals come back typed in userErrors (and in errors, for existing clients).
  const badTopic = await graphql(testApp, user.token, UPDATE, {
    input: { id: endpoint.id, events: ['NOTIFICATION_TEST'] },
  });
  expect(badTopic.body.data.updateWebhookEndpoint).toEqual({
    webhookEndpoint: null,
    userErrors: [{ field: ['input', 'events'], code: 'BAD_USER_INPUT', message: expect.any(String) }],
  });
  expect(badTopic.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
  const unknownTopic = await graphql(testApp, user.token, UPDATE, {
    input: { id: endpoint.id, events: ['subscription.created'] },
  });
  expect(unknownTopic.body.errors[0].message).toMatch(/WebhookTopic/);
  const badUrl = await graphql(testApp, user.token, CREATE_ENDPOINT, { input: { url: 'ftp://example.com/' } });
  expect(badUrl.body.data.createWebhookEndpoint).toEqual({
    webhookEndpoint: null,
    secret: null,
    userErrors: [{ field: ['input', 'url'], code: 'BAD_USER_INPUT', message: expect.any(String) }],
  });
  await createSubscription(testApp, user.token);
  const [request] = await receiver.waitFor(1);
  const rotated = { legacyId: endpoint.legacyId, secret: rotateWebhookEndpointSecret.secret };
  expectSigned(request, rotated, 'subscription.created');
  const rows = await testApp.app.db.orm.em
    .getConnection()
    .execute<{ secret: string }[]>('select "secret" from "webhook_endpoints" where "id" = ?', [endpoint.legacyId]);
  expect(rows[0].secret).toBe(rotateWebhookEndpointSecret.secret);
  const other = await signUp(testApp, 'Intruder');
  for (const [mutation, result] of [
    ['deleteWebhookEndpoint', 'deletedWebhookEndpointId'],
    ['disableWebhookEndpoint', 'webhookEndpoint { id }'],
    ['enableWebhookEndpoint', 'webhookEndpoint { id }'],
    ['rotateWebhookEndpointSecret', 'secret'],
  ]) {
    const answer = await graphql(
      testApp,
      other.token,
      `mutation($id: ID!) { ${mutation}(input: { id: $id }) { ${result} userErrors { field code } } }`,
      { id: endpoint.id },
    );
    expect(answer.body.data[mutation].userErrors).toEqual([{ field: [], code: 'NOT_FOUND' }]);
    expect(answer.body.errors[0].extensions.code).toBe('NOT_FOUND');
  }
  const { enableWebhookEndpoint } = await gql(
    testApp,
    user.token,
    'mutation($id: ID!) { enableWebhookEndpoint(input: { id: $id }) { webhookEndpoint { enabled } } }',
    { id: endpoint.id },
  );
  expect(enableWebhookEndpoint.webhookEndpoint.enabled).toBe(true);
  expect(
    (
      await gql(
        testApp,
        user.token,
        'mutation($id: ID!) { deleteWebhookEndpoint(input: { id: $id }) { deletedWebhookEndpointId userErrors { code } } }',
        { id: endpoint.id },
      )
    ).deleteWebhookEndpoint,
  ).toEqual({ deletedWebhookEndpointId: endpoint.id, userErrors: [] });
  expect((await gql(testApp, user.token, '{ webhookEndpoints { id } }')).webhookEndpoints).toEqual([]);
  expect(
    (await gql(testApp, user.token, 'query($id: ID!) { node(id: $id) { id } }', { id: endpoint.id })).node,
  ).toBeNull();
});
