import { toGlobalId } from '../../src/platform/graphql/global-ids';
import { createSubscription } from '../support/subscriptions';
import { graphql, graphqlData, type SignedUpUser, signUp, sql, startTestApp, type TestApp } from '../support/test-app';
import { daysFromToday } from '../support/test-clock';

/**
 * Issue 39, items 8 to 10: what a household member touches of the owner's shared records. A member reads a
 * shared record's schedule and price but not the owner's alert set-up (GraphQL and REST); a member's edit
 * names tags and products in the owner's account, never their own; removing a member hands what they pay and
 * share back to the owner, and they no longer read the records.
 */
let testApp: TestApp;
let ann: SignedUpUser;
let bob: SignedUpUser;
/** The members' global ids, and their numeric ids (which the tables take). */
const members: Record<string, string> = {};
const legacy: Record<string, number> = {};

type GqlError = { message: string; extensions: { code: string; errors?: Record<string, string[]> } };
const gqlErrors = async (token: string, query: string, variables?: Record<string, unknown>) =>
  (await graphql(testApp, token, query, variables)).body.errors as GqlError[];
const restGet = (token: string, id: number) =>
  testApp.http.get(`/api/v1/subscriptions/${id}`).set('authorization', `Bearer ${token}`);

const ADD = `mutation($input: AddHouseholdMemberInput!) {
  addHouseholdMember(input: $input) { householdMember { id legacyId } invitationCode userErrors { field code message } }
}`;
const JOIN =
  'mutation($code: String!) { joinHousehold(input: { code: $code }) { household { id } userErrors { code } } }';
const SHARE = `mutation($input: ShareSubscriptionInput!) {
  shareSubscription(input: $input) { subscription { id } userErrors { field code message } }
}`;
const SHARING = 'sharing { payerMemberId mode shares { memberId value amount { amount currency } } }';
const usd = (amount: string) => ({ amount, currency: 'USD' });
const UPDATE_MUTATION = `mutation($input: UpdateSubscriptionInput!) {
  updateSubscription(input: $input) {
    subscription { id description price { amount currency } alerts { id name contact } productName product { id legacyId } tags { name } }
    userErrors { field code message }
  }
}`;
const UPDATE = UPDATE_MUTATION;
/** updateSubscription's variables for a record's numeric id and the input's other fields. */
const updateVariables = (id: number, input: Record<string, unknown>) => ({
  input: { id: toGlobalId('SubscriptionRecord', id), ...input },
});
const recordId = (id: number) => toGlobalId('SubscriptionRecord', id);

/** Adds a member to Ann's household with edit rights; with an account, invited and joined. */
async function addMember(key: string, name: string, user?: SignedUpUser): Promise<void> {
  const added = (
    await graphqlData(testApp, ann.token, ADD, { input: { name, email: user?.email ?? null, canEdit: true } })
  ).addHouseholdMember;
  expect(added.userErrors).toEqual([]);
  if (user) {
    const { joinHousehold } = await graphqlData(testApp, user.token, JOIN, { code: added.invitationCode });
    expect(joinHousehold.userErrors).toEqual([]);
  }
  members[key] = added.householdMember.id;
  legacy[key] = added.householdMember.legacyId;
}

/** A record of Ann's, shared in her household. */
async function sharedRecord(price: string, sharing: Record<string, unknown>): Promise<number> {
  const id = Number((await createSubscription(testApp, ann.token, { price, payment_date: daysFromToday(3) })).id);
  const { shareSubscription } = await graphqlData(testApp, ann.token, SHARE, {
    input: { id: toGlobalId('SubscriptionRecord', id), ...sharing },
  });
  expect(shareSubscription.userErrors).toEqual([]);
  return id;
}

beforeAll(async () => {
  testApp = await startTestApp();
  [ann, bob] = await Promise.all([signUp(testApp, 'Ann Owner'), signUp(testApp, 'Bob Member')]);
  const { viewerMember } = (
    await graphqlData(
      testApp,
      ann.token,
      'mutation { createHousehold(input: { name: "Home" }) { household { viewerMember { id legacyId } } } }',
    )
  ).createHousehold.household;
  members.ann = viewerMember.id;
  legacy.ann = viewerMember.legacyId;
  await addMember('bob', 'Bob', bob);
  await addMember('cleo', 'Cleo');
});
afterAll(() => testApp.close());

