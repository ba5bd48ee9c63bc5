import { createLogger } from '../../src/platform/logger';
import { MINIMAL } from '../support/subscriptions';
import { graphqlData, type SignedUpUser, signUp, startTestApp, type TestApp } from '../support/test-app';
import { until } from '../support/wait';

/**
 * The request log (pino-http, one JSON line per request, written where the app's logger writes) keeps no
 * secret a URL carries, yet still shows which route was asked for. The app runs at the info level and its
 * lines are captured as the app writes them.
 */
interface LoggedRequest {
  msg: string;
  req: { id: string; method: string; url: string; query: Record<string, unknown>; params: Record<string, unknown> };
  res: { statusCode: number };
}

let testApp: TestApp;
const lines: string[] = [];
let ann: SignedUpUser;
let bob: SignedUpUser;

beforeAll(async () => {
  testApp = await startTestApp(
    {},
    { logger: createLogger({ logLevel: 'info' }, { write: (line: string) => void lines.push(line) }) },
  );
  [ann, bob] = await Promise.all([signUp(testApp, 'Ann'), signUp(testApp, 'Bob')]);
});
afterAll(() => testApp.close());

/** The request log's line of an answer (found by its request id, once written), and its raw text. */
async function loggedLine(answer: {
  headers: Record<string, string>;
}): Promise<{ entry: LoggedRequest; text: string }> {
  const id = answer.headers['x-request-id'];
  const find = () =>
    lines.find(
      (line) =>
        line.includes(id) && (JSON.parse(line) as Partial<LoggedRequest>).req?.id === id && line.includes('"res"'),
    );
  await until(() => find() !== undefined, `the request log's line of ${id}`);
  const text = find()!;
  return { entry: JSON.parse(text) as LoggedRequest, text };
}

/** Asserts the request's log line shows `url` and holds none of the secrets, whole or in part. */
async function expectLogged(
  answer: { status: number; headers: Record<string, string> },
  url: string,
  secrets: string[],
) {
  const { entry, text } = await loggedLine(answer);
  expect([entry.req.url, entry.res.statusCode]).toEqual([url, answer.status]);
  for (const secret of secrets) {
    expect(text).not.toContain(secret);
    // A part long enough to guess from (JSON escapes quotes, so the secret's own characters are searched).
    expect(text).not.toContain(secret.slice(6, 26));
  }
  return entry;
}

it('keeps a calendar feed token out of the log, however the feed path is asked for', async () => {
  const { createCalendarFeed } = await graphqlData<{ createCalendarFeed: { url: string } }>(
    testApp,
    ann.token,
    'mutation { createCalendarFeed(input: {name: "Payments"}) { url } }',
  );
  const token = /\/calendar\/(calf_[^/]+)\.ics$/.exec(createCalendarFeed.url)![1];

  const feed = await testApp.http.get(`/calendar/${token}.ics`);
  expect(feed.status).toBe(200);
  await expectLogged(feed, '/calendar/[redacted].ics', [token]);

  // Express routes paths whatever their case: the same feed.
  const cased = await testApp.http.get(`/CALENDAR/${token}.ics?x=1`);
  expect(cased.status).toBe(200);
  await expectLogged(cased, '/CALENDAR/[redacted].ics?x=1', [token]);
  // No route takes these, and their tokens are still secrets.
  const bare = await testApp.http.get(`/calendar/${token}`);
  expect(bare.status).toBe(404);
  await expectLogged(bare, '/calendar/[redacted]', [token]);
  const slashed = await testApp.http.get(`//calendar//${token}.ics/`);
  await expectLogged(slashed, '//calendar//[redacted].ics/', [token]);
});

