import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';

import { countOwnedRows } from '../support/hardening';
import { Receiver } from '../support/receiver';
import { MINIMAL, postSubscription } from '../support/subscriptions';
import { deliveriesSettled, graphql, signUp, startTestApp, type TestApp } from '../support/test-app';
import { freePort, until } from '../support/wait';

/**
 * Faults against real services: a Redis of the test's own (a redis-server process it stops and starts) and
 * the delivery worker as a process it kills. They need Redis, so they run in the PostgreSQL + Redis pass of
 * .ci/run and are reported as skipped on the embedded default, which needs nothing but Node.
 */
const withServers = process.env.REDIS_URL ? describe : describe.skip;
const root = path.resolve(__dirname, '../..');

async function startRedis(port: number): Promise<ChildProcess> {
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: 'ignore' },
  );
  for (const deadline = Date.now() + 10_000; ; await new Promise((r) => setTimeout(r, 50))) {
    const up = await new Promise<boolean>((resolve) => {
      const socket = createServer()
        .listen(port, '127.0.0.1', () => socket.close(() => resolve(false)))
        .on('error', () => resolve(true));
    });
    if (up) return child;
    if (Date.now() > deadline) throw new Error('redis-server did not start');
  }
}

function stop(child: ChildProcess, signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill(signal);
  });
}

withServers('delivery under faults', () => {
  let receiver: Receiver;
  beforeEach(async () => {
    receiver = new Receiver();
    await receiver.start();
  });
  afterEach(() => receiver.stop());

  it('keeps accepting writes while Redis is down and delivers every event once Redis is back, none twice', async () => {
    const port = await freePort();
    let redis = await startRedis(port);
    const testApp: TestApp = await startTestApp(
      { REDIS_URL: `redis://127.0.0.1:${port}`, WEBHOOK_ALLOW_PRIVATE: 'true' },
      { deliveryTiming: { leaseMs: 2_000 } },
    );
    try {
      const user = await signUp(testApp, 'Outage');
      const endpoint = await graphql(
        testApp,
        user.token,
        'mutation($input: CreateWebhookEndpointInput!) { createWebhookEndpoint(input: $input) { webhookEndpoint { id } userErrors { code } } }',
        {
          input: { url: receiver.url, events: [] },
        },
      );
      expect(endpoint.body.data.createWebhookEndpoint.userErrors).toEqual([]);
      // Redis goes away while writes are in flight and comes back while they go on.
      const writes = (async () => {
        for (let i = 0; i < 200; i++) {
          const response = await postSubscription(testApp, user.token, { ...MINIMAL, brand_id: `Outage ${i}` });
          expect(response.status).toBe(200);
        }
      })();
      await until(() => receiver.received.length >= 10, 'the first deliveries', 30_000);
      await stop(redis);
      await until(
        async () => (await countOwnedRows(testApp, 'subscriptions', user.id)) >= 100,
        'writes while Redis is down',
        60_000,
      );
      redis = await startRedis(port);
      await writes;
      await until(
        () => new Set(receiver.received.map((r) => r.headers['webhook-id'])).size >= 200,
        '200 distinct events',
        90_000,
      );
      await deliveriesSettled(testApp, 90_000);
      // Exactly once by webhook-id: every event arrived, none twice.
      const ids = receiver.received.map((request) => String(request.headers['webhook-id']));
      expect(new Set(ids).size).toBe(200);
      expect(ids).toHaveLength(200);
      const [pending] = await testApp.app.db.orm.em
        .getConnection()
        .execute<{ n: string }[]>(`select count(*) as "n" from "webhook_deliveries" where "status" <> 'SUCCEEDED'`);
      expect(pending.n).toBe('0');
    } finally {
      await testApp.close();
      await stop(redis);
    }
  }, 180_000);

  it('loses nothing when the worker is killed mid-delivery: the attempt is made again with the same webhook-id', async () => {
    const testApp = await startTestApp(
      { WEBHOOK_ALLOW_PRIVATE: 'true' },
      { inProcessWorker: false, deliveryTiming: { leaseMs: 2_000 } },
    );
    const workerEnv = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      LOG_LEVEL: 'warn',
      DATABASE_URL: testApp.database.url,
      REDIS_URL: testApp.config.redisUrl!,
      REDIS_PREFIX: testApp.config.redisPrefix,
      WEBHOOK_ALLOW_PRIVATE: 'true',
    };
    const startWorker = async () => {
      const port = await freePort();
      const child = spawn(process.execPath, ['dist/workers/main.js'], {
        cwd: root,
        env: { ...workerEnv, PORT: String(port) },
        stdio: 'ignore',
      });
      await until(
        () =>
          fetch(`http://127.0.0.1:${port}/readyz`).then(
            (r) => r.ok,
            () => false,
          ),
        'worker ready',
        30_000,
      );
      return child;
    };
    let worker = await startWorker();
    try {
      receiver.delayMs = 5_000;
      const user = await signUp(testApp, 'Killed');
      const endpoint = await graphql(
        testApp,
        user.token,
        'mutation($input: CreateWebhookEndpointInput!) { createWebhookEndpoint(input: $input) { webhookEndpoint { id } userErrors { code } } }',
        {
          input: { url: receiver.url, events: [] },
        },
      );
      expect(endpoint.body.data.createWebhookEndpoint.userErrors).toEqual([]);
      const created = await postSubscription(testApp, user.token, MINIMAL);
      expect(created.status).toBe(200);
      await receiver.waitFor(1, 20_000);
      await stop(worker);
      receiver.delayMs = 0;
      worker = await startWorker();
      await until(
        async () => {
          const [row] = await testApp.app.db.orm.em
            .getConnection()
            .execute<{ status: string }[]>('select "status" from "webhook_deliveries"');
          return row?.status === 'SUCCEEDED';
        },
        'the delivery to succeed',
        60_000,
      );
      // The POST the killed worker made arrived; the attempt made again carries the same webhook-id, so the
      // receiver can drop it. That is the one duplicate docs/webhooks.md allows: exactly two, one id.
      await deliveriesSettled(testApp);
      const ids = new Set(receiver.received.map((request) => request.headers['webhook-id']));
      expect(ids.size).toBe(1);
      expect(receiver.received).toHaveLength(2);
    } finally {
      await stop(worker);
      await testApp.close();
    }
  }, 120_000);
});
