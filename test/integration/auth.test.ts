import { toGlobalId } from '../../src/platform/graphql/global-ids';
import { expectErrorBody, expectUserShape } from '../support/shapes';
import {
  graphql,
  graphqlData,
  type SignedUpUser,
  signUp,
  startTestApp,
  type TestApp,
  uniqueEmail,
} from '../support/test-app';

let testApp: TestApp;
let ann: SignedUpUser;

beforeAll(async () => {
  testApp = await startTestApp();
  ann = await signUp(testApp, 'Ann Lee');
});
afterAll(() => testApp.close());

function login(email: string, password: string) {
  return testApp.http
    .post('/api/v1/auth/login')
    .set('accept', 'application/json')
    .field('email', email)
    .field('password', password);
}

describe('POST /api/v1/auth/login (operation 1)', () => {
  it('answers 201 with the user and a token for multipart credentials', async () => {
    const response = await login(ann.email, ann.password);
    expect(response.status).toBe(201);
    expect(Object.keys(response.body).sort()).toEqual(['token', 'user']);
    expectUserShape(response.body.user, { id: ann.id, email: ann.email });
    expect(response.body.user).toMatchObject({
      name: 'Ann Lee',
      first_name: 'Ann',
      last_name: 'Lee',
      created_by: ann.id,
    });
    expect(response.body.token).toMatch(new RegExp(`^\\d+\\|[A-Za-z0-9_-]{40,}$`));
  });

  it('answers the same 401 for a wrong password and an unknown e-mail', async () => {
    const wrongPassword = await login(ann.email, 'not the password');
    const unknownEmail = await login('nobody@example.com', 'not the password');
    expect(wrongPassword.status).toBe(401);
    expect(unknownEmail.status).toBe(401);
    expectErrorBody(wrongPassword.body);
    expect(unknownEmail.body).toEqual(wrongPassword.body);
  });

  it('names each missing field with a 400', async () => {
    const response = await testApp.http.post('/api/v1/auth/login').field('email', '');
    expect(response.status).toBe(400);
    expectErrorBody(response.body, ['email', 'password']);
  });

  it('does not store the token: only its hash is in the database', async () => {
    const { body } = await login(ann.email, ann.password);
    const [id, secret] = (body.token as string).split('|');
    const rows = await testApp.app.db.orm.em
      .getConnection()
      .execute<{ secret_hash: string }[]>('select "secret_hash" from "access_tokens" where "id" = ?', [Number(id)]);
    expect(rows).toHaveLength(1);
    expect(rows[0].secret_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(rows[0].secret_hash).not.toContain(secret);
  });

  it('stores the password as an argon2id hash', async () => {
    const rows = await testApp.app.db.orm.em
      .getConnection()
      .execute<{ password_hash: string }[]>('select "password_hash" from "users" where "id" = ?', [ann.id]);
    expect(rows[0].password_hash).toMatch(/^\$argon2id\$/);
  });
});

describe('GET /api/v1/auth/token (operation 2)', () => {
  it('answers the bare user for a valid token', async () => {
    const response = await testApp.http.get('/api/v1/auth/token').set('authorization', `Bearer ${ann.token}`);
    expect(response.status).toBe(200);
    expectUserShape(response.body, { id: ann.id, email: ann.email });
  });

  it.each([
    ['no header', undefined],
    ['a malformed token', 'Bearer nonsense'],
    ['an unknown token', 'Bearer 999999|aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa'],
    ['the right id with a wrong secret', () => `Bearer ${ann.token.split('|')[0]}|${'b'.repeat(40)}`],
    ['another scheme', () => `Basic ${ann.token}`],
  ])('answers 401 for %s', async (_label, header) => {
    const request = testApp.http.get('/api/v1/auth/token');
    const value = typeof header === 'function' ? header() : header;
    if (value) request.set('authorization', value);
    const response = await request;
    expect(response.status).toBe(401);
    expectErrorBody(response.body);
  });

  it('refuses an expired token', async () => {
    const { body } = await login(ann.email, ann.password);
    const id = Number((body.token as string).split('|')[0]);
    await testApp.app.db.orm.em
      .getConnection()
      .execute(
        `update "access_tokens" set "expires_at" = (now() at time zone 'utc') - interval '1 second' where "id" = ?`,
        [id],
      );
    const response = await testApp.http.get('/api/v1/auth/token').set('authorization', `Bearer ${body.token}`);
    expect(response.status).toBe(401);
  });

  it('issues tokens that expire after TOKEN_TTL_DAYS', async () => {
    const { body } = await login(ann.email, ann.password);
    const id = Number((body.token as string).split('|')[0]);
    const [row] = await testApp.app.db.orm.em
      .getConnection()
      .execute<{ days: string }[]>(
        `select round(extract(epoch from ("expires_at" - "created_at")) / 86400) as "days" from "access_tokens" where "id" = ?`,
        [id],
      );
    expect(Number(row.days)).toBe(testApp.config.tokenTtlDays);
  });
});

describe('GET /api/v1/auth/logout (operation 3)', () => {
  it('revokes the presented token only', async () => {
    const first = (await login(ann.email, ann.password)).body.token as string;
    const second = (await login(ann.email, ann.password)).body.token as string;
    const response = await testApp.http.get('/api/v1/auth/logout').set('authorization', `Bearer ${first}`);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: true, message: expect.any(String) });
    expect((await testApp.http.get('/api/v1/auth/token').set('authorization', `Bearer ${first}`)).status).toBe(401);
    expect((await testApp.http.get('/api/v1/auth/token').set('authorization', `Bearer ${second}`)).status).toBe(200);
  });

  it('answers 401 without a token', async () => {
    const response = await testApp.http.get('/api/v1/auth/logout');
    expect(response.status).toBe(401);
    expectErrorBody(response.body);
  });
});

