import { toGlobalId } from '../../src/platform/graphql/global-ids';
import { countOwnedRows } from '../support/hardening';
import { expectErrorBody } from '../support/shapes';
import { createSubscription } from '../support/subscriptions';
import { graphql, graphqlData, type SignedUpUser, signUp, startTestApp, type TestApp } from '../support/test-app';

let testApp: TestApp;
let ann: SignedUpUser;
const ISO_MICROS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
/** GraphQL's DateTime: ISO 8601 in UTC. */
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
const auth = (token: string) => ({ authorization: `Bearer ${token}`, accept: 'application/json' });
const FIELDS = {
  alert_name: 'Week before',
  time_period: '7',
  time: '08:30',
  alert_condition: '1',
  alert_type: '1',
  timezone: 'Europe/Berlin',
  alert_subs_type: '3',
};

beforeAll(async () => {
  testApp = await startTestApp();
  ann = await signUp(testApp, 'Ann');
});
afterAll(() => testApp.close());

function createAlert(token: string, fields: Record<string, string> = FIELDS) {
  const request = testApp.http.post('/api/v1/alerts').set(auth(token));
  for (const [name, value] of Object.entries(fields)) request.field(name, value);
  return request;
}

const READ_KEYS = [
  'id',
  'user_id',
  'is_default',
  'alert_name',
  'time_period',
  'time_cycle',
  'time',
  'alert_condition',
  'alert_contact',
  'alert_type',
  'timezone',
  'alert_subs_type',
  'created_at',
  'updated_at',
];

function expectReadShape(alert: Record<string, unknown>): void {
  expect(Object.keys(alert).sort()).toEqual([...READ_KEYS].sort());
  for (const field of [
    'id',
    'user_id',
    'is_default',
    'time_period',
    'alert_condition',
    'alert_type',
    'alert_subs_type',
  ])
    expect([field, Number.isInteger(alert[field])]).toEqual([field, true]);
  expect(alert.time).toMatch(/^\d{2}:\d{2}:\d{2}$/);
  expect(alert.created_at).toMatch(ISO_MICROS);
  expect(alert.updated_at).toMatch(ISO_MICROS);
}

describe('POST /api/v1/alerts (operation 14)', () => {
  it('answers the created definition with the numeric fields as strings and no time_cycle', async () => {
    const response = await createAlert(ann.token);
    expect(response.status).toBe(200);
    expect(Object.keys(response.body).sort()).toEqual(READ_KEYS.filter((key) => key !== 'time_cycle').sort());
    expect(response.body).toMatchObject({
      user_id: ann.id,
      is_default: 0,
      alert_name: 'Week before',
      time_period: '7',
      time: '08:30',
      alert_condition: '1',
      alert_contact: null,
      alert_type: '1',
      timezone: 'Europe/Berlin',
      alert_subs_type: '3',
    });
    expect(Number.isInteger(response.body.id)).toBe(true);
    expect(response.body.created_at).toMatch(ISO_MICROS);
    expect(response.body.updated_at).toMatch(ISO_MICROS);
  });

  it('answers 401 without a token', async () => {
    const response = await testApp.http.post('/api/v1/alerts').field('alert_name', 'x');
    expect(response.status).toBe(401);
    expectErrorBody(response.body);
  });

  it('names each bad or missing field and stores nothing', async () => {
    const before = await countOwnedRows(testApp, 'alerts', ann.id);
    const bad = await createAlert(ann.token, {
      ...FIELDS,
      time: '25:00',
      timezone: 'Mars/Olympus',
      alert_condition: '4',
      alert_type: '0',
      alert_subs_type: '9',
      time_period: 'soon',
    });
    expect(bad.status).toBe(400);
    expectErrorBody(bad.body, ['time', 'timezone', 'alert_condition', 'alert_type', 'alert_subs_type', 'time_period']);
    const missing = await createAlert(ann.token, { alert_name: 'only a name' });
    expect(missing.status).toBe(400);
    expectErrorBody(missing.body, [
      'time_period',
      'time',
      'alert_condition',
      'alert_type',
      'timezone',
      'alert_subs_type',
    ]);
    expect(await countOwnedRows(testApp, 'alerts', ann.id)).toBe(before);
  });

  it('carries what a reminder needs: period with its unit, date, local time, zone, kinds of record, channel', async () => {
    const created = (
      await createAlert(ann.token, {
        ...FIELDS,
        time_cycle: '2',
        alert_contact: 'me@example.com',
        alert_condition: '3',
        alert_type: '3',
      })
    ).body;
    const [row] = await testApp.app.db.orm.em
      .getConnection()
      .execute<Record<string, unknown>[]>('select * from "alerts" where "id" = ?', [created.id]);
    expect(row).toMatchObject({
      time_period: 7,
      time_cycle: 2,
      time: '08:30:00',
      timezone: 'Europe/Berlin',
      alert_condition: 3,
      alert_type: 3,
      alert_subs_type: 3,
      alert_contact: 'me@example.com',
    });
  });
});

