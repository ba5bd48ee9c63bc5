import { buildAppSchema } from '../../src/runtime/schema';
import type { Services } from '../../src/runtime/services';
import { VERSIONED_QUERIES } from '../../src/subscriptions/subscription.resolver';
import { createSubscription } from '../support/subscriptions';
import { graphqlData, signUp, sql, startTestApp, type SignedUpUser, type TestApp } from '../support/test-app';

/**
 * Answers of records are kept and served again until anything they were made from changes: a kept answer is
 * never stale, whatever wrote the change (a request, another process, the sweep, SQL by hand) and whoever
 * owned what changed (the user, or the rows every user reads), and a new quarter-hour makes a fresh one.
 */
let testApp: TestApp;
let other: TestApp;
let user: SignedUpUser;
const statements: string[] = [];
let now = new Date('2026-03-20T23:50:00Z');
let recordId: number;
let laterId: number;
let folderId: number;

beforeAll(async () => {
  testApp = await startTestApp({}, { clock: () => now, onQuery: (statement) => statements.push(statement) });
  // A second process over the same database, as WEB_CONCURRENCY runs them.
  other = await startTestApp({}, { clock: () => now }, testApp.database);
  await Promise.all([testApp, other].flatMap((app) => [app.app.relay.stop(), app.app.reminderRelay.stop()]));
  user = await signUp(testApp, 'Kept');
  ({
    createFolder: { id: folderId },
  } = await graphqlData<{ createFolder: { id: number } }>(testApp, user.token, 'mutation { createFolder(input: {name: "Media"}) { id } }'));
  recordId = (await createSubscription(testApp, user.token, { price: '10.00', price_type: 'EUR', folder_id: String(folderId), payment_date: '2026-01-10' }))
    .id as number;
  laterId = (await createSubscription(testApp, user.token, { price: '5.00', payment_date: '2026-01-20' })).id as number;
});
afterAll(async () => {
  await other.close();
  await testApp.close();
});

type Item = { id: number; price: number; base_value: string; folder_name: string | null; next_payment_date: string | null; brand_name: string };
const get = (app: TestApp, path: string) => app.http.get(path).set('authorization', `Bearer ${user.token}`);
const list = async (app = testApp, query = '') => {
  const response = await get(app, `/api/v1/subscriptions?sort=id${query}`);
  expect(response.status).toBe(200);
  return response;
};
const mine = async (app = testApp) => ((await list(app)).body as Item[]).find((item) => item.id === recordId)!;

it('serves a repeated request from the kept answer, byte for byte, with no read beyond the token and the limit', async () => {
  const first = await list();
  statements.length = 0;
  const second = await list();
  expect(second.text).toBe(first.text);
  expect(statements.length).toBeLessThanOrEqual(2);
  expect(statements.some((statement) => statement.includes('"subscriptions"'))).toBe(false);
  // Another request (another page, another sort) is an answer of its own.
  statements.length = 0;
  const sorted = await list(testApp, '&length=1');
  expect(sorted.body).toHaveLength(1);
  expect(statements.some((statement) => statement.includes('"subscriptions"'))).toBe(true);
});

it("changes with the user's own rows, written by a request, by another process or by SQL", async () => {
  await mine();
  await testApp.http.put(`/api/v1/subscriptions/${recordId}`).set('authorization', `Bearer ${user.token}`).type('form').send({ price: '11.00' });
  expect((await mine()).price).toBe(11);
  await mine(other);
  await testApp.http.put(`/api/v1/subscriptions/${recordId}`).set('authorization', `Bearer ${user.token}`).type('form').send({ price: '12.00' });
  expect((await mine(other)).price).toBe(12);
  await sql(testApp, `update "subscriptions" set "price" = 13 where "id" = ?`, [recordId]);
  expect((await mine()).price).toBe(13);
  expect((await mine(other)).price).toBe(13);
});

it('changes with the names it joins in, the base currency and the rates every user reads', async () => {
  await graphqlData(testApp, user.token, `mutation { updateFolder(id: ${folderId}, input: {name: "Films"}) { id } }`);
  expect((await mine()).folder_name).toBe('Films');
  const before = (await mine()).base_value;
  await graphqlData(testApp, user.token, 'mutation { updateProfile(input: {baseCurrency: "GBP"}) { id } }');
  const inPounds = (await mine()).base_value;
  expect(inPounds).not.toBe(before);
  await sql(testApp, `update "exchange_rates" set "per_usd" = "per_usd" * 2 where "currency" = 'GBP'`);
  expect((await mine()).base_value).not.toBe(inPounds);
  await sql(testApp, `update "products" set "brandname" = 'Renamed brand' where "id" = 1`);
  expect((await mine()).brand_name).toBe('Renamed brand');
});

it('changes with the tags a filter reads and with deletions', async () => {
  const tagged = async () => {
    const filters = JSON.stringify({ subscription: { tag_id: [String(tagId)] } });
    const response = await get(testApp, `/api/v1/subscriptions?sort=id&filters=${encodeURIComponent(filters)}`);
    return response.status === 200 ? (response.body as Item[]).map((item) => item.id) : [];
  };
  const { createTag } = await graphqlData<{ createTag: { id: number } }>(testApp, user.token, 'mutation { createTag(input: {name: "kept"}) { id } }');
  const tagId = createTag.id;
  await sql(testApp, `insert into "subscription_tags" ("subscription_id", "tag_id") values (?, ?)`, [laterId, tagId]);
  expect(await tagged()).toEqual([laterId]);
  await sql(testApp, `insert into "subscription_tags" ("subscription_id", "tag_id") values (?, ?)`, [recordId, tagId]);
  expect(await tagged()).toEqual([recordId, laterId]);
  await testApp.http.delete(`/api/v1/subscriptions/${recordId}`).set('authorization', `Bearer ${user.token}`);
  expect(((await list()).body as Item[]).map((item) => item.id)).not.toContain(recordId);
});