describe('every /api/v1 path of the spec but login', () => {
  const paths: Array<[string, string]> = [
    ['get', '/api/v1/auth/token'],
    ['get', '/api/v1/auth/logout'],
    ['post', '/api/v1/subscriptions'],
    ['post', '/api/v1/subscriptions/1/refund'],
    ['post', '/api/v1/subscriptions/1/cancel'],
    ['post', '/api/v1/subscriptions/1/addon'],
    ['get', '/api/v1/subscriptions'],
    ['get', '/api/v1/subscriptions/1'],
    ['get', '/api/v1/subscriptions/upcoming'],
    ['put', '/api/v1/subscriptions/1'],
    ['delete', '/api/v1/subscriptions/1'],
    ['get', '/api/v1/calendar'],
    ['post', '/api/v1/alerts'],
    ['get', '/api/v1/alerts'],
    ['get', '/api/v1/alerts/1'],
    ['put', '/api/v1/alerts/1'],
    ['delete', '/api/v1/alerts/1'],
    ['get', '/api/v1/products/search?q=net'],
    ['get', '/api/v1/products/1'],
    ['get', '/api/v1/products/categories'],
    ['get', '/api/v1/products/categories/1'],
    ['get', '/api/v1/settings/extension'],
    ['put', '/api/v1/settings/extension'],
  ];
  it.each(paths)('%s %s answers 401 JSON without a token', async (method, path) => {
    const response = await (
      testApp.http as unknown as Record<
        string,
        (p: string) => Promise<{ status: number; body: Record<string, unknown> }>
      >
    )[method](path);
    expect(response.status).toBe(401);
    expectErrorBody(response.body);
  });
});

