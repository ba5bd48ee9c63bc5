import { type Client, createClient } from 'graphql-ws';
import { Client as PgClient } from 'pg';
import WebSocket from 'ws';

import { addDays } from '../../src/platform/dates';
import { type LiveBus, type LiveEvent, PgLiveBus, RedisLiveBus } from '../../src/platform/live-events';
import { createLogger } from '../../src/platform/logger';
import { createRedis } from '../../src/platform/ops/redis';
import { Receiver } from '../support/receiver';
import { type ServiceProcess, startService, stopService } from '../support/service-process';
import { createSubscription, globalId, MINIMAL, recordId } from '../support/subscriptions';
import { graphqlData, type SignedUpUser, signUp, sql, startTestApp, type TestApp } from '../support/test-app';
import { daysFromToday } from '../support/test-clock';
import { freePort, until } from '../support/wait';

/**
 * Issue 46, live updates: GraphQL subscriptions over WebSocket (graphql-transport-ws) on /graphql, fed by the
 * database's notifications of committed changes, through Redis pub/sub with REDIS_URL and LISTEN/NOTIFY
 * without it, scoped to what each subscriber may read.
 */
let now: Date | null = null;
let testApp: TestApp;
let other: ServiceProcess;
const receiver = new Receiver();
const silent = createLogger({ logLevel: 'silent' });

beforeAll(async () => {
  await receiver.start();
  testApp = await startTestApp({ WEBHOOK_ALLOW_PRIVATE: 'true' }, { clock: () => now ?? new Date() });
  // A second API process on the same database (and Redis prefix): changes made there reach subscribers here.
  other = await startService(
    {
      DATABASE_URL: testApp.database.url,
      ...(testApp.config.redisUrl
        ? { REDIS_URL: testApp.config.redisUrl, REDIS_PREFIX: testApp.config.redisPrefix }
        : {}),
      WEB_CONCURRENCY: '1',
      RATES_REFRESH: 'off',
      // With Redis its worker takes deliveries too, to the test's loopback receiver.
      WEBHOOK_ALLOW_PRIVATE: 'true',
    },
    await freePort(),
  );
});
afterAll(async () => {
  await stopService(other);
  await testApp.close();
  await receiver.stop();
});

const wsUrl = (baseUrl: string) => `${baseUrl.replace(/^http/, 'ws')}/graphql`;

function liveClient(connectionParams: Record<string, unknown> | undefined, closed?: (code: number) => void): Client {
  return createClient({
    url: wsUrl(testApp.baseUrl),
    webSocketImpl: WebSocket,
    connectionParams,
    retryAttempts: 0,
    shouldRetry: () => false,
    on: { closed: (event) => closed?.((event as { code: number }).code) },
  });
}

interface Feed<T> {
  events: T[];
  errors: unknown[];
  stop(): void;
}

/** Subscribes and collects what arrives. */
function subscribe<T>(client: Client, query: string): Feed<T> {
  const feed: Feed<T> = { events: [], errors: [], stop: () => undefined };
  feed.stop = client.subscribe<Record<string, T>>(
    { query },
    {
      next: (result) => {
        if (result.errors) feed.errors.push(result.errors);
        else feed.events.push(Object.values(result.data!)[0]);
      },
      error: (error) => feed.errors.push(error),
      complete: () => undefined,
    },
  );
  return feed;
}

const RECORD_CHANGED = `subscription { recordChanged { kind recordId record { id legacyId productName price { amount currency } status } } }`;
interface RecordChange {
  kind: string;
  recordId: string;
  record: {
    id: string;
    legacyId: number;
    productName: string;
    price: { amount: string; currency: string };
    status: string;
  } | null;
}
/** A record as recordChanged answers it. */
const changedRecord = (id: number, amount: string, currency = 'USD') => ({
  id: recordId(id),
  legacyId: id,
  productName: 'Netflix Standard',
  price: { amount, currency },
  status: 'ACTIVE',
});

/**
 * Waits until the subscription is live: touches the user's probe record (an update) until its change arrives,
 * so nothing a test does afterwards can come before the server listens.
 */
let touches = 0;

