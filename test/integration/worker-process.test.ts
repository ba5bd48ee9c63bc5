import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';

import { Client } from 'pg';

import { createDeliveryQueue } from '../../src/webhooks/delivery-queue';
import { newEndpointSecret } from '../../src/webhooks/signature';
import { provisionDatabase } from '../support/database';
import { Receiver } from '../support/receiver';
import { dropRedisPrefix } from '../support/redis-keys';
import { freePort } from '../support/wait';

/** `npm run worker`: the built worker process on its own, as docker-compose runs it. */
const root = path.resolve(__dirname, '../..');
const baseEnv = { PATH: process.env.PATH, HOME: process.env.HOME, LOG_LEVEL: 'warn' };

it('refuses to run without a database server and Redis, saying why', () => {
  const result = spawnSync(process.execPath, ['dist/workers/main.js'], { cwd: root, env: baseEnv, encoding: 'utf8' });
  expect(result.status).toBe(1);
  expect(result.stderr).toContain('npm run worker needs REDIS_URL and DATABASE_URL');
});

// The worker process takes its jobs from Redis: this case runs in the PostgreSQL + Redis pass (.ci/run runs
// both passes) and is reported as skipped on the embedded default, which needs nothing but Node.
const withServers = process.env.REDIS_URL ? it : it.skip;

withServers('delivers queued attempts, answers health checks and drains on SIGTERM', async () => {
  const database = await provisionDatabase();
  const receiver = new Receiver();
  await receiver.start();
  const prefix = `subledger-test-${randomBytes(4).toString('hex')}`;
  const port = await freePort();
  const child = spawn(process.execPath, ['dist/workers/main.js'], {
    cwd: root,
    env: {
      ...baseEnv,
      DATABASE_URL: database.url,
      REDIS_URL: process.env.REDIS_URL,
      REDIS_PREFIX: prefix,
      PORT: String(port),
      WEBHOOK_ALLOW_PRIVATE: 'true',
    },
    stdio: 'ignore',
  });
  const queue = createDeliveryQueue(process.env.REDIS_URL!, prefix);
  const client = new Client({ connectionString: database.url });
  try {
    const deadline = Date.now() + 30_000;
    while (
      !(await fetch(`http://127.0.0.1:${port}/readyz`).then(
        (r) => r.ok,
        () => false,
      ))
    ) {
      if (Date.now() > deadline) throw new Error('worker not ready within 30 s');
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    await client.connect();
    const user = await client.query(
      `insert into "users" ("email", "password_hash", "name") values ('w@example.com', 'x', 'W') returning "id"`,
    );
    const endpoint = await client.query(
      `insert into "webhook_endpoints" ("user_id", "url", "secret") values ($1, $2, $3) returning "id"`,
      [user.rows[0].id, receiver.url, newEndpointSecret()],
    );
    await client.query(
      `insert into "webhook_events" ("id", "user_id", "topic", "payload") values ('evt_worker', $1, 'subscription.created', '{"id":1}')`,
      [user.rows[0].id],
    );
    const delivery = await client.query(
      `insert into "webhook_deliveries" ("event_id", "endpoint_id") values ('evt_worker', $1) returning "id"`,
      [endpoint.rows[0].id],
    );
    await queue.add('attempts', [{ deliveryId: delivery.rows[0].id, attemptsMade: 0 }]);

    const [request] = await receiver.waitFor(1);
    expect(request.headers['webhook-id']).toBe('evt_worker');
    const exit = new Promise<number | null>((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    expect(await exit).toBe(0);
  } finally {
    child.kill('SIGKILL');
    await client.end().catch(() => undefined);
    await queue.close();
    await receiver.stop();
    await database.drop();
    await dropRedisPrefix(process.env.REDIS_URL, prefix);
  }
});
