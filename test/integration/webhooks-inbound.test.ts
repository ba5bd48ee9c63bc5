import { createLogger } from '../../src/platform/logger';
import { countOwnedRows } from '../support/hardening';
import { expectErrorBody } from '../support/shapes';
import { createSubscription, expectRecordShape, MINIMAL } from '../support/subscriptions';
import { graphql, type SignedUpUser, signUp, startTestApp, type TestApp } from '../support/test-app';

let testApp: TestApp;
let ann: SignedUpUser;
let createToken: string;
let manageToken: string;

const CREATE_TOKEN = `mutation($input: CreateInboundWebhookTokenInput!) {
  createInboundWebhookToken(input: $input) {
    inboundWebhookToken { id legacyId kind createdAt lastUsedAt revokedAt }
    token
    userErrors { field code message }
  }
}`;

async function newToken(user: SignedUpUser, kind: 'CREATE' | 'MANAGE') {
  const response = await graphql(testApp, user.token, CREATE_TOKEN, { input: { kind } });
  const made = response.body.data.createInboundWebhookToken;
  expect(made.userErrors).toEqual([]);
  return { ...made.inboundWebhookToken, token: made.token } as {
    id: string;
    legacyId: number;
    token: string;
    kind: string;
    createdAt: string;
    lastUsedAt: string | null;
    revokedAt: string | null;
  };
}

beforeAll(async () => {
  testApp = await startTestApp();
  ann = await signUp(testApp, 'Ann');
  createToken = (await newToken(ann, 'CREATE')).token;
  manageToken = (await newToken(ann, 'MANAGE')).token;
});
afterAll(() => testApp.close());

/** A CREATE token of a new user of `app`, and a created event posted with it (headers named with `prefix`). */
async function createThroughNewToken(app: TestApp, prefix: string, query = '') {
  const user = await signUp(app, 'Inbound');
  const made = await graphql(
    app,
    user.token,
    'mutation { createInboundWebhookToken(input: { kind: CREATE }) { token } }',
  );
  const token = made.body.data.createInboundWebhookToken.token as string;
  const response = await app.http
    .post(`/webhook/user/data/${token}${query}`)
    .set('content-type', 'application/json')
    .set(`x-${prefix}-webhook-event`, 'created')
    .set(`x-${prefix}-webhook-resource`, 'subscription')
    .set(`x-${prefix}-webhook-topic`, 'subscription.created')
    .send(JSON.stringify(MINIMAL));
  return { token, response };
}

function send(token: string, event: string, body: unknown, headers: Record<string, string> = {}) {
  const request = testApp.http
    .post(`/webhook/user/data/${token}`)
    .set('content-type', 'application/json')
    .set('x-subledger-webhook-event', event)
    .set('x-subledger-webhook-resource', 'subscription')
    .set('x-subledger-webhook-topic', `subscription.${event}`);
  for (const [name, value] of Object.entries(headers)) request.set(name, value);
  return request.send(typeof body === 'string' ? body : JSON.stringify(body));
}

const read = async (id: unknown) =>
  (await testApp.http.get(`/api/v1/subscriptions/${id}`).set('authorization', `Bearer ${ann.token}`)).body[0];