describe("a member reads a shared record without its owner's alert set-up", () => {
  const contact = `ann.private.${process.pid}@example.com`;
  let alertId: string;
  let alertRow: number;
  let record: number;
  /** The system's default alert (row 1). */
  const defaultAlert = toGlobalId('Alert', 1);

  beforeAll(async () => {
    const created = (
      await graphqlData(
        testApp,
        ann.token,
        `mutation($contact: String) {
          createAlert(input: { name: "Ann's private reminder", timePeriod: 3, time: "07:15", timezone: "Europe/Berlin", channel: EMAIL, contact: $contact }) {
            alert { id legacyId } userErrors { field code message }
          }
        }`,
        { contact },
      )
    ).createAlert.alert;
    alertId = created.id;
    alertRow = created.legacyId;
    record = await sharedRecord('12.00', {
      payerMemberId: members.ann,
      mode: 'EQUAL',
      shares: [{ memberId: members.ann }, { memberId: members.bob }],
    });
    const { setSubscriptionAlerts } = await graphqlData(
      testApp,
      ann.token,
      'mutation($input: SetSubscriptionAlertsInput!) { setSubscriptionAlerts(input: $input) { subscription { id } userErrors { field code message } } }',
      { input: { id: recordId(record), alertIds: [alertId, defaultAlert] } },
    );
    expect(setSubscriptionAlerts).toEqual({ subscription: { id: recordId(record) }, userErrors: [] });
  });

  it('shows the owner their alerts, and the member the schedule and price with no alert of the owner', async () => {
    const query =
      'query($id: ID!) { subscription(id: $id) { id price { amount currency } paymentDate nextPaymentDate alerts { id name contact } } }';
    const owners = (await graphqlData(testApp, ann.token, query, { id: recordId(record) })).subscription;
    expect(owners).toMatchObject({ alerts: [{ id: alertId, contact }, { id: defaultAlert }] });

    const seen = (await graphqlData(testApp, bob.token, query, { id: recordId(record) })).subscription;
    expect(seen).toEqual({
      id: recordId(record),
      price: usd('12.00'),
      paymentDate: owners.paymentDate,
      nextPaymentDate: owners.nextPaymentDate,
      alerts: [],
    });
    const [household] = (
      await graphqlData(
        testApp,
        bob.token,
        '{ households { subscriptions { nodes { id price { amount currency } alerts { id contact } } } } }',
      )
    ).households;
    expect(household.subscriptions.nodes).toEqual([{ id: recordId(record), price: usd('12.00'), alerts: [] }]);
    // A member's edits answer the record as the member reads it.
    const edited = (await graphqlData(testApp, bob.token, UPDATE, updateVariables(record, { description: 'Shared' })))
      .updateSubscription;
    expect(edited).toMatchObject({ subscription: { description: 'Shared', alerts: [] }, userErrors: [] });
    const repriced = (
      await graphqlData(
        testApp,
        bob.token,
        'mutation($id: ID!, $from: LocalDate!) { changePrice(input: { id: $id, price: "12.00", effectiveFrom: $from }) { subscription { id alerts { id } } userErrors { code } } }',
        { id: recordId(record), from: daysFromToday(40) },
      )
    ).changePrice;
    expect(repriced).toEqual({ subscription: { id: recordId(record), alerts: [] }, userErrors: [] });

    const rest = await restGet(bob.token, record);
    expect(rest.status).toBe(200);
    expect(rest.body).toEqual([
      expect.objectContaining({ id: record, user_id: ann.id, price: 12, alert_id: 0, alert_type: null }),
    ]);
    for (const answer of [seen, household, edited, repriced, rest.body]) {
      expect(JSON.stringify(answer)).not.toContain(contact);
      expect(JSON.stringify(answer)).not.toContain('private reminder');
    }
    // The owner's record keeps its alerts.
    expect((await graphqlData(testApp, ann.token, query, { id: recordId(record) })).subscription).toMatchObject({
      alerts: [{ id: alertId }, { id: defaultAlert }],
    });
  });

  it("refuses a member's change of the owner's alerts, changing nothing", async () => {
    // No alert (null), the default alert and the owner's own.
    for (const alert of [null, defaultAlert, alertId]) {
      const answer = (await graphql(testApp, bob.token, UPDATE, updateVariables(record, { alertId: alert }))).body;
      expect([alert, answer.errors?.[0]?.extensions?.errors]).toEqual([alert, { alert_id: [expect.any(String)] }]);
      expect([alert, answer.data.updateSubscription]).toEqual([
        alert,
        {
          subscription: null,
          userErrors: [{ field: ['input', 'alertId'], code: 'BAD_USER_INPUT', message: expect.any(String) }],
        },
      ]);
    }
    const rest = await testApp.http
      .put(`/api/v1/subscriptions/${record}`)
      .set('authorization', `Bearer ${bob.token}`)
      .type('form')
      .send({ alert_id: '0' });
    expect(rest.status).toBe(400);
    const [stored] = await sql<{ alert_id: number }>(testApp, `select "alert_id" from "subscriptions" where "id" = ?`, [
      record,
    ]);
    expect(stored.alert_id).toBe(alertRow);
  });
});

