import { Client } from 'pg';

import { buildAppSchema } from '../../src/runtime/schema';
import type { Services } from '../../src/runtime/services';
import { VERSIONED_QUERIES } from '../../src/subscriptions/subscription.resolver';
import { createSubscription, recordId as recordGlobalId, updateProfile } from '../support/subscriptions';
import { graphql, graphqlData, type SignedUpUser, signUp, sql, startTestApp, type TestApp } from '../support/test-app';
import { until } from '../support/wait';

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
let folderGlobalId: string;

beforeAll(async () => {
  testApp = await startTestApp({}, { clock: () => now, onQuery: (statement) => statements.push(statement) });
  // A second process over the same database, as WEB_CONCURRENCY runs them.
  other = await startTestApp({}, { clock: () => now }, testApp.database);
  await Promise.all([testApp, other].flatMap((app) => [app.app.relay.stop(), app.app.reminderRelay.stop()]));
  user = await signUp(testApp, 'Kept');
  ({
    createFolder: {
      folder: { id: folderGlobalId, legacyId: folderId },
    },
  } = await graphqlData<{ createFolder: { folder: { id: string; legacyId: number } } }>(
    testApp,
    user.token,
    'mutation { createFolder(input: {name: "Media"}) { folder { id legacyId } } }',
  ));
  recordId = (
    await createSubscription(testApp, user.token, {
      price: '10.00',
      price_type: 'EUR',
      folder_id: String(folderId),
      payment_date: '2026-01-10',
    })
  ).id as number;
  laterId = (await createSubscription(testApp, user.token, { price: '5.00', payment_date: '2026-01-20' })).id as number;
});
afterAll(async () => {
  await other.close();
  await testApp.close();
});

type Item = {
  id: number;
  price: number;
  base_value: string;
  folder_name: string | null;
  next_payment_date: string | null;
  brand_name: string;
};
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
  await testApp.http
    .put(`/api/v1/subscriptions/${recordId}`)
    .set('authorization', `Bearer ${user.token}`)
    .type('form')
    .send({ price: '11.00' });
  expect((await mine()).price).toBe(11);
  await mine(other);
  await testApp.http
    .put(`/api/v1/subscriptions/${recordId}`)
    .set('authorization', `Bearer ${user.token}`)
    .type('form')
    .send({ price: '12.00' });
  expect((await mine(other)).price).toBe(12);
  await sql(testApp, `update "subscriptions" set "price" = 13 where "id" = ?`, [recordId]);
  expect((await mine()).price).toBe(13);
  expect((await mine(other)).price).toBe(13);
});

it('changes with the names it joins in, the base currency and the rates every user reads', async () => {
  await graphqlData(
    testApp,
    user.token,
    'mutation($input: UpdateFolderInput!) { updateFolder(input: $input) { folder { id } } }',
    { input: { id: folderGlobalId, name: 'Films' } },
  );
  expect((await mine()).folder_name).toBe('Films');
  const before = (await mine()).base_value;
  await updateProfile(testApp, user.token, { baseCurrency: 'GBP' });
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
  const { createTag } = await graphqlData<{ createTag: { tag: { legacyId: number } } }>(
    testApp,
    user.token,
    'mutation { createTag(input: {name: "kept"}) { tag { legacyId } } }',
  );
  const tagId = createTag.tag.legacyId;
  await sql(testApp, `insert into "subscription_tags" ("subscription_id", "tag_id") values (?, ?)`, [laterId, tagId]);
  expect(await tagged()).toEqual([laterId]);
  await sql(testApp, `insert into "subscription_tags" ("subscription_id", "tag_id") values (?, ?)`, [recordId, tagId]);
  expect(await tagged()).toEqual([recordId, laterId]);
  await testApp.http.delete(`/api/v1/subscriptions/${recordId}`).set('authorization', `Bearer ${user.token}`);
  expect(((await list()).body as Item[]).map((item) => item.id)).not.toContain(recordId);
});