describe('tokens', () => {
  it('are shown once, stored as SHA-256, listed and revocable', async () => {
    const made = await newToken(ann, 'MANAGE');
    expect(made).toEqual({
      id: expect.any(String),
      legacyId: expect.any(Number),
      kind: 'MANAGE',
      createdAt: expect.any(String),
      lastUsedAt: null,
      revokedAt: null,
      token: expect.stringMatching(/^whin_[A-Za-z0-9_-]{40}$/),
    });
    expect(made.id).not.toMatch(/^\d+$/);
    const rows = await testApp.app.db.orm.em
      .getConnection()
      .execute<{ token_hash: string }[]>('select "token_hash" from "inbound_webhook_tokens" where "id" = ?', [
        made.legacyId,
      ]);
    expect(rows[0].token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(rows[0].token_hash).not.toContain(made.token);
    const listed = await graphql(testApp, ann.token, '{ inboundWebhookTokens { id kind revokedAt } }');
    expect(listed.body.data.inboundWebhookTokens).toEqual(
      expect.arrayContaining([{ id: made.id, kind: 'MANAGE', revokedAt: null }]),
    );
    expect(JSON.stringify(listed.body)).not.toContain(made.token);
    // node(id:) finds it for its owner only, without the token.
    const NODE = 'query($id: ID!) { node(id: $id) { __typename id legacyId ... on InboundWebhookToken { kind } } }';
    expect((await graphql(testApp, ann.token, NODE, { id: made.id })).body.data.node).toEqual({
      __typename: 'InboundWebhookToken',
      id: made.id,
      legacyId: made.legacyId,
      kind: 'MANAGE',
    });
    const stranger = await signUp(testApp, 'Stranger');
    expect((await graphql(testApp, stranger.token, NODE, { id: made.id })).body.data.node).toBeNull();
    const REVOKE = `mutation($id: ID!) {
      revokeInboundWebhookToken(input: { id: $id }) { inboundWebhookToken { id revokedAt } userErrors { field code } }
    }`;
    const foreign = await graphql(testApp, stranger.token, REVOKE, { id: made.id });
    expect(foreign.body.data.revokeInboundWebhookToken).toEqual({
      inboundWebhookToken: null,
      userErrors: [{ field: [], code: 'NOT_FOUND' }],
    });
    const revoked = await graphql(testApp, ann.token, REVOKE, { id: made.id });
    expect(revoked.body.data.revokeInboundWebhookToken).toEqual({
      inboundWebhookToken: { id: made.id, revokedAt: expect.any(String) },
      userErrors: [],
    });
    const refused = await send(made.token, 'deleted', { id: '1' });
    expect(refused.status).toBe(401);
    expectErrorBody(refused.body);
  });

  it('takes the kind as an enum and refuses an id of another type as not found', async () => {
    const unknownKind = await graphql(testApp, ann.token, CREATE_TOKEN, { input: { kind: 'DELETE' } });
    expect(unknownKind.body.errors[0].message).toMatch(/InboundTokenKind/);
    const wrongType = await graphql(
      testApp,
      ann.token,
      'mutation($id: ID!) { revokeInboundWebhookToken(input: { id: $id }) { userErrors { field code } } }',
      { id: Buffer.from('WebhookEndpoint:1').toString('base64url') },
    );
    expect(wrongType.body.data.revokeInboundWebhookToken.userErrors).toEqual([
      { field: ['input', 'id'], code: 'NOT_FOUND' },
    ]);
  });
});

describe('POST /webhook/user/data/<token> (operation 25)', () => {
  it('creates with a CREATE token, answering 200 with the record', async () => {
    const before = await countOwnedRows(testApp, 'subscriptions', ann.id);
    const response = await send(createToken, 'created', { ...MINIMAL, brand_id: 'Inbound Service', price: '4.20' });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ status: true, message: expect.any(String) });
    expectRecordShape(response.body.subscription);
    expect(response.body.subscription).toMatchObject({ user_id: ann.id, product_name: 'Inbound Service', price: 4.2 });
    expect(await countOwnedRows(testApp, 'subscriptions', ann.id)).toBe(before + 1);
  });

  it('updates, cancels, refunds and deletes with a MANAGE token', async () => {
    const record = await createSubscription(testApp, ann.token, { refund_days: '3650' });
    const updated = await send(manageToken, 'updated', {
      id: String(record.id),
      ...MINIMAL,
      price: '9.00',
      billing_cycle: '4',
    });
    expect(updated.status).toBe(200);
    expect(updated.body.subscription).toMatchObject({ id: record.id, price: 9, billing_cycle: 4 });
    expect((await send(manageToken, 'canceled', { id: String(record.id) })).body).toEqual({
      status: true,
      message: expect.any(String),
    });
    expect((await read(record.id)).status).toBe(2);
    expect((await send(manageToken, 'refunded', { id: String(record.id) })).status).toBe(200);
    expect((await read(record.id)).status).toBe(3);
    expect((await send(manageToken, 'deleted', { id: String(record.id) })).status).toBe(200);
    expect(await read(record.id)).toBeUndefined();
  });

  it('answers 401 for an unknown token', async () => {
    const response = await send('whin_not-a-real-token-at-all', 'created', MINIMAL);
    expect(response.status).toBe(401);
    expectErrorBody(response.body);
  });

  it('answers 403 for a token of the wrong kind, changing nothing', async () => {
    const record = await createSubscription(testApp, ann.token);
    const created = await send(manageToken, 'created', MINIMAL);
    expect(created.status).toBe(403);
    expectErrorBody(created.body);
    for (const event of ['updated', 'deleted', 'refunded', 'canceled']) {
      const response = await send(createToken, event, { id: String(record.id), price: '1' });
      expect(response.status).toBe(403);
    }
    expect(await read(record.id)).toEqual(record);
  });

  it.each([
    ['a topic that disagrees', { 'x-subledger-webhook-topic': 'subscription.deleted' }],
    ['a wrong resource', { 'x-subledger-webhook-resource': 'alert' }],
  ])('answers 400 for %s', async (_label, headers) => {
    const response = await send(createToken, 'created', MINIMAL, headers);
    expect(response.status).toBe(400);
    expectErrorBody(response.body);
  });

  it('reads the event from the topic alone, as the original does', async () => {
    const record = await createSubscription(testApp, ann.token);
    const post = (token: string, headers: Record<string, string>, body: unknown) =>
      testApp.http
        .post(`/webhook/user/data/${token}`)
        .set('content-type', 'application/json')
        .set(headers)
        .send(JSON.stringify(body));
    const created = await post(createToken, { 'x-subledger-webhook-topic': 'subscription.created' }, MINIMAL);
    expect(created.status).toBe(200);
    expectRecordShape(created.body.subscription);
    const cancelled = await post(
      manageToken,
      { 'x-subledger-webhook-topic': 'subscription.canceled' },
      { id: String(record.id) },
    );
    expect(cancelled.status).toBe(200);
    expect((await read(record.id)).status).toBe(2);
    const eventOnly = await post(createToken, { 'x-subledger-webhook-event': 'created' }, MINIMAL);
    expect(eventOnly.status).toBe(200);
    const disagree = await post(
      createToken,
      { 'x-subledger-webhook-topic': 'subscription.created', 'x-subledger-webhook-event': 'deleted' },
      MINIMAL,
    );
    expect(disagree.status).toBe(400);
  });

  it('answers 400 for an unknown event or a missing event header', async () => {
    const unknown = await send(createToken, 'exploded', MINIMAL);
    expect(unknown.status).toBe(400);
    expectErrorBody(unknown.body, ['x-subledger-webhook-topic']);
    const unknownEvent = await testApp.http
      .post(`/webhook/user/data/${createToken}`)
      .set('content-type', 'application/json')
      .set('x-subledger-webhook-event', 'exploded')
      .send('{}');
    expectErrorBody(unknownEvent.body, ['x-subledger-webhook-event']);
    const missing = await testApp.http
      .post(`/webhook/user/data/${createToken}`)
      .set('content-type', 'application/json')
      .send('{}');
    expect(missing.status).toBe(400);
  });

  it('answers 400 for a body that is not JSON, not an object, or fails validation, storing nothing', async () => {
    const before = await countOwnedRows(testApp, 'subscriptions', ann.id);
    const broken = await send(createToken, 'created', '{"brand_id": ');
    expect(broken.status).toBe(400);
    expectErrorBody(broken.body);
    expect((await send(createToken, 'created', '["a"]')).status).toBe(400);
    const invalid = await send(createToken, 'created', { ...MINIMAL, price: 'lots', payment_date: '2026-02-30' });
    expect(invalid.status).toBe(400);
    expectErrorBody(invalid.body, ['price', 'payment_date']);
    const missingId = await send(manageToken, 'deleted', {});
    expectErrorBody(missingId.body, ['id']);
    expect(await countOwnedRows(testApp, 'subscriptions', ann.id)).toBe(before);
  });

  describe('created without billing_type, billing_frequency, billing_cycle, status or recurring', () => {
    // The original's webhook fills them: billing_type 1, status 0 (Draft), recurring 0 (Once); it leaves the
    // period unset, which here is once a month.
    const DEFAULTS = { billing_type: 1, billing_frequency: 1, billing_cycle: 3, status: 0, recurring: 0 };
    const FIELDS = Object.keys(DEFAULTS) as Array<keyof typeof DEFAULTS>;
    // Every value sent differs from its default, so a default that is not applied shows.
    const SENT = {
      ...MINIMAL,
      billing_type: '2',
      billing_frequency: '2',
      billing_cycle: '4',
      status: '1',
      recurring: '1',
    };
    const without = (omitted: string[]) =>
      Object.fromEntries(Object.entries(SENT).filter(([name]) => !omitted.includes(name)));

    it.each([[FIELDS], ...FIELDS.map((field) => [[field]])])('stores the defaults for %j left out', async (omitted) => {
      const response = await send(createToken, 'created', without(omitted));
      expect(response.status).toBe(200);
      const stored = await read(response.body.subscription.id);
      const expected = (field: keyof typeof DEFAULTS) =>
        omitted.includes(field) ? DEFAULTS[field] : Number(SENT[field]);
      expect(stored.billing_type).toBe(expected('billing_type'));
      expect(stored.billing_frequency).toBe(expected('billing_frequency'));
      expect(stored.billing_cycle).toBe(expected('billing_cycle'));
      expect(stored.status).toBe(expected('status'));
      expect(stored.recurring).toBe(expected('recurring'));
      expect(stored).toMatchObject({ price: 15.49, price_type: 'USD', payment_date: MINIMAL.payment_date });
    });

    it('takes null or empty values as left out', async () => {
      const response = await send(createToken, 'created', {
        ...without(FIELDS),
        billing_type: null,
        billing_cycle: '',
        status: null,
        recurring: '',
      });
      expect(response.status).toBe(200);
      expect(await read(response.body.subscription.id)).toMatchObject(DEFAULTS);
    });

    it.each([
      ['billing_type', '3'],
      ['billing_frequency', '0'],
      ['billing_cycle', '5'],
      ['status', '7'],
      ['recurring', '2'],
    ])('still answers 400 naming %s for an invalid value (%s), storing nothing', async (field, value) => {
      const before = await countOwnedRows(testApp, 'subscriptions', ann.id);
      const response = await send(createToken, 'created', { ...without(FIELDS), [field]: value });
      expect(response.status).toBe(400);
      expectErrorBody(response.body, [field]);
      expect(await countOwnedRows(testApp, 'subscriptions', ann.id)).toBe(before);
    });
  });

  it('answers 415 for a body that is not JSON by content type', async () => {
    const form = await testApp.http
      .post(`/webhook/user/data/${createToken}`)
      .set('x-subledger-webhook-event', 'created')
      .type('form')
      .send(MINIMAL);
    expect(form.status).toBe(415);
    expectErrorBody(form.body);
    const text = await testApp.http
      .post(`/webhook/user/data/${createToken}`)
      .set('content-type', 'text/plain')
      .send('hello');
    expect(text.status).toBe(415);
  });

  it("answers 400 for an id that is not the owner's: B's MANAGE token cannot touch A's record", async () => {
    const record = await createSubscription(testApp, ann.token);
    const bob = await signUp(testApp, 'Bob');
    const bobManage = (await newToken(bob, 'MANAGE')).token;
    for (const event of ['updated', 'deleted', 'refunded', 'canceled']) {
      const response = await send(bobManage, event, { id: String(record.id), price: '0' });
      expect(response.status).toBe(400);
      expectErrorBody(response.body);
    }
    expect(await read(record.id)).toEqual(record);
  });

  it('answers a repeated Idempotency-Key as the first time and changes nothing', async () => {
    const before = await countOwnedRows(testApp, 'subscriptions', ann.id);
    const first = await send(
      createToken,
      'created',
      { ...MINIMAL, brand_id: 'Once Only' },
      { 'idempotency-key': 'abc-123' },
    );
    const again = await send(
      createToken,
      'created',
      { ...MINIMAL, brand_id: 'Once Only' },
      { 'idempotency-key': 'abc-123' },
    );
    expect(first.status).toBe(200);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(await countOwnedRows(testApp, 'subscriptions', ann.id)).toBe(before + 1);
    const failedFirst = await send(createToken, 'created', { ...MINIMAL, price: 'x' }, { 'idempotency-key': 'bad-1' });
    const failedAgain = await send(createToken, 'created', { ...MINIMAL, price: 'x' }, { 'idempotency-key': 'bad-1' });
    expect(failedFirst.status).toBe(400);
    expect(failedAgain.body).toEqual(failedFirst.body);
    // Another token's key space is its own.
    const otherCreate = (await newToken(ann, 'CREATE')).token;
    const otherToken = await send(
      otherCreate,
      'created',
      { ...MINIMAL, brand_id: 'Once Only' },
      { 'idempotency-key': 'abc-123' },
    );
    expect(otherToken.body.subscription.id).not.toBe(first.body.subscription.id);
  });

  it('refuses a key reused for another request with 422, doing nothing', async () => {
    const record = await createSubscription(testApp, ann.token);
    const updated = await send(
      manageToken,
      'updated',
      { id: String(record.id), price: '3.00' },
      { 'idempotency-key': 'reused-1' },
    );
    expect(updated.status).toBe(200);
    const deleted = await send(manageToken, 'deleted', { id: String(record.id) }, { 'idempotency-key': 'reused-1' });
    expect(deleted.status).toBe(422);
    expectErrorBody(deleted.body, ['Idempotency-Key']);
    const otherBody = await send(
      manageToken,
      'updated',
      { id: String(record.id), price: '4.00' },
      { 'idempotency-key': 'reused-1' },
    );
    expect(otherBody.status).toBe(422);
    expect(await read(record.id)).toMatchObject({ id: record.id, price: 3 });
    // The same request again still answers as the first time.
    expect(
      (await send(manageToken, 'updated', { id: String(record.id), price: '3.00' }, { 'idempotency-key': 'reused-1' }))
        .body,
    ).toEqual(updated.body);
  });

  it('keeps nothing for a key whose request failed on the server (5xx): it may be sent again', async () => {
    const create = jest
      .spyOn(testApp.app.services.subscriptions, 'create')
      .mockRejectedValueOnce(new Error('disk on fire'));
    try {
      const failed = await send(
        createToken,
        'created',
        { ...MINIMAL, brand_id: 'Second Try' },
        { 'idempotency-key': 'after-500' },
      );
      expect(failed.status).toBe(500);
      const rows = await testApp.app.db.orm.em
        .getConnection()
        .execute(`select 1 from "inbound_idempotency_keys" where "key" = 'after-500'`);
      expect(rows).toEqual([]);
      const again = await send(
        createToken,
        'created',
        { ...MINIMAL, brand_id: 'Second Try' },
        { 'idempotency-key': 'after-500' },
      );
      expect(again.status).toBe(200);
      expect(again.body.subscription.product_name).toBe('Second Try');
    } finally {
      create.mockRestore();
    }
  });

  it('runs concurrent requests with one key once: one record, every answer the same', async () => {
    const before = await countOwnedRows(testApp, 'subscriptions', ann.id);
    const answers = await Promise.all(
      Array.from({ length: 10 }, () =>
        send(createToken, 'created', { ...MINIMAL, brand_id: 'Concurrent Once' }, { 'idempotency-key': 'together-1' }),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(10).fill(200));
    expect(new Set(answers.map((answer) => answer.body.subscription.id)).size).toBe(1);
    expect(await countOwnedRows(testApp, 'subscriptions', ann.id)).toBe(before + 1);
  });

  it('keeps the token out of the request log', async () => {
    const lines: string[] = [];
    const logged = await startTestApp(
      {},
      { logger: createLogger({ logLevel: 'info' }, { write: (line: string) => void lines.push(line) }) },
    );
    try {
      const { token, response } = await createThroughNewToken(logged, 'subledger', '?note=1');
      expect(response.status).toBe(200);
      const entries = lines.map((line) => JSON.parse(line) as { req?: { url: string } }).filter((entry) => entry.req);
      expect(entries.map((entry) => entry.req!.url)).toContain('/webhook/user/data/[redacted]?note=1');
      expect(lines.join('\n')).not.toContain(token);
      expect(lines.join('\n')).not.toContain(token.slice(5, 25));
    } finally {
      await logged.close();
    }
  });

  it('honours SERVICE_SHORT_NAME in the header names', async () => {
    const renamed = await startTestApp({ SERVICE_SHORT_NAME: 'svc' });
    try {
      expect((await createThroughNewToken(renamed, 'svc')).response.status).toBe(200);
    } finally {
      await renamed.close();
    }
  });
});
