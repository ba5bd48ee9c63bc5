import { MINIMAL, postSubscription } from '../support/subscriptions';
import { signUp, sql, startTestApp, type SignedUpUser, type TestApp } from '../support/test-app';

/**
 * Round trips per write, the outbox and reminders included: each statement is a network round trip and,
 * for a record's update, time spent holding its row lock. Counted on an app of its own, relays stopped (their
 * polling is not the request's).
 */
let testApp: TestApp;
let user: SignedUpUser;
const statements: string[] = [];

beforeAll(async () => {
  testApp = await startTestApp({}, { onQuery: (statement) => statements.push(statement) });
  await Promise.all([testApp.app.relay.stop(), testApp.app.reminderRelay.stop()]);
  user = await signUp(testApp, 'Counted');
});
afterAll(() => testApp.close());

async function counted(request: () => PromiseLike<{ status: number }>): Promise<number> {
  statements.length = 0;
  expect((await request()).status).toBe(200);
  return statements.length;
}

const put = (id: number, fields: Record<string, string>) =>
  testApp.http.put(`/api/v1/subscriptions/${id}`).set('authorization', `Bearer ${user.token}`).type('form').send(fields);

it('creates in a bounded number of statements, and answers from the write (no read after the commit)', async () => {
  const create = () => postSubscription(testApp, user.token, { ...MINIMAL, brand_id: '12' });
  await create();
  // token, request limit, the plan, the preview, the one insert of record, tags, event, deliveries and reminders
  expect(await counted(create)).toBeLessThanOrEqual(5);
});

it('updates a price or a note without touching dates or reminders', async () => {
  const created = (await postSubscription(testApp, user.token, MINIMAL)).body.subscription as { id: number };
  const reminders = () =>
    sql<{ id: number; status: string; fire_at: string }>(
      testApp,
      `select "id", "status", "fire_at" from "reminders" where "subscription_id" = ? order by "id"`,
      [created.id],
    );
  const before = await reminders();
  expect(before.length).toBeGreaterThan(0);
  // token, request limit, begin, the record locked, its update, record read, tags, event with its deliveries, commit
  expect(await counted(() => put(created.id, { price: '19.99', note: 'dearer' }))).toBeLessThanOrEqual(9);
  expect(await reminders()).toEqual(before);
  // A date moves the reminders along, in a few statements more.
  const dated = await counted(() => put(created.id, { payment_date: '2026-02-14' }));
  expect(dated).toBeLessThanOrEqual(13);
  expect((await reminders()).filter((reminder) => reminder.status === 'SCHEDULED')).not.toEqual(before.filter((reminder) => reminder.status === 'SCHEDULED'));
});
