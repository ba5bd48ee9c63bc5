import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

import { CONNECTIONS_PER_ORIGIN } from '../../src/webhooks/http-post';
import { signWebhook } from '../../src/webhooks/signature';
import { countOwnedRows } from '../support/hardening';
import { type ReceivedRequest, Receiver } from '../support/receiver';
import { createSubscription, MINIMAL } from '../support/subscriptions';
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

beforeAll(async () => {
  testApp = await startTestApp({ WEBHOOK_ALLOW_PRIVATE: 'true' }, { deliveryTiming: { timeoutMs: 500 } });
});
beforeEach(async () => {
  receiver = new Receiver();
  await receiver.start();
});
afterEach(() => receiver.stop());
afterAll(() => testApp.close());

const gql = graphqlData;

async function endpointFor(user: SignedUpUser, events: string[] = []) {
  const { createWebhookEndpoint } = await gql(
    testApp,
    user.token,
    'mutation($input: WebhookEndpointInput!) { createWebhookEndpoint(input: $input) { id url events secret enabled } }',
    {
      input: { url: receiver.url, events },
    },
  );
  return createWebhookEndpoint as { id: number; url: string; events: string[]; secret: string; enabled: boolean };
}

function expectSigned(
  request: ReceivedRequest,
  endpoint: { id: number; secret: string },
  topic: string,
): Record<string, any> {
  expect(request.headers['content-type']).toBe('application/json');
  expect(request.headers['x-subledger-webhook-id']).toBe(String(endpoint.id));
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
  (await gql(testApp, user.token, `mutation { createInboundWebhookToken(kind: ${kind}) { token } }`))
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
  expect(endpoint).toMatchObject({ url: receiver.url, events: [], enabled: true });
  const { createFolder } = await gql(
    testApp,
    user.token,
    'mutation { createFolder(input: {name: "Media", color: "#101010"}) { id } }',
  );
  const auth = { authorization: `Bearer ${user.token}` };

  // REST: created, updated, canceled, refunded, deleted
  const rest = await createSubscription(testApp, user.token, {
    folder_id: String(createFolder.id),
    'tags[]': ['news', 'tv'],
    refund_days: '3650',
  });
  await testApp.http.put(`/api/v1/subscriptions/${rest.id}`).set(auth).type('form').send({ price: '17.00' });
  const second = await createSubscription(testApp, user.token, { refund_days: '3650' });
  await testApp.http.post(`/api/v1/subscriptions/${second.id}/refund`).set(auth);
  await testApp.http.post(`/api/v1/subscriptions/${rest.id}/cancel`).set(auth);
  await testApp.http.delete(`/api/v1/subscriptions/${rest.id}`).set(auth);
  // GraphQL: created, updated, canceled, refunded, deleted
  const graphqlCreate =
    'mutation { createSubscription(input: {productId: 2, type: 1, price: "5", currency: "USD", billingCycle: 3, paymentDate: "2026-01-05", refundDays: 3650}) { id } }';
  const { createSubscription: viaGraphql } = await gql(testApp, user.token, graphqlCreate);
  await gql(
    testApp,
    user.token,
    `mutation { updateSubscription(id: ${viaGraphql.id}, input: {note: "changed"}) { id } }`,
  );
  await gql(testApp, user.token, `mutation { cancelSubscription(id: ${viaGraphql.id}) { id } }`);
  await gql(testApp, user.token, `mutation { refundSubscription(id: ${viaGraphql.id}) { id } }`);
  await gql(testApp, user.token, `mutation { deleteSubscription(id: ${viaGraphql.id}) }`);
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
    folder: { id: createFolder.id, name: 'Media', color: '#101010', is_default: 0 },
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
  await gql(testApp, user.token, `mutation { disableWebhookEndpoint(id: ${disabled.id}) { enabled } }`);
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
  expect(request.headers['x-subledger-webhook-id']).toBe(String(endpoint.id));
  expectSigned(request, endpoint, 'subscription.canceled');
});