async function live(feed: Feed<RecordChange>, app: TestApp, token: string, probe: number): Promise<void> {
  await until(async () => {
    if (feed.events.some((event) => event.recordId === recordId(probe))) return true;
    const price = `${10 + (++touches % 80)}.00`;
    const touched = await app.http
      .put(`/api/v1/subscriptions/${probe}`)
      .set('authorization', `Bearer ${token}`)
      .type('form')
      .send({ price });
    if (touched.status !== 200) throw new Error(`the probe failed: ${JSON.stringify(touched.body)}`);
    if (feed.errors.length > 0) throw new Error(`the subscription failed: ${JSON.stringify(feed.errors)}`);
    return false;
  }, 'the subscription to be live');
  await until(() => feed.events.length > 0, 'the probe');
}

/** REST on the other process, as a client calls it. */
async function rest(method: string, path: string, token: string, body?: FormData | URLSearchParams) {
  const response = await fetch(`${other.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
    body,
  });
  const json = (await response.json()) as Record<string, unknown>;
  if (response.status !== 200) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(json)}`);
  return json;
}

describe('recordChanged', () => {
  let ann: SignedUpUser;
  let bob: SignedUpUser;
  let annProbe: number;
  let bobProbe: number;

  beforeAll(async () => {
    ann = await signUp(testApp, 'Ann Live');
    bob = await signUp(testApp, 'Bob Live');
    annProbe = Number((await createSubscription(testApp, ann.token)).id);
    bobProbe = Number((await createSubscription(testApp, bob.token)).id);
  });

  it('sees a record created, updated and deleted through REST in another process within a second', async () => {
    const client = liveClient({ authorization: `Bearer ${ann.token}` });
    const feed = subscribe<RecordChange>(client, RECORD_CHANGED);
    try {
      await live(feed, testApp, ann.token, annProbe);
      feed.events.length = 0;

      const form = new FormData();
      for (const [name, value] of Object.entries({ ...MINIMAL, price: '7.25' })) form.append(name, value);
      let sent = Date.now();
      const created = (await rest('POST', '/api/v1/subscriptions', ann.token, form)).subscription as { id: number };
      await until(() => feed.events.length === 1, 'the created record', 1_000);
      expect(Date.now() - sent).toBeLessThan(1_000);
      const [createdEvent] = feed.events;
      expect(createdEvent.kind).toBe('CREATED');
      expect(createdEvent.recordId).toBe(recordId(created.id));
      expect(typeof createdEvent.recordId).toBe('string');
      expect(createdEvent.record).toEqual(changedRecord(created.id, '7.25'));

      sent = Date.now();
      await rest(
        'PUT',
        `/api/v1/subscriptions/${created.id}`,
        ann.token,
        new URLSearchParams({ price: '8.50', currency_code: 'EUR' }),
      );
      await until(() => feed.events.length === 2, 'the updated record', 1_000);
      expect(Date.now() - sent).toBeLessThan(1_000);
      expect(feed.events[1]).toEqual({
        kind: 'UPDATED',
        recordId: recordId(created.id),
        record: changedRecord(created.id, '8.50', 'EUR'),
      });

      sent = Date.now();
      await rest('DELETE', `/api/v1/subscriptions/${created.id}`, ann.token);
      await until(() => feed.events.length === 3, 'the deleted record', 1_000);
      expect(Date.now() - sent).toBeLessThan(1_000);
      expect(feed.events[2]).toEqual({ kind: 'DELETED', recordId: recordId(created.id), record: null });
      expect(feed.errors).toEqual([]);
    } finally {
      feed.stop();
      await client.dispose();
    }
  });

  it("never sees another user's record changes", async () => {
    const annClient = liveClient({ Authorization: `Bearer ${ann.token}` });
    const bobClient = liveClient({ token: bob.token });
    const annFeed = subscribe<RecordChange>(annClient, RECORD_CHANGED);
    const bobFeed = subscribe<RecordChange>(bobClient, RECORD_CHANGED);
    try {
      await live(annFeed, testApp, ann.token, annProbe);
      await live(bobFeed, testApp, bob.token, bobProbe);
      annFeed.events.length = 0;
      bobFeed.events.length = 0;
      // Bob's changes, in the other process, while Ann listens: Bob hears them, so they were on the bus.
      const form = new FormData();
      for (const [name, value] of Object.entries(MINIMAL)) form.append(name, value);
      const bobs = (await rest('POST', '/api/v1/subscriptions', bob.token, form)).subscription as { id: number };
      await rest('PUT', `/api/v1/subscriptions/${bobs.id}`, bob.token, new URLSearchParams({ price: '1.00' }));
      await rest('DELETE', `/api/v1/subscriptions/${bobs.id}`, bob.token);
      await until(() => bobFeed.events.length === 3, "Bob's three changes");
      expect(bobFeed.events.map((event) => [event.kind, event.recordId])).toEqual([
        ['CREATED', recordId(bobs.id)],
        ['UPDATED', recordId(bobs.id)],
        ['DELETED', recordId(bobs.id)],
      ]);
      // Then Ann's own change: it arrives, and nothing of Bob's came before it.
      await rest('PUT', `/api/v1/subscriptions/${annProbe}`, ann.token, new URLSearchParams({ price: '3.00' }));
      await until(() => annFeed.events.length >= 1, "Ann's change");
      expect(annFeed.events.map((event) => [event.kind, event.recordId])).toEqual([['UPDATED', recordId(annProbe)]]);
      expect(bobFeed.events.some((event) => event.recordId === recordId(annProbe))).toBe(false);
    } finally {
      annFeed.stop();
      bobFeed.stop();
      await Promise.all([annClient.dispose(), bobClient.dispose()]);
    }
  });

  it("shows a household member the changes of a record shared with them, and not the owner's others", async () => {
    const owner = await signUp(testApp, 'Olga Owner');
    const member = await signUp(testApp, 'Max Member');
    const memberProbe = Number((await createSubscription(testApp, member.token)).id);
    const ownerMember = (
      await graphqlData(
        testApp,
        owner.token,
        'mutation { createHousehold(input: { name: "Home" }) { household { viewerMember { id } } userErrors { code } } }',
      )
    ).createHousehold.household.viewerMember.id as string;
    const invited = (
      await graphqlData(
        testApp,
        owner.token,
        'mutation($input: AddHouseholdMemberInput!) { addHouseholdMember(input: $input) { householdMember { id } invitationCode userErrors { code } } }',
        { input: { name: 'Max', email: member.email } },
      )
    ).addHouseholdMember;
    expect(invited.userErrors).toEqual([]);
    const joined = await graphqlData(
      testApp,
      member.token,
      'mutation($code: String!) { joinHousehold(input: { code: $code }) { household { id } userErrors { code } } }',
      { code: invited.invitationCode },
    );
    expect(joined.joinHousehold.userErrors).toEqual([]);
    const shared = Number((await createSubscription(testApp, owner.token, { price: '20.00' })).id);
    const unshared = Number((await createSubscription(testApp, owner.token)).id);
    const { shareSubscription } = await graphqlData(
      testApp,
      owner.token,
      'mutation($input: ShareSubscriptionInput!) { shareSubscription(input: $input) { subscription { id } userErrors { code } } }',
      {
        input: {
          id: recordId(shared),
          payerMemberId: ownerMember,
          mode: 'EQUAL',
          shares: [{ memberId: ownerMember }, { memberId: invited.householdMember.id }],
        },
      },
    );
    expect(shareSubscription).toEqual({ subscription: { id: recordId(shared) }, userErrors: [] });

    const client = liveClient({ authorization: `Bearer ${member.token}` });
    const feed = subscribe<RecordChange>(client, RECORD_CHANGED);
    try {
      await live(feed, testApp, member.token, memberProbe);
      feed.events.length = 0;
      await rest('PUT', `/api/v1/subscriptions/${unshared}`, owner.token, new URLSearchParams({ price: '2.00' }));
      await rest('PUT', `/api/v1/subscriptions/${shared}`, owner.token, new URLSearchParams({ price: '22.00' }));
      await until(() => feed.events.length >= 1, 'the shared record');
      expect(feed.events).toEqual([
        {
          kind: 'UPDATED',
          recordId: recordId(shared),
          record: changedRecord(shared, '22.00'),
        },
      ]);
    } finally {
      feed.stop();
      await client.dispose();
    }
  });
});