describe('GraphQL accounts', () => {
  it('signUp refuses a taken e-mail without saying it is taken, and a short password with BAD_USER_INPUT', async () => {
    const mutation = 'mutation($input: SignUpInput!) { signUp(input: $input) { token } }';
    const taken = await testApp.http.post('/graphql').send({
      query: mutation,
      variables: { input: { email: ann.email.toUpperCase(), password: 'long enough', name: 'X' } },
    });
    expect(taken.body.errors[0].extensions).toEqual({
      code: 'BAD_USER_INPUT',
      errors: { email: [expect.any(String)] },
    });
    expect(taken.body.data.signUp).toEqual({ token: null });
    expect(JSON.stringify(taken.body)).not.toMatch(/taken|exists|already/i);
    const short = await testApp.http
      .post('/graphql')
      .send({ query: mutation, variables: { input: { email: 'short@example.com', password: 'short', name: 'X' } } });
    expect(short.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    expect(short.body.errors[0].extensions.errors.password).toEqual(expect.any(Array));
  });

  it('runs at most one signUp or login per request, however aliased or hidden in fragments', async () => {
    const twoLogins = await testApp.http.post('/graphql').send({
      query: `mutation { a: login(input: {email: "${ann.email}", password: "x1"}) { token } b: login(input: {email: "${ann.email}", password: "x2"}) { token } }`,
    });
    expect(twoLogins.status).toBe(400);
    expect(twoLogins.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    expect(twoLogins.body.data).toBeUndefined();
    const viaFragment = await testApp.http.post('/graphql').send({
      query: `mutation { ...one login(input: {email: "${ann.email}", password: "x3"}) { token } } fragment one on Mutation { signUp(input: {email: "f@example.com", password: "long enough", name: "F"}) { token } }`,
    });
    expect(viaFragment.status).toBe(400);
    const one = await testApp.http
      .post('/graphql')
      .send({ query: `mutation { login(input: {email: "${ann.email}", password: "${ann.password}"}) { token } }` });
    expect(one.body.data.login.token).toEqual(expect.any(String));
  });

  it('limits /graphql requests like /api/v1, per token and per address', async () => {
    const limited = await startTestApp({ RATE_LIMIT_PER_MINUTE: '3' });
    try {
      const statuses: number[] = [];
      for (let attempt = 0; attempt < 5; attempt++)
        statuses.push((await limited.http.post('/graphql').send({ query: '{ __typename }' })).status);
      expect(statuses).toEqual([200, 200, 200, 429, 429]);
      const refused = await limited.http.post('/graphql').send({ query: '{ __typename }' });
      expect(refused.headers['retry-after']).toEqual(expect.any(String));
      expect(refused.body.status).toBe(false);
    } finally {
      await limited.close();
    }
  });

  it('me answers the caller and UNAUTHENTICATED without a token', async () => {
    const me = await testApp.http
      .post('/graphql')
      .set('authorization', `Bearer ${ann.token}`)
      .send({ query: '{ me { id legacyId email baseCurrency timezone } }' });
    expect(me.body.data.me).toEqual({
      id: toGlobalId('User', ann.id),
      legacyId: ann.id,
      email: ann.email,
      baseCurrency: 'USD',
      timezone: 'UTC',
    });
    const anonymous = await testApp.http.post('/graphql').send({ query: '{ me { id } }' });
    expect(anonymous.body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
  });
});

const USER_FIELDS = 'id legacyId email name baseCurrency timezone weekStart theme language createdAt';

describe('GraphQL sessions and profile', () => {
  it('signUp and login answer the token and the user; a refusal answers userErrors with neither', async () => {
    const email = uniqueEmail('session');
    const { signUp: made } = await graphqlData(
      testApp,
      null,
      `mutation($input: SignUpInput!) { signUp(input: $input) { token user { ${USER_FIELDS} } userErrors { field code message } } }`,
      { input: { email, password: 'long enough', name: 'Sam Session' } },
    );
    expect(made).toEqual({
      token: expect.stringMatching(/^\d+\|[A-Za-z0-9_-]{40,}$/),
      user: {
        id: expect.any(String),
        legacyId: expect.any(Number),
        email,
        name: 'Sam Session',
        baseCurrency: 'USD',
        timezone: 'UTC',
        weekStart: 'MONDAY',
        theme: 'SYSTEM',
        language: 'BROWSER',
        createdAt: expect.any(String),
      },
      userErrors: [],
    });
    expect(made.user.id).toBe(toGlobalId('User', made.user.legacyId));

    const { login } = await graphqlData(
      testApp,
      null,
      `mutation($input: LoginInput!) { login(input: $input) { token user { ${USER_FIELDS} } userErrors { field code } } }`,
      { input: { email: ` ${email.toUpperCase()}`, password: 'long enough' } },
    );
    expect(login).toEqual({ token: expect.any(String), user: made.user, userErrors: [] });
    expect(login.token).not.toBe(made.token);
    const { me } = await graphqlData(testApp, login.token, `{ me { ${USER_FIELDS} } }`);
    expect(me).toEqual(made.user);

    const short = await graphql(
      testApp,
      null,
      'mutation($input: SignUpInput!) { signUp(input: $input) { token user { id } userErrors { field code message } } }',
      { input: { email: uniqueEmail('short'), password: 'short', name: 'S' } },
    );
    expect(short.body.data.signUp).toEqual({
      token: null,
      user: null,
      userErrors: [{ field: ['input', 'password'], code: 'BAD_USER_INPUT', message: expect.any(String) }],
    });
    expect(short.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
  });

  it('keeps wrong credentials a top-level UNAUTHENTICATED error, not a user error', async () => {
    const answer = await graphql(
      testApp,
      null,
      'mutation($input: LoginInput!) { login(input: $input) { token userErrors { field code } } }',
      { input: { email: ann.email, password: 'not the password' } },
    );
    expect(answer.body.data).toBeNull();
    expect(answer.body.errors).toEqual([
      expect.objectContaining({ path: ['login'], extensions: expect.objectContaining({ code: 'UNAUTHENTICATED' }) }),
    ]);
  });

  it('logout revokes the token of the request and answers its user', async () => {
    const user = await signUp(testApp, 'Leaving');
    const { logout } = await graphqlData(
      testApp,
      user.token,
      'mutation { logout { user { legacyId email } userErrors { field } } }',
    );
    expect(logout).toEqual({ user: { legacyId: user.id, email: user.email }, userErrors: [] });
    expect((await graphql(testApp, user.token, '{ me { id } }')).body.errors[0].extensions.code).toBe(
      'UNAUTHENTICATED',
    );
  });

  it('finds the caller by node(id:), and no other user', async () => {
    const user = await signUp(testApp, 'Noded');
    const query = 'query($id: ID!) { node(id: $id) { __typename id ... on User { email } } }';
    const id = toGlobalId('User', user.id);
    expect((await graphqlData(testApp, user.token, query, { id })).node).toEqual({
      __typename: 'User',
      id,
      email: user.email,
    });
    expect((await graphqlData(testApp, ann.token, query, { id })).node).toBeNull();
  });

  it('updateProfile answers the user, and a refusal as userErrors naming the input field', async () => {
    const user = await signUp(testApp, 'Profiled');
    const UPDATE = `mutation($input: UpdateProfileInput!) { updateProfile(input: $input) { user { ${USER_FIELDS} } userErrors { field code message } } }`;
    const { updateProfile } = await graphqlData(testApp, user.token, UPDATE, {
      input: {
        name: 'Pro Filed',
        baseCurrency: 'EUR',
        timezone: 'Europe/Berlin',
        weekStart: 'SUNDAY',
        theme: 'DARK',
        language: 'DE',
      },
    });
    expect(updateProfile).toEqual({
      user: {
        id: toGlobalId('User', user.id),
        legacyId: user.id,
        email: user.email,
        name: 'Pro Filed',
        baseCurrency: 'EUR',
        timezone: 'Europe/Berlin',
        weekStart: 'SUNDAY',
        theme: 'DARK',
        language: 'DE',
        createdAt: expect.any(String),
      },
      userErrors: [],
    });
    // Kept: the next read answers it, and an unknown day is refused by the schema.
    expect((await graphqlData(testApp, user.token, '{ me { weekStart theme language } }')).me).toEqual({
      weekStart: 'SUNDAY',
      theme: 'DARK',
      language: 'DE',
    });
    const unknownDay = await graphql(testApp, user.token, UPDATE, { input: { weekStart: 'FRIDAY' } });
    expect(unknownDay.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    const unknownLanguage = await graphql(testApp, user.token, UPDATE, { input: { language: 'IT' } });
    expect(unknownLanguage.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    const refused = await graphql(testApp, user.token, UPDATE, { input: { name: '' } });
    expect(refused.body.data.updateProfile).toEqual({
      user: null,
      userErrors: [{ field: ['input', 'name'], code: 'BAD_USER_INPUT', message: expect.any(String) }],
    });
  });

  it('updateExtensionSettings answers the settings, and a refusal as userErrors naming the input field', async () => {
    const user = await signUp(testApp, 'Extended');
    const UPDATE = `mutation($input: UpdateExtensionSettingsInput!) { updateExtensionSettings(input: $input) {
      extensionSettings { autoDetectSubscriptions browserNotifications notifyBefore } userErrors { field code message } } }`;
    const { updateExtensionSettings } = await graphqlData(testApp, user.token, UPDATE, {
      input: { browserNotifications: true, notifyBefore: 5 },
    });
    expect(updateExtensionSettings).toEqual({
      extensionSettings: { autoDetectSubscriptions: false, browserNotifications: true, notifyBefore: 5 },
      userErrors: [],
    });
    const refused = await graphql(testApp, user.token, UPDATE, { input: { notifyBefore: 1000 } });
    expect(refused.body.data.updateExtensionSettings).toEqual({
      extensionSettings: null,
      userErrors: [{ field: ['input', 'notifyBefore'], code: 'BAD_USER_INPUT', message: expect.any(String) }],
    });
    expect(refused.body.errors[0].extensions.errors).toEqual({ notify_before: [expect.any(String)] });
    const { extensionSettings } = await graphqlData(
      testApp,
      user.token,
      '{ extensionSettings { autoDetectSubscriptions browserNotifications notifyBefore } }',
    );
    expect(extensionSettings).toEqual(updateExtensionSettings.extensionSettings);
  });
});
