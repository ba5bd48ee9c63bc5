import { fromGlobalId, toGlobalId } from '../../src/platform/graphql/global-ids';
import { createReminderQueue } from '../../src/reminders/reminder-queue';
import { sweepOnce } from '../../src/runtime/runtime';
import { signWebhook } from '../../src/webhooks/signature';
import { provisionDatabase, type TestDatabase } from '../support/database';
import { FakeSmtp } from '../support/fake-smtp';
import { Receiver } from '../support/receiver';
import { createSubscription } from '../support/subscriptions';
import {
  deliveriesSettled,
  graphqlData,
  type SignedUpUser,
  signUp,
  sql,
  startTestApp,
  type TestApp,
} from '../support/test-app';
import { until } from '../support/wait';

/**
 * Reminders that fire, driven by an injected clock (never by sleeping). The webhook channel goes end to end
 * to a loopback receiver: in-process on the embedded default, through BullMQ delayed jobs with REDIS_URL.
 */
let now = new Date('2026-03-20T12:00:00Z');
const clock = () => now;
let testApp: TestApp;
let receiver: Receiver;

beforeAll(async () => {
  testApp = await startTestApp({ WEBHOOK_ALLOW_PRIVATE: 'true' }, { clock });
});
beforeEach(async () => {
  now = new Date('2026-03-20T12:00:00Z');
  receiver = new Receiver();
  await receiver.start();
});
afterEach(() => receiver.stop());
afterAll(() => testApp.close());

const gql = graphqlData;

/** subscription.payment_due events written for a record. */
async function paymentDueEvents(app: TestApp, subscriptionId: number): Promise<number> {
  const rows = await sql<{ n: string }>(
    app,
    `select count(*) as "n" from "webhook_events" where "topic" = 'subscription.payment_due' and "subscription_id" = ?`,
    [subscriptionId],
  );
  return Number(rows[0].n);
}

async function alert(app: TestApp, user: SignedUpUser, fields: string): Promise<number> {
  const { createAlert } = await gql(
    app,
    user.token,
    `mutation { createAlert(input: {name: "a", ${fields}}) { alert { legacyId } userErrors { message } } }`,
  );
  return createAlert.alert.legacyId;
}

/** The row id of a global id of `typeName` (the REST API's ids, which the records here are made with). */
function legacyOf(globalId: string, typeName: string): number {
  const decoded = fromGlobalId(globalId);
  expect(decoded?.typeName).toBe(typeName);
  return decoded!.id;
}

/** A reminder as GraphQL answers it, its ids as the REST API's numbers. */
function withLegacyIds<T extends { subscriptionId: string; alertId?: string }>(reminder: T) {
  return {
    ...reminder,
    subscriptionId: legacyOf(reminder.subscriptionId, 'SubscriptionRecord'),
    ...(reminder.alertId === undefined ? {} : { alertId: legacyOf(reminder.alertId, 'Alert') }),
  };
}

async function schedule(app: TestApp, user: SignedUpUser) {
  const { reminders } = await gql(
    app,
    user.token,
    '{ reminders(from: "2026-01-01T00:00:00Z", to: "2026-12-31T00:00:00Z") { totalCount nodes { subscriptionId alertId kind date fireAt status } } }',
  );
  expect(reminders.totalCount).toBe(reminders.nodes.length);
  return reminders.nodes.map(withLegacyIds) as Array<{
    subscriptionId: number;
    alertId: number;
    kind: string;
    date: string;
    fireAt: string;
    status: string;
  }>;
}

const iso = (text: string) => new Date(text).toISOString();

const SET_ALERTS = `mutation($input: SetSubscriptionAlertsInput!) {
  setSubscriptionAlerts(input: $input) { subscription { id alerts { id } } userErrors { field code message } }
}`;
/** setSubscriptionAlerts' variables for a record's and alerts' row ids. */
const setAlertsVariables = (recordId: unknown, alertIds: number[]) => ({
  input: {
    id: toGlobalId('SubscriptionRecord', Number(recordId)),
    alertIds: alertIds.map((id) => toGlobalId('Alert', id)),
  },
});
const CREATE_ENDPOINT = `mutation($input: CreateWebhookEndpointInput!) {
  createWebhookEndpoint(input: $input) { webhookEndpoint { id events } secret userErrors { field code message } }
}`;
/** Creates a webhook endpoint taking `events` (the topics' enum names) and answers its payload. */
async function createEndpoint(app: TestApp, user: SignedUpUser, events: string[]) {
  const { createWebhookEndpoint } = await gql(app, user.token, CREATE_ENDPOINT, {
    input: { url: receiver.url, events },
  });
  expect(createWebhookEndpoint.userErrors).toEqual([]);
  expect(createWebhookEndpoint.webhookEndpoint.events).toEqual(events);
  return createWebhookEndpoint as { webhookEndpoint: { id: string }; secret: string };
}

