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

const MEMBER_FIELDS = 'id name email isOwner joined invited canEdit invitationCode invitationEmailed';
const HOUSEHOLDS = `{ households { id name ownerName isOwner canEdit memberId members { ${MEMBER_FIELDS} }
  subscriptions { id productName price sharing { householdId payerMemberId payerName mode shares { memberId memberName value amount } } } } }`;
const ADD = `mutation($input: HouseholdMemberInput!) { addHouseholdMember(input: $input) { ${MEMBER_FIELDS} } }`;
const SHARE = `mutation($id: Int!, $input: SharingInput!) {
  shareSubscription(id: $id, input: $input) { id sharing { householdId payerMemberId payerName mode shares { memberId memberName value amount } } }
}`;
const SUMMARY = `query($from: LocalDate, $to: LocalDate, $groupBy: SpendingGroupBy, $view: SpendingView, $householdId: Int, $memberId: Int) {
  spendingSummary(from: $from, to: $to, groupBy: $groupBy, view: $view, householdId: $householdId, memberId: $memberId) {
    periodTotal plannedTotal paidTotal monthlyTotal budget groups { key periodTotal paidTotal }
  }
}`;
const CHANGE = `mutation($id: Int!, $price: String!, $from: LocalDate!) { changePrice(id: $id, price: $price, effectiveFrom: $from) { id price } }`;
const UPDATE = `mutation($id: Int!, $input: SubscriptionUpdateInput!) { updateSubscription(id: $id, input: $input) { id description } }`;

const summary = async (user: SignedUpUser, variables: Record<string, unknown>) =>
  (await graphqlData(testApp, user.token, SUMMARY, { from: '2026-01-01', to: '2026-12-31', ...variables }))
    .spendingSummary;
const totalOf = async (user: SignedUpUser, variables: Record<string, unknown>) =>
  (await summary(user, variables)).periodTotal as string;

