import { toGlobalId } from '../../src/platform/graphql/global-ids';
import { expectErrorBody } from '../support/shapes';
import { createSubscription, MINIMAL, postSubscription } from '../support/subscriptions';
import { graphql, type SignedUpUser, signUp, sql, startTestApp, type TestApp } from '../support/test-app';

// Inputs a careless client or an attacker sends: each is refused with a 4xx naming the field, stores
// nothing, and emits nothing.

let testApp: TestApp;
let user: SignedUpUser;
const auth = () => ({ authorization: `Bearer ${user.token}`, accept: 'application/json' });

beforeAll(async () => {
  testApp = await startTestApp();
  user = await signUp(testApp, 'Careless');
});
afterAll(() => testApp.close());

const events = async (id: unknown) =>
  sql(
    testApp,
    `select "topic" from "webhook_events" where "subscription_id" = ? and "topic" = 'subscription.updated'`,
    [id],
  );

describe('a NUL character', () => {
  it('in a GraphQL variable or literal is a 400 BAD_USER_INPUT naming the field, not "connection lost"', async () => {
    const viaVariable = await graphql(
      testApp,
      user.token,
      'mutation($input: CreateTagInput!) { createTag(input: $input) { tag { id } userErrors { field code } } }',
      { input: { name: 'a\u0000b' } },
    );
    expect(viaVariable.status).toBe(400);
    expect(viaVariable.body.errors[0].extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      errors: { name: [expect.any(String)] },
    });
    const viaLiteral = await graphql(testApp, user.token, '{ subscriptions(search: "x\\u0000y") { totalCount } }');
    expect(viaLiteral.body.errors[0].extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      errors: { search: [expect.any(String)] },
    });
    const viaSignUp = await graphql(
      testApp,
      null,
      'mutation { signUp(input: {email: "nul@example.com", password: "long enough password", name: "x\\u0000"}) { token userErrors { field code } } }',
    );
    expect(viaSignUp.body.errors[0].extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      errors: { name: [expect.any(String)] },
    });
    // The EmailAddress scalar refuses it before anything runs.
    const badEmail = await graphql(
      testApp,
      null,
      'mutation { signUp(input: {email: "n\\u0000l@example.com", password: "long enough password", name: "x"}) { token } }',
    );
    expect(badEmail.status).toBe(400);
    expect(await sql(testApp, `select 1 from "tags" where "name" like 'a%b'`)).toEqual([]);
  });

  it('in REST tags[] (form or JSON) is a 400 naming tags', async () => {
    const form = await postSubscription(testApp, user.token, { ...MINIMAL, 'tags[]': ['ok', 'b\u0000d'] });
    expect(form.status).toBe(400);
    expectErrorBody(form.body, ['tags']);
    const json = await testApp.http
      .post('/api/v1/subscriptions')
      .set(auth())
      .send({ ...MINIMAL, tags: ['b\u0000d'] });
    expect(json.status).toBe(400);
    expectErrorBody(json.body, ['tags']);
  });
});

describe('writes that would change nothing', () => {
  it('a PUT with a body but no Content-Type is a 415, with no event', async () => {
    const record = await createSubscription(testApp, user.token);
    const response = await testApp.http
      .put(`/api/v1/subscriptions/${record.id}`)
      .set(auth())
      .set('content-type', '')
      .send(Buffer.from('price=1.00'));
    expect(response.status).toBe(415);
    expectErrorBody(response.body);
    expect(await events(record.id)).toEqual([]);
  });

  it('a PUT with no fields is a 400, with no event', async () => {
    const record = await createSubscription(testApp, user.token);
    const response = await testApp.http
      .put(`/api/v1/subscriptions/${record.id}`)
      .set(auth())
      .type('form')
      .send({ id: String(record.id) });
    expect(response.status).toBe(400);
    expectErrorBody(response.body);
    expect(await events(record.id)).toEqual([]);
  });
});

