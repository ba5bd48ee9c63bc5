import { randomBytes } from 'node:crypto';

import argon2 from 'argon2';

import { LoginThrottle } from '../../src/auth/login-throttle';
import { provisionDatabase } from '../support/database';
import { dropRedisPrefix } from '../support/redis-keys';
import { MINIMAL } from '../support/subscriptions';
import { graphql, signUp, sql, startTestApp, type TestApp, uniqueEmail } from '../support/test-app';

// Claims of docs/security.md, docs/operations.md and docs/webhooks.md (once the README's), each held to its word.

describe('passwords', () => {
  let testApp: TestApp;
  beforeAll(async () => {
    testApp = await startTestApp();
  });
  afterAll(() => testApp.close());

  it('are hashed with argon2id, 19 MiB, 2 passes, 1 lane', async () => {
    const user = await signUp(testApp);
    const [row] = await sql<{ password_hash: string }>(testApp, 'select "password_hash" from "users" where "id" = ?', [
      user.id,
    ]);
    expect(row.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,p=1,t=2\$/);
  });

  it('cost the same argon2 work for an unknown e-mail as for a wrong password', async () => {
    const user = await signUp(testApp);
    const verify = jest.spyOn(argon2, 'verify');
    try {
      const login = (email: string) =>
        testApp.http.post('/api/v1/auth/login').field('email', email).field('password', 'not the password');
      verify.mockClear();
      const wrong = await login(user.email);
      const wrongCalls = verify.mock.calls.length;
      verify.mockClear();
      const unknown = await login(uniqueEmail('nobody'));
      expect([wrong.status, unknown.status]).toEqual([401, 401]);
      expect(unknown.body).toEqual(wrong.body);
      expect([wrongCalls, verify.mock.calls.length]).toEqual([1, 1]);
    } finally {
      verify.mockRestore();
    }
  });
});

describe('login throttling', () => {
  it('slows failed answers after 5 failures, by 20 ms a failure up to 100 ms', async () => {
    jest.useFakeTimers();
    try {
      const throttle = new LoginThrottle({ redis: null, redisPrefix: 'x', reads: null as never });
      for (const [failures, delay] of [
        [5, 0],
        [6, 20],
        [8, 60],
        [30, 100],
      ] as const) {
        let done = false;
        const waiting = throttle.failed(failures).then(() => (done = true));
        await jest.advanceTimersByTimeAsync(Math.max(0, delay - 1));
        if (delay > 0) expect([failures, done]).toEqual([failures, false]);
        await jest.advanceTimersByTimeAsync(1);
        await waiting;
        expect([failures, done]).toEqual([failures, true]);
      }
    } finally {
      jest.useRealTimers();
    }
  });

  it('refuses an address after 100 failures within a minute, whatever e-mails it tries', async () => {
    const testApp = await startTestApp({ RATE_LIMIT_PER_MINUTE: '0' });
    try {
      const statuses: number[] = [];
      for (let batch = 0; batch < 10; batch++) {
        const answers = await Promise.all(
          Array.from({ length: 10 }, () =>
            testApp.http.post('/api/v1/auth/login').field('email', uniqueEmail('spray')).field('password', 'guess'),
          ),
        );
        statuses.push(...answers.map((answer) => answer.status));
      }
      expect(statuses).toEqual(Array(100).fill(401));
      const refused = await testApp.http
        .post('/api/v1/auth/login')
        .field('email', uniqueEmail('spray'))
        .field('password', 'guess');
      expect(refused.status).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    } finally {
      await testApp.close();
    }
  });

  it('survives a restart (the count lives in the database, or in Redis)', async () => {
    const database = await provisionDatabase();
    const env = { REDIS_PREFIX: `subledger-test-${randomBytes(4).toString('hex')}` };
    try {
      const first = await startTestApp(env, {}, database);
      const user = await signUp(first);
      for (let attempt = 0; attempt < 29; attempt++) {
        expect(
          (await first.http.post('/api/v1/auth/login').field('email', user.email).field('password', `wrong ${attempt}`))
            .status,
        ).toBe(401);
      }
      await first.close();
      const second = await startTestApp(env, {}, database);
      try {
        expect(
          (await second.http.post('/api/v1/auth/login').field('email', user.email).field('password', user.password))
            .status,
        ).toBe(429);
      } finally {
        await second.close();
      }
    } finally {
      await database.drop();
      await dropRedisPrefix(process.env.REDIS_URL, env.REDIS_PREFIX);
    }
  });
});

describe('operations and idempotency', () => {
  it('/readyz answers 503 when the database does not', async () => {
    const database = await provisionDatabase();
    const testApp = await startTestApp({}, {}, database);
    try {
      expect((await testApp.http.get('/readyz')).status).toBe(200);
      await database.drop();
      const down = await testApp.http.get('/readyz');
      expect(down.status).toBe(503);
      expect(down.body).toMatchObject({ status: 'unavailable', database: 'unreachable' });
    } finally {
      await testApp.close().catch(() => undefined);
    }
  });

  it('an Idempotency-Key is free again after 48 hours', async () => {
    const testApp = await startTestApp();
    try {
      const user = await signUp(testApp);
      const token = (
        await graphql(testApp, user.token, 'mutation { createInboundWebhookToken(input: {kind: CREATE}) { token } }')
      ).body.data.createInboundWebhookToken.token;
      const send = () =>
        testApp.http
          .post(`/webhook/user/data/${token}`)
          .set('content-type', 'application/json')
          .set('idempotency-key', 'aging')
          .set('x-subledger-webhook-topic', 'subscription.created')
          .send(MINIMAL);
      const first = await send();
      expect((await send()).body.subscription.id).toBe(first.body.subscription.id);
      await sql(testApp, `update "inbound_idempotency_keys" set "created_at" = "created_at" - interval '47 hours'`);
      expect((await send()).body.subscription.id).toBe(first.body.subscription.id);
      await sql(testApp, `update "inbound_idempotency_keys" set "created_at" = "created_at" - interval '2 hours'`);
      const later = await send();
      expect(later.status).toBe(200);
      expect(later.body.subscription.id).not.toBe(first.body.subscription.id);
    } finally {
      await testApp.close();
    }
  });
});
