import { Redis } from 'ioredis';

import { LOGIN_FAILURES_PER_EMAIL } from '../../src/auth/login-throttle';
import { expectErrorBody } from '../support/shapes';
import { graphql, type SignedUpUser, signUp, startTestApp, type TestApp } from '../support/test-app';

let testApp: TestApp;
let victim: SignedUpUser;

beforeAll(async () => {
  testApp = await startTestApp();
  victim = await signUp(testApp);
});
afterAll(() => testApp.close());

const login = (email: string, password: string) =>
  testApp.http.post('/api/v1/auth/login').field('email', email).field('password', password);

it('refuses the 30th failed login for one e-mail within a minute with 429 and Retry-After', async () => {
  expect(LOGIN_FAILURES_PER_EMAIL).toBe(29);
  for (let attempt = 1; attempt < 30; attempt++) {
    const response = await login(victim.email, `wrong ${attempt}`);
    expect(response.status).toBe(401);
  }
  const refused = await login(victim.email, 'wrong 30');
  expect(refused.status).toBe(429);
  expectErrorBody(refused.body);
  expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
  // Even the right password is refused while the e-mail is throttled.
  expect((await login(victim.email, victim.password)).status).toBe(429);
  // GraphQL's login too: a top-level RATE_LIMITED error (not a user error in the payload).
  const graphqlLogin = await graphql(
    testApp,
    null,
    'mutation($input: LoginInput!) { login(input: $input) { token userErrors { code } } }',
    { input: { email: victim.email, password: victim.password } },
  );
  expect(graphqlLogin.body.data).toBeNull();
  expect(graphqlLogin.body.errors).toEqual([
    expect.objectContaining({ path: ['login'], extensions: expect.objectContaining({ code: 'RATE_LIMITED' }) }),
  ]);
});

it('keeps other e-mails usable from the same address', async () => {
  const other = await signUp(testApp);
  expect((await login(other.email, other.password)).status).toBe(201);
});

it('keeps the count in the shared store (Redis when configured, else the database)', async () => {
  if (testApp.config.redisUrl) {
    const redis = new Redis(testApp.config.redisUrl);
    const keys = await redis.keys(`${testApp.config.redisPrefix}:login-email*`);
    redis.disconnect();
    expect(keys.length).toBeGreaterThan(0);
  } else {
    const rows = await testApp.app.db.orm.em
      .getConnection()
      .execute<{ points: number }[]>(`select "points" from "rate_limits" where "key" = ?`, [
        `login-email:${victim.email}`,
      ]);
    expect(rows[0].points).toBeGreaterThanOrEqual(29);
  }
});

it('counts every spelling of one address as one e-mail: spaces, case and Unicode normal form', async () => {
  const user = await signUp(testApp);
  const padded = `  ${user.email.toUpperCase()} `;
  expect((await login(padded, user.password)).status).toBe(201);
  for (let attempt = 1; attempt <= LOGIN_FAILURES_PER_EMAIL; attempt++) {
    const spelling = attempt % 2 === 0 ? user.email : ` ${user.email.toUpperCase()}`;
    expect((await login(spelling, `wrong ${attempt}`)).status).toBe(401);
  }
  for (const spelling of [user.email, padded, `${user.email}\t`])
    expect((await login(spelling, user.password)).status).toBe(429);
});

it('claims each attempt atomically: of 40 concurrent wrong passwords, exactly 29 are tried', async () => {
  // An app of its own, so this address's failures from the cases above do not count here.
  const fresh = await startTestApp();
  try {
    const user = await signUp(fresh);
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, index) =>
        fresh.http.post('/api/v1/auth/login').field('email', user.email).field('password', `wrong ${index}`),
      ),
    );
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 401)).toHaveLength(LOGIN_FAILURES_PER_EMAIL);
    expect(statuses.filter((status) => status === 429)).toHaveLength(40 - LOGIN_FAILURES_PER_EMAIL);
  } finally {
    await fresh.close();
  }
});
