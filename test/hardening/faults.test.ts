import { spawnSync } from 'node:child_process';
import { createServer, type Server } from 'node:http';

import { Client } from 'pg';

import { rowCounts } from '../support/hardening';
import { createSubscription, MINIMAL, postSubscription } from '../support/subscriptions';
import { graphqlData, signUp, sql, startTestApp, type TestApp } from '../support/test-app';
import { freePort, until } from '../support/wait';

/**
 * Faults against the real services: a PostgreSQL connection killed in the middle of a write, and a webhook
 * receiver that is down for a while. (Redis stopped and restarted, and the worker killed with SIGKILL
 * mid-delivery, are in webhook-faults.test.ts.) Both CI passes run on a real PostgreSQL server (the embedded one
 * or DATABASE_URL), whose connections can be killed.
 */
describe('PostgreSQL connection killed during a write', () => {
  let testApp: TestApp;
  let admin: Client;
  let armed = false;
  let killing: Promise<unknown> | null = null;

  beforeAll(async () => {
    testApp = await startTestApp(
      {},
      {
        // The record's insert has run inside the write's transaction: kill every connection of the app now,
        // while its event insert is held up by the trigger below.
        onQuery: (statement) => {
          if (armed && statement.includes('insert into "subscriptions"')) {
            armed = false;
            killing = admin.query(
              `select pg_terminate_backend("pid") from pg_stat_activity where "datname" = current_database() and "pid" <> pg_backend_pid()`,
            );
          }
        },
      },
    );
    admin = new Client({ connectionString: testApp.database.url });
    await admin.connect();
    await admin.query(
      `create function "hold_event_insert"() returns trigger language plpgsql as $$ begin perform pg_sleep(1); return new; end $$`,
    );
    await admin.query(
      `create trigger "hold_event_insert" before insert on "webhook_events" for each row execute function "hold_event_insert"()`,
    );
  });

  afterAll(async () => {
    await admin.end();
    await testApp.close();
  });

  it('fails the request with a 503 JSON error, stores no part of it, and serves the next request', async () => {
    const user = await signUp(testApp, 'Cut off');
    const before = await rowCounts(testApp);
    armed = true;
    const cut = await postSubscription(testApp, user.token, { ...MINIMAL, note: 'cut off' });
    await killing;
    expect(cut.status).toBe(503);
    expect(cut.body).toEqual({ status: false, message: expect.stringMatching(/connection was lost/) });
    // Counted on the test's own connection: the cut killed the app's idle pooled ones too, and which of them
    // the pool has noticed yet is a matter of timing (the next request below shows it recovers).
    expect(await rowCounts(testApp, admin)).toEqual(before);
    expect((await admin.query(`select 1 from "subscriptions" where "note" = 'cut off'`)).rows).toEqual([]);
    await admin.query(`drop trigger "hold_event_insert" on "webhook_events"`);
    // The pool drops the dead connections and the service goes on.
    const next = await postSubscription(testApp, user.token, { ...MINIMAL, note: 'after the cut' });
    expect(next.status).toBe(200);
    expect((await testApp.http.get('/readyz')).status).toBe(200);
  });
});

/**
 * Ends the server process of every other connection to the database, and returns once they are gone, how many
 * it ended; synchronously (in a child node), so that the app reads nothing from its sockets meanwhile and its
 * pool still holds those connections as live.
 */
function endOtherConnectionsSync(url: string): number {
  const script = `
    const { Client } = require('pg');
    const others = \`from pg_stat_activity where "datname" = current_database() and "pid" <> pg_backend_pid() and "backend_type" = 'client backend'\`;
    (async () => {
      const client = new Client({ connectionString: process.argv[1] });
      await client.connect();
      const { rows } = await client.query(\`select pg_terminate_backend("pid") \${others}\`);
      while ((await client.query(\`select 1 \${others}\`)).rows.length > 0) await new Promise((resolve) => setTimeout(resolve, 10));
      await client.end();
      process.stdout.write(String(rows.length));
    })();`;
  const ended = spawnSync(process.execPath, ['-e', script, url], { encoding: 'utf8' });
  if (ended.status !== 0) throw new Error(`ending the connections failed: ${ended.stderr}`);
  return Number(ended.stdout);
}