describe('one rule, whatever the size or spelling', () => {
  it('any all-digit brand_id names a product id: one past the id range is "does not exist", never a new product', async () => {
    for (const brand of ['999999999', '1234567890', '99999999999999999999']) {
      const response = await postSubscription(testApp, user.token, { ...MINIMAL, brand_id: brand });
      expect([brand, response.status]).toEqual([brand, 400]);
      expectErrorBody(response.body, ['brand_id']);
    }
    expect(await sql(testApp, `select 1 from "products" where "owner_id" = ?`, [user.id])).toEqual([]);
  });

  it('a global id naming a row past the id range is "not found", never a server error', async () => {
    const past = toGlobalId('Tag', 2_147_483_648);
    const read = await graphql(testApp, user.token, 'query($id: ID!) { node(id: $id) { id } }', { id: past });
    expect(read.body).toEqual({ data: { node: null } });
    const write = await graphql(
      testApp,
      user.token,
      'mutation($id: ID!) { deleteTag(input: {id: $id}) { deletedTagId userErrors { field code } } }',
      { id: past },
    );
    expect(write.body.data.deleteTag).toEqual({
      deletedTagId: null,
      userErrors: [{ field: ['input', 'id'], code: 'NOT_FOUND' }],
    });
    expect(write.body.errors.map((error: { extensions: { code: string } }) => error.extensions.code)).toEqual([
      'NOT_FOUND',
    ]);
  });

  it("an e-mail another member of one's household has is a conflict on email, never a server error", async () => {
    const owner = await signUp(testApp, 'Household owner');
    const add = (name: string, email: string) =>
      graphql(
        testApp,
        owner.token,
        'mutation($input: AddHouseholdMemberInput!) { addHouseholdMember(input: $input) { householdMember { id } userErrors { field code } } }',
        { input: { name, email } },
      );
    await graphql(testApp, owner.token, 'mutation { createHousehold(input: {name: "Home"}) { household { id } } }');
    expect((await add('First', 'same@example.com')).body.data.addHouseholdMember.userErrors).toEqual([]);
    const twice = await add('Second', 'SAME@example.com');
    expect(twice.body.data.addHouseholdMember).toEqual({
      householdMember: null,
      userErrors: [{ field: ['input', 'email'], code: 'CONFLICT' }],
    });
    const other = (await add('Third', null as unknown as string)).body.data.addHouseholdMember.householdMember.id;
    const invited = await graphql(
      testApp,
      owner.token,
      'mutation($id: ID!) { inviteHouseholdMember(input: {memberId: $id, email: "same@example.com"}) { invitationCode userErrors { field code } } }',
      { id: other },
    );
    expect(invited.body.data.inviteHouseholdMember).toEqual({
      invitationCode: null,
      userErrors: [{ field: ['input', 'email'], code: 'CONFLICT' }],
    });
    expect(invited.body.errors.map((error: { extensions: { code: string } }) => error.extensions.code)).toEqual([
      'CONFLICT',
    ]);
  });

  it('counts characters, not UTF-16 units: 60 emoji make a valid 60-character name', async () => {
    const name = '🎧'.repeat(60);
    const created = await postSubscription(testApp, user.token, {
      ...MINIMAL,
      brand_id: name,
      'tags[]': ['🎵'.repeat(100)],
    });
    expect(created.status).toBe(200);
    expect(created.body.subscription.product_name).toBe(name);
    const tooLong = await postSubscription(testApp, user.token, { ...MINIMAL, brand_id: '🎧'.repeat(201) });
    expectErrorBody(tooLong.body, ['brand_id']);
    const folder = await graphql(
      testApp,
      user.token,
      `mutation { createFolder(input: {name: "${'📁'.repeat(100)}"}) { folder { name } userErrors { code } } }`,
    );
    expect(folder.body.data.createFolder).toEqual({ folder: { name: '📁'.repeat(100) }, userErrors: [] });
  });

  it('refuses currency_code and price_type that disagree, naming both, on form and JSON', async () => {
    const record = await createSubscription(testApp, user.token);
    const form = await testApp.http
      .put(`/api/v1/subscriptions/${record.id}`)
      .set(auth())
      .type('form')
      .send({ currency_code: 'EUR', price_type: 'GBP' });
    expect(form.status).toBe(400);
    expectErrorBody(form.body, ['currency_code', 'price_type']);
    const json = await testApp.http
      .put(`/api/v1/subscriptions/${record.id}`)
      .set(auth())
      .send({ currency_code: 'EUR', price_type: 'GBP' });
    expectErrorBody(json.body, ['currency_code', 'price_type']);
    expect(
      (
        await testApp.http
          .put(`/api/v1/subscriptions/${record.id}`)
          .set(auth())
          .type('form')
          .send({ currency_code: 'eur', price_type: 'EUR' })
      ).status,
    ).toBe(200);
    expect((await testApp.http.get(`/api/v1/subscriptions/${record.id}`).set(auth())).body[0].price_type).toBe('EUR');
  });
});

