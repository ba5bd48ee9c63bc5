import { graphql, graphqlData, type SignedUpUser, signUp, startTestApp, type TestApp } from '../support/test-app';

/**
 * Sign-ins are sessions: listed with the device (the User-Agent at sign-in), their last use and which is the
 * caller's own, and signed out one by one.
 */
let testApp: TestApp;
let user: SignedUpUser;
afterAll(() => testApp.close());
beforeAll(async () => {
  testApp = await startTestApp();
  user = await signUp(testApp, 'Session Holder');
});

const SESSIONS = '{ sessions { id legacyId device userAgent createdAt lastUsedAt current } }';
const REVOKE = `mutation($id: ID!) {
  revokeSession(input: { id: $id }) { session { id device current } userErrors { field code message } }
}`;
const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0)   Gecko/20100101\tFirefox/133.0';

async function loginFrom(userAgent: string | null): Promise<string> {
  const request = testApp.http.post('/api/v1/auth/login').field('email', user.email).field('password', user.password);
  if (userAgent !== null) request.set('user-agent', userAgent);
  else request.unset('user-agent');
  const response = await request;
  expect(response.status).toBe(201);
  return response.body.token;
}

const legacyIdOf = (token: string) => Number(token.split('|')[0]);

/** The payload of a revokeSession that may be refused (a refusal is in errors too, which graphqlData fails on). */
async function revokeSessionAs(token: string, id: string) {
  return (await graphql(testApp, token, REVOKE, { id })).body.data.revokeSession;
}

it('lists each sign-in with its device, newest first, marking the caller’s own', async () => {
  const rest = await loginFrom(FIREFOX);
  const bare = await loginFrom(null);
  const viaGraphql = await testApp.http
    .post('/graphql')
    .set('user-agent', 'subledger-cli/1.0')
    .send({
      query: 'mutation($input: LoginInput!) { login(input: $input) { token } }',
      variables: { input: { email: user.email, password: user.password } },
    });
  const graphqlToken = viaGraphql.body.data.login.token as string;

  const { sessions } = await graphqlData(testApp, rest, SESSIONS);
  expect(sessions.map((session: { legacyId: number }) => session.legacyId)).toEqual(
    [graphqlToken, bare, rest, user.token].map(legacyIdOf),
  );
  const [byGraphql, byBare, byRest] = sessions;
  expect(byRest).toEqual({
    id: expect.any(String),
    legacyId: legacyIdOf(rest),
    // A browser is named by its User-Agent; the header itself is kept beside, its whitespace collapsed.
    device: 'Firefox 133 on Linux',
    userAgent: 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0',
    createdAt: expect.any(String),
    lastUsedAt: expect.any(String),
    current: true,
  });
  expect(byBare).toMatchObject({ device: null, userAgent: null, lastUsedAt: null, current: false });
  // Not a browser: the User-Agent is the device's name.
  expect(byGraphql).toMatchObject({ device: 'subledger-cli/1.0', userAgent: 'subledger-cli/1.0', current: false });
  // Personal access tokens are not sessions.
  await graphqlData(
    testApp,
    rest,
    'mutation { createPersonalAccessToken(input: { name: "not a session", scope: READ_ONLY }) { token } }',
  );
  expect((await graphqlData(testApp, rest, SESSIONS)).sessions).toHaveLength(4);
});

it('signs a session out: its token gets 401 and it leaves the list', async () => {
  const doomed = await loginFrom('Doomed Browser');
  const keeper = await loginFrom('Keeper Browser');
  const doomedSession = (await graphqlData(testApp, keeper, SESSIONS)).sessions.find(
    (session: { legacyId: number }) => session.legacyId === legacyIdOf(doomed),
  );
  expect((await testApp.http.get('/api/v1/auth/token').set('authorization', `Bearer ${doomed}`)).status).toBe(200);

  const { revokeSession } = await graphqlData(testApp, keeper, REVOKE, { id: doomedSession.id });
  expect(revokeSession).toEqual({
    session: { id: doomedSession.id, device: 'Doomed Browser', current: false },
    userErrors: [],
  });
  expect((await testApp.http.get('/api/v1/auth/token').set('authorization', `Bearer ${doomed}`)).status).toBe(401);
  const left = (await graphqlData(testApp, keeper, SESSIONS)).sessions.map((session: { id: string }) => session.id);
  expect(left).not.toContain(doomedSession.id);
  expect((await revokeSessionAs(keeper, doomedSession.id)).userErrors).toEqual([
    { field: [], code: 'NOT_FOUND', message: expect.any(String) },
  ]);
});

it('signs out the caller’s own session too', async () => {
  const own = await loginFrom('Own Browser');
  const current = (await graphqlData(testApp, own, SESSIONS)).sessions.find(
    (session: { current: boolean }) => session.current,
  );
  expect(current.legacyId).toBe(legacyIdOf(own));
  expect((await graphqlData(testApp, own, REVOKE, { id: current.id })).revokeSession.session.current).toBe(true);
  expect((await graphql(testApp, own, SESSIONS)).body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
});

it("keeps another user's sessions and tokens out of sight and out of reach", async () => {
  const other = await signUp(testApp, 'Someone Else');
  const { sessions } = await graphqlData(testApp, user.token, SESSIONS);
  const { createPersonalAccessToken } = await graphqlData(
    testApp,
    user.token,
    'mutation { createPersonalAccessToken(input: { name: "mine", scope: READ_WRITE }) { personalAccessToken { id } } }',
  );
  const tokenId = createPersonalAccessToken.personalAccessToken.id;

  const theirs = await graphqlData(testApp, other.token, `${SESSIONS.slice(0, -1)} personalAccessTokens { id } }`);
  expect(theirs.sessions.map((session: { legacyId: number }) => session.legacyId)).toEqual([legacyIdOf(other.token)]);
  expect(theirs.personalAccessTokens).toEqual([]);
  const nodes = await graphqlData(testApp, other.token, 'query($ids: [ID!]!) { nodes(ids: $ids) { id } }', {
    ids: [sessions[0].id, tokenId],
  });
  expect(nodes.nodes).toEqual([null, null]);
  expect((await revokeSessionAs(other.token, sessions[0].id)).userErrors).toEqual([
    { field: [], code: 'NOT_FOUND', message: expect.any(String) },
  ]);
  const revokeToken = await graphql(
    testApp,
    other.token,
    'mutation($id: ID!) { revokePersonalAccessToken(input: { id: $id }) { personalAccessToken { id } userErrors { code } } }',
    { id: tokenId },
  );
  expect(revokeToken.body.data.revokePersonalAccessToken).toEqual({
    personalAccessToken: null,
    userErrors: [{ code: 'NOT_FOUND' }],
  });
  // A session's id is not a personal token's.
  expect((await revokeSessionAs(user.token, tokenId)).userErrors[0].code).toBe('NOT_FOUND');
  expect((await graphqlData(testApp, user.token, SESSIONS)).sessions).toEqual(sessions);
});