describe('connections', () => {
  it.each([
    ['no token', undefined],
    ['an empty init payload', {}],
    ['a bad token', { authorization: 'Bearer 1|not-a-valid-token-at-all-0123456789abcdef' }],
    ['a bad token field', { token: 'nonsense' }],
  ])('refuses %s with 4403 Forbidden', async (_label, params) => {
    let code: number | null = null;
    const client = liveClient(params, (closed) => (code = closed));
    const feed = subscribe(client, RECORD_CHANGED);
    try {
      await until(() => code !== null, 'the close');
      expect(code).toBe(4403);
      expect(feed.events).toEqual([]);
    } finally {
      await client.dispose();
    }
  });

  it('takes subscriptions only, validated with the limits of HTTP', async () => {
    const user = await signUp(testApp, 'Val Idate');
    const client = liveClient({ authorization: `Bearer ${user.token}` });
    try {
      const query = subscribe(client, '{ me { id } }');
      const deep = subscribe(
        client,
        'subscription { recordChanged { record { sharing { shares { memberId } } } a: recordId b: recordId c: recordId d: recordId e: recordId f: recordId g: recordId h: recordId i: recordId j: recordId k: recordId l: recordId m: recordId n: recordId o: recordId p: recordId } }',
      );
      await until(() => query.errors.length > 0 && deep.errors.length > 0, 'both refusals');
      expect(JSON.stringify(query.errors)).toContain('Only subscriptions are served over WebSocket');
      expect(JSON.stringify(deep.errors)).toMatch(/alias/i);
    } finally {
      await client.dispose();
    }
  });
});

