import { createSubscription, MINIMAL, postSubscription } from '../support/subscriptions';
import { graphql, graphqlData, type SignedUpUser, signUp, sql, startTestApp, type TestApp } from '../support/test-app';

/**
 * Personal access tokens over HTTP: made with a sign-in's token, shown once, used as Bearer tokens on REST and
 * GraphQL alike, listed with their last use, revoked (in every process), expiring at a fixed time; a READ_ONLY
 * one reads everything and writes nothing.
 */
let testApp: TestApp;
let owner: SignedUpUser;
afterAll(() => testApp.close());
beforeAll(async () => {
  testApp = await startTestApp();
  owner = await signUp(testApp, 'Token Owner');
});

const CREATE = `mutation($input: CreatePersonalAccessTokenInput!) {
  createPersonalAccessToken(input: $input) {
    token
    personalAccessToken { id legacyId name scope createdAt lastUsedAt expiresAt }
    userErrors { field code message }
  }
}`;
const LIST = '{ personalAccessTokens { id legacyId name scope createdAt lastUsedAt expiresAt } }';
const REVOKE = `mutation($id: ID!) {
  revokePersonalAccessToken(input: { id: $id }) { personalAccessToken { id name } userErrors { field code message } }
}`;

async function createToken(
  input: Record<string, unknown>,
  as = owner.token,
): Promise<{ token: string; view: Record<string, any> }> {
  const { createPersonalAccessToken: made } = await graphqlData(testApp, as, CREATE, { input });
  expect(made.userErrors).toEqual([]);
  return { token: made.token, view: made.personalAccessToken };
}

const restGet = (path: string, token: string) => testApp.http.get(path).set('authorization', `Bearer ${token}`);
const listOf = async (token = owner.token) => (await graphqlData(testApp, token, LIST)).personalAccessTokens;

describe('createPersonalAccessToken and personalAccessTokens', () => {
  it('answers the token string once, and lists the token without it', async () => {
    const before = Date.now();
    const answer = await graphql(testApp, owner.token, CREATE, {
      input: { name: '  backup script ', scope: 'READ_WRITE' },
    });
    expect(answer.body.errors).toBeUndefined();
    const made = answer.body.data.createPersonalAccessToken;
    expect(made.userErrors).toEqual([]);
    expect(made.token).toMatch(new RegExp(`^${made.personalAccessToken.legacyId}\\|[A-Za-z0-9_-]{40}$`));
    expect(made.personalAccessToken).toEqual({
      id: expect.any(String),
      legacyId: expect.any(Number),
      name: 'backup script',
      scope: 'READ_WRITE',
      createdAt: expect.any(String),
      lastUsedAt: null,
      expiresAt: null,
    });
    expect(Date.parse(made.personalAccessToken.createdAt)).toBeGreaterThanOrEqual(before - 1000);

    const listed = await graphql(testApp, owner.token, LIST);
    expect(listed.body.data.personalAccessTokens).toContainEqual(made.personalAccessToken);
    const [, secret] = made.token.split('|');
    expect(listed.text).not.toContain(secret);
    // Only the hash is stored.
    const [row] = await sql<{ secret_hash: string; kind: string }>(
      testApp,
      'select "secret_hash", "kind" from "access_tokens" where "id" = ?',
      [made.personalAccessToken.legacyId],
    );
    expect(row.kind).toBe('PERSONAL');
    expect(row.secret_hash).not.toContain(secret);
  });

  it('refuses a name out of 1 to 100 characters, a past expiry, and both kinds of expiry at once', async () => {
    const refusal = async (input: Record<string, unknown>) =>
      (await graphql(testApp, owner.token, CREATE, { input })).body.data.createPersonalAccessToken;
    expect(await refusal({ name: '   ', scope: 'READ_ONLY' })).toEqual({
      token: null,
      personalAccessToken: null,
      userErrors: [{ field: ['input', 'name'], code: 'BAD_USER_INPUT', message: expect.any(String) }],
    });
    expect((await refusal({ name: 'x'.repeat(101), scope: 'READ_ONLY' })).userErrors[0].field).toEqual([
      'input',
      'name',
    ]);
    expect(
      (await refusal({ name: 'old', scope: 'READ_ONLY', expiresAt: new Date(Date.now() - 60_000).toISOString() }))
        .userErrors,
    ).toEqual([{ field: ['input', 'expiresAt'], code: 'BAD_USER_INPUT', message: expect.any(String) }]);
    expect(
      (
        await refusal({
          name: 'both',
          scope: 'READ_ONLY',
          expiresAt: new Date(Date.now() + 86_400_000).toISOString(),
          expiresInDays: 2,
        })
      ).userErrors[0].field,
    ).toEqual(['input', 'expiresAt']);
    expect((await refusal({ name: 'zero days', scope: 'READ_ONLY', expiresInDays: 0 })).userErrors[0].field).toEqual([
      'input',
      'expiresInDays',
    ]);
  });

  it('refuses a personal token making another one, as FORBIDDEN', async () => {
    const { token } = await createToken({ name: 'no offspring', scope: 'READ_WRITE' });
    const answer = await graphql(testApp, token, CREATE, { input: { name: 'child', scope: 'READ_WRITE' } });
    expect(answer.body.data.createPersonalAccessToken).toEqual({
      token: null,
      personalAccessToken: null,
      userErrors: [{ field: [], code: 'FORBIDDEN', message: expect.any(String) }],
    });
  });
});