it('times out a slow receiver, records it and schedules the retry', async () => {
  const user = await signUp(testApp, 'Slow');
  const slow = new Receiver();
  slow.delayMs = 2_000;
  await slow.start();
  try {
    await gql(
      testApp,
      user.token,
      'mutation($input: WebhookEndpointInput!) { createWebhookEndpoint(input: $input) { id } }',
      {
        input: { url: slow.url, events: [] },
      },
    );
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
  // Headers at once, then a byte every 100 ms for 2 s: each piece well within the 500 ms timeout.
  const trickle = createServer((req, res) => {
    req.resume();
    res.writeHead(200, { 'content-type': 'text/plain' });
    let sent = 0;
    const timer = setInterval(() => (++sent < 20 ? res.write('x') : (clearInterval(timer), res.end('x'))), 100);
    res.on('close', () => clearInterval(timer));
  });
  await new Promise<void>((resolve) => trickle.listen(0, '127.0.0.1', resolve));
  try {
    await gql(
      testApp,
      user.token,
      'mutation($input: WebhookEndpointInput!) { createWebhookEndpoint(input: $input) { id } }',
      {
        input: { url: `http://127.0.0.1:${(trickle.address() as AddressInfo).port}/`, events: [] },
      },
    );
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
      attempts: [{ statusCode: null, error: 'timed out after 500 ms' }],
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
    const { createWebhookEndpoint } = await gql(
      testApp,
      user.token,
      'mutation($input: WebhookEndpointInput!) { createWebhookEndpoint(input: $input) { id } }',
      {
        input: { url: `http://127.0.0.1:${(slowish.address() as AddressInfo).port}/`, events: [] },
      },
    );
    // The outbox rows a busy moment leaves, written at once (as the bench's burst is).
    await sql(
      testApp,
      `with e as (insert into "webhook_events" ("id", "user_id", "topic", "payload")
                  select 'evt_burst_' || g, ?, 'subscription.updated', '{}'::json from generate_series(1, ?) g returning "id")
       insert into "webhook_deliveries" ("event_id", "endpoint_id", "next_attempt_at") select "id", ?, (now() at time zone 'utc') from e`,
      [user.id, burst, createWebhookEndpoint.id],
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

it('lists deliveries with their attempts, filters them, and redelivers a failed one', async () => {
  const user = await signUp(testApp, 'Logger');
  receiver.status = 410;
  const endpoint = await endpointFor(user);
  await createSubscription(testApp, user.token);
  await receiver.waitFor(1);
  const query = `query($status: DeliveryStatus, $endpointId: Int) { webhookDeliveries(first: 10, status: $status, endpointId: $endpointId) {
    edges { node { id eventId topic endpointId status attemptCount attempts { attemptNumber statusCode durationMs responseExcerpt error } } } } }`;
  let failed: any[] = [];
  for (
    const deadline = Date.now() + 10_000;
    failed.length === 0 && Date.now() < deadline;
    await new Promise((r) => setTimeout(r, 50))
  ) {
    failed = (await gql(testApp, user.token, query, { status: 'FAILED' })).webhookDeliveries.edges;
  }
  expect(failed).toHaveLength(1);
  expect(failed[0].node).toMatchObject({
    topic: 'subscription.created',
    endpointId: endpoint.id,
    status: 'FAILED',
    attemptCount: 1,
    attempts: [{ attemptNumber: 1, statusCode: 410, responseExcerpt: 'received', error: null }],
  });
  expect((await gql(testApp, user.token, query, { endpointId: endpoint.id + 1000 })).webhookDeliveries.edges).toEqual(
    [],
  );

  receiver.status = 200;
  const { redeliver } = await gql(
    testApp,
    user.token,
    `mutation { redeliver(deliveryId: ${failed[0].node.id}) { status } }`,
  );
  expect(redeliver.status).toBe('PENDING');
  const requests = await receiver.waitFor(2);
  expect(requests[1].headers['webhook-id']).toBe(failed[0].node.eventId);
  const other = await signUp(testApp, 'Other');
  const foreign = await graphql(
    testApp,
    other.token,
    `mutation { redeliver(deliveryId: ${failed[0].node.id}) { status } }`,
  );
  expect(foreign.body.errors[0].extensions.code).toBe('NOT_FOUND');
  expect((await gql(testApp, other.token, query, {})).webhookDeliveries.edges).toEqual([]);
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
    `mutation { rotateWebhookEndpointSecret(id: ${endpoint.id}) { secret } }`,
  );
  expect(rotateWebhookEndpointSecret.secret).not.toBe(endpoint.secret);
  const { updateWebhookEndpoint } = await gql(
    testApp,
    user.token,
    `mutation { updateWebhookEndpoint(id: ${endpoint.id}, input: {events: ["subscription.created"]}) { events } }`,
  );
  expect(updateWebhookEndpoint.events).toEqual(['subscription.created']);
  const badTopic = await graphql(
    testApp,
    user.token,
    `mutation { updateWebhookEndpoint(id: ${endpoint.id}, input: {events: ["subscription.exploded"]}) { id } }`,
  );
  expect(badTopic.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
  await createSubscription(testApp, user.token);
  const [request] = await receiver.waitFor(1);
  expectSigned(request, { id: endpoint.id, secret: rotateWebhookEndpointSecret.secret }, 'subscription.created');
  const rows = await testApp.app.db.orm.em
    .getConnection()
    .execute<{ secret: string }[]>('select "secret" from "webhook_endpoints" where "id" = ?', [endpoint.id]);
  expect(rows[0].secret).toBe(rotateWebhookEndpointSecret.secret);
  const other = await signUp(testApp, 'Intruder');
  for (const mutation of [
    `deleteWebhookEndpoint(id: ${endpoint.id})`,
    `disableWebhookEndpoint(id: ${endpoint.id}) { id }`,
    `rotateWebhookEndpointSecret(id: ${endpoint.id}) { secret }`,
  ]) {
    expect((await graphql(testApp, other.token, `mutation { ${mutation} }`)).body.errors[0].extensions.code).toBe(
      'NOT_FOUND',
    );
  }
  expect(
    (await gql(testApp, user.token, `mutation { deleteWebhookEndpoint(id: ${endpoint.id}) }`)).deleteWebhookEndpoint,
  ).toBe(true);
  expect((await gql(testApp, user.token, '{ webhookEndpoints { id } }')).webhookEndpoints).toEqual([]);
});
