import { randomUUID } from 'node:crypto';

import { Redis } from 'ioredis';

import { DELIVERY_TIMEOUT_MS } from '../../src/webhooks/delivery.service';
import { DELIVERY_QUEUE } from '../../src/webhooks/delivery-queue';
import { newEndpointSecret, signWebhook } from '../../src/webhooks/signature';
import { Receiver } from '../support/receiver';
import { type SignedUpUser, signUp, sql, startTestApp, type TestApp } from '../support/test-app';
import { until } from '../support/wait';

/**
 * The outbox → relay → delivery path, driven through the database rows the change writers will fill. It runs
 * in-process on the embedded default and through BullMQ when REDIS_URL is set (the suite runs both).
 */
let testApp: TestApp;
let user: SignedUpUser;
let receiver: Receiver;

beforeAll(async () => {
  testApp = await startTestApp({ WEBHOOK_ALLOW_PRIVATE: 'true' });
  user = await signUp(testApp);
});
beforeEach(async () => {
  receiver = new Receiver();
  await receiver.start();
});
afterEach(() => receiver.stop());
afterAll(() => testApp.close());

async function enqueue(
  topic = 'subscription.created',
  payload: Record<string, unknown> = { id: 7, product_name: 'Netflix' },
) {
  const secret = newEndpointSecret();
  const [endpoint] = await sql<{ id: number }>(
    testApp,
    `insert into "webhook_endpoints" ("user_id", "url", "secret") values (?, ?, ?) returning "id"`,
    [user.id, receiver.url, secret],
  );
  const eventId = `evt_${randomUUID().replace(/-/g, '')}`;
  await sql(testApp, `insert into "webhook_events" ("id", "user_id", "topic", "payload") values (?, ?, ?, ?)`, [
    eventId,
    user.id,
    topic,
    JSON.stringify(payload),
  ]);
  const [delivery] = await sql<{ id: number }>(
    testApp,
    `insert into "webhook_deliveries" ("event_id", "endpoint_id", "next_attempt_at") values (?, ?, (now() at time zone 'utc')) returning "id"`,
    [eventId, endpoint.id],
  );
  testApp.app.relay.nudge();
  return { endpointId: endpoint.id, eventId, deliveryId: delivery.id, secret, payload };
}

const deliveryRow = async (id: number) =>
  (
    await sql<{ status: string; attempt_count: number; seconds_to_next: string | null }>(
      testApp,
      `select "status", "attempt_count", extract(epoch from ("next_attempt_at" - (now() at time zone 'utc'))) as "seconds_to_next"
       from "webhook_deliveries" where "id" = ?`,
      [id],
    )
  )[0];

/** Attempts recorded so far (an attempt is claimed before its POST and recorded after it). */
const recordedAttempts = async (deliveryId: number) =>
  Number(
    (
      await sql<{ n: string }>(
        testApp,
        `select count(*) as "n" from "webhook_delivery_attempts" where "delivery_id" = ?`,
        [deliveryId],
      )
    )[0].n,
  );

it('keeps the first 1 KB of an answer, and times out after 10 s by default', async () => {
  expect(DELIVERY_TIMEOUT_MS).toBe(10_000);
  receiver.answerBody = 'x'.repeat(5000);
  try {
    const { deliveryId } = await enqueue();
    await until(async () => (await deliveryRow(deliveryId)).status === 'SUCCEEDED');
    const [attempt] = await sql<{ response_excerpt: string }>(
      testApp,
      `select "response_excerpt" from "webhook_delivery_attempts" where "delivery_id" = ?`,
      [deliveryId],
    );
    expect(attempt.response_excerpt).toBe('x'.repeat(1024));
  } finally {
    receiver.answerBody = 'received';
  }
});