describe('using a personal token', () => {
  it('works as a Bearer token on REST and GraphQL, and shows its last use, written at most once a minute', async () => {
    const { token, view } = await createToken({ name: 'client', scope: 'READ_WRITE' });
    const me = await restGet('/api/v1/auth/token', token);
    expect(me.status).toBe(200);
    expect(me.body.id).toBe(owner.id);
    expect((await graphqlData(testApp, token, '{ me { legacyId } }')).me.legacyId).toBe(owner.id);
    expect((await postSubscription(testApp, token, MINIMAL)).status).toBe(200);

    const used = (await listOf()).find((listed: { id: string }) => listed.id === view.id);
    expect(used.lastUsedAt).not.toBeNull();
    expect(Date.parse(used.lastUsedAt)).toBeGreaterThanOrEqual(Date.parse(view.createdAt));

    // A use within the minute writes nothing; a use after it writes the time again.
    const lastUse = async () =>
      (
        await sql<{ last_used_at: string }>(
          testApp,
          'select "last_used_at"::text from "access_tokens" where "id" = ?',
          [view.legacyId],
        )
      )[0].last_used_at;
    await sql(
      testApp,
      `update "access_tokens" set "last_used_at" = (now() at time zone 'utc') - interval '30 seconds' where "id" = ?`,
      [view.legacyId],
    );
    const recent = await lastUse();
    expect((await restGet('/api/v1/subscriptions', token)).status).toBe(200);
    expect(await lastUse()).toBe(recent);
    await sql(
      testApp,
      `update "access_tokens" set "last_used_at" = (now() at time zone 'utc') - interval '2 minutes' where "id" = ?`,
      [view.legacyId],
    );
    const stale = await lastUse();
    expect((await restGet('/api/v1/subscriptions', token)).status).toBe(200);
    expect(Date.parse(`${await lastUse()}Z`)).toBeGreaterThan(Date.parse(`${stale}Z`) + 60_000);
  });

  it('answers 401 once revoked, in this process and in another that knew the token', async () => {
    const { token, view } = await createToken({ name: 'to revoke', scope: 'READ_WRITE' });
    const other = await startTestApp({}, {}, testApp.database);
    try {
      // Both processes confirm the token, and keep its identity.
      for (const app of [testApp, other]) {
        expect((await app.http.get('/api/v1/auth/token').set('authorization', `Bearer ${token}`)).status).toBe(200);
      }
      const { revokePersonalAccessToken } = await graphqlData(testApp, owner.token, REVOKE, { id: view.id });
      expect(revokePersonalAccessToken).toEqual({
        personalAccessToken: { id: view.id, name: 'to revoke' },
        userErrors: [],
      });
      for (const app of [testApp, other]) {
        const answer = await app.http.get('/api/v1/subscriptions').set('authorization', `Bearer ${token}`);
        expect(answer.status).toBe(401);
        expect((await graphql(app, token, '{ me { id } }')).body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
      }
    } finally {
      await other.close();
    }
    expect((await listOf()).map((listed: { id: string }) => listed.id)).not.toContain(view.id);
    // Revoked once: again is "not found".
    expect(
      (await graphql(testApp, owner.token, REVOKE, { id: view.id })).body.data.revokePersonalAccessToken.userErrors,
    ).toEqual([{ field: [], code: 'NOT_FOUND', message: expect.any(String) }]);
  });

  it('expires at its fixed expiry, which use does not extend', async () => {
    const { token, view } = await createToken({ name: 'a week', scope: 'READ_ONLY', expiresInDays: 7 });
    const expected = Date.now() + 7 * 86_400_000;
    expect(Math.abs(Date.parse(view.expiresAt) - expected)).toBeLessThan(60_000);
    expect((await restGet('/api/v1/subscriptions', token)).status).toBe(200);
    const listed = (await listOf()).find((candidate: { id: string }) => candidate.id === view.id);
    expect(listed.expiresAt).toBe(view.expiresAt);

    await sql(
      testApp,
      `update "access_tokens" set "expires_at" = (now() at time zone 'utc') - interval '1 second' where "id" = ?`,
      [view.legacyId],
    );
    expect((await restGet('/api/v1/subscriptions', token)).status).toBe(401);
    // Still listed, its expiry saying why it fails.
    expect((await listOf()).map((candidate: { id: string }) => candidate.id)).toContain(view.id);
  });

  it('expires at a given instant, also with TOKEN_TTL_DAYS=0', async () => {
    const forever = await startTestApp({ TOKEN_TTL_DAYS: '0' });
    try {
      const user = await signUp(forever);
      const expiresAt = new Date(Date.now() + 3 * 86_400_000).toISOString();
      const { createPersonalAccessToken: made } = await graphqlData(forever, user.token, CREATE, {
        input: { name: 'dated', scope: 'READ_WRITE', expiresAt },
      });
      expect(Date.parse(made.personalAccessToken.expiresAt)).toBe(Date.parse(expiresAt));
      const use = () => forever.http.get('/api/v1/auth/token').set('authorization', `Bearer ${made.token}`);
      expect((await use()).status).toBe(200);
      await sql(
        forever,
        `update "access_tokens" set "expires_at" = (now() at time zone 'utc') - interval '1 second' where "id" = ?`,
        [made.personalAccessToken.legacyId],
      );
      expect((await use()).status).toBe(401);
    } finally {
      await forever.close();
    }
  });
});

describe('a READ_ONLY token', () => {
  let readOnly: string;
  let recordId: number;
  beforeAll(async () => {
    recordId = (await createSubscription(testApp, owner.token, {})).id as number;
    readOnly = (await createToken({ name: 'dashboard reader', scope: 'READ_ONLY' })).token;
  });

  function expectForbidden(response: { status: number; body: Record<string, unknown> }) {
    expect(response.status).toBe(403);
    expect(response.body).toEqual({ status: false, message: expect.stringMatching(/read-only/) });
  }

  it('reads on REST and GraphQL', async () => {
    const list = await restGet('/api/v1/subscriptions', readOnly);
    expect(list.status).toBe(200);
    expect(list.body.map((record: { id: number }) => record.id)).toContain(recordId);
    expect((await restGet(`/api/v1/subscriptions/${recordId}`, readOnly)).status).toBe(200);
    expect((await restGet('/api/v1/alerts', readOnly)).status).toBe(200);
    expect((await graphqlData(testApp, readOnly, '{ subscriptions { totalCount } }')).subscriptions.totalCount).toBe(
      list.body.length,
    );
  });

  it('gets 403 on every REST write, and the write does not happen', async () => {
    const auth = { authorization: `Bearer ${readOnly}` };
    expectForbidden(await postSubscription(testApp, readOnly, MINIMAL));
    expectForbidden(
      await testApp.http.put(`/api/v1/subscriptions/${recordId}`).set(auth).type('form').send({ price: '1.00' }),
    );
    expectForbidden(
      await testApp.http.patch(`/api/v1/subscriptions/${recordId}`).set(auth).type('form').send({ price: '1.00' }),
    );
    expectForbidden(await testApp.http.post(`/api/v1/subscriptions/${recordId}/cancel`).set(auth));
    expectForbidden(await testApp.http.delete(`/api/v1/subscriptions/${recordId}`).set(auth));
    expectForbidden(await testApp.http.post('/api/v1/folders').set(auth).field('name', 'nope'));
    expectForbidden(
      await testApp.http.put('/api/v1/settings/extension').set(auth).type('form').send({ notify_before: '2' }),
    );
    expect((await restGet(`/api/v1/subscriptions/${recordId}`, owner.token)).status).toBe(200);
    const [{ n }] = await sql<{ n: string }>(
      testApp,
      `select count(*) as "n" from "folders" where "user_id" = ? and "name" = 'nope'`,
      [owner.id],
    );
    expect(n).toBe('0');
  });

  it('gets FORBIDDEN on every GraphQL mutation, before any runs', async () => {
    const answer = await graphql(
      testApp,
      readOnly,
      'mutation { createTag(input: { name: "nope" }) { tag { id } userErrors { code } } }',
    );
    expect(answer.status).toBe(403);
    expect(answer.body.data).toBeUndefined();
    expect(answer.body.errors).toEqual([
      { message: expect.stringMatching(/read-only/), extensions: { code: 'FORBIDDEN' } },
    ]);
    // Hidden behind a fragment beside logout, a mutation is refused all the same, and logout does not run.
    const mixed = await graphql(
      testApp,
      readOnly,
      'mutation { ...M logout { user { id } } } fragment M on Mutation { deleteSubscription(input: { id: "x" }) { deletedSubscriptionId } }',
    );
    expect(mixed.body.errors[0].extensions.code).toBe('FORBIDDEN');
    expect((await restGet('/api/v1/auth/token', readOnly)).status).toBe(200);
    const [{ n }] = await sql<{ n: string }>(
      testApp,
      `select count(*) as "n" from "tags" where "user_id" = ? and "name" = 'nope'`,
      [owner.id],
    );
    expect(n).toBe('0');
  });

  it('may log itself out', async () => {
    const { token } = await createToken({ name: 'short-lived reader', scope: 'READ_ONLY' });
    const { logout } = await graphqlData(testApp, token, 'mutation { logout { user { legacyId } } }');
    expect(logout.user.legacyId).toBe(owner.id);
    expect((await restGet('/api/v1/auth/token', token)).status).toBe(401);
  });
});