describe('scheduling', () => {
  it('keeps one reminder per definition of a record: days, weeks and months before, each in its own zone', async () => {
    const user = await signUp(testApp, 'Many');
    const days = await alert(
      testApp,
      user,
      'timePeriod: 3, timeCycle: DAYS, time: "09:00", timezone: "UTC", channel: BROWSER',
    );
    const weeks = await alert(
      testApp,
      user,
      'timePeriod: 1, timeCycle: WEEKS, time: "18:00", timezone: "Europe/Berlin", channel: BROWSER',
    );
    const months = await alert(
      testApp,
      user,
      'timePeriod: 1, timeCycle: MONTHS, time: "08:00", timezone: "America/New_York", channel: BROWSER',
    );
    const record = await createSubscription(testApp, user.token, {
      payment_date: '2026-05-31',
      alert_id: String(days),
    });
    const set = await gql(testApp, user.token, SET_ALERTS, setAlertsVariables(record.id, [days, weeks, months]));
    // The first is the record's alert_id.
    expect(set.setSubscriptionAlerts).toEqual({
      subscription: {
        id: toGlobalId('SubscriptionRecord', Number(record.id)),
        alerts: [days, weeks, months].map((id) => ({ id: toGlobalId('Alert', id) })),
      },
      userErrors: [],
    });
    const [rest] = (
      await testApp.http.get(`/api/v1/subscriptions/${record.id}`).set('authorization', `Bearer ${user.token}`)
    ).body;
    expect(rest.alert_id).toBe(days);
    expect(await schedule(testApp, user)).toEqual([
      {
        subscriptionId: record.id,
        alertId: months,
        kind: 'PAYMENT',
        date: '2026-05-31',
        fireAt: iso('2026-04-30T12:00:00Z'),
        status: 'SCHEDULED',
      },
      {
        subscriptionId: record.id,
        alertId: weeks,
        kind: 'PAYMENT',
        date: '2026-05-31',
        fireAt: iso('2026-05-24T16:00:00Z'),
        status: 'SCHEDULED',
      },
      {
        subscriptionId: record.id,
        alertId: days,
        kind: 'PAYMENT',
        date: '2026-05-31',
        fireAt: iso('2026-05-28T09:00:00Z'),
        status: 'SCHEDULED',
      },
    ]);
  });

  it("refuses another user's or a missing alert among a record's alerts, changing nothing", async () => {
    const user = await signUp(testApp, 'Owner');
    const stranger = await signUp(testApp, 'Stranger');
    const own = await alert(
      testApp,
      user,
      'timePeriod: 3, timeCycle: DAYS, time: "09:00", timezone: "UTC", channel: BROWSER',
    );
    const theirs = await alert(
      testApp,
      stranger,
      'timePeriod: 2, timeCycle: DAYS, time: "09:00", timezone: "UTC", channel: BROWSER',
    );
    const record = await createSubscription(testApp, user.token, { payment_date: '2026-05-31', alert_id: String(own) });
    const before = await schedule(testApp, user);
    for (const alertIds of [
      [own, theirs],
      [own, 999_999],
    ]) {
      const answer = await testApp.http
        .post('/graphql')
        .set('authorization', `Bearer ${user.token}`)
        .send({ query: SET_ALERTS, variables: setAlertsVariables(record.id, alertIds) });
      // The list is the input's alertIds (REST's one alert_id names the domain's message).
      expect(answer.body.data.setSubscriptionAlerts).toEqual({
        subscription: null,
        userErrors: [
          { field: ['input', 'alertIds'], code: 'BAD_USER_INPUT', message: 'The selected alert_id does not exist.' },
        ],
      });
      expect(answer.body.errors[0].extensions).toMatchObject({
        code: 'BAD_USER_INPUT',
        errors: { alertIds: ['The selected alert_id does not exist.'] },
      });
    }
    expect(await schedule(testApp, user)).toEqual(before);
  });

  it('reminds of the refund date', async () => {
    const user = await signUp(testApp, 'Refund');
    const refund = await alert(
      testApp,
      user,
      'timePeriod: 2, time: "10:00", timezone: "UTC", condition: BEFORE_REFUND_DATE, channel: BROWSER',
    );
    const record = await createSubscription(testApp, user.token, {
      payment_date: '2026-03-25',
      refund_days: '14',
      alert_id: String(refund),
    });
    expect(await schedule(testApp, user)).toEqual([
      {
        subscriptionId: record.id,
        alertId: refund,
        kind: 'REFUND',
        date: '2026-04-08',
        fireAt: iso('2026-04-06T10:00:00Z'),
        status: 'SCHEDULED',
      },
    ]);
  });

  it('keeps 09:00 local across daylight-saving switches in Europe/Berlin and America/New_York', async () => {
    const user = await signUp(testApp, 'Dst');
    const berlin = await alert(
      testApp,
      user,
      'timePeriod: 1, time: "09:00", timezone: "Europe/Berlin", channel: BROWSER',
    );
    const newYork = await alert(
      testApp,
      user,
      'timePeriod: 1, time: "09:00", timezone: "America/New_York", channel: BROWSER',
    );
    // Payments the day after the spring switch (Berlin 2026-03-29) and in winter time before it.
    const after = await createSubscription(testApp, user.token, {
      payment_date: '2026-03-30',
      alert_id: String(berlin),
    });
    const before = await createSubscription(testApp, user.token, {
      payment_date: '2026-03-28',
      billing_cycle: '4',
      alert_id: String(berlin),
    });
    // New York switches back on 2026-11-01.
    const nyAfter = await createSubscription(testApp, user.token, {
      payment_date: '2026-11-02',
      billing_cycle: '4',
      alert_id: String(newYork),
    });
    const nyBefore = await createSubscription(testApp, user.token, {
      payment_date: '2026-10-31',
      billing_cycle: '4',
      alert_id: String(newYork),
    });
    const byRecord = new Map((await schedule(testApp, user)).map((r) => [r.subscriptionId, r.fireAt]));
    expect(byRecord.get(after.id as number)).toBe(iso('2026-03-29T07:00:00Z'));
    expect(byRecord.get(before.id as number)).toBe(iso('2026-03-27T08:00:00Z'));
    expect(byRecord.get(nyAfter.id as number)).toBe(iso('2026-11-01T14:00:00Z'));
    expect(byRecord.get(nyBefore.id as number)).toBe(iso('2026-10-30T13:00:00Z'));
  });

  it('moves the reminder when an edit moves the payment date, and drops it for cancelled, refunded or deleted records', async () => {
    const user = await signUp(testApp, 'Edits');
    const id = await alert(testApp, user, 'timePeriod: 1, time: "09:00", timezone: "UTC", channel: BROWSER');
    const auth = { authorization: `Bearer ${user.token}` };
    const record = await createSubscription(testApp, user.token, {
      payment_date: '2026-04-10',
      alert_id: String(id),
      refund_days: '3650',
    });
    await testApp.http
      .put(`/api/v1/subscriptions/${record.id}`)
      .set(auth)
      .type('form')
      .send({ payment_date: '2026-04-20' });
    const rows = await testApp.app.db.orm.em
      .getConnection()
      .execute<{ reminder_date: string; status: string }[]>(
        'select "reminder_date", "status" from "reminders" where "subscription_id" = ? order by "id"',
        [record.id],
      );
    expect(rows).toEqual([
      { reminder_date: '2026-04-10', status: 'CANCELLED' },
      { reminder_date: '2026-04-20', status: 'SCHEDULED' },
    ]);
    for (const [path, method] of [
      ['cancel', 'post'],
      ['refund', 'post'],
      ['', 'delete'],
    ] as const) {
      const other = await createSubscription(testApp, user.token, {
        payment_date: '2026-04-12',
        alert_id: String(id),
        refund_days: '3650',
      });
      const url = `/api/v1/subscriptions/${other.id}${path ? `/${path}` : ''}`;
      expect((await testApp.http[method](url).set(auth)).status).toBe(200);
      const statuses = await testApp.app.db.orm.em
        .getConnection()
        .execute<{ status: string }[]>('select "status" from "reminders" where "subscription_id" = ?', [other.id]);
      expect(statuses.map((s) => s.status)).toEqual(['CANCELLED']);
    }
  });

  it("moves records that follow the user's timezone when it changes, and reschedules them", async () => {
    const user = await signUp(testApp, 'Traveller');
    const id = await alert(testApp, user, 'timePeriod: 0, time: "09:00", timezone: "UTC", channel: BROWSER');
    // 2026-03-20 12:00 UTC is already 2026-03-21 in Kiritimati (UTC+14): a payment due "today" there has passed here.
    const followed = await createSubscription(testApp, user.token, {
      payment_date: '2026-03-20',
      alert_id: String(id),
    });
    const pinned = await createSubscription(testApp, user.token, {
      payment_date: '2026-03-20',
      alert_id: String(id),
      timezone: 'America/New_York',
    });
    await gql(
      testApp,
      user.token,
      'mutation { updateProfile(input: {timezone: "Pacific/Kiritimati"}) { user { timezone } } }',
    );
    const read = async (recordId: unknown) =>
      (await testApp.http.get(`/api/v1/subscriptions/${recordId}`).set('authorization', `Bearer ${user.token}`))
        .body[0];
    expect(await read(followed.id)).toMatchObject({ timezone: 'Pacific/Kiritimati', next_payment_date: '2026-04-20' });
    expect(await read(pinned.id)).toMatchObject({ timezone: 'America/New_York', next_payment_date: '2026-03-20' });
    const reminders = await schedule(testApp, user);
    const datesOf = (recordId: unknown) =>
      reminders.filter((r) => r.subscriptionId === recordId).map((r) => `${r.date} ${r.status}`);
    expect(datesOf(followed.id)).toContain('2026-04-20 SCHEDULED');
    expect(datesOf(pinned.id)).toEqual([expect.stringMatching(/^2026-03-20 /)]);
  });
});

