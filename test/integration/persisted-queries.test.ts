import { createHash, randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

import { Redis } from 'ioredis';

import { loadRegisteredOperations } from '../../src/platform/graphql/persisted-queries';
import { dropRedisPrefix } from '../support/redis-keys';
import { graphqlData, signUp, startTestApp, type TestApp, uniqueEmail } from '../support/test-app';

/**
 * Automatic persisted queries (Apollo's protocol: an operation's SHA-256 alone, then with its text when not
 * found), and GRAPHQL_PERSISTED_ONLY=true, in which only the operations the build registered run
 * (dist/dashboard/persisted-operations.json, written by `npm run build` from the dashboard's operations).
 */
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const persisted = (hash: string) => ({ persistedQuery: { version: 1, sha256Hash: hash } });

/** The build's registered operations, by operation name. */
const manifest = JSON.parse(
  readFileSync(path.join(__dirname, '../../dist/dashboard/persisted-operations.json'), 'utf8'),
) as Record<string, string>;
const registered = new Map(
  Object.values(manifest).map((text) => [/^\s*(?:query|mutation)\s+(\w+)/.exec(text)![1], text]),
);
const operation = (name: string): string => {
  const text = registered.get(name);
  if (!text) throw new Error(`the dashboard has no operation ${name}`);
  return text;
};

function post(testApp: TestApp, token: string | null, body: Record<string, unknown>) {
  const request = testApp.http.post('/graphql').set('content-type', 'application/json');
  if (token) request.set('authorization', `Bearer ${token}`);
  return request.send(body);
}

/** A GET (queries only): Apollo's CSRF rule wants a header a plain link cannot send. */
function get(testApp: TestApp, token: string | null, params: Record<string, unknown>) {
  const query = Object.fromEntries(
    Object.entries(params).map(([name, value]) => [name, typeof value === 'string' ? value : JSON.stringify(value)]),
  );
  const request = testApp.http.get('/graphql').query(query).set('apollo-require-preflight', 'true');
  if (token) request.set('authorization', `Bearer ${token}`);
  return request;
}

const codeOf = (body: { errors?: Array<{ extensions?: { code?: string } }> }) => body.errors?.[0]?.extensions?.code;

it('the build registered every operation of the dashboard, under the SHA-256 of its exact text', () => {
  expect(registered.size).toBe(Object.keys(manifest).length);
  expect(registered.size).toBeGreaterThan(40);
  for (const [hash, text] of Object.entries(manifest)) expect(sha256(text)).toBe(hash);
  // The bundle sends each text as written (api.ts sends the constants unchanged): esbuild keeps it verbatim, in
  // main.js or in the chunk of the screen that sends it.
  const folder = path.join(__dirname, '../../dist/dashboard');
  const bundle = ['main.js', ...readdirSync(path.join(folder, 'chunks')).map((chunk) => `chunks/${chunk}`)]
    .map((file) => readFileSync(path.join(folder, file), 'utf8'))
    .join('\n');
  for (const text of Object.values(manifest))
    expect(bundle.includes(`\`${text}\``) || bundle.includes(JSON.stringify(text))).toBe(true);
});

describe('automatic persisted queries', () => {
  let testApp: TestApp;
  let token: string;
  beforeAll(async () => {
    testApp = await startTestApp();
    ({ token } = await signUp(testApp));
  });
  afterAll(() => testApp.close());

  it('asks for the text of an unknown hash, keeps it when sent with it, then runs it by hash alone', async () => {
    const query = `query Apq${randomBytes(4).toString('hex')} { me { email } }`;
    const hash = sha256(query);
    const unknown = await post(testApp, token, { extensions: persisted(hash) });
    expect(unknown.status).toBe(200);
    expect(codeOf(unknown.body)).toBe('PERSISTED_QUERY_NOT_FOUND');
    expect(unknown.body.data).toBeUndefined();

    const registering = await post(testApp, token, { query, extensions: persisted(hash) });
    expect(registering.status).toBe(200);
    expect(registering.body.errors).toBeUndefined();
    const me = registering.body.data.me as { email: string };
    expect(typeof me.email).toBe('string');

    const byHash = await post(testApp, token, { extensions: persisted(hash) });
    expect(byHash.status).toBe(200);
    expect(byHash.body).toEqual({ data: { me } });
  });

  it('runs a persisted query by hash in a GET', async () => {
    const query = `query ApqGet${randomBytes(4).toString('hex')}($days: Int!) { upcomingPayments(days: $days) { __typename } }`;
    const hash = sha256(query);
    expect(codeOf((await get(testApp, token, { extensions: persisted(hash), variables: { days: 7 } })).body)).toBe(
      'PERSISTED_QUERY_NOT_FOUND',
    );
    const registering = await get(testApp, token, { query, extensions: persisted(hash), variables: { days: 7 } });
    expect(registering.status).toBe(200);
    expect(registering.body).toEqual({ data: { upcomingPayments: [] } });
    const byHash = await get(testApp, token, { extensions: persisted(hash), variables: { days: 7 } });
    expect(byHash.status).toBe(200);
    expect(byHash.body).toEqual({ data: { upcomingPayments: [] } });
  });

  it('finds the build-registered operations by hash without their text being sent first', async () => {
    const text = operation('Profile');
    const byHash = await post(testApp, token, { extensions: persisted(sha256(text)) });
    expect(byHash.status).toBe(200);
    expect(byHash.body.errors).toBeUndefined();
    expect(byHash.body.data).toEqual((await post(testApp, token, { query: text })).body.data);
  });

  it('refuses a text that does not have the hash sent with it, and keeps nothing', async () => {
    const query = `query ApqWrong${randomBytes(4).toString('hex')} { me { email } }`;
    const wrongHash = sha256(`${query} `);
    const refused = await post(testApp, token, { query, extensions: persisted(wrongHash) });
    expect(refused.status).toBe(400);
    expect(refused.body.errors[0]).toEqual({
      message: 'provided sha does not match query',
      extensions: { code: 'BAD_REQUEST' },
    });
    expect(codeOf((await post(testApp, token, { extensions: persisted(wrongHash) })).body)).toBe(
      'PERSISTED_QUERY_NOT_FOUND',
    );
  });
});

describe('GRAPHQL_PERSISTED_ONLY=true', () => {
  let testApp: TestApp;
  let token: string;
  const statements: string[] = [];
  beforeAll(async () => {
    testApp = await startTestApp(
      { GRAPHQL_PERSISTED_ONLY: 'true' },
      { onQuery: (statement) => statements.push(statement) },
    );
    // The dashboard's own sign-up (test-app's signUp sends an operation of its own, which is not registered).
    const data = await graphqlData(testApp, null, operation('SignUp'), {
      input: { email: uniqueEmail(), password: 'correct horse battery', name: 'Persisted' },
    });
    token = /"token":"([^"]+)"/.exec(JSON.stringify(data))![1];
  });
  afterAll(() => testApp.close());

  it('runs a registered operation by its text and by its hash alone (POST and GET)', async () => {
    const text = operation('Profile');
    const byText = await post(testApp, token, { query: text });
    expect(byText.status).toBe(200);
    expect(byText.body.errors).toBeUndefined();
    expect(byText.body.data.me).toEqual(expect.objectContaining({ name: 'Persisted' }));
    const byHash = await post(testApp, token, { extensions: persisted(sha256(text)) });
    expect(byHash.status).toBe(200);
    expect(byHash.body).toEqual(byText.body);
    const byGet = await get(testApp, token, { extensions: persisted(sha256(text)) });
    expect(byGet.status).toBe(200);
    expect(byGet.body).toEqual(byText.body);
    // With its hash beside it: nothing is registered, the text is already.
    const both = await post(testApp, token, { query: text, extensions: persisted(sha256(text)) });
    expect(both.body).toEqual(byText.body);
  });

  it('refuses any other operation with PERSISTED_QUERY_NOT_REGISTERED and HTTP 400, and runs none of it', async () => {
    const other = 'query { me { email } }';
    const refusals = [
      await post(testApp, token, { query: other }),
      await get(testApp, token, { query: other }),
      // A registered text changed by a space is another text.
      await post(testApp, token, { query: `${operation('Profile')} ` }),
      await post(testApp, null, {
        query: 'mutation M($input: SignUpInput!) { signUp(input: $input) { token } }',
        variables: { input: { email: uniqueEmail(), password: 'correct horse battery', name: 'No' } },
      }),
      await post(testApp, token, { extensions: persisted(sha256(other)) }),
    ];
    for (const refused of refusals) {
      expect(refused.status).toBe(400);
      expect(refused.body.data).toBeUndefined();
      expect(refused.body.errors).toHaveLength(1);
      expect(refused.body.errors[0].extensions).toEqual({ code: 'PERSISTED_QUERY_NOT_REGISTERED' });
      expect(refused.body.errors[0].message).toMatch(/GRAPHQL_PERSISTED_ONLY/);
    }
  });

  it('refuses to register an operation sent with its hash (automatic persisted queries)', async () => {
    const query = `query Sneaky${randomBytes(4).toString('hex')} { me { email } }`;
    const registering = await post(testApp, token, { query, extensions: persisted(sha256(query)) });
    expect(registering.status).toBe(400);
    expect(registering.body.errors[0].extensions.code).toBe('PERSISTED_QUERY_NOT_REGISTERED');
    expect(registering.body.errors[0].message).toMatch(/may not register/);
    const byHash = await post(testApp, token, { extensions: persisted(sha256(query)) });
    expect(byHash.status).toBe(400);
    expect(byHash.body.errors[0].extensions.code).toBe('PERSISTED_QUERY_NOT_REGISTERED');
  });

  it('answers a registered query again from its kept answer, by text or by hash', async () => {
    const text = operation('UpcomingPayments');
    const variables = { days: 30 };
    const first = await post(testApp, token, { query: text, variables });
    expect(first.status).toBe(200);
    expect(first.body.errors).toBeUndefined();
    statements.length = 0;
    const again = await post(testApp, token, { query: text, variables });
    const byHash = await post(testApp, token, { extensions: persisted(sha256(text)), variables });
    const byGet = await get(testApp, token, { extensions: persisted(sha256(text)), variables });
    for (const answer of [again, byHash, byGet]) {
      expect(answer.status).toBe(200);
      expect(answer.text).toBe(first.text);
    }
    expect(statements.filter((statement) => statement.includes('"subscriptions"'))).toEqual([]);
  });

  it('refuses to start without the registered operations of a build', async () => {
    expect(() => loadRegisteredOperations(true, path.join(__dirname, 'no-such-manifest.json'))).toThrow(
      /GRAPHQL_PERSISTED_ONLY=true needs/,
    );
    expect(loadRegisteredOperations(false, path.join(__dirname, 'no-such-manifest.json')).size).toBe(0);
  });
});