it('makes a fresh answer in the next quarter-hour, when dates derived from today may differ', async () => {
  const upcoming = async () =>
    ((await get(testApp, '/api/v1/subscriptions/upcoming?days=40')).body as Item[]).filter(
      (item) => item.id === laterId,
    );
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
  const page = `{ subscriptions(first: 10, orderBy: {field: ID, direction: ASC}) { totalCount edges { node { id legacyId price { amount currency } folder { name } alerts { name } } } } }`;
  type Page = {
    subscriptions: {
      totalCount: number;
      edges: Array<{
        node: { id: string; legacyId: number; price: { amount: string }; alerts: Array<{ name: string }> };
      }>;
    };
  };
  const node = async () =>
    (await graphqlData<Page>(testApp, user.token, page)).subscriptions.edges.find(
      (edge) => edge.node.legacyId === laterId,
    )!.node;
  const readsRecords = () => statements.some((statement) => statement.includes('"subscriptions"'));

  it('answers a repeated query from the kept result, until the data it read changes', async () => {
    const first = await graphqlData<Page>(testApp, user.token, page);
    statements.length = 0;
    expect(await graphqlData<Page>(testApp, user.token, page)).toEqual(first);
    expect(readsRecords()).toBe(false);
    await testApp.http
      .put(`/api/v1/subscriptions/${laterId}`)
      .set('authorization', `Bearer ${user.token}`)
      .type('form')
      .send({ price: '6.00' });
    expect((await node()).price.amount).toBe('6.00');
    // The alerts of a record (a link table of their own).
    const [{ id: alertId }] = await sql<{ id: number }>(
      testApp,
      `insert into "alerts" ("user_id", "alert_name", "time_period", "time_cycle", "time", "alert_condition", "alert_type", "timezone", "alert_subs_type")
       values (?, 'Second', 1, 1, '09:00', 1, 1, 'UTC', 1) returning "id"`,
      [user.id],
    );
    const alertsBefore = (await node()).alerts.map((alert) => alert.name);
    await sql(
      testApp,
      `insert into "subscription_alerts" ("subscription_id", "alert_id", "position") values (?, ?, 1)`,
      [laterId, alertId],
    );
    const alertsAfter = (await node()).alerts.map((alert) => alert.name);
    expect(alertsAfter).toEqual(expect.arrayContaining([...alertsBefore, 'Second']));
    expect(alertsAfter).toHaveLength(alertsBefore.length + 1);
    expect(alertId).toEqual(expect.any(Number));
  });

  it('executes a burst of the same query after a change once, and answers each with its result', async () => {
    const readsAfterAChange = async (price: string, requests: number) => {
      await sql(testApp, `update "subscriptions" set "price" = ? where "id" = ?`, [price, laterId]);
      statements.length = 0;
      const answers = await Promise.all(
        Array.from({ length: requests }, () => graphqlData<Page>(testApp, user.token, page)),
      );
      expect(new Set(answers.map((answer) => JSON.stringify(answer))).size).toBe(1);
      expect(answers[0].subscriptions.edges.find((edge) => edge.node.legacyId === laterId)!.node.price.amount).toBe(
        price,
      );
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

/**
 * Issue 39: a user's data version moves only with changes that concern them, and never takes a value it had
 * before. A calendar feed's ETag shows the version (`"<feed>-<n|r>-<version>"`), which makes it visible.
 */
describe('the data version, across users and households', () => {
  const feedOf = async (token: string) =>
    new URL(
      (
        await graphqlData<{ createCalendarFeed: { url: string } }>(
          testApp,
          token,
          'mutation { createCalendarFeed(input: {name: "Version"}) { url } }',
        )
      ).createCalendarFeed.url,
    ).pathname;
  const versionOf = async (feed: string) => {
    const response = await testApp.http.get(feed);
    expect(response.status).toBe(200);
    return BigInt(/^"\d+-[nr]-(\d+)"$/.exec(response.headers.etag)![1]);
  };

  it("is not moved by another user's members without an account, so their mutations leave everyone's kept answers alone", async () => {
    const stranger = await signUp(testApp, 'Ghost Keeper');
    await graphqlData(
      testApp,
      stranger.token,
      'mutation { createHousehold(input: {name: "Haunted"}) { household { id } } }',
    );
    const [mineFeed, theirFeed] = [await feedOf(user.token), await feedOf(stranger.token)];
    const [mineBefore, theirsBefore] = [await versionOf(mineFeed), await versionOf(theirFeed)];
    await list();
    // 15 aliased mutations a request, as item 5 of the issue had them.
    const ghosts = Array.from(
      { length: 15 },
      (_, index) => `g${index}: addHouseholdMember(input: {name: "Ghost ${index}"}) { householdMember { id } }`,
    ).join(' ');
    const added = await graphqlData<Record<string, { householdMember: { id: string } }>>(
      testApp,
      stranger.token,
      `mutation { ${ghosts} }`,
    );
    const { removeHouseholdMember } = await graphqlData(
      testApp,
      stranger.token,
      'mutation($input: RemoveHouseholdMemberInput!) { removeHouseholdMember(input: $input) { deletedHouseholdMemberId } }',
      { input: { memberId: added.g0.householdMember.id } },
    );
    expect(removeHouseholdMember.deletedHouseholdMemberId).toBe(added.g0.householdMember.id);
    await graphqlData(
      testApp,
      stranger.token,
      'mutation($input: UpdateHouseholdMemberInput!) { updateHouseholdMember(input: $input) { householdMember { id } } }',
      { input: { memberId: added.g1.householdMember.id, name: 'Poltergeist' } },
    );
    expect(await versionOf(mineFeed)).toBe(mineBefore);
    statements.length = 0;
    await list();
    expect(statements.some((statement) => statement.includes('"subscriptions"'))).toBe(false);
    // The owner's own version moves (the members are theirs).
    expect(await versionOf(theirFeed)).toBeGreaterThan(theirsBefore);
  });

  describe('members', () => {
    let ann: SignedUpUser;
    let householdId: string;
    let sharedId: number;
    const SHARED = () => `{ subscription(id: "${recordGlobalId(sharedId)}") { id price { amount currency } } }`;

    beforeAll(async () => {
      ann = await signUp(testApp, 'Ann Owner');
      const created = await graphqlData<{
        createHousehold: { household: { id: string; viewerMember: { id: string } } };
      }>(
        testApp,
        ann.token,
        'mutation { createHousehold(input: {name: "Home"}) { household { id viewerMember { id } } } }',
      );
      householdId = created.createHousehold.household.id;
      sharedId = (await createSubscription(testApp, ann.token, { price: '20.00' })).id as number;
      // Ann pays and bears it alone: every member reads it, and none is held in the household by a share.
      const ownMember = created.createHousehold.household.viewerMember.id;
      await graphqlData(
        testApp,
        ann.token,
        'mutation($input: ShareSubscriptionInput!) { shareSubscription(input: $input) { subscription { id } } }',
        {
          input: {
            id: recordGlobalId(sharedId),
            payerMemberId: ownMember,
            mode: 'EQUAL',
            shares: [{ memberId: ownMember }],
          },
        },
      );
    });

    /** A new user who joined Ann's household (invited by e-mail, with the code). */
    const joined = async (name: string) => {
      const member = await signUp(testApp, name);
      const { addHouseholdMember: invited } = await graphqlData<{
        addHouseholdMember: { householdMember: { id: string }; invitationCode: string };
      }>(
        testApp,
        ann.token,
        'mutation($input: AddHouseholdMemberInput!) { addHouseholdMember(input: $input) { householdMember { id } invitationCode } }',
        { input: { name, email: member.email } },
      );
      await graphqlData(
        testApp,
        member.token,
        'mutation($input: JoinHouseholdInput!) { joinHousehold(input: $input) { household { id } } }',
        { input: { code: invited.invitationCode } },
      );
      return { member, memberId: invited.householdMember.id };
    };
    const sharedPrice = async (member: SignedUpUser) =>
      (await graphqlData<{ subscription: { price: { amount: string } } }>(testApp, member.token, SHARED())).subscription
        .price.amount;

    it("moves for every member of the household with the owner's changes", async () => {
      const { member } = await joined('Mo Member');
      const feed = await feedOf(member.token);
      expect(await sharedPrice(member)).toBe('20.00');
      const before = await versionOf(feed);
      await testApp.http
        .put(`/api/v1/subscriptions/${sharedId}`)
        .set('authorization', `Bearer ${ann.token}`)
        .type('form')
        .send({ price: '21.00' });
      expect(await versionOf(feed)).toBeGreaterThan(before);
      expect(await sharedPrice(member)).toBe('21.00');
      // The owner's rows changed by SQL by hand move it as well.
      const again = await versionOf(feed);
      await sql(testApp, `update "subscriptions" set "price" = 22 where "id" = ?`, [sharedId]);
      expect(await versionOf(feed)).toBeGreaterThan(again);
      expect(await sharedPrice(member)).toBe('22.00');
    });

    const connectionOfAnotherShard = async () => {
      const shardOf = (pid: number) => pid % 16;
      const taken = new Set(
        (
          await sql<{ pid: number }>(testApp, `select "pid" from pg_stat_activity where "datname" = current_database()`)
        ).map((row) => shardOf(row.pid)),
      );
      // Two apps of 5 connections each leave 6 of the 16 shards at least.
      for (let attempt = 1; ; attempt += 1) {
        const client = new Client({ connectionString: testApp.database.url });
        await client.connect();
        const { pid } = (await client.query<{ pid: number }>('select pg_backend_pid() as "pid"')).rows[0];
        if (!taken.has(shardOf(pid)) || attempt === 100) return client;
        await client.end();
      }
    };

    it("counts a member who joins while the owner's change is being made: the join waits for it, or the change reaches the member", async () => {
      const member = await signUp(testApp, 'Rae Racing');
      const { addHouseholdMember: invited } = await graphqlData<{ addHouseholdMember: { invitationCode: string } }>(
        testApp,
        ann.token,
        'mutation($input: AddHouseholdMemberInput!) { addHouseholdMember(input: $input) { invitationCode } }',
        { input: { name: 'Rae', email: member.email } },
      );
      const price = await sharedPrice((await joined('Pat Present')).member);
      // The owner's change by SQL by hand, in a transaction held open while the member joins over the API: on a
      // connection of a version shard no connection of the app's adds to (it would wait for that row alone).
      const owner = await connectionOfAnotherShard();
      try {
        await owner.query('begin');
        await owner.query(`update "subscriptions" set "price" = "price" + 1 where "id" = $1`, [sharedId]);
        let joinedNow = false;
        const joining = graphqlData(
          testApp,
          member.token,
          'mutation($input: JoinHouseholdInput!) { joinHousehold(input: $input) { household { id } } }',
          { input: { code: invited.invitationCode } },
        ).then(() => (joinedNow = true));
        const waitingOnALock = async () =>
          (
            await sql(
              testApp,
              `select 1 from pg_stat_activity where "datname" = current_database() and "wait_event_type" = 'Lock'`,
            )
          ).length > 0;
        await until(async () => joinedNow || (await waitingOnALock()), 'the join to be made or to wait for the change');
        // Read before the change commits, when the join did not wait: that answer is kept (the change is not in it).
        if (joinedNow) expect(await sharedPrice(member)).toBe(price);
        await owner.query('commit');
        await joining;
      } finally {
        await owner.end();
      }
      expect(await sharedPrice(member)).toBe((Number(price) + 1).toFixed(2));
    });

    it.each([
      [
        'leaves',
        async (member: SignedUpUser) =>
          graphqlData(
            testApp,
            member.token,
            'mutation($input: LeaveHouseholdInput!) { leaveHousehold(input: $input) { leftHouseholdId } }',
            { input: { householdId } },
          ),
      ],
      [
        'is removed',
        async (_: SignedUpUser, memberId: string) =>
          graphqlData(
            testApp,
            ann.token,
            'mutation($input: RemoveHouseholdMemberInput!) { removeHouseholdMember(input: $input) { deletedHouseholdMemberId } }',
            { input: { memberId } },
          ),
      ],
    ])(
      'never goes back to an earlier value after a member %s, so a kept answer of the shared record is never served again',
      async (_, goes) => {
        const { member, memberId } = await joined('Lea Leaving');
        const feed = await feedOf(member.token);
        const seen: bigint[] = [];
        const version = async () => {
          seen.push(await versionOf(feed));
          return seen[seen.length - 1];
        };
        // The shared record, read and kept under the member's version (unchanged before and after the read).
        const kept = await version();
        expect(await sharedPrice(member)).toEqual(expect.any(String));
        expect(await version()).toBe(kept);
        const before = seen.length;
        await goes(member, memberId);
        // The member's own writes, one at a time, until the version is back where the answer was kept (it must never be).
        for (let tag = 0; (await version()) < kept && tag < 1000; tag += 1) {
          await graphqlData(
            testApp,
            member.token,
            `mutation { createTag(input: {name: "after ${tag}"}) { tag { id } } }`,
          );
        }
        const after = await graphql(testApp, member.token, SHARED());
        expect(after.body.data?.subscription ?? null).toBeNull();
        expect(after.body.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
        expect(seen.slice(before).every((value) => value > kept)).toBe(true);
        expect(seen).toEqual([...seen].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
      },
    );
  });
});