describe('a household with splits and a mid-year price change', () => {
  let ann: SignedUpUser;
  let bob: SignedUpUser;
  let dan: SignedUpUser;
  let home: number;
  const members: Record<string, number> = {};
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
        'mutation { createHousehold(name: "Home") { id memberId members { id name isOwner } } }',
      )
    ).createHousehold;
    home = created.id;
    members.ann = created.memberId;
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
      id: expect.any(Number),
      name: 'Bob',
      email: bob.email,
      isOwner: false,
      joined: false,
      invited: true,
      canEdit: false,
      invitationCode: expect.stringMatching(/^[A-Za-z0-9_-]{24}$/),
      invitationEmailed: false,
    });
    bobsCode = invited.invitationCode;
    members.bob = invited.id;
    const named = (await graphqlData(testApp, ann.token, ADD, { input: { name: 'Cleo' } })).addHouseholdMember;
    expect(named).toMatchObject({ name: 'Cleo', email: null, joined: false, invited: false, invitationCode: null });
    members.cleo = named.id;
    // The code is kept only as its hash.
    const stored = await sql<{ invitation_hash: string }>(
      testApp,
      `select "invitation_hash" from "household_members" where "id" = ?`,
      [members.bob],
    );
    expect(stored[0].invitation_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(stored[0].invitation_hash).not.toContain(bobsCode);
  });

  it('lets only the invited address join with the code, once', async () => {
    expect(
      (
        await gqlErrors(dan.token, 'mutation($code: String!) { joinHousehold(code: $code) { id } }', { code: bobsCode })
      )[0].extensions.code,
    ).toBe('NOT_FOUND');
    const joined = (
      await graphqlData(
        testApp,
        bob.token,
        'mutation($code: String!) { joinHousehold(code: $code) { id name ownerName isOwner canEdit memberId } }',
        {
          code: bobsCode,
        },
      )
    ).joinHousehold;
    expect(joined).toEqual({
      id: home,
      name: 'Home',
      ownerName: 'Ann House',
      isOwner: false,
      canEdit: false,
      memberId: members.bob,
    });
    expect(
      (
        await gqlErrors(bob.token, 'mutation($code: String!) { joinHousehold(code: $code) { id } }', { code: bobsCode })
      )[0].extensions.code,
    ).toBe('NOT_FOUND');
  });

  it('shares records equally, by amounts and by percentages, each part cut to the cent and adding up to the price', async () => {
    const { ann: a, bob: b, cleo: c } = members;
    const equal = (
      await graphqlData(testApp, ann.token, SHARE, {
        id: records.streaming,
        input: { payerMemberId: a, mode: 'EQUAL', shares: [{ memberId: a }, { memberId: b }, { memberId: c }] },
      })
    ).shareSubscription;
    expect(equal.sharing).toEqual({
      householdId: home,
      payerMemberId: a,
      payerName: 'Ann House',
      mode: 'EQUAL',
      shares: [
        { memberId: a, memberName: 'Ann House', value: null, amount: '5.16' },
        { memberId: b, memberName: 'Bob', value: null, amount: '5.16' },
        { memberId: c, memberName: 'Cleo', value: null, amount: '5.17' },
      ],
    });
    const amounts = (
      await graphqlData(testApp, ann.token, SHARE, {
        id: records.internet,
        input: {
          payerMemberId: b,
          mode: 'AMOUNTS',
          shares: [
            { memberId: a, value: '40' },
            { memberId: b, value: '20.00' },
          ],
        },
      })
    ).shareSubscription.sharing;
    expect(amounts.shares.map((share: { value: string; amount: string }) => [share.value, share.amount])).toEqual([
      ['40.00', '40.00'],
      ['20.00', '20.00'],
    ]);
    const percentages = (
      await graphqlData(testApp, ann.token, SHARE, {
        id: records.insurance,
        input: {
          payerMemberId: a,
          mode: 'PERCENTAGES',
          shares: [
            { memberId: a, value: '33.33' },
            { memberId: b, value: '33.33' },
            { memberId: c, value: '33.34' },
          ],
        },
      })
    ).shareSubscription.sharing;
    expect(percentages.shares.map((share: { amount: string }) => share.amount)).toEqual(['33.32', '33.33', '33.34']);
    // Mid-year rises: 15.49 → 17.99 and 60.00 → 75.00 from July 1 (the amounts keep their proportions).
    await graphqlData(testApp, ann.token, CHANGE, { id: records.streaming, price: '17.99', from: '2026-07-01' });
    await graphqlData(testApp, ann.token, CHANGE, { id: records.internet, price: '75.00', from: '2026-07-01' });
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
    expect(months.groups.map((group: { key: string; periodTotal: string }) => [group.key, group.periodTotal])).toEqual([
      ['2026-04', '58.49'],
      ['2026-05', '25.16'],
      ['2026-06', '25.16'],
      ['2026-07', '31.00'],
    ]);
    // A household's totals carry no personal budget.
    await graphqlData(testApp, ann.token, 'mutation { setBudget(input: { amount: "100.00" }) { id } }');
    expect(
      (await summary(ann, { view: 'HOUSEHOLD', householdId: home, from: '2026-03-01', to: '2026-03-31' })).budget,
    ).toBeNull();
    expect((await summary(ann, { view: 'MY_SHARE', from: '2026-03-01', to: '2026-03-31' })).budget).toBe('100.00');
  });

  it('shows members the shared records read-only, and none of the rest', async () => {
    const [seen] = (await graphqlData(testApp, bob.token, HOUSEHOLDS)).households;
    expect(seen).toMatchObject({ id: home, isOwner: false, canEdit: false, memberId: members.bob });
    // Only the owner sees the members' addresses.
    expect(
      seen.members.map((member: { name: string; email: string | null; isOwner: boolean }) => [
        member.name,
        member.email,
        member.isOwner,
      ]),
    ).toEqual([
      ['Ann House', null, true],
      ['Bob', null, false],
      ['Cleo', null, false],
    ]);
    expect(seen.subscriptions.map((record: { id: number }) => record.id)).toEqual([
      records.streaming,
      records.internet,
      records.insurance,
    ]);
    expect(seen.subscriptions[0]).toMatchObject({ price: '15.49', sharing: { mode: 'EQUAL', payerName: 'Ann House' } });
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
    const entries = (
      await graphqlData(
        testApp,
        bob.token,
        'query($h: Int) { paymentEntries(filter: { householdId: $h, status: PENDING }) { id subscriptionId dueDate } }',
        {
          h: home,
        },
      )
    ).paymentEntries;
    expect(
      entries.every((entry: { subscriptionId: number }) =>
        [records.streaming, records.internet, records.insurance].includes(entry.subscriptionId),
      ),
    ).toBe(true);
    const march = entries.find(
      (entry: { subscriptionId: number; dueDate: string }) =>
        entry.subscriptionId === records.internet && entry.dueDate === '2026-03-20',
    );
    expect(march).toBeDefined();
    // Reading the ledger made its planned entries; the refusals after it change nothing.
    const digest = await ownedRowsDigest(testApp, ann.id);
    expect(
      (await gqlErrors(bob.token, UPDATE, { id: records.internet, input: { description: 'mine now' } }))[0].extensions
        .code,
    ).toBe('NOT_FOUND');
    expect(
      (await gqlErrors(bob.token, CHANGE, { id: records.internet, price: '1.00', from: '2026-08-01' }))[0].extensions
        .code,
    ).toBe('NOT_FOUND');
    expect(
      (await gqlErrors(bob.token, 'mutation($id: Int!) { markPaid(entryId: $id) { id } }', { id: march.id }))[0]
        .extensions.code,
    ).toBe('NOT_FOUND');
    expect(await ownedRowsDigest(testApp, ann.id)).toBe(digest);
  });

  it('lets a member with edit rights edit shared records and record payments, split like the plan', async () => {
    await graphqlData(
      testApp,
      ann.token,
      'mutation($id: Int!) { updateHouseholdMember(memberId: $id, input: { canEdit: true }) { canEdit } }',
      {
        id: members.bob,
      },
    );
    const edited = (
      await graphqlData(testApp, bob.token, UPDATE, { id: records.internet, input: { description: 'Fibre' } })
    ).updateSubscription;
    expect(edited).toEqual({ id: records.internet, description: 'Fibre' });
    const [event] = await sql<{ user_id: number }>(
      testApp,
      `select "user_id" from "webhook_events" where "subscription_id" = ? order by "id" desc limit 1`,
      [records.internet],
    );
    expect(event.user_id).toBe(ann.id);
    const entries = (
      await graphqlData(
        testApp,
        bob.token,
        'query($h: Int) { paymentEntries(filter: { householdId: $h }) { id subscriptionId dueDate } }',
        { h: home },
      )
    ).paymentEntries;
    const march = entries.find(
      (entry: { subscriptionId: number; dueDate: string }) =>
        entry.subscriptionId === records.internet && entry.dueDate === '2026-03-20',
    );
    const paid = (
      await graphqlData(
        testApp,
        bob.token,
        'mutation($id: Int!) { markPaid(entryId: $id, paidAt: "2026-03-20") { status paidAmount } }',
        { id: march.id },
      )
    ).markPaid;
    expect(paid).toEqual({ status: 'PAID', paidAmount: '60.00' });
    const month = { from: '2026-03-01', to: '2026-03-31' };
    expect((await summary(bob, { ...month, view: 'HOUSEHOLD', householdId: home })).paidTotal).toBe('60.00');
    expect((await summary(bob, { ...month, view: 'MY_SHARE' })).paidTotal).toBe('20.00');
    expect((await summary(ann, { ...month, view: 'MY_SHARE' })).paidTotal).toBe('40.00');
    // Gym is Ann's alone: edit rights reach shared records only.
    expect(
      (await gqlErrors(bob.token, UPDATE, { id: records.gym, input: { description: 'x' } }))[0].extensions.code,
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
    const fieldOf = async (token: string, id: number, input: Record<string, unknown>) =>
      (await gqlErrors(token, SHARE, { id, input }))[0].extensions;
    expect(
      await fieldOf(ann.token, records.gym, {
        payerMemberId: a,
        mode: 'AMOUNTS',
        shares: [
          { memberId: a, value: '20' },
          { memberId: b, value: '5' },
        ],
      }),
    ).toMatchObject({
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

    // Dan has a household of his own: Home's members and records are not his to use or read.
    const flat = (await graphqlData(testApp, dan.token, 'mutation { createHousehold(name: "Flat") { id memberId } }'))
      .createHousehold;
    const dansRecord = Number((await createSubscription(testApp, dan.token, {})).id);
    expect(
      await fieldOf(dan.token, dansRecord, { payerMemberId: a, mode: 'EQUAL', shares: [{ memberId: flat.memberId }] }),
    ).toMatchObject({
      errors: { payer_member_id: [expect.any(String)] },
    });
    expect(
      await fieldOf(dan.token, dansRecord, { payerMemberId: flat.memberId, mode: 'EQUAL', shares: [{ memberId: b }] }),
    ).toMatchObject({
      errors: { shares: [expect.any(String)] },
    });
    expect(
      (
        await fieldOf(dan.token, records.streaming, {
          payerMemberId: flat.memberId,
          mode: 'EQUAL',
          shares: [{ memberId: flat.memberId }],
        })
      ).code,
    ).toBe('NOT_FOUND');
    for (const variables of [
      { view: 'HOUSEHOLD', householdId: home },
      { view: 'HOUSEHOLD', householdId: flat.id, memberId: b },
    ]) {
      expect((await gqlErrors(dan.token, SUMMARY, variables))[0].extensions.code).toBe('NOT_FOUND');
    }
    expect(
      (await gqlErrors(dan.token, SUMMARY, { view: 'MY_SHARE', householdId: flat.id }))[0].extensions,
    ).toMatchObject({
      errors: { household_id: [expect.any(String)] },
    });
    expect(
      (
        await gqlErrors(dan.token, 'query($h: Int) { paymentEntries(filter: { householdId: $h }) { id } }', { h: home })
      )[0].extensions.code,
    ).toBe('NOT_FOUND');
    expect(
      (
        await gqlErrors(
          dan.token,
          'mutation($id: Int!) { updateHouseholdMember(memberId: $id, input: { canEdit: true }) { id } }',
          { id: b },
        )
      )[0].extensions.code,
    ).toBe('NOT_FOUND');
    expect(
      (await gqlErrors(dan.token, 'mutation($id: Int!) { removeHouseholdMember(memberId: $id) }', { id: c }))[0]
        .extensions.code,
    ).toBe('NOT_FOUND');
    expect(
      (
        await gqlErrors(dan.token, 'mutation($id: Int!) { unshareSubscription(id: $id) { id } }', {
          id: records.streaming,
        })
      )[0].extensions.code,
    ).toBe('NOT_FOUND');
    const [dansView] = (await graphqlData(testApp, dan.token, HOUSEHOLDS)).households;
    expect(dansView).toMatchObject({ id: flat.id, isOwner: true, subscriptions: [] });
    // The owner always stays (removing a member who pays or shares: household-members.test.ts).
    expect(
      (await gqlErrors(ann.token, 'mutation($id: Int!) { removeHouseholdMember(memberId: $id) }', { id: a }))[0]
        .extensions.errors,
    ).toHaveProperty('member_id');
    expect((await gqlErrors(ann.token, 'mutation { createHousehold(name: "Second") { id } }'))[0].extensions.code).toBe(
      'CONFLICT',
    );
    expect(await ownedRowsDigest(testApp, ann.id)).toBe(digest);
  });

  it('lets a member leave (kept by name for their shares), and unsharing takes a record out of the household', async () => {
    expect(
      (await graphqlData(testApp, bob.token, 'mutation($h: Int!) { leaveHousehold(householdId: $h) }', { h: home }))
        .leaveHousehold,
    ).toBe(true);
    expect((await graphqlData(testApp, bob.token, HOUSEHOLDS)).households).toEqual([]);
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
        'mutation($id: Int!) { unshareSubscription(id: $id) { id sharing { mode } } }',
        { id: records.insurance },
      )
    ).unshareSubscription;
    expect(unshared).toEqual({ id: records.insurance, sharing: null });
    expect(await totalOf(ann, { view: 'HOUSEHOLD', householdId: home })).toBe('1010.88');
    // Deleting the household unshares everything; the records stay Ann's.
    expect((await graphqlData(testApp, ann.token, 'mutation { deleteHousehold }')).deleteHousehold).toBe(true);
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
