import { randomBytes } from 'node:crypto';

import supertest from 'supertest';

import { type AppOptions, createApp, type RunningApp } from '../../src/app';
import { type Config, loadConfig } from '../../src/platform/config';
import { provisionDatabase, type TestDatabase } from './database';
import { checkedAgent } from './openapi-check';
import { dropRedisPrefix } from './redis-keys';
import { until } from './wait';

export interface TestApp {
  app: RunningApp;
  config: Config;
  database: TestDatabase;
  baseUrl: string;
  http: ReturnType<typeof supertest>;
  close(): Promise<void>;
}

/**
 * The whole service on a free port, over its own database (and its own Redis key prefix when REDIS_URL is
 * set), driven over HTTP as a client would.
 */
export async function startTestApp(
  env: Record<string, string> = {},
  options: AppOptions = {},
  shared?: TestDatabase,
): Promise<TestApp> {
  // A shared database (an app restarted on the same data) is left for its owner to drop.
  const database = shared ?? (await provisionDatabase());
  const config = loadConfig({
    NODE_ENV: 'test',
    // TEST_LOG_LEVEL=error shows what the apps log (a masked internal error's cause) while a test is debugged.
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    REDIS_URL: process.env.REDIS_URL,
    REDIS_PREFIX: `subledger-test-${randomBytes(4).toString('hex')}`,
    // No test reaches the internet; rates.test.ts turns the refresh on against a local source.
    RATES_REFRESH: 'off',
    // Nor does it fetch vendors' logos; logos.test.ts fetches from a local vendor site.
    LOGO_FETCH: 'off',
    ...env,
    DATABASE_URL: database.url,
    DATABASE_POOL_SIZE: String(database.poolSize),
  });
  // Every GraphQL query of the tests runs through both executors, and any difference fails it.
  const app = await createApp(config, { graphqlExecution: 'compare', ...options });
  const port = await app.listen(0);
  const baseUrl = `http://127.0.0.1:${port}`;
  return {
    app,
    config,
    database,
    baseUrl,
    // Every answer a test receives on a documented path is checked against the API document first.
    http: checkedAgent(supertest(baseUrl)),
    async close() {
      await app.close();
      if (!shared) await database.drop();
      // A prefix the test chose is the test's to drop (it may start another app on it).
      if (!env.REDIS_PREFIX) await dropRedisPrefix(config.redisUrl, config.redisPrefix);
    },
  };
}

let counter = 0;

/** A unique e-mail for this test file's run. */
export function uniqueEmail(label = 'user'): string {
  return `${label}.${process.pid}.${++counter}.${randomBytes(3).toString('hex')}@example.com`;
}

export interface SignedUpUser {
  id: number;
  email: string;
  password: string;
  token: string;
}

/** Signs a new user up through GraphQL and returns their first token. */
export async function signUp(testApp: TestApp, name = 'Test User'): Promise<SignedUpUser> {
  const email = uniqueEmail();
  const password = 'correct horse battery';
  const response = await graphql(
    testApp,
    null,
    'mutation($input: SignUpInput!) { signUp(input: $input) { token user { legacyId } userErrors { message } } }',
    {
      input: { email, password, name },
    },
  );
  const payload = (response.body as { data: { signUp: { token: string; user: { legacyId: number } | null } } }).data
    .signUp;
  if (!payload.user) throw new Error(`signUp was refused: ${JSON.stringify(response.body)}`);
  return { id: payload.user.legacyId, email, password, token: payload.token };
}

export function graphql(testApp: TestApp, token: string | null, query: string, variables?: Record<string, unknown>) {
  const request = testApp.http.post('/graphql').set('content-type', 'application/json');
  if (token) request.set('authorization', `Bearer ${token}`);
  return request.send({ query, variables });
}

/**
 * A mutation of one input object (`createX(input: XInput!)`) as `token`: its payload, the `results` selected
 * and its userErrors.
 */
export async function mutation(
  testApp: TestApp,
  token: string,
  field: string,
  input: Record<string, unknown>,
  results: string,
): Promise<Record<string, any>> {
  const type = `${field[0].toUpperCase()}${field.slice(1)}Input`;
  const response = await graphql(
    testApp,
    token,
    `mutation($input: ${type}!) { ${field}(input: $input) { ${results} userErrors { field code message } } }`,
    { input },
  );
  return response.body.data[field] as Record<string, any>;
}

/** Runs SQL on the app's own database. */
export function sql<T>(testApp: TestApp, query: string, params: unknown[] = []): Promise<T[]> {
  return testApp.app.db.orm.em.getConnection().execute<T[]>(query, params);
}

/** The data of a GraphQL answer; its errors, if any, fail the test. */
export async function graphqlData<T = Record<string, any>>(
  testApp: TestApp,
  token: string | null,
  query: string,
  variables?: Record<string, unknown>,
): Promise<T> {
  const response = await graphql(testApp, token, query, variables);
  if (response.body.errors) throw new Error(JSON.stringify(response.body.errors));
  return response.body.data as T;
}

/**
 * Waits until no delivery is pending: every POST has been made and recorded, so counting what a receiver got
 * is final (an attempt is recorded after its POST; a finished delivery gets no further attempt).
 */
export async function deliveriesSettled(testApp: TestApp, timeoutMs = 30_000): Promise<void> {
  await until(
    async () =>
      (
        await sql<{ n: string }>(testApp, `select count(*) as "n" from "webhook_deliveries" where "status" = 'PENDING'`)
      )[0].n === '0',
    'every delivery to finish',
    timeoutMs,
  );
}