it('makes a fresh answer in the next quarter-hour, when dates derived from today may differ', async () => {
  const upcoming = async () => ((await get(testApp, '/api/v1/subscriptions/upcoming?days=40')).body as Item[]).filter((item) => item.id === laterId);
  // 2026-03-20 23:50 UTC: the payment of the 20th is today.
  const [before] = await upcoming();
  expect(before.next_payment_date).toBe('2026-03-20');
  statements.length = 0;
  expect(await upcoming()).toEqual([before]);
  expect(statements.some((statement) => statement.includes('"subscriptions"'))).toBe(false);
  // Fifteen minutes on, 2026-03-21 00:05 UTC: it has passed.
  now = new Date('2026-03-21T00:05:00Z');
  const [after] = await upcoming();
  expect(after.next_payment_date).toBe('2026-04-20');
});

it('reads the records once for a burst of the same request after a change, and sends each the same answer', async () => {
  const readsAfterAChange = async (price: number, requests: number) => {
    await sql(testApp, `update "subscriptions" set "price" = ? where "id" = ?`, [price, laterId]);
    statements.length = 0;
    const answers = await Promise.all(Array.from({ length: requests }, () => list()));
    expect(new Set(answers.map((response) => response.text)).size).toBe(1);
    expect((answers[0].body as Item[]).find((item) => item.id === laterId)!.price).toBe(price);
    return statements.filter((statement) => statement.includes('"subscriptions"')).length;
  };
  const one = await readsAfterAChange(14, 1);
  expect(one).toBeGreaterThan(0);
  expect(await readsAfterAChange(15, 8)).toBe(one);
});

describe('GraphQL', () => {
  const page = `{ subscriptions(first: 10, orderBy: {field: ID, direction: ASC}) { totalCount edges { node { id price folder { name } alerts { id } } } } }`;
  type Page = { subscriptions: { totalCount: number; edges: Array<{ node: { id: number; price: string; alerts: Array<{ id: number }> } }> } };
  const node = async () => (await graphqlData<Page>(testApp, user.token, page)).subscriptions.edges.find((edge) => edge.node.id === laterId)!.node;
  const readsRecords = () => statements.some((statement) => statement.includes('"subscriptions"'));

  it('answers a repeated query from the kept result, until the data it read changes', async () => {
    const first = await graphqlData<Page>(testApp, user.token, page);
    statements.length = 0;
    expect(await graphqlData<Page>(testApp, user.token, page)).toEqual(first);
    expect(readsRecords()).toBe(false);
    await testApp.http.put(`/api/v1/subscriptions/${laterId}`).set('authorization', `Bearer ${user.token}`).type('form').send({ price: '6.00' });
    expect((await node()).price).toBe('6.00');
    // The alerts of a record (a link table of their own).
    const [{ id: alertId }] = await sql<{ id: number }>(
      testApp,
      `insert into "alerts" ("user_id", "alert_name", "time_period", "time_cycle", "time", "alert_condition", "alert_type", "timezone", "alert_subs_type")
       values (?, 'Second', 1, 1, '09:00', 1, 1, 'UTC', 1) returning "id"`,
      [user.id],
    );
    const alertsBefore = (await node()).alerts.map((alert) => alert.id);
    await sql(testApp, `insert into "subscription_alerts" ("subscription_id", "alert_id", "position") values (?, ?, 1)`, [laterId, alertId]);
    expect((await node()).alerts.map((alert) => alert.id)).toEqual(expect.arrayContaining([...alertsBefore, alertId]));
  });

  it('executes a burst of the same query after a change once, and answers each with its result', async () => {
    const readsAfterAChange = async (price: string, requests: number) => {
      await sql(testApp, `update "subscriptions" set "price" = ? where "id" = ?`, [price, laterId]);
      statements.length = 0;
      const answers = await Promise.all(Array.from({ length: requests }, () => graphqlData<Page>(testApp, user.token, page)));
      expect(new Set(answers.map((answer) => JSON.stringify(answer))).size).toBe(1);
      expect(answers[0].subscriptions.edges.find((edge) => edge.node.id === laterId)!.node.price).toBe(price);
      return statements.filter((statement) => statement.includes('"subscriptions"')).length;
    };
    const one = await readsAfterAChange('7.00', 1);
    expect(one).toBeGreaterThan(0);
    expect(await readsAfterAChange('8.00', 8)).toBe(one);
  });

  it('keeps nothing for a query that also reads what the version does not cover, or for another user', async () => {
    const mixed = `{ me { id } subscriptions(first: 1) { totalCount } }`;
    await graphqlData(testApp, user.token, mixed);
    statements.length = 0;
    await graphqlData(testApp, user.token, mixed);
    expect(readsRecords()).toBe(true);
    const stranger = await signUp(testApp, 'Stranger');
    expect((await graphqlData<Page>(testApp, stranger.token, page)).subscriptions.totalCount).toBe(0);
  });

  it('names only queries the schema has', async () => {
    const fields = Object.keys((await buildAppSchema({} as Services)).getQueryType()!.getFields());
    expect(fields).toEqual(expect.arrayContaining([...VERSIONED_QUERIES]));
  });
});
