import { createSubscription, MINIMAL, postSubscription } from '../support/subscriptions';
import { type SignedUpUser, signUp, sql, startTestApp, type TestApp } from '../support/test-app';

// Two requests racing on one thing leave one outcome. Real concurrency on PostgreSQL in both CI passes.

let testApp: TestApp;
let user: SignedUpUser;
const auth = () => ({ authorization: `Bearer ${user.token}`, accept: 'application/json' });
const CONCURRENT = 8;

beforeAll(async () => {
  testApp = await startTestApp();
  user = await signUp(testApp, 'Racer');
});
afterAll(() => testApp.close());

const together = <T>(make: (index: number) => PromiseLike<T>) =>
  Promise.all(Array.from({ length: CONCURRENT }, (_, index) => make(index)));

it('concurrent creates naming one new product make one private product, every create answered 200', async () => {
  const answers = await together(() =>
    postSubscription(testApp, user.token, { ...MINIMAL, brand_id: 'Brand New Racing Product' }),
  );
  expect(answers.map((answer) => answer.status)).toEqual(Array(CONCURRENT).fill(200));
  expect(new Set(answers.map((answer) => answer.body.subscription.brand_id)).size).toBe(1);
  const products = await sql(testApp, 'select "id" from "products" where "owner_id" = ? and "product_name" = ?', [
    user.id,
    'Brand New Racing Product',
  ]);
  expect(products).toHaveLength(1);
});

it('concurrent creates naming one new tag make one tag, every create answered 200', async () => {
  const answers = await together(() => postSubscription(testApp, user.token, { ...MINIMAL, 'tags[]': ['racing-tag'] }));
  expect(answers.map((answer) => answer.status)).toEqual(Array(CONCURRENT).fill(200));
  expect(
    await sql(testApp, 'select "id" from "tags" where "user_id" = ? and "name" = ?', [user.id, 'racing-tag']),
  ).toHaveLength(1);
});

it.each(['cancel', 'refund'])('concurrent %ss of one record: one succeeds, one event', async (operation) => {
  const record = await createSubscription(testApp, user.token);
  const answers = await together(() =>
    testApp.http.post(`/api/v1/subscriptions/${record.id}/${operation}`).set(auth()),
  );
  expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1);
  expect(answers.filter((answer) => answer.status === 400)).toHaveLength(CONCURRENT - 1);
  const topic = operation === 'cancel' ? 'subscription.canceled' : 'subscription.refunded';
  expect(
    await sql(testApp, 'select "id" from "webhook_events" where "subscription_id" = ? and "topic" = ?', [
      record.id,
      topic,
    ]),
  ).toHaveLength(1);
});

it('concurrent deletes and cancels of one record: one delete, and a cancel only if it came first', async () => {
  const record = await createSubscription(testApp, user.token);
  const answers = await together((index) =>
    index % 2 === 0
      ? testApp.http.delete(`/api/v1/subscriptions/${record.id}`).set(auth())
      : testApp.http.post(`/api/v1/subscriptions/${record.id}/cancel`).set(auth()),
  );
  const deletes = answers.filter((_, index) => index % 2 === 0);
  expect(deletes.filter((answer) => answer.status === 200)).toHaveLength(1);
  const events = await sql<{ topic: string }>(
    testApp,
    `select "topic" from "webhook_events" where "subscription_id" = ? and "topic" <> 'subscription.created'`,
    [record.id],
  );
  expect(events.filter((event) => event.topic === 'subscription.deleted')).toHaveLength(1);
  expect(events.filter((event) => event.topic === 'subscription.canceled').length).toBeLessThanOrEqual(1);
});

it('concurrent updates and a cancel of one record: each event shows the record as its write left it', async () => {
  const record = await createSubscription(testApp, user.token);
  const CANCELLER = 3;
  const answers = await together((index) =>
    index === CANCELLER
      ? testApp.http.post(`/api/v1/subscriptions/${record.id}/cancel`).set(auth())
      : testApp.http
          .put(`/api/v1/subscriptions/${record.id}`)
          .set(auth())
          .type('form')
          .send({ price: `${index + 10}.00`, note: `writer ${index}` }),
  );
  expect(answers.map((answer) => answer.status)).toEqual(Array(CONCURRENT).fill(200));
  const events = await sql<{ topic: string; payload: { price: number; note: string | null; status: number } }>(
    testApp,
    `select "topic", "payload" from "webhook_events" where "subscription_id" = ? and "topic" <> 'subscription.created' order by "created_at"`,
    [record.id],
  );
  expect(events).toHaveLength(CONCURRENT);
  // Each write read the version it replaced: the status is Active before the cancel's event and Cancelled
  // after it, and each update's event carries its own price with its own note.
  const cancelledAt = events.findIndex((event) => event.topic === 'subscription.canceled');
  events.forEach((event, index) => expect(event.payload.status).toBe(index < cancelledAt ? 1 : 2));
  for (const { topic, payload } of events.filter((event) => event.topic === 'subscription.updated')) {
    expect(topic).toBe('subscription.updated');
    expect(payload.price).toBe(Number(payload.note!.split(' ')[1]) + 10);
  }
  const [stored] = await sql<{ price: string; note: string | null; status: number }>(
    testApp,
    'select "price"::text, "note", "status" from "subscriptions" where "id" = ?',
    [record.id],
  );
  const last = events.at(-1)!.payload;
  expect(stored).toEqual({ price: last.price.toFixed(2), note: last.note, status: last.status });
});
