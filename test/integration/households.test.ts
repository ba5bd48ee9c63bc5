import { fromGlobalId, toGlobalId } from '../../src/platform/graphql/global-ids';
import { ownedRowsDigest } from '../support/hardening';
import { createSubscription } from '../support/subscriptions';
import { graphql, graphqlData, type SignedUpUser, signUp, sql, startTestApp, type TestApp } from '../support/test-app';

/**
 * Issue 20's households: members (invited by e-mail with a code, or by name), records shared with a payer and
 * a split, spending read for the household, per member and as "my share" (checked against totals worked out
 * by hand, with a mid-year price change), members reading shared records and editing them only with edit
 * rights, and no one outside a household reading any of it.
 */
let testApp: TestApp;
const now = new Date('2026-03-10T12:00:00Z');

beforeAll(async () => {
  testApp = await startTestApp({}, { clock: () => now });
});
afterAll(() => testApp.close());

type GqlError = { message: string; extensions: { code: string; errors?: Record<string, string[]> } };
const gqlErrors = async (token: string, query: string, variables?: Record<string, unknown>) =>
  (await graphql(testApp, token, query, variables)).body.errors as GqlError[];

const MEMBER_FIELDS = 'id legacyId name email role status';
const SHARING =
  'sharing { householdId payerMemberId payerName mode shares { memberId memberName value amount { amount currency } } }';
const HOUSEHOLDS = `{ households { id legacyId name ownerName viewerRole viewerMember { id } members { ${MEMBER_FIELDS} }
  subscriptions { totalCount nodes { id productName ${SHARING} } } } }`;
const ADD = `mutation($input: AddHouseholdMemberInput!) {
  addHouseholdMember(input: $input) { householdMember { ${MEMBER_FIELDS} } invitationCode invitationEmailed userErrors { field code message } }
}`;
const SHARE_MUTATION = `mutation($input: ShareSubscriptionInput!) {
  shareSubscription(input: $input) { subscription { id ${SHARING} } userErrors { field code message } }
}`;
const JOIN = `mutation($code: String!) {
  joinHousehold(input: { code: $code }) { household { id name ownerName viewerRole viewerMember { id } } userErrors { field code } }
}`;
/** A record's global id (the records' own resolver may answer the numeric id or the global one). */
const recordId = (id: number) => toGlobalId('SubscriptionRecord', id);
const rowIdOf = (id: number | string) => (typeof id === 'number' ? id : fromGlobalId(id)!.id);
/** shareSubscription with a record's numeric id and the input's other fields. */
const SHARE = SHARE_MUTATION;
const shareVariables = (id: number, input: Record<string, unknown>) => ({ input: { id: recordId(id), ...input } });
const MONEY = '{ amount currency }';
const SUMMARY = `query($from: LocalDate, $to: LocalDate, $groupBy: SpendingGroupBy, $view: SpendingView, $householdId: ID, $memberId: ID) {
  spendingSummary(from: $from, to: $to, groupBy: $groupBy, view: $view, householdId: $householdId, memberId: $memberId) {
    periodTotal ${MONEY} plannedTotal ${MONEY} paidTotal ${MONEY} monthlyTotal ${MONEY} budget ${MONEY}
    groups { key periodTotal ${MONEY} paidTotal ${MONEY} }
  }
}`;
/** changePrice with a record's numeric id: `{ id, price, from }` as variables. */
const CHANGE_MUTATION = `mutation($input: ChangePriceInput!) {
  changePrice(input: $input) { subscription { id price ${MONEY} } userErrors { field code message } }
}`;
const CHANGE = CHANGE_MUTATION;
const changeVariables = (id: number, price: string, from: string) => ({
  input: { id: recordId(id), price, effectiveFrom: from },
});
/** updateSubscription with a record's numeric id and the input's other fields. */
const UPDATE = `mutation($input: UpdateSubscriptionInput!) {
  updateSubscription(input: $input) { subscription { id description } userErrors { field code message } }
}`;
const updateVariables = (id: number, input: Record<string, unknown>) => ({ input: { id: recordId(id), ...input } });
const ENTRIES = `query($h: ID, $status: PaymentEntryStatus) {
  paymentEntries(filter: { householdId: $h, status: $status }) { totalCount nodes { id legacyId subscriptionId dueDate } }
}`;
type Entry = { id: string; legacyId: number; subscriptionId: string; dueDate: string };

const summary = async (user: SignedUpUser, variables: Record<string, unknown>) =>
  (await graphqlData(testApp, user.token, SUMMARY, { from: '2026-01-01', to: '2026-12-31', ...variables }))
    .spendingSummary;
