import { addDays } from '../../src/platform/dates';
import { MINIMAL, postSubscription } from '../support/subscriptions';
import { type SignedUpUser, signUp, sql, startTestApp, type TestApp } from '../support/test-app';

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

const put = (id: number, fields: Record<string, string | string[]>) =>
  testApp.http
    .put(`/api/v1/subscriptions/${id}`)
    .set('authorization', `Bearer ${user.token}`)
    .type('form')
    .send(fields);

it('creates in a bounded number of statements, and answers from the write (no read after the commit)', async () => {
  const create = () => postSubscription(testApp, user.token, { ...MINIMAL, brand_id: '12' });
  await create();
  // token, request limit, the plan with the preview, the one insert of record, tags, event, deliveries and reminders
  expect(await counted(create)).toBeLessThanOrEqual(4);
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
  // token, request limit, the record read as the patch leaves it, the one write of record, event, deliveries
  expect(await counted(() => put(created.id, { price: '19.99', note: 'dearer' }))).toBeLessThanOrEqual(4);
  expect(await reminders()).toEqual(before);
  // A date moves the reminders along, in the same write.
  expect(await counted(() => put(created.id, { payment_date: addDays(MINIMAL.payment_date, 7) }))).toBeLessThanOrEqual(
    4,
  );
  expect((await reminders()).filter((reminder) => reminder.status === 'SCHEDULED')).not.toEqual(
    before.filter((reminder) => reminder.status === 'SCHEDULED'),
  );
});

it('names links, cancels, refunds and deletes in at most five statements each', async () => {
  const created = (await postSubscription(testApp, user.token, { ...MINIMAL, 'tags[]': 'counted' })).body
    .subscription as { id: number };
  // token, request limit, the links planned, the record read, the one write (tags included); a tag named for the
  // first time takes two more (made, then planned again)
  await postSubscription(testApp, user.token, { ...MINIMAL, 'tags[]': 'another' });
  expect(
    await counted(() => put(created.id, { folder_id: '0', alert_id: '1', 'tags[]': ['counted', 'another'] })),
  ).toBeLessThanOrEqual(5);
  const post = (path: string) =>
    testApp.http.post(`/api/v1/subscriptions/${created.id}/${path}`).set('authorization', `Bearer ${user.token}`);
  expect(await counted(() => post('cancel'))).toBeLessThanOrEqual(5);
  expect(await counted(() => post('refund'))).toBeLessThanOrEqual(5);
  expect(
    await counted(() =>
      testApp.http.delete(`/api/v1/subscriptions/${created.id}`).set('authorization', `Bearer ${user.token}`),
    ),
  ).toBeLessThanOrEqual(5);
});