const withRedis = process.env.REDIS_URL ? describe : describe.skip;

withRedis('automatic persisted queries across processes (Redis)', () => {
  const prefix = `subledger-test-apq-${randomBytes(4).toString('hex')}`;
  let one: TestApp;
  let two: TestApp;
  let token: string;
  beforeAll(async () => {
    one = await startTestApp({ REDIS_PREFIX: prefix });
    // Another API process on the same Redis prefix (and database), as WEB_CONCURRENCY or a second host runs it.
    two = await startTestApp({ REDIS_PREFIX: prefix }, {}, one.database);
    ({ token } = await signUp(one));
  });
  afterAll(async () => {
    await two.close();
    await one.close();
    await dropRedisPrefix(process.env.REDIS_URL, prefix);
  });

  it('finds in one process an operation registered through another', async () => {
    const query = `query Shared${randomBytes(4).toString('hex')} { me { email } }`;
    const hash = sha256(query);
    expect(codeOf((await post(two, token, { extensions: persisted(hash) })).body)).toBe('PERSISTED_QUERY_NOT_FOUND');
    const registering = await post(one, token, { query, extensions: persisted(hash) });
    expect(registering.body.errors).toBeUndefined();
    const redis = new Redis(process.env.REDIS_URL!);
    try {
      // Apollo writes it as the answer goes out.
      for (let tries = 0; (await redis.get(`${prefix}:graphql:apq:${hash}`)) === null; tries++) {
        if (tries > 50) throw new Error('the operation never reached Redis');
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(await redis.ttl(`${prefix}:graphql:apq:${hash}`)).toBeGreaterThan(0);
    } finally {
      redis.disconnect();
    }
    const byHash = await post(two, token, { extensions: persisted(hash) });
    expect(byHash.status).toBe(200);
    expect(byHash.body).toEqual(registering.body);
  });
});