/** A summary's period total, in the users' base currency (USD). */
const totalOf = async (user: SignedUpUser, variables: Record<string, unknown>) => {
  const { periodTotal } = await summary(user, variables);
  expect(periodTotal.currency).toBe('USD');
  return periodTotal.amount as string;
};

describe('a household with splits and a mid-year price change', () => {
  let ann: SignedUpUser;
  let bob: SignedUpUser;
  let dan: SignedUpUser;
  let home: string;
  let homeLegacy: number;
  /** The members' global ids, and their numeric ids (for SQL). */
  const members: Record<string, string> = {};
  const legacy: Record<string, number> = {};
  const records: Record<string, number> = {};
  let bobsCode: string;

  beforeAll(async () => {
    [ann, bob, dan] = await Promise.all([
      signUp(testApp, 'Ann House'),
      signUp(testApp, 'Bob House'),
      signUp(testApp, 'Dan Flat'),
    ]);
    const created = (
      await graphqlData(
        testApp,
        ann.token,
        `mutation { createHousehold(input: { name: "Home" }) {
          household { id legacyId name viewerRole viewerMember { id legacyId } members { id name role status } }
          userErrors { field code message } } }`,
      )
    ).createHousehold;
    expect(created.userErrors).toEqual([]);
    expect(created.household).toEqual({
      id: expect.any(String),
      legacyId: expect.any(Number),
      name: 'Home',
      viewerRole: 'OWNER',
      viewerMember: { id: expect.any(String), legacyId: expect.any(Number) },
      members: [{ id: created.household.viewerMember.id, name: 'Ann House', role: 'OWNER', status: 'JOINED' }],
    });
    home = created.household.id;
    homeLegacy = created.household.legacyId;
    members.ann = created.household.viewerMember.id;
    legacy.ann = created.household.viewerMember.legacyId;
    for (const [name, fields] of [
      ['streaming', { price: '15.49', payment_date: '2026-01-05' }],
      ['internet', { price: '60.00', payment_date: '2026-01-20' }],
      ['insurance', { price: '99.99', payment_date: '2026-04-01', billing_cycle: '4' }],
      ['gym', { price: '30.00', payment_date: '2026-01-10' }],
    ] as const) {
      records[name] = Number((await createSubscription(testApp, ann.token, fields)).id);
    }
    records.music = Number(
      (await createSubscription(testApp, bob.token, { price: '9.99', payment_date: '2026-02-01' })).id,
    );
    // The ledger plans from the period a record was made in: these were "made" in January.
    await sql(testApp, `update "subscriptions" set "created_at" = '2026-01-01 00:00:00' where "user_id" in (?, ?)`, [
      ann.id,
      bob.id,
    ]);
  });

  it('adds a member invited by e-mail (the code answered once) and one by name only', async () => {
    const invited = (
      await graphqlData(testApp, ann.token, ADD, { input: { name: 'Bob', email: ` ${bob.email.toUpperCase()} ` } })
    ).addHouseholdMember;
    expect(invited).toEqual({
      householdMember: {
        id: expect.any(String),
        legacyId: expect.any(Number),
        name: 'Bob',
        email: bob.email,
        role: 'MEMBER',
        status: 'INVITED',
      },
      invitationCode: expect.stringMatching(/^[A-Za-z0-9_-]{24}$/),
      invitationEmailed: false,
      userErrors: [],
    });
    bobsCode = invited.invitationCode;
    members.bob = invited.householdMember.id;
    legacy.bob = invited.householdMember.legacyId;
    const named = (await graphqlData(testApp, ann.token, ADD, { input: { name: 'Cleo' } })).addHouseholdMember;
    expect(named).toMatchObject({
      householdMember: { name: 'Cleo', email: null, role: 'MEMBER', status: 'NAME_ONLY' },
      invitationCode: null,
      invitationEmailed: false,
    });
    members.cleo = named.householdMember.id;
    legacy.cleo = named.householdMember.legacyId;
    // A refused member: typed in userErrors with its input field.
    const refused = await graphql(testApp, ann.token, ADD, { input: { name: 'Dora', email: 'not an address' } });
    expect(refused.body.data.addHouseholdMember).toEqual({
      householdMember: null,
      invitationCode: null,
      invitationEmailed: null,
      userErrors: [{ field: ['input', 'email'], code: 'BAD_USER_INPUT', message: expect.any(String) }],
    });
    expect(refused.body.errors[0].extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      errors: { email: [expect.any(String)] },
    });
    // The code is kept only as its hash.
    const stored = await sql<{ invitation_hash: string }>(
      testApp,
      `select "invitation_hash" from "household_members" where "id" = ?`,
      [legacy.bob],
    );
    expect(stored[0].invitation_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(stored[0].invitation_hash).not.toContain(bobsCode);
  });

  it('lets only the invited address join with the code, once', async () => {
    expect((await graphql(testApp, dan.token, JOIN, { code: bobsCode })).body.data.joinHousehold).toEqual({
      household: null,
      userErrors: [{ field: [], code: 'NOT_FOUND' }],
    });
    const joined = (await graphqlData(testApp, bob.token, JOIN, { code: bobsCode })).joinHousehold;
    expect(joined).toEqual({
      household: {
        id: home,
        name: 'Home',
        ownerName: 'Ann House',
        viewerRole: 'MEMBER',
        viewerMember: { id: members.bob },
      },
      userErrors: [],
    });
    expect((await gqlErrors(bob.token, JOIN, { code: bobsCode }))[0].extensions.code).toBe('NOT_FOUND');
  });

  it('finds households and members with node(id:) as each person sees them, and nothing for others', async () => {
    const NODES = `query($ids: [ID!]!) { nodes(ids: $ids) { __typename id legacyId
      ... on Household { name viewerRole } ... on HouseholdMember { name email role status } } }`;
    const ids = [home, members.bob];
    expect((await graphqlData(testApp, ann.token, NODES, { ids })).nodes).toEqual([
      { __typename: 'Household', id: home, legacyId: homeLegacy, name: 'Home', viewerRole: 'OWNER' },
      {
        __typename: 'HouseholdMember',
        id: members.bob,
        legacyId: legacy.bob,
        name: 'Bob',
        email: bob.email,
        role: 'MEMBER',
        status: 'JOINED',
      },
    ]);
    // Bob, a member, sees both but not the address; Dan, outside, sees neither.
    expect((await graphqlData(testApp, bob.token, NODES, { ids })).nodes).toEqual([
      expect.objectContaining({ id: home, viewerRole: 'MEMBER' }),
      expect.objectContaining({ id: members.bob, email: null }),
    ]);
    expect((await graphqlData(testApp, dan.token, NODES, { ids })).nodes).toEqual([null, null]);
  });

  it('shares records equally, by amounts and by percentages, each part cut to the cent and adding up to the price', async () => {
    const { ann: a, bob: b, cleo: c } = members;
    const equal = (
      await graphqlData(
        testApp,
        ann.token,
        SHARE,
        shareVariables(records.streaming, {
          payerMemberId: a,
          mode: 'EQUAL',
          shares: [{ memberId: a }, { memberId: b }, { memberId: c }],
        }),
      )
    ).shareSubscription;
    expect(equal.userErrors).toEqual([]);
    expect(rowIdOf(equal.subscription.id)).toBe(records.streaming);
    const usd = (amount: string) => ({ amount, currency: 'USD' });
    expect(equal.subscription.sharing).toEqual({
      householdId: home,
      payerMemberId: a,
      payerName: 'Ann House',
      mode: 'EQUAL',
      shares: [
        { memberId: a, memberName: 'Ann House', value: null, amount: usd('5.16') },
        { memberId: b, memberName: 'Bob', value: null, amount: usd('5.16') },
        { memberId: c, memberName: 'Cleo', value: null, amount: usd('5.17') },
      ],
    });
    const amounts = (
      await graphqlData(testApp, ann.token, SHARE, {
        input: {
          id: recordId(records.internet),
          payerMemberId: b,
          mode: 'AMOUNTS',
          shares: [
            { memberId: a, value: '40' },
            { memberId: b, value: '20.00' },
          ],
        },
      })
    ).shareSubscription.subscription.sharing;
    expect(
      amounts.shares.map((share: { value: string; amount: { amount: string } }) => [share.value, share.amount.amount]),
    ).toEqual([
      ['40.00', '40.00'],
      ['20.00', '20.00'],
    ]);
    const percentages = (
      await graphqlData(testApp, ann.token, SHARE, {
        input: {
          id: recordId(records.insurance),
          payerMemberId: a,
          mode: 'PERCENTAGES',
          shares: [
            { memberId: a, value: '33.33' },
            { memberId: b, value: '33.33' },
            { memberId: c, value: '33.34' },
          ],
        },
      })
    ).shareSubscription.subscription.sharing;
    expect(percentages.mode).toBe('PERCENTAGES');
    expect(percentages.shares.map((share: { amount: { amount: string } }) => share.amount.amount)).toEqual([
      '33.32',
      '33.33',
      '33.34',
    ]);
    // Mid-year rises: 15.49 → 17.99 and 60.00 → 75.00 from July 1 (the amounts keep their proportions).
    for (const [id, price] of [
      [records.streaming, '17.99'],
      [records.internet, '75.00'],
    ] as const) {
      const changed = (await graphqlData(testApp, ann.token, CHANGE, changeVariables(id, price, '2026-07-01')))
        .changePrice;
      // The price in effect today (March) stays until July.
      expect(changed.userErrors).toEqual([]);
      expect(rowIdOf(changed.subscription.id)).toBe(id);
    }
  });

  it('reports 2026 for the household, each member and "my share", to the cent', async () => {
    // Streaming: Jan-Jun 6 × 15.49 (Ann 5.16, Bob 5.16, Cleo 5.17), Jul-Dec 6 × 17.99 (5.99, 6.00, 6.00).
    // Internet: 6 × 60.00 (Ann 40.00, Bob 20.00), 6 × 75.00 (50.00, 25.00). Insurance: 99.99 once (33.32, 33.33, 33.34).
    expect(await totalOf(ann, { view: 'HOUSEHOLD', householdId: home })).toBe('1110.87'); // 200.88 + 810.00 + 99.99
    expect(await totalOf(ann, { view: 'HOUSEHOLD', householdId: home, memberId: members.ann })).toBe('640.22'); // 66.90 + 540.00 + 33.32
    expect(await totalOf(bob, { view: 'HOUSEHOLD', householdId: home, memberId: members.bob })).toBe('370.29'); // 66.96 + 270.00 + 33.33
    expect(await totalOf(bob, { view: 'HOUSEHOLD', householdId: home, memberId: members.cleo })).toBe('100.36'); // 67.02 + 33.34
    // Ann bears her share and her unshared gym (12 × 30.00); Bob his share and his own music (Feb-Dec 11 × 9.99).
    expect(await totalOf(ann, { view: 'MY_SHARE' })).toBe('1000.22');
    expect(await totalOf(bob, { view: 'MY_SHARE' })).toBe('480.18');
    // Her own records in full, as before households.
    expect(await totalOf(ann, {})).toBe('1470.87');
    expect(await totalOf(bob, { view: 'OWN' })).toBe('109.89');
    const months = await summary(bob, {
      view: 'HOUSEHOLD',
      householdId: home,
      memberId: members.bob,
      groupBy: 'MONTH',
      from: '2026-04-01',
      to: '2026-07-31',
    });
    expect(
      months.groups.map((group: { key: string; periodTotal: { amount: string } }) => [
        group.key,
        group.periodTotal.amount,
      ]),
    ).toEqual([
      ['2026-04', '58.49'],
      ['2026-05', '25.16'],
      ['2026-06', '25.16'],
      ['2026-07', '31.00'],
    ]);
    // A household's totals carry no personal budget.
    const set = (
      await graphqlData(
        testApp,
        ann.token,
        'mutation { setBudget(input: { amount: "100.00" }) { budget { id } userErrors { field code message } } }',
      )
    ).setBudget;
    expect(set).toEqual({ budget: { id: expect.any(String) }, userErrors: [] });
    expect(
      (await summary(ann, { view: 'HOUSEHOLD', householdId: home, from: '2026-03-01', to: '2026-03-31' })).budget,
    ).toBeNull();
    expect((await summary(ann, { view: 'MY_SHARE', from: '2026-03-01', to: '2026-03-31' })).budget).toEqual({
      amount: '100.00',
      currency: 'USD',
    });
  });

  it('shows members the shared records read-only, and none of the rest', async () => {
    const [seen] = (await graphqlData(testApp, bob.token, HOUSEHOLDS)).households;
    expect(seen).toMatchObject({
      id: home,
      legacyId: homeLegacy,
      viewerRole: 'MEMBER',
      viewerMember: { id: members.bob },
    });
    // Only the owner sees the members' addresses.
    expect(
      seen.members.map((member: { name: string; email: string | null; role: string; status: string }) => [
        member.name,
        member.email,
        member.role,
        member.status,
      ]),
    ).toEqual([
      ['Ann House', null, 'OWNER', 'JOINED'],
      ['Bob', null, 'MEMBER', 'JOINED'],
      ['Cleo', null, 'MEMBER', 'NAME_ONLY'],
    ]);
    expect(seen.subscriptions.totalCount).toBe(3);
    expect(seen.subscriptions.nodes.map((record: { id: number | string }) => rowIdOf(record.id))).toEqual([
      records.streaming,
      records.internet,
      records.insurance,
    ]);
    expect(seen.subscriptions.nodes[0]).toMatchObject({
      sharing: { mode: 'EQUAL', payerName: 'Ann House', shares: expect.any(Array) },
    });
    // The shared records page both ways.
    const PAGE = `query($first: Int, $after: String, $last: Int, $before: String) { households {
      subscriptions(first: $first, after: $after, last: $last, before: $before) {
        totalCount pageInfo { hasNextPage hasPreviousPage startCursor endCursor } nodes { id } } } }`;
    const page = async (variables: Record<string, unknown>) =>
      (await graphqlData(testApp, bob.token, PAGE, variables)).households[0].subscriptions;
    const idsOf = (connection: { nodes: Array<{ id: number | string }> }) =>
      connection.nodes.map((node) => rowIdOf(node.id));
    const first = await page({ first: 2 });
    expect(idsOf(first)).toEqual([records.streaming, records.internet]);
    expect(first).toMatchObject({ totalCount: 3, pageInfo: { hasNextPage: true, hasPreviousPage: false } });
    const next = await page({ first: 2, after: first.pageInfo.endCursor });
    expect(idsOf(next)).toEqual([records.insurance]);
    expect(next.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
    const last = await page({ last: 1 });
    expect(idsOf(last)).toEqual([records.insurance]);
    const before = await page({ last: 2, before: last.pageInfo.startCursor });
    expect(idsOf(before)).toEqual([records.streaming, records.internet]);
    expect(before.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
    const one = await testApp.http
      .get(`/api/v1/subscriptions/${records.internet}`)
      .set('authorization', `Bearer ${bob.token}`);
    expect(one.status).toBe(200);
    expect(one.body).toEqual([expect.objectContaining({ id: records.internet, price: 60, user_id: ann.id })]);
    // Another user's record reads as a missing one: the spec's 400 "No subscription found".
    const gym = await testApp.http
      .get(`/api/v1/subscriptions/${records.gym}`)
      .set('authorization', `Bearer ${bob.token}`);
    expect(gym.status).toBe(400);
    const entries = (await graphqlData(testApp, bob.token, ENTRIES, { h: home, status: 'PENDING' })).paymentEntries;
    expect(entries.totalCount).toBe(entries.nodes.length);
    expect(entries.nodes.length).toBeGreaterThan(0);
    expect(
      entries.nodes.every((entry: Entry) =>
        [records.streaming, records.internet, records.insurance].map(recordId).includes(entry.subscriptionId),
      ),
    ).toBe(true);
    const march = entries.nodes.find(
      (entry: Entry) => entry.subscriptionId === recordId(records.internet) && entry.dueDate === '2026-03-20',
    );
    expect(march).toBeDefined();
    // Reading the ledger made its planned entries; the refusals after it change nothing.
    const digest = await ownedRowsDigest(testApp, ann.id);
    expect(
      (await gqlErrors(bob.token, UPDATE, updateVariables(records.internet, { description: 'mine now' })))[0].extensions
        .code,
    ).toBe('NOT_FOUND');
    expect(
      (await gqlErrors(bob.token, CHANGE, changeVariables(records.internet, '1.00', '2026-08-01')))[0].extensions.code,
    ).toBe('NOT_FOUND');
    expect(
      (
        await gqlErrors(
          bob.token,
          'mutation($id: ID!) { markPaid(input: { id: $id }) { paymentEntry { id } userErrors { code } } }',
          { id: march.id },
        )
      )[0].extensions.code,
    ).toBe('NOT_FOUND');
    expect(await ownedRowsDigest(testApp, ann.id)).toBe(digest);
  });

  it('lets a member with edit rights edit shared records and record payments, split like the plan', async () => {
    const { updateHouseholdMember } = await graphqlData(
      testApp,
      ann.token,
      'mutation($id: ID!) { updateHouseholdMember(input: { memberId: $id, canEdit: true }) { householdMember { id role } userErrors { code } } }',
      { id: members.bob },
    );
    expect(updateHouseholdMember).toEqual({ householdMember: { id: members.bob, role: 'EDITOR' }, userErrors: [] });
    const edited = (
      await graphqlData(testApp, bob.token, UPDATE, updateVariables(records.internet, { description: 'Fibre' }))
    ).updateSubscription;
    expect(edited).toEqual({ subscription: { id: recordId(records.internet), description: 'Fibre' }, userErrors: [] });
    const [event] = await sql<{ user_id: number }>(
      testApp,
      `select "user_id" from "webhook_events" where "subscription_id" = ? order by "id" desc limit 1`,
      [records.internet],
    );
    expect(event.user_id).toBe(ann.id);
    const entries = (await graphqlData(testApp, bob.token, ENTRIES, { h: home })).paymentEntries;
    const march = entries.nodes.find(
      (entry: Entry) => entry.subscriptionId === recordId(records.internet) && entry.dueDate === '2026-03-20',
    );
    const paid = (
      await graphqlData(
        testApp,
        bob.token,
        'mutation($id: ID!) { markPaid(input: { id: $id, paidAt: "2026-03-20" }) { paymentEntry { id status paidAmount { amount currency } } userErrors { code } } }',
        { id: march.id },
      )
    ).markPaid;
    expect(paid).toEqual({
      paymentEntry: { id: march.id, status: 'PAID', paidAmount: { amount: '60.00', currency: 'USD' } },
      userErrors: [],
    });
    const month = { from: '2026-03-01', to: '2026-03-31' };
    const usd = (amount: string) => ({ amount, currency: 'USD' });
    expect((await summary(bob, { ...month, view: 'HOUSEHOLD', householdId: home })).paidTotal).toEqual(usd('60.00'));
    expect((await summary(bob, { ...month, view: 'MY_SHARE' })).paidTotal).toEqual(usd('20.00'));
    expect((await summary(ann, { ...month, view: 'MY_SHARE' })).paidTotal).toEqual(usd('40.00'));
    // Gym is Ann's alone: edit rights reach shared records only.
    expect(
      (await gqlErrors(bob.token, UPDATE, updateVariables(records.gym, { description: 'x' })))[0].extensions.code,
    ).toBe('NOT_FOUND');
  });

  it("keeps a member's kept answers exact when the owner changes a shared record", async () => {
    const variables = {
      view: 'HOUSEHOLD',
      householdId: home,
      memberId: members.bob,
      from: '2026-03-01',
      to: '2026-03-31',
    };
    expect(await totalOf(bob, variables)).toBe('25.16');
    const edit = await testApp.http
      .put(`/api/v1/subscriptions/${records.streaming}`)
      .set('authorization', `Bearer ${ann.token}`)
      .type('form')
      .send({ price: '18.49' });
    expect(edit.status).toBe(200);
    // 18.49 by thirds: 6.16, 6.16, 6.17.
    expect(await totalOf(bob, variables)).toBe('26.16');
    await testApp.http
      .put(`/api/v1/subscriptions/${records.streaming}`)
      .set('authorization', `Bearer ${ann.token}`)
      .type('form')
      .send({ price: '15.49' });
  });

  it('refuses splits that do not add up, strangers and members of other households, changing nothing', async () => {
    const { ann: a, bob: b, cleo: c } = members;
    const digest = await ownedRowsDigest(testApp, ann.id);
    const answerOf = async (token: string, id: number, input: Record<string, unknown>) =>
      (await graphql(testApp, token, SHARE, shareVariables(id, input))).body;
    const fieldOf = async (token: string, id: number, input: Record<string, unknown>) =>
      (await answerOf(token, id, input)).errors[0].extensions;
    const notAddingUp = await answerOf(ann.token, records.gym, {
      payerMemberId: a,
      mode: 'AMOUNTS',
      shares: [
        { memberId: a, value: '20' },
        { memberId: b, value: '5' },
      ],
    });
    expect(notAddingUp.data.shareSubscription).toEqual({
      subscription: null,
      userErrors: [
        { field: ['input', 'shares'], code: 'BAD_USER_INPUT', message: 'The amounts must add up to the price, 30.00.' },
      ],
    });
    expect(notAddingUp.errors[0].extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      errors: { shares: ['The amounts must add up to the price, 30.00.'] },
    });
    expect(
      await fieldOf(ann.token, records.gym, {
        payerMemberId: a,
        mode: 'PERCENTAGES',
        shares: [
          { memberId: a, value: '50' },
          { memberId: c, value: '49.99' },
        ],
      }),
    ).toMatchObject({
      errors: { shares: ['The percentages must add up to 100.'] },
    });
    expect(
      await fieldOf(ann.token, records.gym, { payerMemberId: a, mode: 'EQUAL', shares: [{ memberId: a, value: '1' }] }),
    ).toMatchObject({
      errors: { shares: [expect.any(String)] },
    });
    expect(
      await fieldOf(ann.token, records.gym, {
        payerMemberId: a,
        mode: 'EQUAL',
        shares: [{ memberId: a }, { memberId: a }],
      }),
    ).toMatchObject({
      errors: { shares: [expect.any(String)] },
    });
    expect(await fieldOf(ann.token, records.gym, { payerMemberId: a, mode: 'EQUAL', shares: [] })).toMatchObject({
      errors: { shares: [expect.any(String)] },
    });
    // A value that is no decimal is refused by the schema; an id of another type is not found, naming its field.
    const notDecimal = await answerOf(ann.token, records.gym, {
      payerMemberId: a,
      mode: 'AMOUNTS',
      shares: [{ memberId: a, value: 'thirty' }],
    });
    expect(notDecimal.errors[0].message).toMatch(/decimal/);
    expect(
      (await answerOf(ann.token, records.gym, { payerMemberId: home, mode: 'EQUAL', shares: [{ memberId: a }] })).data
        .shareSubscription.userErrors,
    ).toEqual([{ field: ['input', 'payerMemberId'], code: 'NOT_FOUND', message: expect.any(String) }]);
    expect(
      (
        await answerOf(ann.token, records.gym, {
          payerMemberId: a,
          mode: 'EQUAL',
          shares: [{ memberId: a }, { memberId: home }],
        })
      ).data.shareSubscription.userErrors,
    ).toEqual([{ field: ['input', 'shares', '1', 'memberId'], code: 'NOT_FOUND', message: expect.any(String) }]);

    // Dan has a household of his own: Home's members and records are not his to use or read.
    const flat = (
      await graphqlData(
        testApp,
        dan.token,
        'mutation { createHousehold(input: { name: "Flat" }) { household { id legacyId viewerMember { id } } } }',
      )
    ).createHousehold.household;
    const flatMember = flat.viewerMember.id;
    const dansRecord = Number((await createSubscription(testApp, dan.token, {})).id);
    const foreignPayer = await answerOf(dan.token, dansRecord, {
      payerMemberId: a,
      mode: 'EQUAL',
      shares: [{ memberId: flatMember }],
    });
    expect(foreignPayer.data.shareSubscription.userErrors).toEqual([
      { field: ['input', 'payerMemberId'], code: 'BAD_USER_INPUT', message: expect.any(String) },
    ]);
    expect(foreignPayer.errors[0].extensions).toMatchObject({ errors: { payer_member_id: [expect.any(String)] } });
    expect(
      await fieldOf(dan.token, dansRecord, { payerMemberId: flatMember, mode: 'EQUAL', shares: [{ memberId: b }] }),
    ).toMatchObject({
      errors: { shares: [expect.any(String)] },
    });
    expect(
      (
        await fieldOf(dan.token, records.streaming, {
          payerMemberId: flatMember,
          mode: 'EQUAL',
          shares: [{ memberId: flatMember }],
        })
      ).code,
    ).toBe('NOT_FOUND');
    for (const variables of [
      { view: 'HOUSEHOLD', householdId: home },
      { view: 'HOUSEHOLD', householdId: flat.id, memberId: members.bob },
    ]) {
      expect((await gqlErrors(dan.token, SUMMARY, variables))[0].extensions.code).toBe('NOT_FOUND');
    }
    expect(
      (await gqlErrors(dan.token, SUMMARY, { view: 'MY_SHARE', householdId: flat.id }))[0].extensions,
    ).toMatchObject({
      errors: { household_id: [expect.any(String)] },
    });
    expect((await gqlErrors(dan.token, ENTRIES, { h: home }))[0].extensions.code).toBe('NOT_FOUND');
    // Home's members, household and records are not found for Dan, in every mutation's payload.
    for (const [mutation, input] of [
      ['updateHouseholdMember', { memberId: b, canEdit: true }],
      ['removeHouseholdMember', { memberId: c }],
      ['inviteHouseholdMember', { memberId: c, email: dan.email }],
      ['unshareSubscription', { id: recordId(records.streaming) }],
      ['renameHousehold', { id: home, name: 'Mine' }],
      ['deleteHousehold', { id: home }],
      ['leaveHousehold', { householdId: home }],
    ] as const) {
      const type = `${mutation[0]!.toUpperCase()}${mutation.slice(1)}Input`;
      const answer = await graphql(
        testApp,
        dan.token,
        `mutation($input: ${type}!) { ${mutation}(input: $input) { userErrors { field code } } }`,
        { input },
      );
      expect([mutation, answer.body.data[mutation].userErrors[0].code]).toEqual([mutation, 'NOT_FOUND']);
      expect(answer.body.errors[0].extensions.code).toBe('NOT_FOUND');
    }
    const [dansView] = (await graphqlData(testApp, dan.token, HOUSEHOLDS)).households;
    expect(dansView).toMatchObject({ id: flat.id, viewerRole: 'OWNER', subscriptions: { totalCount: 0, nodes: [] } });
    // The owner always stays (removing a member who pays or shares: household-members.test.ts).
    const REMOVE =
      'mutation($id: ID!) { removeHouseholdMember(input: { memberId: $id }) { deletedHouseholdMemberId userErrors { field code } } }';
    const owner = await graphql(testApp, ann.token, REMOVE, { id: a });
    expect(owner.body.data.removeHouseholdMember).toEqual({
      deletedHouseholdMemberId: null,
      userErrors: [{ field: ['input', 'memberId'], code: 'BAD_USER_INPUT' }],
    });
    expect(owner.body.errors[0].extensions.errors).toHaveProperty('member_id');
    const second = await graphql(
      testApp,
      ann.token,
      'mutation { createHousehold(input: { name: "Second" }) { household { id } userErrors { field code } } }',
    );
    expect(second.body.data.createHousehold).toEqual({
      household: null,
      userErrors: [{ field: [], code: 'CONFLICT' }],
    });
    const unnamed = await graphql(
      testApp,
      ann.token,
      'mutation($id: ID!) { renameHousehold(input: { id: $id, name: "" }) { household { id } userErrors { field code } } }',
      { id: home },
    );
    expect(unnamed.body.data.renameHousehold.userErrors).toEqual([
      { field: ['input', 'name'], code: 'BAD_USER_INPUT' },
    ]);
    expect(await ownedRowsDigest(testApp, ann.id)).toBe(digest);
  });

  it('renames the household and invites a name-only member anew', async () => {
    const { renameHousehold } = await graphqlData(
      testApp,
      ann.token,
      'mutation($id: ID!) { renameHousehold(input: { id: $id, name: "Home" }) { household { id name } userErrors { code } } }',
      { id: home },
    );
    expect(renameHousehold).toEqual({ household: { id: home, name: 'Home' }, userErrors: [] });
    const INVITE = `mutation($input: InviteHouseholdMemberInput!) {
      inviteHouseholdMember(input: $input) { householdMember { id status email } invitationCode invitationEmailed userErrors { field code } }
    }`;
    const { inviteHouseholdMember } = await graphqlData(testApp, ann.token, INVITE, {
      input: { memberId: members.cleo, email: 'cleo@example.com' },
    });
    expect(inviteHouseholdMember).toEqual({
      householdMember: { id: members.cleo, status: 'INVITED', email: 'cleo@example.com' },
      invitationCode: expect.stringMatching(/^[A-Za-z0-9_-]{24}$/),
      invitationEmailed: false,
      userErrors: [],
    });
    const joinedAlready = await graphql(testApp, ann.token, INVITE, {
      input: { memberId: members.bob, email: bob.email },
    });
    expect(joinedAlready.body.data.inviteHouseholdMember).toEqual({
      householdMember: null,
      invitationCode: null,
      invitationEmailed: null,
      userErrors: [{ field: ['input', 'memberId'], code: 'BAD_USER_INPUT' }],
    });
  });

  it('lets a member leave (kept by name for their shares), and unsharing takes a record out of the household', async () => {
    expect(
      (
        await graphqlData(
          testApp,
          bob.token,
          'mutation($h: ID!) { leaveHousehold(input: { householdId: $h }) { leftHouseholdId userErrors { code } } }',
          { h: home },
        )
      ).leaveHousehold,
    ).toEqual({ leftHouseholdId: home, userErrors: [] });
    expect((await graphqlData(testApp, bob.token, HOUSEHOLDS)).households).toEqual([]);
    expect(
      (await graphqlData(testApp, bob.token, 'query($id: ID!) { node(id: $id) { id } }', { id: home })).node,
    ).toBeNull();
    expect((await gqlErrors(bob.token, SUMMARY, { view: 'HOUSEHOLD', householdId: home }))[0].extensions.code).toBe(
      'NOT_FOUND',
    );
    expect(
      (await testApp.http.get(`/api/v1/subscriptions/${records.internet}`).set('authorization', `Bearer ${bob.token}`))
        .status,
    ).toBe(400);
    // Bob bears only his music now; his shares stay in Ann's household under his name.
    expect(await totalOf(bob, { view: 'MY_SHARE' })).toBe('109.89');
    expect(await totalOf(ann, { view: 'HOUSEHOLD', householdId: home, memberId: members.bob })).toBe('370.29');
    const unshared = (
      await graphqlData(
        testApp,
        ann.token,
        'mutation($id: ID!) { unshareSubscription(input: { id: $id }) { subscription { id sharing { mode } } userErrors { code } } }',
        { id: recordId(records.insurance) },
      )
    ).unshareSubscription;
    expect(rowIdOf(unshared.subscription.id)).toBe(records.insurance);
    expect(unshared).toMatchObject({ subscription: { sharing: null }, userErrors: [] });
    expect(await totalOf(ann, { view: 'HOUSEHOLD', householdId: home })).toBe('1010.88');
    // Deleting the household unshares everything; the records stay Ann's.
    expect(
      (
        await graphqlData(
          testApp,
          ann.token,
          'mutation($id: ID!) { deleteHousehold(input: { id: $id }) { deletedHouseholdId userErrors { code } } }',
          { id: home },
        )
      ).deleteHousehold,
    ).toEqual({ deletedHouseholdId: home, userErrors: [] });
    expect(await totalOf(ann, { view: 'MY_SHARE' })).toBe('1470.87');
    expect(
      (
        await sql(
          testApp,
          `select 1 from "subscription_splits" s join "subscriptions" r on r."id" = s."subscription_id" where r."user_id" = ?`,
          [ann.id],
        )
      ).length,
    ).toBe(0);
  });
});