describe('deliveries, reminders and budgets', () => {
  let user: SignedUpUser;
  let client: Client;

  beforeAll(async () => {
    user = await signUp(testApp, 'Del Ivery');
    client = liveClient({ authorization: `Bearer ${user.token}` });
  });
  afterAll(async () => {
    now = null;
    await client.dispose();
  });

  it('deliveryChanged: a new delivery, then its success', async () => {
    const probe = Number((await createSubscription(testApp, user.token)).id);
    const records = subscribe<RecordChange>(client, RECORD_CHANGED);
    const feed = subscribe<{
      deliveryId: string;
      status: string;
      delivery: {
        id: string;
        legacyId: number;
        topic: string;
        status: string;
        attempts: Array<{ statusCode: number | null }>;
      } | null;
    }>(
      client,
      'subscription { deliveryChanged { deliveryId status delivery { id legacyId topic status attempts { statusCode } } } }',
    );
    try {
      await live(records, testApp, user.token, probe);
      const { createWebhookEndpoint } = await graphqlData(
        testApp,
        user.token,
        `mutation { createWebhookEndpoint(input: {url: "${receiver.url}", events: [SUBSCRIPTION_CREATED]}) { webhookEndpoint { id } userErrors { code } } }`,
      );
      expect(createWebhookEndpoint.userErrors).toEqual([]);
      await createSubscription(testApp, user.token);
      await until(() => feed.events.some((event) => event.status === 'SUCCEEDED'), 'the delivery to succeed');
      const pending = feed.events.find((event) => event.status === 'PENDING')!;
      const succeeded = feed.events.find((event) => event.status === 'SUCCEEDED')!;
      expect(typeof pending.deliveryId).toBe('string');
      expect(succeeded.deliveryId).toBe(pending.deliveryId);
      expect(succeeded.delivery).toEqual({
        id: pending.deliveryId,
        legacyId: expect.any(Number),
        topic: 'SUBSCRIPTION_CREATED',
        status: 'SUCCEEDED',
        attempts: [{ statusCode: 200 }],
      });
      expect(feed.errors).toEqual([]);
    } finally {
      records.stop();
      feed.stop();
    }
  });

  it('reminderFired: a payment reminder, when the clock reaches it', async () => {
    const feed = subscribe<{
      kind: string;
      recordId: string;
      date: string;
      alertId: string;
      record: { id: string } | null;
    }>(client, 'subscription { reminderFired { kind recordId date alertId record { id } } }');
    try {
      const alertId = (
        await graphqlData(
          testApp,
          user.token,
          'mutation { createAlert(input: {name: "Due", timePeriod: 2, time: "09:00", timezone: "UTC", channel: WEBHOOK}) { alert { legacyId } } }',
        )
      ).createAlert.alert.legacyId as number;
      const payment = daysFromToday(10);
      const record = Number(
        (await createSubscription(testApp, user.token, { payment_date: payment, alert_id: String(alertId) })).id,
      );
      const { reminders } = await graphqlData(
        testApp,
        user.token,
        'query($from: DateTime!, $to: DateTime!) { reminders(from: $from, to: $to) { nodes { subscriptionId fireAt } } }',
        { from: new Date().toISOString(), to: new Date(Date.now() + 30 * 86_400_000).toISOString() },
      );
      const { fireAt } = (reminders.nodes as Array<{ subscriptionId: string; fireAt: string }>).find(
        (reminder) => reminder.subscriptionId === recordId(record),
      )!;
      expect(fireAt.slice(0, 10)).toBe(addDays(payment, -2));
      now = new Date(fireAt);
      testApp.app.reminderRelay.nudge();
      await until(() => feed.events.length > 0, 'the reminder');
      expect(feed.events).toEqual([
        {
          kind: 'PAYMENT_DUE',
          recordId: recordId(record),
          date: payment,
          alertId: globalId('Alert', alertId),
          record: { id: recordId(record) },
        },
      ]);
    } finally {
      now = null;
      feed.stop();
    }
  });

  it("budgetExceeded: next month's plan over a budget", async () => {
    const feed = subscribe<Record<string, unknown>>(
      client,
      'subscription { budgetExceeded { budgetId categoryId categoryName month amount { amount currency } planned { amount currency } overBy { amount currency } } }',
    );
    const probe = Number((await createSubscription(testApp, user.token, { price: '60.00' })).id);
    const records = subscribe<RecordChange>(client, RECORD_CHANGED);
    try {
      await live(records, testApp, user.token, probe);
      const alertId = (
        await graphqlData(
          testApp,
          user.token,
          'mutation { createAlert(input: {name: "Budget", timePeriod: 1, time: "09:00", timezone: "UTC", channel: ALL, contact: "b@example.com"}) { alert { id } } }',
        )
      ).createAlert.alert.id as string;
      // Every record of the user plans a payment next month: the plan is over 50.00 by the rest.
      const budgetId = (
        await graphqlData(
          testApp,
          user.token,
          'mutation($input: SetBudgetInput!) { setBudget(input: $input) { budget { legacyId } userErrors { code } } }',
          { input: { amount: '50.00', alertId } },
        )
      ).setBudget.budget.legacyId as number;
      await until(
        async () => (await testApp.app.services.budgetWarnings.sweep()) >= 0 && feed.events.length > 0,
        'the warning',
      );
      const [warning] = feed.events;
      const decimal = expect.stringMatching(/^\d+\.\d{2}$/);
      expect(warning).toEqual({
        budgetId: globalId('Budget', budgetId),
        categoryId: null,
        categoryName: null,
        month: expect.stringMatching(/^\d{4}-\d{2}$/),
        amount: { amount: '50.00', currency: 'USD' },
        planned: { amount: decimal, currency: 'USD' },
        overBy: { amount: decimal, currency: 'USD' },
      });
      const amounts = warning as Record<'planned' | 'overBy', { amount: string }>;
      expect(Number(amounts.planned.amount) - 50).toBeCloseTo(Number(amounts.overBy.amount), 2);
      expect(Number(amounts.planned.amount)).toBeGreaterThanOrEqual(60);
    } finally {
      records.stop();
      feed.stop();
    }
  });
});