describe("a member's edit names tags and products in the owner's account", () => {
  const ownedBy = async (userId: number) => {
    const [row] = await sql<{ tags: string; products: string }>(
      testApp,
      `select (select count(*) from "tags" where "user_id" = ?) as "tags", (select count(*) from "products" where "owner_id" = ?) as "products"`,
      [userId, userId],
    );
    return { tags: Number(row.tags), products: Number(row.products) };
  };

  it('makes a new tag and product for the owner, none for the member', async () => {
    const record = await sharedRecord('20.00', {
      payerMemberId: members.ann,
      mode: 'EQUAL',
      shares: [{ memberId: members.ann }, { memberId: members.bob }],
    });
    const bobsBefore = await ownedBy(bob.id);
    const bobsTags = (await graphqlData(testApp, bob.token, '{ tags { id name } }')).tags;

    const edited = (
      await graphqlData(
        testApp,
        bob.token,
        UPDATE,
        updateVariables(record, { tagNames: ['Household streaming'], productName: 'Household Cinema' }),
      )
    ).updateSubscription.subscription;
    expect(edited).toMatchObject({ productName: 'Household Cinema', tags: [{ name: 'Household streaming' }] });
    // The same over REST: a product named by brand_id and a tag.
    const put = await testApp.http
      .put(`/api/v1/subscriptions/${record}`)
      .set('authorization', `Bearer ${bob.token}`)
      .send({ brand_id: 'Household Radio', tags: ['Household streaming', 'Household radio'] });
    expect(put.status).toBe(200);

    expect(await ownedBy(bob.id)).toEqual(bobsBefore);
    expect((await graphqlData(testApp, bob.token, '{ tags { id name } }')).tags).toEqual(bobsTags);
    const owners = (
      await graphqlData(
        testApp,
        ann.token,
        'query($id: ID!) { subscription(id: $id) { productName product { id legacyId } tags { name } } }',
        { id: recordId(record) },
      )
    ).subscription;
    expect(owners).toMatchObject({
      productName: 'Household Radio',
      tags: [{ name: 'Household radio' }, { name: 'Household streaming' }],
    });
    const products = await sql<{ id: number; owner_id: number }>(
      testApp,
      `select "id", "owner_id" from "products" where "product_name" in ('Household Cinema', 'Household Radio') order by "id"`,
    );
    expect(products).toEqual([
      { id: edited.product.legacyId, owner_id: ann.id },
      { id: owners.product.legacyId, owner_id: ann.id },
    ]);
    const tags = await sql<{ user_id: number }>(
      testApp,
      `select "user_id" from "tags" where "name" in ('Household streaming', 'Household radio')`,
    );
    expect(tags).toEqual([{ user_id: ann.id }, { user_id: ann.id }]);
  });

  it('makes nothing for someone refused the record', async () => {
    const record = await sharedRecord('20.00', {
      payerMemberId: members.ann,
      mode: 'EQUAL',
      shares: [{ memberId: members.ann }],
    });
    const dan = await signUp(testApp, 'Dan Stranger');
    const dansBefore = await ownedBy(dan.id);
    const [error] = await gqlErrors(
      dan.token,
      UPDATE,
      updateVariables(record, { tagNames: ['Not yours'], productName: 'Not yours either' }),
    );
    expect(error.extensions.code).toBe('NOT_FOUND');
    expect(await ownedBy(dan.id)).toEqual(dansBefore);
  });
});