describe('pooled connections whose server processes ended (PostgreSQL restarted)', () => {
  let testApp: TestApp;
  let armed = false;
  let ended = 0;

  beforeAll(async () => {
    testApp = await startTestApp(
      {},
      {
        onQuery: (statement) => {
          if (armed && statement.includes('from "subscriptions"')) {
            armed = false;
            ended = endOtherConnectionsSync(testApp.database.url);
          }
        },
      },
    );
  });

  afterAll(() => testApp.close());

  it('sends a read once more, on another connection: the list is answered, not refused', async () => {
    const user = await signUp(testApp, 'After a restart');
    const created = await createSubscription(testApp, user.token, { note: 'still here' });
    armed = true;
    const list = await testApp.http.get('/api/v1/subscriptions').set('authorization', `Bearer ${user.token}`);
    expect(ended).toBeGreaterThan(0);
    expect(list.status).toBe(200);
    expect(list.body).toEqual([expect.objectContaining({ id: created.id, note: 'still here' })]);
  });
});

describe('webhook receiver down for a while', () => {
  let testApp: TestApp;
  let port: number;
  let receiver: Server | null = null;
  const arrived: string[] = [];

  const startReceiver = () =>
    new Promise<void>((resolve) => {
      receiver = createServer((req, res) => {
        arrived.push(String(req.headers['webhook-id']));
        req.resume();
        res.writeHead(200).end();
      });
      receiver.listen(port, '127.0.0.1', resolve);
    });

  beforeAll(async () => {
    testApp = await startTestApp({ WEBHOOK_ALLOW_PRIVATE: 'true' });
    port = await freePort();
  });

  afterAll(async () => {
    await new Promise((resolve) => (receiver ? receiver.close(resolve) : resolve(undefined)));
    await testApp.close();
  });

  it('fails the attempt while it is down and delivers on the next scheduled attempt, once', async () => {
    const user = await signUp(testApp, 'Receiver down');
    await graphqlData(
      testApp,
      user.token,
      `mutation { createWebhookEndpoint(input: {url: "http://127.0.0.1:${port}/hook", events: [SUBSCRIPTION_CREATED]}) { webhookEndpoint { id } } }`,
    );
    await createSubscription(testApp, user.token);
    const delivery = async () =>
      (
        await sql<{
          id: number;
          status: string;
          attempt_count: number;
          event_id: string;
          next_attempt_at: string | null;
          failed_at: string | null;
        }>(
          testApp,
          `select d."id", d."status", d."attempt_count", d."event_id", d."next_attempt_at", (select max(a."created_at") from "webhook_delivery_attempts" a where a."delivery_id" = d."id") as "failed_at"
           from "webhook_deliveries" d join "webhook_events" e on e."id" = d."event_id" where e."user_id" = ?`,
          [user.id],
        )
      )[0];
    // attempt_count counts the claim, before the POST; the attempt's row is written once the POST failed.
    await until(async () => Boolean((await delivery())?.failed_at), 'the first attempt, refused and recorded', 10_000);
    const [attempt] = await sql<{ status_code: number | null; error: string | null }>(
      testApp,
      `select "status_code", "error" from "webhook_delivery_attempts"`,
    );
    expect(attempt.status_code).toBeNull();
    expect(attempt.error).toMatch(/ECONNREFUSED|connect/i);
    const failed = await delivery();
    expect(failed.status).toBe('PENDING');
    // On schedule: the second attempt is due 5 s after the first.
    const gap =
      Date.parse(`${failed.next_attempt_at!.replace(' ', 'T')}Z`) -
      Date.parse(`${failed.failed_at!.replace(' ', 'T')}Z`);
    expect(gap).toBeGreaterThanOrEqual(4_500);
    expect(gap).toBeLessThanOrEqual(6_000);
    await startReceiver();
    await until(async () => (await delivery()).status === 'SUCCEEDED', 'delivery after the receiver came back', 20_000);
    expect(arrived).toEqual([failed.event_id]);
    expect((await delivery()).attempt_count).toBe(2);
  }, 40_000);
});