it('POSTs the event with the spec headers and a Standard Webhooks signature that verifies', async () => {
  const { endpointId, eventId, deliveryId, secret, payload } = await enqueue();
  const [request] = await receiver.waitFor(1);
  expect(request.headers['content-type']).toBe('application/json');
  expect(request.headers['x-subledger-webhook-id']).toBe(String(endpointId));
  expect(request.headers['x-subledger-webhook-event']).toBe('subscription.created');
  expect(request.headers['x-subledger-webhook-source']).toBe(testApp.config.baseUrl);
  expect(request.headers['webhook-id']).toBe(eventId);
  const timestamp = Number(request.headers['webhook-timestamp']);
  expect(Math.abs(timestamp - Date.now() / 1000)).toBeLessThan(30);
  expect(request.headers['webhook-signature']).toBe(signWebhook(secret, eventId, timestamp, request.body));
  expect(JSON.parse(request.body)).toEqual(payload);

  await until(async () => (await deliveryRow(deliveryId)).status === 'SUCCEEDED');
  const attempts = await sql<Record<string, unknown>>(
    testApp,
    `select * from "webhook_delivery_attempts" where "delivery_id" = ?`,
    [deliveryId],
  );
  expect(attempts).toHaveLength(1);
  expect(attempts[0]).toMatchObject({ attempt_number: 1, status_code: 200, response_excerpt: 'received', error: null });
  expect(attempts[0].duration_ms).toEqual(expect.any(Number));

  if (testApp.config.redisUrl) {
    // With Redis the attempt went through the BullMQ queue of this app's prefix.
    const redis = new Redis(testApp.config.redisUrl);
    const keys = await redis.keys(`${testApp.config.redisPrefix}:${DELIVERY_QUEUE}:*`);
    redis.disconnect();
    expect(keys.length).toBeGreaterThan(0);
  }
});

it('retries a 500 after about 5 s with the same webhook-id', async () => {
  receiver.script = [500];
  const { deliveryId, eventId } = await enqueue();
  await receiver.waitFor(1);
  await until(async () => (await recordedAttempts(deliveryId)) === 1);
  const afterFirst = await deliveryRow(deliveryId);
  expect(afterFirst.status).toBe('PENDING');
  expect(Number(afterFirst.seconds_to_next)).toBeGreaterThan(3);
  expect(Number(afterFirst.seconds_to_next)).toBeLessThanOrEqual(5);

  // The schedule's wait is the database's next_attempt_at; bring it forward instead of sleeping.
  await sql(testApp, `update "webhook_deliveries" set "next_attempt_at" = (now() at time zone 'utc') where "id" = ?`, [
    deliveryId,
  ]);
  testApp.app.relay.nudge();
  const requests = await receiver.waitFor(2);
  expect(requests[1].headers['webhook-id']).toBe(eventId);
  await until(async () => (await deliveryRow(deliveryId)).status === 'SUCCEEDED');
  const attempts = await sql<{ status_code: number }>(
    testApp,
    `select "status_code" from "webhook_delivery_attempts" where "delivery_id" = ? order by "attempt_number"`,
    [deliveryId],
  );
  expect(attempts.map((a) => a.status_code)).toEqual([500, 200]);
});

it('does not follow redirects: a 302 is a failed attempt and the target gets nothing', async () => {
  const elsewhere = new Receiver();
  await elsewhere.start();
  try {
    receiver.redirectTo = elsewhere.url;
    const { deliveryId } = await enqueue();
    await receiver.waitFor(1);
    await until(async () => (await recordedAttempts(deliveryId)) === 1);
    const [attempt] = await sql<{ status_code: number }>(
      testApp,
      `select "status_code" from "webhook_delivery_attempts" where "delivery_id" = ?`,
      [deliveryId],
    );
    expect(attempt.status_code).toBe(302);
    expect((await deliveryRow(deliveryId)).status).toBe('PENDING');
    expect(elsewhere.received).toHaveLength(0);
  } finally {
    await elsewhere.stop();
  }
});

it('stops at once on 410 Gone', async () => {
  receiver.status = 410;
  const { deliveryId } = await enqueue();
  await receiver.waitFor(1);
  await until(async () => (await deliveryRow(deliveryId)).status === 'FAILED');
  expect((await deliveryRow(deliveryId)).seconds_to_next).toBeNull();
});

it('fails the delivery after the last scheduled attempt', async () => {
  receiver.status = 503;
  const { deliveryId } = await enqueue();
  await receiver.waitFor(1);
  await until(async () => (await recordedAttempts(deliveryId)) === 1);
  await sql(
    testApp,
    `update "webhook_deliveries" set "attempt_count" = 7, "next_attempt_at" = (now() at time zone 'utc') where "id" = ?`,
    [deliveryId],
  );
  testApp.app.relay.nudge();
  await receiver.waitFor(2);
  await until(async () => (await deliveryRow(deliveryId)).status === 'FAILED');
  expect((await deliveryRow(deliveryId)).attempt_count).toBe(8);
});