describe('reading alerts (operations 15 and 16)', () => {
  it('reads integers, HH:MM:SS and ISO timestamps with microseconds', async () => {
    const created = (await createAlert(ann.token)).body;
    const response = await testApp.http.get(`/api/v1/alerts/${created.id}`).set(auth(ann.token));
    expect(response.status).toBe(200);
    expectReadShape(response.body);
    expect(response.body).toMatchObject({
      id: created.id,
      time_period: 7,
      time: '08:30:00',
      time_cycle: null,
      alert_condition: 1,
      created_at: created.created_at,
    });
  });

  it('shows every user the system default alert', async () => {
    const response = await testApp.http.get('/api/v1/alerts/1').set(auth(ann.token));
    expect(response.status).toBe(200);
    expectReadShape(response.body);
    expect(response.body).toMatchObject({ id: 1, is_default: 1, user_id: 0 });
  });

  it('lists with q, start, length and sort, including the system alert', async () => {
    const user = await signUp(testApp, 'Lister');
    const first = (await createAlert(user.token, { ...FIELDS, alert_name: 'Alpha reminder' })).body;
    const second = (await createAlert(user.token, { ...FIELDS, alert_name: 'Beta reminder' })).body;
    const list = async (query: Record<string, string>) =>
      testApp.http.get('/api/v1/alerts').query(query).set(auth(user.token));
    const newestFirst = await list({ sort: 'created_at:desc' });
    expect(newestFirst.status).toBe(200);
    expect(newestFirst.body.map((a: { id: number }) => a.id)).toEqual([second.id, first.id, 1]);
    for (const alert of newestFirst.body) expectReadShape(alert);
    expect((await list({ sort: 'id:asc' })).body.map((a: { id: number }) => a.id)).toEqual([1, first.id, second.id]);
    expect((await list({ q: 'beta' })).body.map((a: { id: number }) => a.id)).toEqual([second.id]);
    expect((await list({ sort: 'id:asc', start: '1', length: '1' })).body.map((a: { id: number }) => a.id)).toEqual([
      first.id,
    ]);
    const none = await list({ q: 'nothing like this' });
    expect(none.status).toBe(400);
    expectErrorBody(none.body);
    const badSort = await list({ sort: 'secret:asc' });
    expect(badSort.status).toBe(400);
    expectErrorBody(badSort.body, ['sort']);
  });

  it('answers 400 for a missing id', async () => {
    const response = await testApp.http.get('/api/v1/alerts/999999').set(auth(ann.token));
    expect(response.status).toBe(400);
    expectErrorBody(response.body);
  });
});