describe('removing a member hands what they pay and share back to the owner', () => {
  let eve: SignedUpUser;
  const records: Record<string, number> = {};
  const sharingOf = async (id: number) =>
    (
      await graphqlData(testApp, ann.token, `query($id: ID!) { subscription(id: $id) { ${SHARING} } }`, {
        id: recordId(id),
      })
    ).subscription.sharing;
  const period = () => ({ from: daysFromToday(0), to: daysFromToday(100) });
  const totalOf = async (memberId?: string) => {
    const { periodTotal } = (
      await graphqlData(
        testApp,
        ann.token,
        `query($from: LocalDate, $to: LocalDate, $h: ID, $m: ID) { spendingSummary(from: $from, to: $to, view: HOUSEHOLD, householdId: $h, memberId: $m) { periodTotal { amount currency } } }`,
        { ...period(), h: household, m: memberId },
      )
    ).spendingSummary;
    expect(periodTotal.currency).toBe('USD');
    return periodTotal.amount as string;
  };
  let household: string;

  beforeAll(async () => {
    eve = await signUp(testApp, 'Eve Member');
    await addMember('eve', 'Eve', eve);
    household = (await graphqlData(testApp, ann.token, '{ households { id } }')).households[0].id;
    const { ann: a, eve: e, cleo: c } = members;
    records.paid = await sharedRecord('60.00', {
      payerMemberId: e,
      mode: 'AMOUNTS',
      shares: [
        { memberId: a, value: '40.00' },
        { memberId: e, value: '20.00' },
      ],
    });
    records.equal = await sharedRecord('15.49', {
      payerMemberId: a,
      mode: 'EQUAL',
      shares: [{ memberId: a }, { memberId: e }, { memberId: c }],
    });
    records.percent = await sharedRecord('30.00', {
      payerMemberId: c,
      mode: 'PERCENTAGES',
      shares: [
        { memberId: e, value: '50' },
        { memberId: c, value: '50' },
      ],
    });
  });

  it('makes the owner the payer and the holder of their shares, the splits adding up as before, and takes their access away', async () => {
    const { ann: a, eve: e, cleo: c } = members;
    expect((await restGet(eve.token, records.paid)).status).toBe(200);
    const before = { household: await totalOf(), ann: await totalOf(a), eve: await totalOf(e), cleo: await totalOf(c) };
    expect(Number(before.eve)).toBeGreaterThan(0);

    expect(
      (
        await graphqlData(
          testApp,
          ann.token,
          'mutation($id: ID!) { removeHouseholdMember(input: { memberId: $id }) { deletedHouseholdMemberId userErrors { code } } }',
          { id: e },
        )
      ).removeHouseholdMember,
    ).toEqual({ deletedHouseholdMemberId: e, userErrors: [] });

    expect(await sharingOf(records.paid)).toEqual({
      payerMemberId: a,
      mode: 'AMOUNTS',
      shares: [{ memberId: a, value: '60.00', amount: usd('60.00') }],
    });
    // Equal shares merged are no longer equal: each keeps the amount they bore, the owner's two together.
    expect(await sharingOf(records.equal)).toEqual({
      payerMemberId: a,
      mode: 'AMOUNTS',
      shares: [
        { memberId: a, value: '10.32', amount: usd('10.32') },
        { memberId: c, value: '5.17', amount: usd('5.17') },
      ],
    });
    expect(await sharingOf(records.percent)).toEqual({
      payerMemberId: c,
      mode: 'PERCENTAGES',
      shares: [
        { memberId: a, value: '50.00', amount: usd('15.00') },
        { memberId: c, value: '50.00', amount: usd('15.00') },
      ],
    });
    // Nothing of the household's costs was lost: the owner now bears the member's part.
    expect(await totalOf()).toBe(before.household);
    expect(await totalOf(c)).toBe(before.cleo);
    expect(Number(await totalOf(a))).toBeCloseTo(Number(before.ann) + Number(before.eve), 2);

    expect(await sql(testApp, `select 1 from "household_members" where "id" = ?`, [legacy.eve])).toEqual([]);
    expect((await graphqlData(testApp, eve.token, '{ households { id } }')).households).toEqual([]);
    for (const id of Object.values(records)) {
      expect(
        (await gqlErrors(eve.token, 'query($id: ID!) { subscription(id: $id) { id } }', { id: recordId(id) }))[0]
          .extensions.code,
      ).toBe('NOT_FOUND');
      expect((await restGet(eve.token, id)).status).toBe(400);
    }
  });
});