it('records a network error and schedules a retry', async () => {
  const { deliveryId } = await enqueue();
  await receiver.waitFor(1);
  await until(async () => (await deliveryRow(deliveryId)).status === 'SUCCEEDED');
  await receiver.stop();
  await sql(
    testApp,
    `update "webhook_deliveries" set "status" = 'PENDING', "next_attempt_at" = (now() at time zone 'utc') where "id" = ?`,
    [deliveryId],
  );
  testApp.app.relay.nudge();
  await until(async () => (await recordedAttempts(deliveryId)) === 2);
  const [attempt] = await sql<{ status_code: number | null; error: string }>(
    testApp,
    `select "status_code", "error" from "webhook_delivery_attempts" where "delivery_id" = ? and "attempt_number" = 2`,
    [deliveryId],
  );
  expect(attempt.status_code).toBeNull();
  expect(attempt.error).toMatch(/ECONNREFUSED|fetch failed/);
  expect((await deliveryRow(deliveryId)).status).toBe('PENDING');
});

it('makes one POST for one attempt however often the attempt is handed over', async () => {
  await testApp.app.relay.stop();
  try {
    const { deliveryId } = await enqueue();
    const claim = { deliveryId, attemptsMade: 0 };
    await Promise.all([
      testApp.app.deliveries.attempt([claim]),
      testApp.app.deliveries.attempt([claim]),
      testApp.app.deliveries.attempt([claim]),
    ]);
    expect(receiver.received).toHaveLength(1);
    expect((await deliveryRow(deliveryId)).attempt_count).toBe(1);
  } finally {
    testApp.app.relay.start();
  }
});

it('attempts a claimed batch together and records each outcome on its own delivery', async () => {
  await testApp.app.relay.stop();
  const gone = new Receiver();
  await gone.start();
  gone.status = 410;
  try {
    const ok = await enqueue();
    const failing = await enqueue();
    await sql(testApp, `update "webhook_endpoints" set "url" = ? where "id" = ?`, [gone.url, failing.endpointId]);
    const retried = await enqueue();
    // The first receiver answers the batch's first POST with 200, and the later single attempt with 503.
    receiver.script = [200, 503];
    await testApp.app.deliveries.attempt([
      { deliveryId: ok.deliveryId, attemptsMade: 0 },
      { deliveryId: failing.deliveryId, attemptsMade: 0 },
    ]);
    await testApp.app.deliveries.attempt([{ deliveryId: retried.deliveryId, attemptsMade: 0 }]);
    expect(await deliveryRow(ok.deliveryId)).toMatchObject({
      status: 'SUCCEEDED',
      attempt_count: 1,
      seconds_to_next: null,
    });
    // 410 Gone: no retry.
    expect(await deliveryRow(failing.deliveryId)).toMatchObject({
      status: 'FAILED',
      attempt_count: 1,
      seconds_to_next: null,
    });
    const again = await deliveryRow(retried.deliveryId);
    expect(again).toMatchObject({ status: 'PENDING', attempt_count: 1 });
    expect(Number(again.seconds_to_next)).toBeGreaterThan(0);
    const attempts = await sql<{ delivery_id: number; attempt_number: number; status_code: number }>(
      testApp,
      `select "delivery_id", "attempt_number", "status_code" from "webhook_delivery_attempts" where "delivery_id" = any(?::int[]) order by "delivery_id"`,
      [`{${[ok.deliveryId, failing.deliveryId, retried.deliveryId].join(',')}}`],
    );
    expect(attempts).toEqual([
      { delivery_id: ok.deliveryId, attempt_number: 1, status_code: 200 },
      { delivery_id: failing.deliveryId, attempt_number: 1, status_code: 410 },
      { delivery_id: retried.deliveryId, attempt_number: 1, status_code: 503 },
    ]);
  } finally {
    receiver.script = [];
    await gone.stop();
    testApp.app.relay.start();
  }
});
