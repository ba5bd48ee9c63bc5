import { Receiver } from '../support/receiver';
import { createSubscription } from '../support/subscriptions';
import { graphqlData, type SignedUpUser, signUp, startTestApp, type TestApp } from '../support/test-app';

/**
 * After a create or an update the relays are told at once only when its statement wrote work for them (a
 * delivery, or a reminder firing within their look-ahead); otherwise their polls find nothing new anyway, and
 * under a stream of writes the nudges were a claim statement per relay and write.
 */
// 08:29:30 in Berlin (UTC+1 until the end of March).
const now = new Date('2026-03-20T07:29:30Z');
let nudges = 0;
let testApp: TestApp;
let receiver: Receiver;

beforeAll(async () => {
  testApp = await startTestApp({ WEBHOOK_ALLOW_PRIVATE: 'true' }, { clock: () => now, onOutboxCommit: () => nudges++ });
  receiver = new Receiver();
  await receiver.start();
});
afterAll(async () => {
  await receiver.stop();
  await testApp.close();
});

/** The nudges a request caused: they are given before its answer is sent. */
async function nudgesOf(request: () => Promise<unknown>): Promise<number> {
  const before = nudges;
  await request();
  return nudges - before;
}

const update = (user: SignedUpUser, id: unknown, note: string) =>
  testApp.http
    .put(`/api/v1/subscriptions/${String(id)}`)
    .set('authorization', `Bearer ${user.token}`)
    .type('form')
    .send({ note })
    .expect(200);

it('leaves the relays to their polls after writes that made no delivery and no reminder due soon', async () => {
  const user = await signUp(testApp, 'Quiet');
  let record: Record<string, unknown> = {};
  expect(
    await nudgesOf(
      async () => (record = await createSubscription(testApp, user.token, { payment_date: '2026-04-30' })),
    ),
  ).toBe(0);
  expect(await nudgesOf(() => update(user, record.id, 'changed'))).toBe(0);
});

it('nudges them once after a create or an update that wrote a delivery', async () => {
  const user = await signUp(testApp, 'Hooked');
  const { createWebhookEndpoint } = await graphqlData(
    testApp,
    user.token,
    'mutation($input: CreateWebhookEndpointInput!) { createWebhookEndpoint(input: $input) { webhookEndpoint { id } userErrors { code } } }',
    {
      input: { url: receiver.url, events: ['SUBSCRIPTION_CREATED', 'SUBSCRIPTION_UPDATED'] },
    },
  );
  expect(createWebhookEndpoint.userErrors).toEqual([]);
  let record: Record<string, unknown> = {};
  expect(
    await nudgesOf(
      async () => (record = await createSubscription(testApp, user.token, { payment_date: '2026-04-30' })),
    ),
  ).toBe(1);
  expect(await nudgesOf(() => update(user, record.id, 'changed'))).toBe(1);
});

it('nudges them after a write whose reminder fires within the look-ahead, and not for one days away', async () => {
  const user = await signUp(testApp, 'Reminded');
  const { createAlert } = await graphqlData<{
    createAlert: { alert: { legacyId: number }; userErrors: unknown[] };
  }>(
    testApp,
    user.token,
    'mutation { createAlert(input: {name: "day before", timePeriod: 1, timeCycle: DAYS, time: "08:30", timezone: "Europe/Berlin", channel: BROWSER}) { alert { legacyId } userErrors { code } } }',
  );
  expect(createAlert.userErrors).toEqual([]);
  // The REST API names the alert by its row id.
  const alert = { alert_id: String(createAlert.alert.legacyId) };
  // Fires 2026-03-24 08:30 in Berlin: days away.
  let record: Record<string, unknown> = {};
  expect(
    await nudgesOf(
      async () => (record = await createSubscription(testApp, user.token, { ...alert, payment_date: '2026-03-25' })),
    ),
  ).toBe(0);
  // Fires today at 08:30 in Berlin, 30 s from the clock's now.
  expect(await nudgesOf(() => createSubscription(testApp, user.token, { ...alert, payment_date: '2026-03-21' }))).toBe(
    1,
  );
  // Moving the first record's payment to tomorrow brings its reminder within the look-ahead too.
  expect(
    await nudgesOf(() =>
      testApp.http
        .put(`/api/v1/subscriptions/${String(record.id)}`)
        .set('authorization', `Bearer ${user.token}`)
        .type('form')
        .send({ payment_date: '2026-03-21' })
        .expect(200),
    ),
  ).toBe(1);
});