describe('GraphQL reminders', () => {
  /** A calendar date `days` after the test clock's today. */
  const dayAfter = (days: number) => new Date(now.getTime() + days * 86_400_000).toISOString().slice(0, 10);
  const PAGE = `query($from: DateTime!, $to: DateTime!, $first: Int, $after: String, $last: Int, $before: String) {
    reminders(from: $from, to: $to, first: $first, after: $after, last: $last, before: $before) {
      totalCount
      pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
      edges { cursor node { id legacyId subscriptionId kind status } }
    }
  }`;

  async function threeReminders(user: SignedUpUser): Promise<number[]> {
    const id = await alert(testApp, user, 'timePeriod: 1, time: "09:00", timezone: "UTC", channel: BROWSER');
    const records: number[] = [];
    for (const days of [10, 20, 30]) {
      const record = await createSubscription(testApp, user.token, {
        payment_date: dayAfter(days),
        alert_id: String(id),
      });
      records.push(record.id as number);
    }
    return records;
  }

  it('pages the schedule forward (first/after) and back (last/before) with totalCount and pageInfo', async () => {
    const user = await signUp(testApp, 'Pager');
    const records = await threeReminders(user);
    const range = { from: now.toISOString(), to: new Date(now.getTime() + 100 * 86_400_000).toISOString() };
    const page = async (args: Record<string, unknown>) =>
      (await gql(testApp, user.token, PAGE, { ...range, ...args })).reminders;
    const recordsOf = (answer: { edges: Array<{ node: { subscriptionId: string } }> }) =>
      answer.edges.map(({ node }) => legacyOf(node.subscriptionId, 'SubscriptionRecord'));

    const first = await page({ first: 2 });
    expect(first.totalCount).toBe(3);
    expect(recordsOf(first)).toEqual(records.slice(0, 2));
    expect(first.pageInfo).toEqual({
      hasNextPage: true,
      hasPreviousPage: false,
      startCursor: first.edges[0].cursor,
      endCursor: first.edges[1].cursor,
    });
    for (const { node } of first.edges) {
      expect(node).toEqual({
        id: toGlobalId('Reminder', node.legacyId),
        legacyId: expect.any(Number),
        subscriptionId: expect.any(String),
        kind: 'PAYMENT',
        status: 'SCHEDULED',
      });
    }
    const next = await page({ first: 2, after: first.pageInfo.endCursor });
    expect(recordsOf(next)).toEqual(records.slice(2));
    expect(next.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });

    const last = await page({ last: 2 });
    expect(last.totalCount).toBe(3);
    expect(recordsOf(last)).toEqual(records.slice(1));
    expect(last.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
    const before = await page({ last: 2, before: last.pageInfo.startCursor });
    expect(recordsOf(before)).toEqual(records.slice(0, 1));
    expect(before.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
  });

  it('finds a reminder by node(id:) for its owner only', async () => {
    const user = await signUp(testApp, 'Node');
    const stranger = await signUp(testApp, 'Other');
    const [record] = await threeReminders(user);
    const range = { from: now.toISOString(), to: new Date(now.getTime() + 100 * 86_400_000).toISOString() };
    const { reminders } = await gql(testApp, user.token, PAGE, { ...range, first: 1 });
    const { id } = reminders.edges[0].node;
    const query =
      'query($id: ID!) { node(id: $id) { __typename id ... on Reminder { subscriptionId alertId date kind status } } }';
    const { node } = await gql(testApp, user.token, query, { id });
    expect(node).toEqual({
      __typename: 'Reminder',
      id,
      subscriptionId: toGlobalId('SubscriptionRecord', record),
      alertId: expect.any(String),
      date: dayAfter(10),
      kind: 'PAYMENT',
      status: 'SCHEDULED',
    });
    expect((await gql(testApp, stranger.token, query, { id })).node).toBeNull();
  });

  it("refuses a test of another user's alert, or of an id of another type, as user errors", async () => {
    const user = await signUp(testApp, 'Tester');
    const stranger = await signUp(testApp, 'Theirs');
    const theirs = await alert(testApp, stranger, 'timePeriod: 1, time: "09:00", timezone: "UTC", channel: BROWSER');
    const mutation =
      'mutation($input: SendTestReminderInput!) { sendTestReminder(input: $input) { channels userErrors { field code message } } }';
    const other = await gql(testApp, user.token, mutation, { input: { alertId: toGlobalId('Alert', theirs) } }).catch(
      (error: Error) => error,
    );
    expect(other).toBeInstanceOf(Error);
    const answer = await testApp.http
      .post('/graphql')
      .set('authorization', `Bearer ${user.token}`)
      .send({ query: mutation, variables: { input: { alertId: toGlobalId('Alert', theirs) } } });
    expect(answer.body.data.sendTestReminder).toEqual({
      channels: null,
      userErrors: [{ field: [], code: 'NOT_FOUND', message: expect.any(String) }],
    });
    expect(answer.body.errors[0].extensions.code).toBe('NOT_FOUND');
    const wrongType = await testApp.http
      .post('/graphql')
      .set('authorization', `Bearer ${user.token}`)
      .send({ query: mutation, variables: { input: { alertId: toGlobalId('Tag', theirs) } } });
    expect(wrongType.body.data.sendTestReminder.userErrors).toEqual([
      { field: ['input', 'alertId'], code: 'NOT_FOUND', message: expect.any(String) },
    ]);
    const browser = await alert(testApp, user, 'timePeriod: 1, time: "09:00", timezone: "UTC", channel: BROWSER');
    const { sendTestReminder } = await gql(testApp, user.token, mutation, {
      input: { alertId: toGlobalId('Alert', browser) },
    });
    expect(sendTestReminder).toEqual({ channels: ['BROWSER'], userErrors: [] });
  });
});

describe("the original's alert codes, sent through REST", () => {
  async function restAlert(user: SignedUpUser, fields: Record<string, string>): Promise<number> {
    const request = testApp.http.post('/api/v1/alerts').set('authorization', `Bearer ${user.token}`);
    const all = {
      alert_name: 'coded',
      time_period: '1',
      time: '09:00',
      timezone: 'UTC',
      alert_condition: '2',
      alert_type: '2',
      alert_subs_type: '1',
      ...fields,
    };
    for (const [name, value] of Object.entries(all)) request.field(name, value);
    return (await request).body.id;
  }

  it('alert_condition 1 All reminds of payment and refund dates, 2 of the due date, 3 of the refund date', async () => {
    const user = await signUp(testApp, 'Conditions');
    const kinds: Record<string, string[]> = {};
    for (const condition of ['1', '2', '3']) {
      const id = await restAlert(user, { alert_condition: condition });
      const record = await createSubscription(testApp, user.token, {
        payment_date: '2026-04-01',
        refund_days: '10',
        alert_id: String(id),
      });
      kinds[condition] = (await schedule(testApp, user))
        .filter((reminder) => reminder.subscriptionId === record.id)
        .map((reminder) => reminder.kind)
        .sort();
    }
    expect(kinds).toEqual({ 1: ['PAYMENT', 'REFUND'], 2: ['PAYMENT'], 3: ['REFUND'] });
  });

  it('alert_subs_type names the record type; alert_type 1 All and 4 Webhook emit the event, 2 Email and 3 Browser do not', async () => {
    const user = await signUp(testApp, 'Channels');
    const trialOnly = await restAlert(user, { alert_subs_type: '2' });
    const subscription = await createSubscription(testApp, user.token, {
      payment_date: '2026-04-01',
      alert_id: String(trialOnly),
    });
    const trial = await createSubscription(testApp, user.token, {
      type: '2',
      payment_date: '2026-04-01',
      alert_id: String(trialOnly),
    });
    const scheduled = (await schedule(testApp, user)).map((reminder) => reminder.subscriptionId);
    expect(scheduled).toContain(trial.id);
    expect(scheduled).not.toContain(subscription.id);

    const records: Record<string, number> = {};
    for (const channel of ['1', '2', '3', '4']) {
      const id = await restAlert(user, { alert_type: channel, alert_condition: '2' });
      records[channel] = (
        await createSubscription(testApp, user.token, { payment_date: '2026-04-01', alert_id: String(id) })
      ).id as number;
    }
    now = new Date('2026-03-31T09:00:00Z');
    testApp.app.reminderRelay.nudge();
    const sent = async () =>
      (await schedule(testApp, user)).filter(
        (reminder) => Object.values(records).includes(reminder.subscriptionId) && reminder.status === 'SENT',
      ).length;
    await until(async () => (await sent()) === 4, 'four reminders fired');
    const events = await testApp.app.db.orm.em
      .getConnection()
      .execute<{ subscription_id: number }[]>(
        `select "subscription_id" from "webhook_events" where "topic" = 'subscription.payment_due' and "user_id" = ?`,
        [user.id],
      );
    expect(events.map((event) => event.subscription_id).sort()).toEqual([records['1'], records['4']].sort());
  });
});

describe('firing', () => {
  it('reminds of the last day to cancel a contract (contract_expiry − contract_notice_days) as subscription.contract_notice_due', async () => {
    const user = await signUp(testApp, 'Notice');
    await createEndpoint(testApp, user, ['SUBSCRIPTION_CONTRACT_NOTICE_DUE']);
    const id = await alert(
      testApp,
      user,
      'timePeriod: 1, timeCycle: WEEKS, time: "09:00", timezone: "UTC", channel: WEBHOOK, condition: ALL',
    );
    const record = await createSubscription(testApp, user.token, {
      payment_date: '2026-01-15',
      alert_id: String(id),
      contract_expiry: '2026-06-30',
      contract_notice_days: '30',
    });
    const { subscription } = await gql(
      testApp,
      user.token,
      `{ subscription(id: "${toGlobalId('SubscriptionRecord', Number(record.id))}") { contractExpiry contractNoticeDays } }`,
    );
    expect(subscription).toEqual({ contractExpiry: '2026-06-30', contractNoticeDays: 30 });
    // 1 All reminds of the payments too; the endpoint takes only the notice's topic.
    expect((await schedule(testApp, user)).filter((reminder) => reminder.kind === 'CONTRACT_NOTICE')).toEqual([
      {
        subscriptionId: record.id,
        alertId: id,
        kind: 'CONTRACT_NOTICE',
        date: '2026-05-31',
        fireAt: '2026-05-24T09:00:00.000Z',
        status: 'SCHEDULED',
      },
    ]);
    now = new Date('2026-05-24T09:00:00Z');
    testApp.app.reminderRelay.nudge();
    const [request] = await receiver.waitFor(1);
    expect(request.headers['x-subledger-webhook-event']).toBe('subscription.contract_notice_due');
    expect(JSON.parse(request.body)).toMatchObject({
      id: record.id,
      contract_expiry: '2026-06-30',
      reminder: { kind: 'contract_notice', date: '2026-05-31', alert_id: id },
    });
    // The receiver counts the request before it answers; afterEach stops it, and an answer cut off there
    // would leave a retry pending under the frozen clock, which the next test's deliveriesSettled waits on.
    await deliveriesSettled(testApp);
  });

  it('sends subscription.payment_due to an endpoint that asks for it, signed, once, when the clock reaches it', async () => {
    const user = await signUp(testApp, 'Hook');
    const endpoint = await createEndpoint(testApp, user, ['SUBSCRIPTION_PAYMENT_DUE']);
    const id = await alert(testApp, user, 'timePeriod: 2, time: "09:00", timezone: "Europe/Berlin", channel: WEBHOOK');
    const record = await createSubscription(testApp, user.token, { payment_date: '2026-04-01', alert_id: String(id) });
    now = new Date('2026-03-30T06:59:00Z');
    // A minute before its time the reminder is not due (and so nothing can fire it).
    expect(await testApp.app.services.reminders.claimDue(100)).toEqual([]);
    expect(receiver.received).toHaveLength(0);
    if (testApp.config.redisUrl) {
      // With Redis the reminder now waits in BullMQ as a delayed job.
      const queue = createReminderQueue(testApp.config.redisUrl, testApp.config.redisPrefix);
      await until(async () => (await queue.getDelayedCount()) >= 1, 'the delayed job');
      await queue.close();
    }
    now = new Date('2026-03-30T07:00:00Z');
    testApp.app.reminderRelay.nudge();
    const [request] = await receiver.waitFor(1);
    expect(request.headers['x-subledger-webhook-event']).toBe('subscription.payment_due');
    const eventId = String(request.headers['webhook-id']);
    expect(request.headers['webhook-signature']).toBe(
      signWebhook(endpoint.secret, eventId, Number(request.headers['webhook-timestamp']), request.body),
    );
    expect(JSON.parse(request.body)).toMatchObject({
      id: record.id,
      product_name: 'Netflix Standard',
      reminder: { kind: 'payment', date: '2026-04-01', alert_id: id },
    });
    // Fired once: the reminder is SENT (never due again), one event was written, one delivery made.
    testApp.app.reminderRelay.nudge();
    expect(await testApp.app.services.reminders.claimDue(100)).toEqual([]);
    await deliveriesSettled(testApp);
    expect(await paymentDueEvents(testApp, record.id as number)).toBe(1);
    expect(receiver.received).toHaveLength(1);
  });

  it("rolls a record's reminders on to its next payment when the sweep rolls its date, however many records owe none", async () => {
    const user = await signUp(testApp, 'Roll');
    const id = await alert(testApp, user, 'timePeriod: 1, time: "09:00", timezone: "UTC", channel: WEBHOOK');
    // Ahead of the record, more Active records that owe no reminder (bought once, no alert) than a sweep takes at once.
    const once = await createSubscription(testApp, user.token, {
      recurring: '0',
      alert_id: '0',
      payment_date: '2026-03-01',
    });
    await sql(
      testApp,
      `insert into "subscriptions"
       select (jsonb_populate_record(null::"subscriptions", to_jsonb(s) || jsonb_build_object('id', nextval(pg_get_serial_sequence('subscriptions', 'id'))))).*
         from "subscriptions" s, generate_series(1, 2001) where s."id" = ?`,
      [once.id],
    );
    const record = await createSubscription(testApp, user.token, { payment_date: '2026-02-25', alert_id: String(id) });
    const remindersOf = async () =>
      (await schedule(testApp, user)).filter((reminder) => reminder.subscriptionId === record.id);
    expect(await remindersOf()).toEqual([
      {
        subscriptionId: record.id,
        alertId: id,
        kind: 'PAYMENT',
        date: '2026-03-25',
        fireAt: iso('2026-03-24T09:00:00Z'),
        status: 'SCHEDULED',
      },
    ]);

    now = new Date('2026-03-24T09:00:00Z');
    testApp.app.reminderRelay.nudge();
    await until(async () => (await remindersOf())[0].status === 'SENT', 'the reminder to fire');
    // The day after the payment: the sweep rolls the date on, and the next payment's reminder with it.
    now = new Date('2026-03-26T00:30:00Z');
    expect(await sweepOnce(testApp.app.services)).toBeGreaterThanOrEqual(1);
    expect(await remindersOf()).toEqual([
      {
        subscriptionId: record.id,
        alertId: id,
        kind: 'PAYMENT',
        date: '2026-03-25',
        fireAt: iso('2026-03-24T09:00:00Z'),
        status: 'SENT',
      },
      {
        subscriptionId: record.id,
        alertId: id,
        kind: 'PAYMENT',
        date: '2026-04-25',
        fireAt: iso('2026-04-24T09:00:00Z'),
        status: 'SCHEDULED',
      },
    ]);
  });

  it('fires a reminder missed while the service was down once after a restart, and never again', async () => {
    const database: TestDatabase = await provisionDatabase();
    try {
      const first = await startTestApp({ WEBHOOK_ALLOW_PRIVATE: 'true' }, { clock }, database);
      const user = await signUp(first, 'Restart');
      await createEndpoint(first, user, ['SUBSCRIPTION_PAYMENT_DUE']);
      const id = await alert(first, user, 'timePeriod: 1, time: "09:00", timezone: "UTC", channel: WEBHOOK');
      const record = await createSubscription(first, user.token, { payment_date: '2026-04-05', alert_id: String(id) });
      await first.close();

      now = new Date('2026-04-04T15:00:00Z'); // fire time 2026-04-04 09:00 passed while down; payment still ahead
      const second = await startTestApp({ WEBHOOK_ALLOW_PRIVATE: 'true' }, { clock }, database);
      await receiver.waitFor(1);
      await second.close();
      const third = await startTestApp({ WEBHOOK_ALLOW_PRIVATE: 'true' }, { clock }, database);
      // Nothing is due for the third process to fire, and the one event has its one delivery.
      expect(await third.app.services.reminders.claimDue(100)).toEqual([]);
      await deliveriesSettled(third);
      expect(await paymentDueEvents(third, record.id as number)).toBe(1);
      await third.close();
      expect(receiver.received).toHaveLength(1);
    } finally {
      await database.drop();
    }
  });

  it('lists fired reminders for the browser extension until their date passes', async () => {
    const user = await signUp(testApp, 'Browser');
    const id = await alert(testApp, user, 'timePeriod: 1, time: "09:00", timezone: "UTC", channel: BROWSER');
    const record = await createSubscription(testApp, user.token, { payment_date: '2026-03-25', alert_id: String(id) });
    expect((await gql(testApp, user.token, '{ dueReminders { id } }')).dueReminders).toEqual([]);
    now = new Date('2026-03-24T09:00:01Z');
    testApp.app.reminderRelay.nudge();
    await until(
      async () => (await gql(testApp, user.token, '{ dueReminders { id } }')).dueReminders.length === 1,
      'the reminder to fire',
    );
    const { dueReminders } = await gql(
      testApp,
      user.token,
      '{ dueReminders { subscriptionId kind date status sentAt } }',
    );
    expect(dueReminders.map(withLegacyIds)).toEqual([
      { subscriptionId: record.id, kind: 'PAYMENT', date: '2026-03-25', status: 'SENT', sentAt: expect.any(String) },
    ]);
  });
});

describe('e-mail', () => {
  const smtp = new FakeSmtp();
  const { messages } = smtp;
  let mailed: TestApp;

  beforeAll(async () => {
    await smtp.start();
    mailed = await startTestApp(
      { SMTP_URL: `smtp://127.0.0.1:${smtp.port}`, SMTP_FROM: 'Subledger <test@example.com>' },
      { clock },
    );
  });
  afterAll(async () => {
    await mailed.close();
    await smtp.stop();
  });

  it('mails a plain-text and HTML reminder naming the product, amount, currency and date', async () => {
    const user = await signUp(mailed, 'Mailed');
    const id = await alert(
      mailed,
      user,
      'timePeriod: 2, time: "08:00", timezone: "UTC", channel: EMAIL, contact: "reminders@example.com"',
    );
    await createSubscription(mailed, user.token, {
      payment_date: '2026-03-26',
      alert_id: String(id),
      price: '12.34',
      price_type: 'EUR',
    });
    now = new Date('2026-03-24T08:00:00Z');
    mailed.app.reminderRelay.nudge();
    await until(() => messages.length === 1, 'the e-mail');
    const message = messages[0];
    expect(message).toMatch(/^To: reminders@example\.com/m);
    expect(message).toMatch(/^From: Subledger <test@example\.com>/m);
    expect(message).toContain('Content-Type: text/plain');
    expect(message).toContain('Content-Type: text/html');
    expect(message).toMatch(/Netflix Standard/);
    expect(message).toMatch(/12\.34 EUR/);
    expect(message).toMatch(/2026-03-26/);

    const { sendTestReminder } = await gql(
      mailed,
      user.token,
      'mutation($input: SendTestReminderInput!) { sendTestReminder(input: $input) { channels userErrors { field } } }',
      { input: { alertId: toGlobalId('Alert', id) } },
    );
    expect(sendTestReminder).toEqual({ channels: ['EMAIL'], userErrors: [] });
    await until(() => messages.length === 2, 'the test e-mail');
  });
});