describe('PUT and DELETE /api/v1/alerts/{id} (operations 17 and 18)', () => {
  it('updates from URL-encoded fields and answers with the create quirks', async () => {
    const created = (await createAlert(ann.token)).body;
    const response = await testApp.http
      .put(`/api/v1/alerts/${created.id}`)
      .set(auth(ann.token))
      .type('form')
      .send({ ...FIELDS, alert_name: 'Two days before', time_period: '2', time: '19:05', alert_type: '2' });
    expect(response.status).toBe(200);
    expect(response.body).not.toHaveProperty('time_cycle');
    expect(response.body).toMatchObject({
      id: created.id,
      alert_name: 'Two days before',
      time_period: '2',
      time: '19:05',
      alert_type: '2',
      alert_condition: '1',
      alert_subs_type: '3',
    });
    expect(response.body.updated_at).toMatch(ISO_MICROS);
    const read = (await testApp.http.get(`/api/v1/alerts/${created.id}`).set(auth(ann.token))).body;
    expect(read).toMatchObject({ time_period: 2, time: '19:05:00', alert_type: 2 });
    const bad = await testApp.http
      .put(`/api/v1/alerts/${created.id}`)
      .set(auth(ann.token))
      .type('form')
      .send({ time: '7pm' });
    expect(bad.status).toBe(400);
    expectErrorBody(bad.body, ['time']);
    expect((await testApp.http.get(`/api/v1/alerts/${created.id}`).set(auth(ann.token))).body).toEqual(read);
  });

  it('deletes an unused alert; one that records use (deleted records too) is a 409, as the original', async () => {
    const created = (await createAlert(ann.token)).body;
    const record = await createSubscription(testApp, ann.token, { alert_id: String(created.id) });
    expect(record.alert_id).toBe(created.id);
    await testApp.http.delete(`/api/v1/subscriptions/${record.id}`).set(auth(ann.token)).expect(200);
    const refused = await testApp.http.delete(`/api/v1/alerts/${created.id}`).set(auth(ann.token));
    expect(refused.status).toBe(409);
    expectErrorBody(refused.body);
    await testApp.app.db.orm.em.getConnection().execute('delete from "subscriptions" where "id" = ?', [record.id]);
    const response = await testApp.http.delete(`/api/v1/alerts/${created.id}`).set(auth(ann.token));
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: true, message: expect.any(String) });
    expect((await testApp.http.get(`/api/v1/alerts/${created.id}`).set(auth(ann.token))).status).toBe(400);
  });

  it('never changes or deletes the system default alert', async () => {
    const update = await testApp.http
      .put('/api/v1/alerts/1')
      .set(auth(ann.token))
      .type('form')
      .send({ alert_name: 'Mine now' });
    expect(update.status).toBe(400);
    expectErrorBody(update.body);
    const remove = await testApp.http.delete('/api/v1/alerts/1').set(auth(ann.token));
    expect(remove.status).toBe(400);
    expect((await testApp.http.get('/api/v1/alerts/1').set(auth(ann.token))).body.alert_name).toBe('Default alert');
  });
});

describe('two users', () => {
  it("B can neither read, list, change, delete nor link A's alert", async () => {
    const a = await signUp(testApp, 'A');
    const b = await signUp(testApp, 'B');
    const alert = (await createAlert(a.token)).body;
    const asB = auth(b.token);
    expect((await testApp.http.get(`/api/v1/alerts/${alert.id}`).set(asB)).status).toBe(400);
    expect(
      (await testApp.http.put(`/api/v1/alerts/${alert.id}`).set(asB).type('form').send({ alert_name: 'x' })).status,
    ).toBe(400);
    expect((await testApp.http.delete(`/api/v1/alerts/${alert.id}`).set(asB)).status).toBe(400);
    expect((await testApp.http.get('/api/v1/alerts').set(asB)).body.map((x: { id: number }) => x.id)).toEqual([1]);
    const linked = await testApp.http
      .post('/api/v1/subscriptions')
      .set(asB)
      .field('brand_id', '1')
      .field('type', '1')
      .field('price', '1')
      .field('price_type', 'USD')
      .field('billing_type', '2')
      .field('billing_frequency', '1')
      .field('billing_cycle', '3')
      .field('payment_date', '2026-01-01')
      .field('status', '1')
      .field('recurring', '1')
      .field('alert_id', String(alert.id));
    expect(linked.status).toBe(400);
    expectErrorBody(linked.body, ['alert_id']);
    const globalId = toGlobalId('Alert', alert.id);
    expect(
      (await graphql(testApp, b.token, `{ alert(id: "${globalId}") { id } }`)).body.errors[0].extensions.code,
    ).toBe('NOT_FOUND');
    expect((await graphqlData(testApp, b.token, `{ node(id: "${globalId}") { id } }`)).node).toBeNull();
    expect((await testApp.http.get(`/api/v1/alerts/${alert.id}`).set(auth(a.token))).body.alert_name).toBe(
      'Week before',
    );
  });
});