describe('the buses', () => {
  const announce = (topic: string, id: string, userId: number) =>
    sql(testApp, `insert into "webhook_events" ("id", "user_id", "topic", "payload") values (?, ?, ?, '{}')`, [
      id,
      userId,
      topic,
    ]);

  async function heard(bus: LiveBus, action: () => Promise<void>, wanted: (events: LiveEvent[]) => boolean) {
    const events: LiveEvent[] = [];
    const stop = bus.subscribe((event) => events.push(event));
    try {
      await action();
      await until(() => wanted(events), 'the events');
      return events;
    } finally {
      stop();
    }
  }

  it('LISTEN/NOTIFY: hears committed events only, with their ids', async () => {
    const user = await signUp(testApp, 'Pg Bus');
    const bus = new PgLiveBus(testApp.database.url, silent);
    await bus.start();
    try {
      const events = await heard(
        bus,
        async () => {
          // A rolled-back insert is never announced; the committed one after it is.
          const client = new PgClient({ connectionString: testApp.database.url });
          await client.connect();
          try {
            await client.query('begin');
            await client.query(
              `insert into "webhook_events" ("id", "user_id", "topic", "payload") values ('evt_rolled_back', $1, 'budget.exceeded', '{}')`,
              [user.id],
            );
            await client.query('rollback');
          } finally {
            await client.end();
          }
          await announce('subscription.updated', 'evt_pg_bus', user.id);
        },
        (events) => events.length >= 1,
      );
      expect(events).toEqual([
        { kind: 'event', eventId: 'evt_pg_bus', userId: user.id, topic: 'subscription.updated', subscriptionId: null },
      ]);
    } finally {
      await bus.close();
    }
  });

  it('the processes listen on the bus config chooses: Redis with REDIS_URL, else the database', async () => {
    const listening = await sql<{ n: string }>(
      testApp,
      `select count(*) as "n" from pg_stat_activity where "application_name" = 'subledger-live' and "datname" = current_database()`,
    );
    // Both API processes run the background work: with Redis they bridge, without it they listen themselves.
    expect(Number(listening[0].n)).toBe(2);
    if (testApp.config.redisUrl) {
      const redis = createRedis(testApp.config.redisUrl);
      try {
        await until(() => redis.status === 'ready', 'redis');
        const [, subscribers] = (await redis.pubsub('NUMSUB', `${testApp.config.redisPrefix}:live`)) as [
          string,
          number,
        ];
        expect(subscribers).toBe(2);
      } finally {
        redis.disconnect();
      }
    }
  });

  const withRedis = process.env.REDIS_URL ? it : it.skip;

  withRedis('Redis: bridged from the database and heard once, however many processes bridge', async () => {
    const user = await signUp(testApp, 'Redis Bus');
    const prefix = `${testApp.config.redisPrefix}-bus`;
    const publisher = createRedis(process.env.REDIS_URL!);
    const options = { redisUrl: process.env.REDIS_URL!, prefix, publisher, databaseUrl: testApp.database.url };
    // Two bridges (two instances' background processes) and a listener that bridges nothing.
    const buses = [
      new RedisLiveBus(options, silent),
      new RedisLiveBus(options, silent),
      new RedisLiveBus({ ...options, databaseUrl: null }, silent),
    ];
    await Promise.all(buses.map((bus) => bus.start()));
    try {
      const events = await heard(
        buses[2],
        async () => {
          await announce('subscription.created', 'evt_redis_1', user.id);
          await announce('subscription.created', 'evt_redis_2', user.id);
        },
        (events) => events.some((event) => event.kind === 'event' && event.eventId === 'evt_redis_2'),
      );
      // A third event after both: every copy of the first two has arrived by then.
      const more = await heard(
        buses[2],
        async () => {
          await announce('subscription.deleted', 'evt_redis_3', user.id);
        },
        (later) => later.length >= 1,
      );
      expect(events.map((event) => event.kind === 'event' && event.eventId)).toEqual(['evt_redis_1', 'evt_redis_2']);
      expect(more.map((event) => event.kind === 'event' && event.eventId)).toEqual(['evt_redis_3']);
    } finally {
      await Promise.all(buses.map((bus) => bus.close()));
      publisher.disconnect();
    }
  });
});