describe('dates stay within 0001-01-01..9999-12-31, derived ones included', () => {
  it('refuses a refund window that would end after 9999-12-31, on create and on update', async () => {
    const created = await postSubscription(testApp, user.token, {
      ...MINIMAL,
      payment_date: '9999-12-31',
      refund_days: '3650',
    });
    expect(created.status).toBe(400);
    expectErrorBody(created.body, ['refund_days']);
    const record = await createSubscription(testApp, user.token, { payment_date: '9999-12-20' });
    const updated = await testApp.http
      .put(`/api/v1/subscriptions/${record.id}`)
      .set(auth())
      .type('form')
      .send({ refund_days: '30' });
    expect(updated.status).toBe(400);
    expectErrorBody(updated.body, ['refund_days']);
    expect(
      (
        await testApp.http
          .put(`/api/v1/subscriptions/${record.id}`)
          .set(auth())
          .type('form')
          .send({ refund_days: '11' })
      ).status,
    ).toBe(200);
    expect((await testApp.http.get(`/api/v1/subscriptions/${record.id}`).set(auth())).body[0].refund_date).toBe(
      '9999-12-31',
    );
  });

  it("caps an add-on's refund_date like refund_days", async () => {
    const main = await createSubscription(testApp, user.token);
    const response = await testApp.http
      .post(`/api/v1/subscriptions/${main.id}/addon`)
      .set(auth())
      .field('type', '3')
      .field('price', '1')
      .field('price_type', 'USD')
      .field('payment_date', '2026-01-01')
      .field('refund_date', '2036-01-01');
    expect(response.status).toBe(400);
    expectErrorBody(response.body, ['refund_date']);
  });

  it('answers calendars and spending from the last month of 9999 without a server error', async () => {
    const owner = await signUp(testApp, 'Far future');
    await createSubscription(testApp, owner.token, { payment_date: '9999-12-20' });
    const rest = await testApp.http
      .get('/api/v1/calendar')
      .query({ start: '9999-12-15' })
      .set({ authorization: `Bearer ${owner.token}` });
    expect(rest.status).toBe(200);
    expect(rest.body.map((entry: { calendar_date: string }) => entry.calendar_date)).toEqual(['9999-12-20']);
    const calendar = await graphql(testApp, owner.token, '{ calendar(from: "9999-12-15") { date } }');
    expect(calendar.body.data.calendar).toEqual([{ date: '9999-12-20' }]);
    const spending = await graphql(
      testApp,
      owner.token,
      '{ spendingSummary(from: "9999-12-15", groupBy: MONTH) { periodTotal { amount currency } groups { key } } }',
    );
    expect(spending.body.errors).toBeUndefined();
    expect(spending.body.data.spendingSummary.groups).toEqual([{ key: '9999-12' }]);
  });
});

describe('a field sent twice', () => {
  it('is refused on every encoding, JSON included, naming the field and changing nothing', async () => {
    const record = await createSubscription(testApp, user.token);
    const json = await testApp.http
      .put(`/api/v1/subscriptions/${record.id}`)
      .set(auth())
      .set('content-type', 'application/json')
      .send('{"price": "1.00", "price": "2.00"}');
    expect(json.status).toBe(400);
    expectErrorBody(json.body, ['price']);
    const form = await testApp.http
      .put(`/api/v1/subscriptions/${record.id}`)
      .set(auth())
      .type('form')
      .send('price=1.00&price=2.00');
    expect(form.status).toBe(400);
    expectErrorBody(form.body, ['price']);
    const token = (
      await graphql(testApp, user.token, 'mutation { createInboundWebhookToken(input: {kind: MANAGE}) { token } }')
    ).body.data.createInboundWebhookToken.token;
    const inbound = await testApp.http
      .post(`/webhook/user/data/${token}`)
      .set('content-type', 'application/json')
      .set('x-subledger-webhook-topic', 'subscription.updated')
      .send(`{"id": "${record.id}", "price": "1.00", "price": "2.00"}`);
    expect(inbound.status).toBe(400);
    expectErrorBody(inbound.body, ['price']);
    expect((await testApp.http.get(`/api/v1/subscriptions/${record.id}`).set(auth())).body[0].price).toBe(record.price);
    expect(await events(record.id)).toEqual([]);
  });
});