const ALERT_FIELDS = `id legacyId name timePeriod timeCycle time timezone condition channel subjects contact isSystem createdAt updatedAt`;
const PAYLOAD = `alert { ${ALERT_FIELDS} } userErrors { field code message }`;

describe('GraphQL alerts', () => {
  it("creates, lists, updates and deletes the caller's alerts, with enums in and out", async () => {
    const user = await signUp(testApp, 'Graph');
    const { createAlert } = await graphqlData(
      testApp,
      user.token,
      `mutation($input: CreateAlertInput!) { createAlert(input: $input) { ${PAYLOAD} } }`,
      {
        input: {
          name: 'Month before',
          timePeriod: 1,
          timeCycle: 'MONTHS',
          time: '09:00',
          timezone: 'America/New_York',
          channel: 'EMAIL',
        },
      },
    );
    expect(createAlert.userErrors).toEqual([]);
    const created = createAlert.alert;
    expect(created).toEqual({
      id: expect.any(String),
      legacyId: expect.any(Number),
      name: 'Month before',
      timePeriod: 1,
      timeCycle: 'MONTHS',
      time: '09:00:00',
      timezone: 'America/New_York',
      condition: 'BEFORE_DUE_DATE',
      channel: 'EMAIL',
      subjects: 'SUBSCRIPTION',
      contact: null,
      isSystem: false,
      createdAt: expect.stringMatching(DATE_TIME),
      updatedAt: expect.stringMatching(DATE_TIME),
    });
    expect(created.id).toBe(toGlobalId('Alert', created.legacyId));
    // The REST API reads the same row, with the enums' codes.
    const rest = (await testApp.http.get(`/api/v1/alerts/${created.legacyId}`).set(auth(user.token))).body;
    expect(rest).toMatchObject({ time_cycle: 3, alert_type: 2, alert_condition: 2, alert_subs_type: 1 });

    const { alerts } = await graphqlData(testApp, user.token, '{ alerts { id legacyId isSystem channel } }');
    expect(alerts).toEqual([
      { id: toGlobalId('Alert', 1), legacyId: 1, isSystem: true, channel: expect.any(String) },
      { id: created.id, legacyId: created.legacyId, isSystem: false, channel: 'EMAIL' },
    ]);

    const { updateAlert } = await graphqlData(
      testApp,
      user.token,
      `mutation($input: UpdateAlertInput!) { updateAlert(input: $input) { ${PAYLOAD} } }`,
      { input: { id: created.id, time: '18:45', condition: 'ALL', channel: 'WEBHOOK', subjects: 'LIFETIME' } },
    );
    expect(updateAlert).toEqual({
      alert: {
        ...created,
        time: '18:45:00',
        condition: 'ALL',
        channel: 'WEBHOOK',
        subjects: 'LIFETIME',
        updatedAt: expect.stringMatching(DATE_TIME),
      },
      userErrors: [],
    });
    const { alert } = await graphqlData(testApp, user.token, `query($id: ID!) { alert(id: $id) { ${ALERT_FIELDS} } }`, {
      id: created.id,
    });
    expect(alert).toEqual(updateAlert.alert);

    const { deleteAlert } = await graphqlData(
      testApp,
      user.token,
      'mutation($input: DeleteAlertInput!) { deleteAlert(input: $input) { deletedAlertId userErrors { field code } } }',
      { input: { id: created.id } },
    );
    expect(deleteAlert).toEqual({ deletedAlertId: created.id, userErrors: [] });
    expect(
      (await graphql(testApp, user.token, `{ alert(id: "${created.id}") { id } }`)).body.errors[0].extensions.code,
    ).toBe('NOT_FOUND');
  });

  it('refuses a bad input in userErrors naming the input field, and keeps it in errors', async () => {
    const user = await signUp(testApp, 'Refused');
    const answer = await graphql(
      testApp,
      user.token,
      `mutation($input: CreateAlertInput!) { createAlert(input: $input) { ${PAYLOAD} } }`,
      { input: { name: '', timePeriod: 400, time: '25:00', timezone: 'UTC', channel: 'ALL', contact: 'nobody' } },
    );
    expect(answer.body.data.createAlert.alert).toBeNull();
    const fields = answer.body.data.createAlert.userErrors.map((error: { field: string[] }) => error.field);
    expect(fields.sort()).toEqual([
      ['input', 'contact'],
      ['input', 'name'],
      ['input', 'time'],
      ['input', 'timePeriod'],
    ]);
    for (const error of answer.body.data.createAlert.userErrors) {
      expect(error).toEqual({ field: expect.any(Array), code: 'BAD_USER_INPUT', message: expect.any(String) });
    }
    expect(answer.body.errors[0].extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      errors: { alert_name: expect.any(Array), time_period: expect.any(Array), time: expect.any(Array) },
    });
    const unknownEnum = await graphql(
      testApp,
      user.token,
      `
        mutation {
          createAlert(input: { name: "x", timePeriod: 1, time: "09:00", timezone: "UTC", channel: PIGEON }) {
            alert {
              id
            }
          }
        }
      `,
    );
    expect(unknownEnum.body.errors[0].extensions.code).toMatch(/GRAPHQL_VALIDATION_FAILED|BAD_USER_INPUT/);
  });

  it('refuses to change or delete the system default alert, and an id of another type, as user errors', async () => {
    const user = await signUp(testApp, 'System');
    const system = toGlobalId('Alert', 1);
    const update = await graphql(
      testApp,
      user.token,
      'mutation($input: UpdateAlertInput!) { updateAlert(input: $input) { alert { id } userErrors { field code } } }',
      { input: { id: system, name: 'Mine now' } },
    );
    expect(update.body.data.updateAlert).toEqual({ alert: null, userErrors: [{ field: [], code: 'CONFLICT' }] });
    const remove = await graphql(
      testApp,
      user.token,
      'mutation($input: DeleteAlertInput!) { deleteAlert(input: $input) { deletedAlertId userErrors { field code } } }',
      { input: { id: toGlobalId('Tag', 1) } },
    );
    expect(remove.body.data.deleteAlert).toEqual({
      deletedAlertId: null,
      userErrors: [{ field: ['input', 'id'], code: 'NOT_FOUND' }],
    });
  });

  it('finds an alert by node(id:) for its owner (and the system default for everyone), null for another user', async () => {
    const owner = await signUp(testApp, 'Owner');
    const stranger = await signUp(testApp, 'Stranger');
    const { createAlert } = await graphqlData(
      testApp,
      owner.token,
      'mutation { createAlert(input: {name: "Mine", timePeriod: 2, time: "07:00", timezone: "UTC", channel: BROWSER}) { alert { id legacyId } } }',
    );
    const query = `query($ids: [ID!]!) { nodes(ids: $ids) { __typename id legacyId ... on Alert { name channel } } }`;
    const ids = [createAlert.alert.id, toGlobalId('Alert', 1)];
    const mine = await graphqlData(testApp, owner.token, query, { ids });
    expect(mine.nodes).toEqual([
      { __typename: 'Alert', id: ids[0], legacyId: createAlert.alert.legacyId, name: 'Mine', channel: 'BROWSER' },
      { __typename: 'Alert', id: ids[1], legacyId: 1, name: 'Default alert', channel: expect.any(String) },
    ]);
    const theirs = await graphqlData(testApp, stranger.token, query, { ids });
    expect(theirs.nodes).toEqual([null, expect.objectContaining({ legacyId: 1 })]);
  });
});