it('keeps an inbound webhook token out of the log', async () => {
  const made = await graphqlData<{ createInboundWebhookToken: { token: string } }>(
    testApp,
    ann.token,
    'mutation { createInboundWebhookToken(input: {kind: CREATE}) { token } }',
  );
  const token = made.createInboundWebhookToken.token;
  const created = await testApp.http
    .post(`/webhook/user/data/${token}?note=1`)
    .set('content-type', 'application/json')
    .set('x-subledger-webhook-topic', 'subscription.created')
    .send(JSON.stringify({ ...MINIMAL, brand_id: 'Logged Webhook' }));
  expect(created.status).toBe(200);
  const entry = await expectLogged(created, '/webhook/user/data/[redacted]?note=1', [token]);
  expect(entry.req.query).toEqual({ note: '1' });
  // An unknown token, a GET no route takes: logged without them too.
  const unknown = await testApp.http
    .post(`/webhook/user/data/${token}x`)
    .set('content-type', 'application/json')
    .send('{}');
  expect(unknown.status).toBe(401);
  await expectLogged(unknown, '/webhook/user/data/[redacted]', [token]);
  const wrongMethod = await testApp.http.get(`/Webhook/User/Data/${token}`);
  expect(wrongMethod.status).toBe(404);
  await expectLogged(wrongMethod, '/Webhook/User/Data/[redacted]', [token]);
});

it('keeps a household invitation code and a password sent over GraphQL GET out of the log', async () => {
  const { addHouseholdMember } = await graphqlData<{ addHouseholdMember: { invitationCode: string } }>(
    testApp,
    ann.token,
    `mutation { createHousehold(input: {name: "Home"}) { household { id } } addHouseholdMember(input: {name: "Bob", email: "${bob.email}"}) { invitationCode } }`,
  );
  const code = addHouseholdMember.invitationCode;
  const join = 'mutation ($code: String!) { joinHousehold(input: {code: $code}) { household { id } } }';
  // Over GET, the document and its variables are in the URL: Apollo refuses a mutation there, after it is logged.
  const byVariables = await testApp.http
    .get('/graphql')
    .query({ query: join, variables: JSON.stringify({ code }) })
    .set('authorization', `Bearer ${bob.token}`)
    .set('apollo-require-preflight', 'true');
  expect(byVariables.status).toBeGreaterThanOrEqual(400);
  const entry = await expectLogged(byVariables, '/graphql?query=[redacted]&variables=[redacted]', [code]);
  expect(entry.req.query).toEqual({ query: '[redacted]', variables: '[redacted]' });
  const inline = await testApp.http
    .get('/graphql')
    .query({ query: `mutation { login(input: {email: "${ann.email}", password: "${ann.password}"}) { token } }` })
    .set('apollo-require-preflight', 'true');
  await expectLogged(inline, '/graphql?query=[redacted]', [ann.password]);
  // Joined the ordinary way (POST), the code is in the body, which is not logged.
  const joined = await testApp.http
    .post('/graphql')
    .set('authorization', `Bearer ${bob.token}`)
    .send({ query: join, variables: { code } });
  expect(joined.body.errors).toBeUndefined();
  expect(joined.body.data.joinHousehold.household.id).toEqual(expect.any(String));
  await expectLogged(joined, '/graphql', [code]);
});

it('keeps a token put in the query string out of the log, and the other parameters in it', async () => {
  const answer = await testApp.http.get(
    `/api/v1/auth/token?lang=en&access_token=${encodeURIComponent(ann.token)}&%74oken=${encodeURIComponent(ann.token)}`,
  );
  expect(answer.status).toBe(401);
  const entry = await expectLogged(answer, '/api/v1/auth/token?lang=en&access_token=[redacted]&%74oken=[redacted]', [
    ann.token.split('|')[1],
  ]);
  expect(entry.req.query).toEqual({ lang: 'en', access_token: '[redacted]', token: '[redacted]' });
  // The header the token belongs in is never logged.
  const proper = await testApp.http.get('/api/v1/auth/token').set('authorization', `Bearer ${ann.token}`);
  expect(proper.status).toBe(200);
  await expectLogged(proper, '/api/v1/auth/token', [ann.token.split('|')[1]]);
});
